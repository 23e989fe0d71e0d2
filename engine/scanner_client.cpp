// Typed scanner protocol calls (scanner-protocol.md §3); errors translated once, in call().
#include "engine/scanner_client.h"

#include <chrono>

#include <spdlog/spdlog.h>

namespace lscope {

std::string scannerErrorHint(const std::string& code) {
  // §2.3 "Recovery Strategy", said as what the agent can do.
  if (code == codes::kElementStale || code == codes::kElementNotFound) return "run observe to refresh ids";
  if (code == codes::kElementNotVisible) return "scroll to it, or wait visible";
  if (code == codes::kElementDisabled) return "wait enabled, or fill the fields it depends on";
  if (code == codes::kElementNotInteractable) return "dismiss_popups, or retry with --force";
  if (code == codes::kSelectorInvalid) return "fix the selector";
  return "";
}

Result<json> ScannerClient::call(json command, const std::string& frame) const {
  const auto t0 = Clock::now();
  auto reply = transport_(command, frame);
  if (spdlog::should_log(spdlog::level::trace)) {
    spdlog::trace("scanner {} {} ms", command.value("cmd", ""),
                  std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - t0).count() / 1000.0);
  }
  if (!reply) return reply.status();
  if (!reply->value("ok", false)) {
    std::string code = reply->value("code", std::string(codes::kScriptError));
    return Status(code, reply->value("error", std::string("scanner error")), scannerErrorHint(code));
  }
  return reply->value("data", json::object());
}

Result<json> ScannerClient::scan(const ScanRequest& r, const std::string& frame) const {
  // §3.1: max_elements bounds what is returned; the engine asks for every element.
  json cmd = {{"cmd", "scan"}, {"max_elements", r.max_elements > 0 ? r.max_elements : 1000000}};
  if (r.detail_max > 0) cmd["detail_max"] = r.detail_max;
  if (r.include_hidden) cmd["include_hidden"] = true;
  if (r.viewport_only) cmd["viewport_only"] = true;
  if (!r.near.empty()) cmd["near"] = r.near;
  if (!r.within.empty()) cmd["within"] = r.within;
  if (r.pattern_rules.is_array() && !r.pattern_rules.empty()) cmd["pattern_rules"] = r.pattern_rules;
  return call(std::move(cmd), frame);
}

Result<Point> ScannerClient::point(int id, const std::string& frame, const std::string& check, bool force,
                                   bool stable, bool guard, bool watch, bool focus_quiet,
                                   std::optional<Point> offset, const std::string& reads) const {
  json cmd = {{"cmd", "point"}, {"id", id}, {"check", check}, {"force", force}};
  if (!reads.empty()) cmd["reads"] = reads;
  if (offset) cmd["offset"] = {{"x", offset->x}, {"y", offset->y}};
  if (stable) cmd["stable"] = true;
  if (guard) cmd["guard"] = true;
  if (watch) cmd["watch"] = true;
  if (focus_quiet) cmd["focus_quiet"] = true;
  auto r = call(std::move(cmd), frame);
  if (!r) return r.status();
  return Point{r->value("x", 0.0), r->value("y", 0.0), r->value("focused", false), r->value("end", false)};
}

std::optional<int> ScannerClient::watched(long long quiet_ms, int frames, long long timeout_ms, bool unheard_ok) const {
  json cmd = {{"cmd", "watched"}};
  if (quiet_ms > 0 && timeout_ms > 0) {
    cmd["quiet"] = quiet_ms;
    cmd["frames"] = frames;
    cmd["timeout"] = timeout_ms;
    if (unheard_ok) cmd["unheard_ok"] = true;
  }
  auto r = call(std::move(cmd));
  if (!r || !r->value("armed", false)) return std::nullopt;
  if (r->value("unheard", false)) spdlog::debug("settle: no listener of the page heard the action, no still window");
  int changes = r->value("changes", 1) + (r->value("timers", false) ? 1 : 0);
  if (const auto still = r->find("still"); still != r->end() && still->is_object()) {
    changes += still->value("changes", 1) + still->value("animated", 0);
  }
  return changes;
}

