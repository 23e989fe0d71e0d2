// Parsing scanner scans into the engine's page model, and stable agent-facing ids.
#include "engine/page_model.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <utility>

namespace lscope {

bool Element::hasModifier(const std::string& m) const {
  return std::find(modifiers.begin(), modifiers.end(), m) != modifiers.end();
}

bool Element::isSensitive() const {
  if (role == "password") return true;
  if (attributes.value("type", "") == "password") return true;
  if (isSensitiveName(attributes.value("name", "")) || isSensitiveName(attributes.value("id", ""))) {
    return true;
  }
  if (isSensitiveName(attributes.value("autocomplete", ""))) return true;
  return isSensitiveName(text);
}

const Element* PageScan::byId(int id) const {
  for (const auto& e : elements) {
    if (e.id == id) return &e;
  }
  return nullptr;
}

const Pattern* PageScan::pattern(const std::string& name) const {
  for (const auto& p : patterns) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

const std::vector<std::string>& sensitiveFieldNames() {
  static const std::vector<std::string> kNames = {
      "password", "credit_card", "card_number", "cvv",   "ssn",
      "social_security", "secret", "token",     "api_key"};
  return kNames;
}

namespace {

// Lower-case letters and digits only: "Card-Number" -> "cardnumber".
std::string squash(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c)) out += static_cast<char>(std::tolower(c));
  }
  return out;
}

double num(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : 0.0;
}

