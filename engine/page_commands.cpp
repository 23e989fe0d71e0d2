// Page commands: every action scans before and after, so its response carries the change report
// (intent-language.md "Change Notation") and the agent rarely needs to observe again. The work
// itself is the Page's: these functions read arguments and format responses.
#include "engine/page_commands.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <sstream>

#include <spdlog/spdlog.h>

#include "engine/extract.h"
#include "engine/observation.h"
#include "engine/waits.h"

namespace lscope {
namespace {

constexpr size_t kTextMax = 6000;  // characters returned by `text`
// Characters of element lines a default observation lists (about 1,200 o200k tokens; bench/).
constexpr size_t kObserveChars = 3000;

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

json elementJson(const Element& e) {
  json j = {{"id", e.id}, {"type", e.type}, {"role", e.role}, {"text", e.text}};
  if (!e.selector.empty()) j["selector"] = e.selector;
  if (e.isSensitive()) j["sensitive"] = true;  // what was typed there is masked (§13.1)
  return j;
}

// The auto-wait of an action: --timeout, else 5 s (issue 12 item 2).
ActOptions actOptions(const Command& c) {
  ActOptions o;
  if (c.args.contains("timeout") && c.args["timeout"].is_number()) o.timeout = o.seek = Millis(c.args["timeout"].get<long long>());
  o.force = c.args.value("force", false);
  return o;
}

// Of matches that read the same, `select` takes one that offers options: a grid's "Country"
// select, not the sortable "Country" header above it (a slider takes a value too).
bool offersOptions(const Element& e) {
  return e.type == "select" || e.tag == "select" || e.type == "slider" ||
         e.attributes.value("role", "") == "combobox";
}

// An action on the command's target: auto-wait, act, then the change report.
Response targetAction(CommandEnv& env, const Command& c, const std::string& verb,
                      const std::function<Result<std::string>(const Element&)>& act) {
  Page& page = env.page;
  json target_json;
  Response r = page.actAndReport(c.name, [&]() -> Result<std::string> {
    ActOptions o = actOptions(c);
    if (verb == "type") {
      o.accepts = Page::typable;
      o.accepts_what = "takes text";
    } else if (verb == "select") {
      o.accepts = offersOptions;
      o.accepts_what = "offers options";
      o.accepts_same_text = true;
    }
    auto done = page.perform(*c.target, act, o);
    if (!done) return done.status();
    target_json = elementJson(done->element);
    std::string how = done->how.empty() ? "" : " (" + done->how + ")";
    std::string first;
    for (const auto& cleared : done->cleared) first += " (" + cleared + ")";
    return describe(done->element) + how + first + done->detail;
  });
  if (r.ok()) r.data["target"] = target_json;
  return r;
}

Response observationResponse(CommandEnv& env, const std::string& command, const PageScan& page,
                             const ObserveFormat& f) {
  Response r = okResponse(command, command == "goto" ? shortUrl(page.url) : "");
  r.body = formatObservation(page, f);
  for (auto& l : patternLines(page)) r.add("patterns", l);
  if (command == "observe") {
    for (const auto& m : page.messages) r.add("messages", m.kind + ": " + quote(m.text));
  }
  if (env.availability) env.availability(page, r);
  r.data["url"] = page.url;
  r.data["title"] = page.title;
  return r;
}

// --- navigation ----------------------------------------------------------------------------

Response cmdGoto(CommandEnv& env, const Command& c) {
  Page& page = env.page;
  std::string url = c.args.value("url", "");
  auto b = page.backend();
  if (!b) return errorResponse("goto", b.status());
  if (!url.empty() && (url[0] == '/' || url[0] == '?' || url[0] == '#')) {
    auto here = (*b)->currentUrl(page.deadline);
    if (here) url = resolveUrl(*here, url);
  }
  url = normalizeUrl(url);
  page.call.report(1, 3, "loading " + url);
  Status nav = page.navigate(url);
  if (!nav && nav.code() != codes::kTimeout) {
    page.dropBackendIfDead(nav);
    return errorResponse("goto", nav);
  }
  page.call.report(2, 3, "scanning");
  if (nav) {
    page.settleComponents();
    page.settleAnimations();
  }
  auto scanned = page.scan();
  if (!scanned) return errorResponse("goto", scanned.status());
  if (nav) {
    // (commands.cpp: goto loads the URL "and observes it": the page a person would see.)
    // Every control there, none shown: the page hides itself until it has drawn (Stencil's
    // components until hydrated, an app behind v-cloak). A person sees a blank page and waits.
    // At most 3 s: a page whose controls are all hidden for good (a closed menu on a page of
    // text) costs its goto that much.
    for (Deadline cap = page.deadline.capped(Millis(3000));
         scanned->available == 0 && scanned->interactive > 0 && cap.remaining().count() > 0;) {
      spdlog::debug("goto: none of {} controls shown yet; waiting for the page to draw", scanned->interactive);
      if (!page.waitUntilDrawn(cap)) break;
      scanned = page.scan();
      if (!scanned) return errorResponse("goto", scanned.status());
    }
  }
  ObserveFormat f;
  f.max = env.observe_max;
  f.max_chars = kObserveChars;
  Response r = observationResponse(env, "goto", *scanned, f);
  if (!nav) r.add("warnings", nav.message());
  r.data["elements"] = static_cast<int>(scanned->elements.size());
  page.reportEvents(r);
  return r;
}

Response cmdHistory(CommandEnv& env, const Command& c) {
  Page& page = env.page;
  auto b = page.backend();
  if (!b) return errorResponse(c.name, b.status());
  return page.actAndReport(c.name, [&]() -> Result<std::string> {
    Status s = c.name == "back" ? (*b)->goBack(page.deadline)
               : c.name == "forward" ? (*b)->goForward(page.deadline)
                                     : (*b)->reload(page.deadline);
    if (!s && s.code() != codes::kTimeout) return s;
    return std::string();
  });
}

Response cmdUrl(CommandEnv& env, const Command&) {
  auto b = env.page.backend();
  if (!b) return errorResponse("url", b.status());
  auto url = (*b)->currentUrl(env.page.deadline);
  if (!url) return errorResponse("url", url.status());
  Response r = okResponse("url", *url);
  r.data["url"] = *url;
  return r;
}

// --- observation ---------------------------------------------------------------------------

Response cmdObserve(CommandEnv& env, const Command& c) {
  Page& page = env.page;
  ScanRequest req;
  req.include_hidden = c.args.value("hidden", false);
  req.near = c.args.value("near", "");
  req.within = c.args.value("within", "");
  req.viewport_only = c.args.value("viewport", false);
  bool filtered = req.include_hidden || !req.near.empty() || !req.within.empty() || req.viewport_only;
  auto scanned = page.scan(req, !filtered);
  if (!scanned) return errorResponse("observe", scanned.status());
  if (filtered) {
    // Filtered scans replace the scanner's element map: rescan so later ids resolve.
    auto full = page.scan();
    if (!full) return errorResponse("observe", full.status());
  }
  ObserveFormat f;
  f.full = c.args.value("full", false);
  f.max = static_cast<size_t>(c.args.value("max", static_cast<long long>(env.observe_max)));
  if (!c.args.contains("max")) f.max_chars = kObserveChars;  // --max n lists n, however long
  Response r = observationResponse(env, "observe", *scanned, f);
  json els = json::array();
  for (const auto& e : scanned->elements) els.push_back(elementJson(e));
  r.data["elements"] = els;
  page.reportEvents(r);
  return r;
}

Response cmdText(CommandEnv& env, const Command& c) {
  Page& page = env.page;
  Result<std::string> text = std::string();
  if (c.target && c.target->kind == TargetSpec::Kind::kCss && !c.target->anchor) {
    text = page.scanner().textOf(c.target->value);  // any element, not only interactive ones
  } else if (c.target) {
    auto where = page.locate(*c.target, page.deadline.capped(Millis(5000)));
    if (!where) return errorResponse("text", where.status());
    const Element& el = *where->res.element;
    text = page.scanner().textOfElement(el.scanner_id, el.frame);
  } else {
    text = page.scanner().textOf("body");
  }
  if (!text) return errorResponse("text", text.status());
  std::string shown = *text;
  size_t total = shown.size();
  if (shown.size() > kTextMax) {
    size_t cut = kTextMax;
    while (cut > 0 && (static_cast<unsigned char>(shown[cut]) & 0xC0) == 0x80) --cut;
    shown = shown.substr(0, cut) + "\n… " + std::to_string(total - cut) + " more characters (text <target>)";
  }
  Response r = okResponse("text");
  r.body = shown;
  r.data["text"] = *text;
  return r;
}

// extract (issue 13): the scanner reads; engine/extract.cpp formats. A target names the part
// of the page: css/xpath and plain text go to the scanner as they are (text: the element showing
// it), other targets are located first.
Response cmdExtract(CommandEnv& env, const Command& c) {
  Page& page = env.page;
  std::string kind = c.args.value("kind", "");
  json cmd = {{"cmd", "extract"}, {"kind", kind}};
  std::string again = "extract " + kind;
  for (const char* key : {"max", "table"}) {
    if (!c.args.contains(key)) continue;
    cmd[key] = c.args[key];
    again += std::string(" --") + key + " " + c.args[key].dump();
  }
  if (c.args.contains("offset")) cmd["offset"] = c.args["offset"];
  std::string frame;
  if (c.target) {
    const TargetSpec& t = *c.target;
    again += (kind == "list" ? " " : " within ") + t.toString();
    bool plain = !t.anchor && t.nth == 0 && !t.fallback && t.alternatives.empty();
    using K = TargetSpec::Kind;
    if (plain && t.kind == K::kCss) {
      cmd["selector"] = t.value;
    } else if (plain && t.kind == K::kXpath) {
      cmd["xpath"] = t.value;
    } else if (plain && (t.kind == K::kText || t.kind == K::kWord) && t.match != TextMatch::kRegex) {
      cmd["text"] = t.value;
    } else {
      auto where = page.locate(t, page.deadline.capped(Millis(5000)));
      if (!where) return errorResponse("extract", where.status());
      cmd["id"] = where->res.element->scanner_id;
      frame = where->res.element->frame;
    }
  } else if (kind == "list") {
    return errorResponse("extract", Status(codes::kParameterMissing, "extract list needs a target: one item of the list, or the list itself",
                                           "extract list \"First result title\"   or   extract list css(.results)"));
  }
  auto data = page.scanner().call(cmd, frame);
  if (!data) return errorResponse("extract", data.status());
  ExtractFormat f;
  f.again = again;
  if (auto b = page.backend(); b) {
    if (auto url = (*b)->currentUrl(page.deadline); url) f.page_url = *url;
  }
  return extractResponse(*data, f);
}

Response cmdTitle(CommandEnv& env, const Command&) {
  auto v = env.page.scanner().execute("return document.title");
  if (!v) return errorResponse("title", v.status());
  std::string title = v->is_string() ? v->get<std::string>() : "";
  Response r = okResponse("title", quote(title));
  r.data["title"] = title;
  return r;
}

Response cmdScreenshot(CommandEnv& env, const Command&) {
  auto b = env.page.backend();
  if (!b) return errorResponse("screenshot", b.status());
  auto png = (*b)->screenshot(env.page.deadline);
  if (!png) return errorResponse("screenshot", png.status());
  Response r = okResponse("screenshot", "(image/png)");
  r.images.push_back(*png);
  r.data["bytes"] = png->size() * 3 / 4;
  return r;
}

// --- actions --------------------------------------------------------------------------------

Response cmdClick(CommandEnv& env, const Command& c) {
  ClickOptions o;
  o.button = c.args.value("right", false) ? MouseButton::kRight
             : c.args.value("middle", false) ? MouseButton::kMiddle : MouseButton::kLeft;
  o.count = c.args.value("double", false) ? 2 : 1;
  o.force = c.args.value("force", false);
  return targetAction(env, c, "click", [&](const Element& el) { return env.page.click(el, o); });
}

Response cmdType(CommandEnv& env, const Command& c) {
  Page& page = env.page;
  std::string text = c.args.value("text", "");
  bool enter = c.args.value("enter", false);
  bool append = c.args.value("append", false);
  return targetAction(env, c, "type", [&](const Element& el) -> Result<std::string> {
    auto note = page.type(el, text, !append);
    if (!note) return note.status();
    if (enter) LSCOPE_RETURN_IF_ERROR(page.press("Enter"));
    std::string shown = el.isSensitive() ? std::string(kMask) : text;
    return " " + quote(shown) + *note + (enter ? " + Enter" : "");
  });
}

// select with a list of options (a multiple select): a native <select multiple> takes them at
// once; a widget has each picked in turn, the target found anew for each (a pick may redraw it:
// a chip added, the placeholder gone), as `select` twice would.
Response selectEach(CommandEnv& env, const Command& c, const json& options) {
  Page& page = env.page;
  json target_json;
  Response r = page.actAndReport("select", [&]() -> Result<std::string> {
    std::vector<std::string> texts;
    std::string cleared;
    std::optional<Element> first;
    const auto joined = [&] {
      std::string s;
      for (const auto& t : texts) s += (s.empty() ? "" : ", ") + quote(t);
      return s;
    };
    bool whole = false;
    ActOptions o = actOptions(c);
    o.accepts = offersOptions;
    o.accepts_what = "offers options";
    o.accepts_same_text = true;
    for (size_t i = 0; i < options.size() && !whole; ++i) {
      auto done = page.perform(*c.target, [&](const Element& el) -> Result<std::string> {
        whole = i == 0 && Page::takesListAtOnce(el);
        if (!whole) return page.select(el, options[i]);
        auto all = page.selectList(el, options);
        if (!all) return all.status();
        texts = std::move(*all);
        return std::string();
      }, o);
      if (!done) {
        if (texts.empty()) return done.status();
        const Status& s = done.status();
        return Status(s.code(), s.message() + " (after choosing " + joined() + ")", s.hint());
      }
      if (!first) first = done->element;
      for (const auto& cl : done->cleared) cleared += " (" + cl + ")";
      if (!whole) texts.push_back(done->detail);
    }
    target_json = elementJson(*first);
    return describe(*first) + cleared + " ← " + joined();
  });
  if (r.ok()) r.data["target"] = target_json;
  return r;
}

Response cmdElement(CommandEnv& env, const Command& c) {
  Page& page = env.page;
  const std::string& n = c.name;
  json option;
  if (n == "select") {
    if (c.args.contains("index")) {
      option = c.args["index"];
    } else if (!c.args.contains("option") || (c.args["option"].is_string() && c.args["option"].get<std::string>().empty())) {
      return errorResponse("select", Status(codes::kParameterMissing, "select needs an option", "select <target> \"Option text\""));
    } else {
      option = c.args["option"];
    }
    if (option.is_array()) return selectEach(env, c, option);
  }
  return targetAction(env, c, n, [&](const Element& el) -> Result<std::string> {
    if (n == "hover") return page.hover(el);
    if (n == "check" || n == "uncheck") return page.setChecked(el, n == "check");
    if (n == "select") {
      auto chosen = page.select(el, option);
      if (!chosen) return chosen.status();
      return " ← " + quote(*chosen);
    }
    if (n == "focus") return page.focus(el);
    return page.clear(el);
  });
}

Response cmdDrag(CommandEnv& env, const Command& c) {
  const std::string written = c.args.value("to", "");
  auto to = parseTarget(written);
  if (!to) {
    return errorResponse("drag", Status(codes::kParameterInvalid, "'to': " + to.status().message(), to.status().hint()));
  }
  // Digits alone may be the text a person reads there (a day, a column "2025"), as for targets;
  // an id in brackets ([7], an MCP integer) is an id.
  to->id_or_text = to->kind == TargetSpec::Kind::kId && !to->anchor && to->nth == 0 && !written.empty() && written[0] != '[';
  Response r = targetAction(env, c, "drag", [&](const Element& el) {
    return env.page.drag(el, *to, env.page.deadline.capped(actOptions(c).timeout));
  });
  if (!r.ok()) return r;
  // The page settled: where the item is now is what the person dragging it looks at.
  json place;
  std::string outcome = env.page.dragOutcome(&place);
  if (!outcome.empty()) r.summary += " · " + outcome;
  r.data["place"] = place;
  return r;
}

Response cmdPress(CommandEnv& env, const Command& c) {
  std::string combo = c.args.value("key", "");
  return env.page.actAndReport("press", [&]() -> Result<std::string> {
    LSCOPE_RETURN_IF_ERROR(env.page.press(combo));
    return combo;
  });
}

Response cmdScroll(CommandEnv& env, const Command& c) {
  json params = json::object();
  std::string dir = c.args.value("direction", "down");
  params["direction"] = dir;
  if (c.args.contains("amount")) {
    std::string a = c.args["amount"].get<std::string>();
    if (lower(a) == "page") {
      params["amount"] = "page";
    } else {
      try {
        params["amount"] = std::stod(a);
      } catch (...) {
        return errorResponse("scroll", Status(codes::kParameterInvalid, "amount must be pixels or 'page'", "scroll down 500"));
      }
    }
  }
  if (c.args.contains("within")) params["container"] = c.args["within"];
  if (c.args.value("smooth", false)) params["behavior"] = "smooth";
  json where;
  Response r = env.page.actAndReport("scroll", [&]() -> Result<std::string> {
    auto s = env.page.scroll(params);
    if (!s) return s.status();
    where = *s;
    return dir + " (y " + std::to_string(static_cast<long long>(s->value("y", 0.0))) + " of " +
           std::to_string(static_cast<long long>(s->value("max_y", 0.0))) + ")";
  });
  if (r.ok()) r.data["scroll"] = where;
  return r;
}

Response cmdUpload(CommandEnv& env, const Command& c) {
  namespace fs = std::filesystem;
  std::vector<std::string> paths;
  std::string missing;
  std::stringstream ss(c.args.value("path", ""));
  for (std::string p; ss >> p;) {
    std::error_code ec;
    fs::path abs = fs::absolute(p, ec);
    if (ec || !fs::is_regular_file(abs, ec)) {
      missing += (missing.empty() ? "" : ", ") + p;
      continue;
    }
    paths.push_back(abs.string());
  }
  if (!missing.empty()) {
    return errorResponse("upload", Status(codes::kParameterInvalid, "no such file: " + missing,
                                          "give a path to an existing file (relative to the server's directory)"));
  }
  std::string names;
  for (const auto& p : paths) names += (names.empty() ? "" : ", ") + fs::path(p).filename().string();
  return targetAction(env, c, "upload", [&](const Element& el) -> Result<std::string> {
    LSCOPE_RETURN_IF_ERROR(env.page.upload(el, paths));
    return " ← " + names;
  });
}

Response cmdTabs(CommandEnv& env, const Command& c) {
  Page& page = env.page;
  auto b = page.backend();
  if (!b) return errorResponse("tabs", b.status());
  std::string action = c.args.value("action", "list");
  std::string arg = c.args.value("tab", "");
  auto byNumber = [&](const std::vector<TabInfo>& tabs) -> Result<std::string> {
    int n = 0;
    try {
      n = std::stoi(arg);
    } catch (...) {
    }
    for (const auto& t : tabs) {
      if (page.tabNumber(t.id) == n) return t.id;
    }
    return Status(codes::kTargetNotFound, "no tab " + (arg.empty() ? "given" : arg), "tabs to list them");
  };
  if (action == "new") {
    std::string url = arg.empty() ? "" : normalizeUrl(arg);
    auto id = page.newTab(url);
    if (!id) return errorResponse("tabs", id.status());
    page.tabNumber(*id);
  } else if (action == "switch" || action == "close") {
    auto tabs = (*b)->tabs(page.deadline);
    if (!tabs) return errorResponse("tabs", tabs.status());
    auto id = byNumber(*tabs);
    if (!id) return errorResponse("tabs", id.status());
    Status s = action == "switch" ? (*b)->switchTab(*id, page.deadline) : (*b)->closeTab(*id, page.deadline);
    if (!s) return errorResponse("tabs", s);
  }
  if (action != "list") page.state().forgetPage();  // another document is in front now
  auto tabs = (*b)->tabs(page.deadline);
  if (!tabs) return errorResponse("tabs", tabs.status());
  Response r = okResponse("tabs", action == "list" ? "" : action + (arg.empty() ? "" : " " + arg));
  json arr = json::array();
  std::vector<std::pair<int, std::string>> lines;
  for (const auto& t : *tabs) {
    int n = page.tabNumber(t.id);
    lines.push_back({n, "[" + std::to_string(n) + "] " + shortUrl(t.url) + " " + quote(t.title) +
                            (t.active ? " (active)" : "")});
    arr.push_back({{"tab", n}, {"url", t.url}, {"title", t.title}, {"active", t.active}});
  }
  std::sort(lines.begin(), lines.end());
  for (auto& [n, l] : lines) r.body += l + "\n";
  r.data["tabs"] = arr;
  page.reportEvents(r);
  return r;
}

// --- waits (the one wait engine, waits.h) ----------------------------------------------------

Response cmdWait(CommandEnv& env, const Command& c) {
  Page& page = env.page;
  std::string cond = c.args.value("condition", "");
  long long timeout_ms = c.args.value("timeout", 30000LL);
  Deadline until = Deadline::inMs(timeout_ms);
  page.deadline = Deadline::inMs(timeout_ms + 5000);
  auto b = page.backend();
  if (!b) return errorResponse("wait", b.status());
  auto t0 = Clock::now();
  auto waited = [&] { return std::to_string(std::chrono::duration_cast<Millis>(Clock::now() - t0).count()) + "ms"; };
  if (cond == "load" || cond == "idle") {
    Status s = cond == "load" ? waitLoad(page, until) : waitIdle(page, Millis(500), until);
    if (!s) return errorResponse("wait", s);
    return okResponse("wait", cond + " (" + waited() + ")");
  }
  if (!c.target) {
    return errorResponse("wait", Status(codes::kParameterMissing, "wait " + cond + " needs a target",
                                        cond == "url" ? "wait url \"/dashboard\"" : "wait " + cond + " \"Success\""));
  }
  if (cond == "url" || cond == "navigation") {
    std::string part = c.target->value;
    std::string now;
    Status s = waitUntil(page, [&]() -> Result<bool> {
      auto url = (*b)->currentUrl(page.deadline);
      if (!url) return url.status();
      now = *url;
      return url->find(part) != std::string::npos;
    }, until, WakeOn::kNavigation);
    if (s.code() == codes::kTimeout) {
      return errorResponse("wait", Status(codes::kTimeout, "the URL did not come to contain " + quote(part) + " in " +
                                                               std::to_string(timeout_ms) + " ms (now " + shortUrl(now) + ")",
                                          "check the expected URL, or wait longer with --timeout"));
    }
    if (!s) return errorResponse("wait", s);
    return okResponse("wait", "url " + shortUrl(now) + " (" + waited() + ")");
  }
  // Element conditions. Selectors and texts are checked in the page (any element, not only
  // listed ones); other targets through the resolver on fresh scans.
  const TargetSpec& t = *c.target;
  std::string detail;
  std::function<Result<bool>()> probe;
  bool in_page = t.kind == TargetSpec::Kind::kCss || t.kind == TargetSpec::Kind::kXpath ||
                 ((t.kind == TargetSpec::Kind::kText || t.kind == TargetSpec::Kind::kWord) && !t.anchor &&
                  t.match != TextMatch::kRegex);
  if (in_page) {
    WaitTarget wt;
    if (t.kind == TargetSpec::Kind::kCss) wt.selector = t.value;
    else if (t.kind == TargetSpec::Kind::kXpath) wt.xpath = t.value;
    else wt.text = t.value;
    probe = [&, wt]() -> Result<bool> {
      auto w = page.scanner().waitFor(cond, wt, 0);
      if (!w) return w.status();
      detail = w->detail;
      return w->met;
    };
  } else {
    probe = [&]() -> Result<bool> {
      auto scanned = page.scan();
      if (!scanned) return scanned.status();
      auto res = page.resolve(t, *scanned);
      bool found = res.ok();
      if (!res && res.status().code() != codes::kTargetNotFound) return res.status();
      const Element* e = found ? res->element : nullptr;
      detail = !e ? "no element matches" : e->visible ? "it is visible" : "it is hidden";
      if (cond == "visible") return e && e->visible;
      if (cond == "hidden") return !e || !e->visible;
      if (cond == "exists") return e != nullptr;
      if (cond == "gone") return e == nullptr;
      if (cond == "enabled") return e && e->enabled;
      return e && !e->enabled;  // disabled
    };
  }
  Status s = waitUntil(page, probe, until);
  if (s.code() == codes::kTimeout) {
    return errorResponse("wait", Status(codes::kTimeout, "wait " + cond + " " + t.toString() + " timed out after " +
                                                             std::to_string(timeout_ms) + " ms" +
                                                             (detail.empty() ? "" : ": " + detail),
                                        "increase --timeout, or check the condition"));
  }
  if (!s) return errorResponse("wait", s);
  return okResponse("wait", cond + " " + t.toString() + " (" + waited() + ")");
}

const std::map<std::string, PageCommandFn>& table() {
  // One row per page command (commands.cpp has their parameters).
  static const std::map<std::string, PageCommandFn> kTable = {
      {"goto", cmdGoto},       {"back", cmdHistory},     {"forward", cmdHistory}, {"refresh", cmdHistory},
      {"url", cmdUrl},         {"observe", cmdObserve},  {"text", cmdText},       {"title", cmdTitle},
      {"screenshot", cmdScreenshot}, {"click", cmdClick}, {"type", cmdType},      {"clear", cmdElement},
      {"check", cmdElement},   {"uncheck", cmdElement},  {"hover", cmdElement},   {"drag", cmdDrag},   {"focus", cmdElement},
      {"select", cmdElement},  {"press", cmdPress},      {"scroll", cmdScroll},   {"upload", cmdUpload},
      {"tabs", cmdTabs},       {"wait", cmdWait},        {"extract", cmdExtract},
  };
  return kTable;
}

}  // namespace

PageCommandFn findPageCommand(const std::string& name) {
  auto it = table().find(name);
  return it == table().end() ? nullptr : it->second;
}

}  // namespace lscope