Result<ScannerClient::GuardResult> ScannerClient::guardResult(const std::string& frame) const {
  auto r = call({{"cmd", "guard_result"}}, frame);
  if (!r) return r.status();
  const auto text = [&](const char* key) {
    const json v = r->value(key, json());
    return v.is_string() ? v.get<std::string>() : std::string();
  };
  return GuardResult{text("intercepted"), text("slipped")};
}

Status ScannerClient::click(int id, const std::string& frame, MouseButton button, int count, bool force) const {
  static const char* kNames[] = {"left", "middle", "right"};
  return call({{"cmd", "click"}, {"id", id}, {"button", kNames[static_cast<int>(button)]},
               {"click_count", count}, {"force", force}},
              frame)
      .status();
}

Status ScannerClient::type(int id, const std::string& frame, const std::string& text, bool clear, bool paste) const {
  json cmd = {{"cmd", "type"}, {"id", id}, {"text", text}, {"clear", clear}};
  if (paste) cmd["paste"] = true;
  return call(cmd, frame).status();
}

Status ScannerClient::clear(int id, const std::string& frame) const {
  return call({{"cmd", "clear"}, {"id", id}}, frame).status();
}

Status ScannerClient::setChecked(int id, const std::string& frame, bool checked) const {
  return call({{"cmd", checked ? "check" : "uncheck"}, {"id", id}}, frame).status();
}

Status ScannerClient::focus(int id, const std::string& frame) const {
  return call({{"cmd", "focus"}, {"id", id}}, frame).status();
}

Result<ScannerClient::SectionFocus> ScannerClient::focusSection(int id, const std::string& frame, int section) const {
  auto r = call({{"cmd", "focus"}, {"id", id}, {"section", section}}, frame);
  if (!r) return r.status();
  return SectionFocus{r->value("focused", false), r->value("text", std::string())};
}

Result<std::string> ScannerClient::selectText(int id, const std::string& frame, const std::string& text) const {
  auto r = call({{"cmd", "select"}, {"id", id}, {"text", text}}, frame);
  if (!r) return r.status();
  return r->value("text", std::string());
}

Result<std::string> ScannerClient::selectValue(int id, const std::string& frame, const std::string& value) const {
  auto r = call({{"cmd", "select"}, {"id", id}, {"value", value}}, frame);
  if (!r) return r.status();
  return r->value("text", std::string());
}

Result<std::vector<std::string>> ScannerClient::selectList(int id, const std::string& frame, const std::string& by,
                                                          const json& list) const {
  auto r = call({{"cmd", "select"}, {"id", id}, {by, list}}, frame);
  if (!r) return r.status();
  std::vector<std::string> out;
  if (auto t = r->find("texts"); t != r->end() && t->is_array()) {
    for (const auto& v : *t) out.push_back(v.is_string() ? v.get<std::string>() : v.dump());
  } else {
    out.push_back(r->value("text", std::string()));
  }
  return out;
}

Result<std::string> ScannerClient::selectIndex(int id, const std::string& frame, int index) const {
  auto r = call({{"cmd", "select"}, {"id", id}, {"index", index}}, frame);
  if (!r) return r.status();
  return r->value("text", std::string());
}

Result<json> ScannerClient::getValue(int id, const std::string& frame) const {
  auto r = call({{"cmd", "get_value"}, {"id", id}}, frame);
  if (!r) return r.status();
  return r->value("value", json());
}

Result<long long> ScannerClient::valueLength(int id, const std::string& frame) const {
  auto r = call({{"cmd", "get_value"}, {"id", id}}, frame);
  if (!r) return r.status();
  if (r->contains("length") && (*r)["length"].is_number()) return (*r)["length"].get<long long>();
  const json& v = r->value("value", json());
  return v.is_string() ? utf16Length(v.get<std::string>()) : 0LL;
}

ScannerClient::KeysTarget ScannerClient::keysTarget(int id, const std::string& frame) const {
  KeysTarget out;
  auto r = call({{"cmd", "key_listeners"}, {"id", id}}, frame);
  if (!r) return out;
  if (r->contains("keys") && (*r)["keys"].is_boolean()) out.listened = (*r)["keys"].get<bool>();
  if (r->contains("editable") && (*r)["editable"].is_boolean()) out.takes_text = (*r)["editable"].get<bool>();
  if (r->contains("on_target") && (*r)["on_target"].is_boolean()) out.on_target = (*r)["on_target"].get<bool>();
  return out;
}

