// diffScans: identity-based diff of two scans, and the signals derived from it.
#include "engine/changes.h"

#include <map>
#include <set>

#include "engine/observation.h"

namespace lscope {
namespace {

std::string stateWord(const Element& e) {
  if (e.checked) return *e.checked ? "checked" : "unchecked";
  return "";
}

std::string shownValue(const Element& e) {
  if (!e.value) return "";
  return e.isSensitive() && !e.value->empty() ? kMask : *e.value;
}

// What changed about one element, e.g. `value "a" → "b"`, `checked`, `disabled`, `selected`.
std::vector<std::string> elementDelta(const Element& a, const Element& b) {
  std::vector<std::string> out;
  // The line starts with the old label (elementLabel), which shows the old text when it is short.
  if (a.text != b.text) {
    bool shown = !a.text.empty() && a.text.size() <= 80;  // elementLabel clips at 80 bytes
    out.push_back("text " + (shown ? std::string() : quote(a.text) + " ") + "→ " + quote(b.text));
  }
  if (shownValue(a) != shownValue(b)) out.push_back("value " + quote(shownValue(b)));
  if (stateWord(a) != stateWord(b)) out.push_back(stateWord(b));
  // A tab opened, a menu or accordion expanded (scanner-protocol §4.3's modifiers, with these two):
  // the modifier, then the words for it coming and going.
  static const char* const kStates[][3] = {{"selected", "selected", "not selected"},
                                           {"expanded", "expanded", "collapsed"}};
  for (const auto& s : kStates) {
    if (a.hasModifier(s[0]) != b.hasModifier(s[0])) out.push_back(b.hasModifier(s[0]) ? s[1] : s[2]);
  }
  if (a.enabled != b.enabled) out.push_back(b.enabled ? "enabled" : "disabled");
  if (a.visible != b.visible) out.push_back(b.visible ? "shown" : "hidden");
  return out;
}

void addCapped(std::vector<std::string>& lines, const std::vector<std::string>& more, size_t max,
               const std::string& what) {
  for (size_t i = 0; i < more.size() && i < max; ++i) lines.push_back(more[i]);
  if (more.size() > max) {
    lines.push_back("… " + std::to_string(more.size() - max) + " more " + what);
  }
}

bool isResultLike(const Element& e) {
  return e.type == "link" || e.type == "button" || e.type == "row" || e.type == "item";
}

}  // namespace

bool ChangeReport::has(const std::string& signal) const {
  for (const auto& s : signals) {
    if (s.name == signal) return true;
  }
  return false;
}

nlohmann::json ChangeReport::toJson() const {
  nlohmann::json sig = nlohmann::json::array();
  for (const auto& s : signals) {
    nlohmann::json j = {{"signal", s.name}};
    if (!s.detail.empty()) j["detail"] = s.detail;
    sig.push_back(j);
  }
  return {{"lines", lines}, {"signals", sig}, {"navigated", navigated},
          {"added", added}, {"removed", removed}, {"changed", changed}};
}

ChangeReport diffScans(const PageScan& before, const PageScan& after, const DiffContext& ctx) {
  ChangeReport r;
  r.url_changed = before.url != after.url;
  r.navigated = ctx.new_document;

  if (r.url_changed) {
    bool same_host = shortUrl(before.url).substr(0, shortUrl(before.url).find('/')) ==
                     shortUrl(after.url).substr(0, shortUrl(after.url).find('/'));
    r.lines.push_back("~ url: " + (same_host ? urlPath(before.url) : shortUrl(before.url)) + " → " +
                      (same_host ? urlPath(after.url) : shortUrl(after.url)));
  }
  if (before.title != after.title) {
    r.lines.push_back("~ title: " + quote(before.title) + " → " + quote(after.title));
  }

  // Patterns that appeared or went away.
  std::set<std::string> pb, pa;
  for (const auto& p : before.patterns) pb.insert(p.name);
  for (const auto& p : after.patterns) pa.insert(p.name);

  std::vector<std::string> added, removed, changed;
  int new_results = 0;
  if (r.navigated) {
    // A new document: ids start again, so the new page is listed instead of a diff.
    r.lines.push_back(pageLine(after));
    std::vector<std::string> lines;
    for (const auto& e : after.elements) lines.push_back(elementLine(e));
    addCapped(r.lines, lines, ctx.max_lines * 3, "(observe)");
    r.added = static_cast<int>(after.elements.size());
    r.removed = static_cast<int>(before.elements.size());
    for (const auto& e : after.elements) new_results += isResultLike(e) ? 1 : 0;
  } else {
    std::map<int, const Element*> old_by_id;
    for (const auto& e : before.elements) old_by_id[e.id] = &e;
    std::set<int> seen;
    for (const auto& e : after.elements) {
      auto it = old_by_id.find(e.id);
      if (it == old_by_id.end()) {
        added.push_back("+ " + elementLine(e));
        new_results += isResultLike(e) ? 1 : 0;
        continue;
      }
      seen.insert(e.id);
      auto delta = elementDelta(*it->second, e);
      if (delta.empty()) continue;
      std::string line = "~ [" + std::to_string(e.id) + "] " + elementLabel(*it->second) + ":";
      for (size_t i = 0; i < delta.size(); ++i) line += (i ? "," : "") + std::string(" ") + delta[i];
      changed.push_back(line);
    }
    for (const auto& e : before.elements) {
      if (!seen.count(e.id)) removed.push_back("- [" + std::to_string(e.id) + "] " + elementLabel(e));
    }
    r.added = static_cast<int>(added.size());
    r.removed = static_cast<int>(removed.size());
    r.changed = static_cast<int>(changed.size());
    addCapped(r.lines, removed, ctx.max_lines, "removed");
    addCapped(r.lines, added, ctx.max_lines, "added");
    addCapped(r.lines, changed, ctx.max_lines, "changed");
  }
  for (const auto& n : pb) {
    if (!pa.count(n)) r.lines.push_back("- " + n);
  }
  for (const auto& n : pa) {
    if (!pb.count(n)) r.lines.push_back("+ " + n);
  }

  // Messages (errors, confirmations) that are new since the last scan.
  std::set<std::string> old_messages;
  for (const auto& m : before.messages) old_messages.insert(m.key);
  for (const auto& m : after.messages) {
    if (old_messages.count(m.key) && !r.navigated) continue;
    r.lines.push_back("! " + m.kind + ": " + quote(m.text));
    if (m.kind == "error") r.new_errors.push_back(m.text);
  }

  // Signals (background-semantic-diff.md).
  if (r.navigated || r.url_changed) r.signals.push_back({"NavigationOccurred", after.url});
  bool form_gone = false;
  for (const char* f : {"login_form", "search_form"}) {
    if (pb.count(f) && !pa.count(f)) form_gone = true;
  }
  if (ctx.form_action && (r.navigated || r.url_changed || form_gone || !r.new_errors.empty() ||
                          r.added + r.removed + r.changed > 0)) {
    r.signals.push_back({"FormSubmitted", ""});
  }
  if (!r.new_errors.empty()) r.signals.push_back({"ErrorAppeared", r.new_errors.front()});
  bool query_page = after.url.find('?') != std::string::npos;
  if (r.new_errors.empty() && ((!r.navigated && new_results >= 3) ||
                               (r.navigated && query_page && new_results >= 3))) {
    r.signals.push_back({"ResultsAppeared", std::to_string(new_results)});
  }
  if (r.lines.empty()) r.signals.push_back({"NoOp", ""});
  return r;
}

}  // namespace lscope