std::string str(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The array (object) at `key`, or an empty one: by reference, never a copy (a scan of a
// 50,000-element page is tens of megabytes as json).
const json& arrayAt(const json& obj, const char* key) {
  static const json empty = json::array();
  auto it = obj.find(key);
  return it != obj.end() && it->is_array() ? *it : empty;
}
const json& objectAt(const json& obj, const char* key) {
  static const json empty = json::object();
  auto it = obj.find(key);
  return it != obj.end() && it->is_object() ? *it : empty;
}

}  // namespace

Rect rectFromJson(const json& r) { return Rect{num(r, "x"), num(r, "y"), num(r, "width"), num(r, "height")}; }

bool isSensitiveName(const std::string& name) {
  if (name.empty()) return false;
  std::string s = squash(name);
  for (const auto& n : sensitiveFieldNames()) {
    if (s.find(squash(n)) != std::string::npos) return true;
  }
  // Common spellings of the same fields.
  for (const char* extra : {"passwd", "passcode", "cardnum", "ccnum", "securitycode", "cvc", "pin"}) {
    if (s == extra || (std::string(extra).size() > 3 && s.find(extra) != std::string::npos)) return true;
  }
  return false;
}

namespace {

// The parsers proper. A field of the wrong type throws (json::value<T> of another type): the
// public functions below turn that into a malformed answer, never an exception (a hostile page
// shapes what a scanner in its own realm returns; fuzz/scan_fuzz.cpp).
bool parseElementFields(const json& e, const std::string& frame, Element& el) {
  if (!e.is_object() || !e.contains("id") || !e["id"].is_number_integer()) return false;
  el.id = el.scanner_id = e["id"].get<int>();
  el.frame = frame;
  el.frame_label = str(e, "frame");
  el.type = str(e, "type");
  el.role = str(e, "role");
  el.tag = str(e, "tag");
  el.text = str(e, "text");
  el.selector = str(e, "selector");
  el.xpath = str(e, "xpath");
  el.key = str(e, "key");
  if (el.key.empty()) el.key = el.type + ":" + el.role + ":" + el.selector;
  el.form = str(e, "form");
  el.landmark = str(e, "landmark");
  el.rect = rectFromJson(objectAt(e, "rect"));
  const json& state = objectAt(e, "state");
  el.visible = state.value("visible", true);
  el.enabled = state.value("enabled", true);
  el.focused = state.value("focused", false);
  el.in_viewport = e.value("in_viewport", true);
  el.filters_form = e.value("filters_form", false);
  el.context = e.value("context", "");
  if (state.contains("value") && state["value"].is_string()) el.value = state["value"].get<std::string>();
  if (state.contains("checked") && state["checked"].is_boolean()) el.checked = state["checked"].get<bool>();
  for (const auto& m : arrayAt(e, "modifiers")) {
    if (m.is_string()) el.modifiers.push_back(m.get<std::string>());
  }
  for (const auto& o : arrayAt(e, "options")) {
    if (o.is_string()) el.options.push_back(o.get<std::string>());
  }
  for (const auto& a : arrayAt(e, "aliases")) {
    if (a.is_string() && !a.get<std::string>().empty()) el.aliases.push_back(a.get<std::string>());
  }
  if (e.contains("attributes") && e["attributes"].is_object()) el.attributes = e["attributes"];
  return true;
}

Result<PageScan> parseScanFields(const json& data, const std::string& frame) {
  if (!data.is_object()) return Status(codes::kScriptError, "scan returned no data");
  PageScan scan;
  const json page = data.value("page", json::object());
  scan.url = str(page, "url");
  scan.title = str(page, "title");
  scan.ready_state = str(page, "ready_state");
  scan.document = str(page, "document");
  scan.submits = static_cast<int>(num(page, "submits"));
  scan.last_submit = str(page, "last_submit");
  const json vp = page.value("viewport", json::object());
  scan.viewport_width = num(vp, "width");
  scan.viewport_height = num(vp, "height");
  const json sc = page.value("scroll", json::object());
  scan.scroll_x = num(sc, "x");
  scan.scroll_y = num(sc, "y");
  scan.scroll_max_x = num(sc, "max_x");
  scan.scroll_max_y = num(sc, "max_y");

  for (const auto& e : arrayAt(data, "elements")) {
    Element el;
    if (parseElement(e, frame, el)) scan.elements.push_back(std::move(el));
  }

  for (const auto& p : arrayAt(data, "patterns")) {
    if (!p.is_object()) continue;
    Pattern pat;
    pat.name = str(p, "name");
    pat.container = str(p, "container");
    pat.frame = frame;
    for (auto it = p.begin(); it != p.end(); ++it) {
      if (it.key() == "name" || it.key() == "container") continue;
      if (it->is_number_integer()) {
        pat.fields[it.key()] = it->get<int>();
      } else if (it->is_array()) {
        std::vector<int> ids;
        for (const auto& v : *it) {
          if (v.is_number_integer()) ids.push_back(v.get<int>());
        }
        pat.lists[it.key()] = ids;
      } else if (it->is_string()) {
        pat.texts[it.key()] = it->get<std::string>();
      }
    }
    if (!pat.name.empty()) scan.patterns.push_back(std::move(pat));
  }

  for (const auto& f : arrayAt(data, "frames")) {
    if (!f.is_object()) continue;
    scan.frames.push_back({str(f, "selector"), str(f, "src"), f.value("cross_origin", false)});
  }

  for (const auto& m : arrayAt(data, "messages")) {
    if (!m.is_object() || str(m, "text").empty()) continue;
    PageMessage msg{str(m, "kind"), str(m, "text"), str(m, "key")};
    if (msg.kind.empty()) msg.kind = "info";
    if (msg.key.empty()) msg.key = msg.kind + ":" + msg.text;
    scan.messages.push_back(std::move(msg));
  }

  const json stats = data.value("stats", json::object());
  scan.total_scanned = static_cast<int>(num(stats, "total_scanned"));
  scan.interactive = static_cast<int>(num(stats, "interactive"));
  scan.truncated = stats.value("truncated", false);
  scan.scan_ms = num(stats, "scan_ms");
  scan.available = stats.contains("visible") ? static_cast<int>(num(stats, "visible"))
                                              : static_cast<int>(scan.elements.size());
  int returned = static_cast<int>(scan.elements.size());
  scan.interactive = std::max(scan.interactive, returned);
  scan.available = std::max(scan.available, returned);
  return scan;
}

}  // namespace

bool parseElement(const json& e, const std::string& frame, Element& el) {
  try {
    return parseElementFields(e, frame, el);
  } catch (const json::exception&) {
    return false;
  }
}

Result<PageScan> parseScan(const json& data, const std::string& frame) {
  try {
    return parseScanFields(data, frame);
  } catch (const json::exception& e) {
    return Status(codes::kScriptError, std::string("the scanner's answer is malformed: ") + e.what(),
                  "scan again; a page that replaces the builtins the scanner uses can cause this");
  }
}

int IdAllocator::idFor(const Element& e) {
  std::string key = e.frame + "|" + e.key;
  auto it = by_key_.find(key);
  if (it != by_key_.end()) return it->second;
  int id = next_++;
  by_key_.emplace(key, id);
  return id;
}

void IdAllocator::reset() {
  by_key_.clear();
  next_ = 1;
}

void IdAllocator::assign(PageScan& scan, const PageScan* previous) {
  std::map<std::pair<std::string, int>, int> remap;  // (frame, scanner id) -> agent id
  // Elements of the previous scan whose key is absent now, by frame|type|selector.
  std::map<std::string, int> vanished;
  if (previous) {
    std::set<std::string> now;
    for (const auto& e : scan.elements) now.insert(e.frame + "|" + e.key);
    for (const auto& e : previous->elements) {
      if (!now.count(e.frame + "|" + e.key)) vanished[e.frame + "|" + e.type + "|" + e.selector] = e.id;
    }
  }
  // One such pair is a control that changed its name; several are a list that shows other
  // entries in the same places (a long list scrolled, a table's next page): those are new.
  int pairs = 0;
  for (const auto& e : scan.elements) {
    if (!e.selector.empty() && !by_key_.count(e.frame + "|" + e.key) &&
        vanished.count(e.frame + "|" + e.type + "|" + e.selector)) {
      ++pairs;
    }
  }
  if (pairs > 1) vanished.clear();
  for (auto& e : scan.elements) {
    std::string key = e.frame + "|" + e.key;
    auto it = by_key_.find(key);
    int id;
    if (it != by_key_.end()) {
      id = it->second;
    } else if (auto v = vanished.find(e.frame + "|" + e.type + "|" + e.selector);
               v != vanished.end() && !e.selector.empty()) {
      id = v->second;
      vanished.erase(v);
      by_key_[key] = id;
    } else {
      id = next_++;
      by_key_.emplace(key, id);
    }
    remap[{e.frame, e.scanner_id}] = id;
    e.id = id;
  }
  // Scanner ids count per frame: a pattern's members are elements of the frame it was found in.
  for (auto& p : scan.patterns) {
    auto mapId = [&](int scanner_id) {
      auto it = remap.find({p.frame, scanner_id});
      return it == remap.end() ? 0 : it->second;
    };
    for (auto& [name, id] : p.fields) id = mapId(id);
    for (auto& [name, ids] : p.lists) {
      for (auto& id : ids) id = mapId(id);
    }
  }
}

}  // namespace lscope