int ScannerClient::fileInputFor(int id, const std::string& frame) const {
  auto r = call({{"cmd", "file_input_for"}, {"id", id}}, frame);
  if (!r || !r->contains("id") || !(*r)["id"].is_number_integer()) return 0;
  return (*r)["id"].get<int>();
}

long long utf16Length(const std::string& utf8) {
  long long n = 0;
  for (unsigned char c : utf8) {
    if ((c & 0xC0) != 0x80) n += c >= 0xF0 ? 2 : 1;  // a lead byte; 4-byte ones are surrogate pairs
  }
  return n;
}

Result<std::string> ScannerClient::textOf(const std::string& selector) const {
  auto r = call({{"cmd", "get_text"}, {"selector", selector}});
  if (!r) return r.status();
  return r->value("text", std::string());
}

Result<std::string> ScannerClient::textOfElement(int id, const std::string& frame) const {
  auto r = call({{"cmd", "get_text"}, {"id", id}}, frame);
  if (!r) return r.status();
  return r->value("text", std::string());
}

Result<json> ScannerClient::exists(const std::string& selector) const {
  return call({{"cmd", "exists"}, {"selector", selector}});
}

Result<ScannerClient::QueryResult> ScannerClient::query(const std::string& selector, bool xpath,
                                                        const std::string& frame) const {
  auto r = call({{"cmd", "query"}, {xpath ? "xpath" : "selector", selector}}, frame);
  if (!r) return r.status();
  QueryResult out;
  for (const auto& id : r->value("ids", json::array())) {
    if (id.is_number_integer()) out.ids.push_back(id.get<int>());
  }
  for (const auto& e : r->value("added", json::array())) out.added.push_back(e);
  return out;
}

Result<std::vector<TextMatchResult>> ScannerClient::findText(const std::string& text, const std::string& match,
                                                             int max, const std::string& frame) const {
  auto r = call({{"cmd", "find_text"}, {"text", text}, {"match", match}, {"max", max}}, frame);
  if (!r) return r.status();
  std::vector<TextMatchResult> out;
  for (const auto& m : r->value("matches", json::array())) {
    if (!m.is_object() || !m.contains("element")) continue;
    out.push_back({m["element"], m.value("via", std::string("self")), m.value("matched", std::string()),
                   m.value("text_rect", json())});
  }
  return out;
}

Result<json> ScannerClient::getSelector(int id, const std::string& frame) const {
  return call({{"cmd", "get_selector"}, {"id", id}}, frame);
}

Result<json> ScannerClient::scroll(const json& params, const std::string& frame) const {
  json cmd = params;
  cmd["cmd"] = "scroll";
  return call(std::move(cmd), frame);
}

Result<ScannerClient::Sought> ScannerClient::seek(const std::string& text, Millis timeout) const {
  auto r = call({{"cmd", "seek"}, {"text", text}, {"timeout_ms", timeout.count()}});
  if (!r) return r.status();
  Sought s;
  s.found = r->value("found", false);
  s.boxes = r->value("boxes", 0);
  s.timed_out = r->value("timed_out", false);
  s.steps = r->value("steps", 0);
  s.moved = r->value("moved", false);
  return s;
}

Result<ScannerClient::Revealing> ScannerClient::reveal(const std::string& text, const std::string& by,
                                                     bool hovered) const {
  json cmd = {{"cmd", "reveal"}, {"text", text}};
  if (!by.empty()) cmd["by"] = by;
  if (hovered) cmd["hovered"] = true;
  auto r = call(std::move(cmd));
  if (!r) return r.status();
  Revealing out;
  out.shown = r->value("shown", false);
  if (auto c = r->find("control"); c != r->end() && c->is_object()) out.control = *c;
  if (auto h = r->find("hover"); h != r->end() && h->is_object()) out.hover = *h;
  if (auto g = r->find("swipe"); g != r->end() && g->is_object()) out.swipe = *g;
  out.label = r->value("label", std::string());
  out.toward = r->value("toward", std::string());
  out.away = r->value("away", 0);
  return out;
}

Status ScannerClient::submit(std::optional<int> id, const std::string& frame) const {
  json cmd = {{"cmd", "submit"}};
  if (id) cmd["id"] = *id;
  auto r = call(std::move(cmd), frame);
  if (!r) return r.status();
  if (!r->value("submitted", true)) {
    std::string why;
    for (const auto& f : r->value("invalid", json::array())) {
      why += (why.empty() ? "" : "; ") + f.value("message", std::string("invalid"));
    }
    return Status(codes::kVerificationFailed, "the browser blocked the submit: " + why,
                  "fill the fields it names, then submit again");
  }
  return Status::ok();
}

Result<ScannerClient::WaitOutcome> ScannerClient::waitFor(const std::string& condition, const WaitTarget& target,
                                                          long long timeout_ms, const std::string& frame) const {
  json cmd = {{"cmd", "wait_for"}, {"condition", condition}, {"timeout", std::max(0LL, timeout_ms)}};
  if (target.id) cmd["id"] = *target.id;
  if (!target.selector.empty()) cmd["selector"] = target.selector;
  if (!target.xpath.empty()) cmd["xpath"] = target.xpath;
  if (!target.text.empty()) cmd["text"] = target.text;
  auto r = call(std::move(cmd), frame);
  if (!r) {
    if (r.status().code() != codes::kTimeout) return r.status();
    // "wait_for visible text "X" timed out after 0 ms: no element matches; increase ..."
    std::string m = r.status().message();
    auto colon = m.find(": ");
    std::string detail = colon == std::string::npos ? "" : m.substr(colon + 2);
    auto semi = detail.find(';');
    return WaitOutcome{false, semi == std::string::npos ? detail : detail.substr(0, semi)};
  }
  return WaitOutcome{r->value("met", false), ""};
}

Result<bool> ScannerClient::waitChange(long long timeout_ms) const {
  auto r = call({{"cmd", "wait_change"}, {"timeout", std::max(0LL, timeout_ms)}});
  if (!r) return r.status();
  return r->value("changed", false);
}

bool ScannerClient::waitTimers(long long timeout_ms) const {
  if (timeout_ms <= 0) return false;
  auto r = call({{"cmd", "wait_timers"}, {"timeout", timeout_ms}});  // failure: no wait
  return r && r->value("settled", json(nullptr)) == json(true) && r->value("done", false);
}

void ScannerClient::waitAnimations(long long timeout_ms) const {
  if (timeout_ms > 0) call({{"cmd", "wait_animations"}, {"timeout", timeout_ms}});
}

ScannerClient::Quiet ScannerClient::waitQuiet(long long quiet_ms, long long timeout_ms, bool animations,
                                              std::optional<DoneSpell> done) const {
  if (timeout_ms <= 0) return {};
  json cmd = {{"cmd", "wait_quiet"}, {"quiet", quiet_ms}, {"timeout", timeout_ms}};
  if (animations) cmd["animations"] = true;
  if (done) {
    cmd["done_quiet"] = done->quiet_ms;
    cmd["done_frames"] = done->frames;
  }
  auto r = call(std::move(cmd));
  if (!r) return {};
  return {r->value("settled", false), r->value("changes", 1) + r->value("animated", 0), r->value("done", false)};
}

ScannerClient::Upgrades ScannerClient::waitUpgrades(long long timeout_ms, long long patience_ms, int frames,
                                                    bool final) const {
  if (timeout_ms <= 0) return {};
  auto r = call({{"cmd", "wait_upgrades"},
                 {"timeout", timeout_ms},
                 {"patience", patience_ms},
                 {"frames", frames},
                 {"final", final}});
  if (!r) return {};
  return {r->value("settled", true), r->value("progress", false)};
}

Result<json> ScannerClient::execute(const std::string& script, const json& args) const {
  auto r = call({{"cmd", "execute"}, {"script", script}, {"args", args}});
  if (!r) return r.status();
  return r->value("value", json());
}

}  // namespace lscope
