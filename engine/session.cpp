// Session: executes atomic commands. Every action scans before and after, so its response
// carries the change report (intent-language.md "Change Notation") and the agent rarely
// needs to observe again.
#include "engine/session.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>
#include <sstream>

#include <spdlog/spdlog.h>

#include "engine/commands.h"
#include "engine/intent_loader.h"
#include "engine/observation.h"
#include "engine/secrets.h"

namespace lscope {

namespace {

constexpr int kFullScanMax = 1000;  // elements per scan for targeting and diffs (bench: ~80 ms at 10k)
constexpr size_t kTextMax = 6000;   // characters returned by `text`

bool isBackendDead(const Status& s) {
  return s.code() == codes::kConnectionError ||
         (s.code() == codes::kBrowserError && s.message().find("crashed") != std::string::npos);
}

std::string withoutFragment(const std::string& url) { return url.substr(0, url.find('#')); }

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// `[3] "Sign in"` for action summaries.
std::string describe(const Element& e) {
  std::string s = "[" + std::to_string(e.id) + "]";
  if (!e.text.empty()) s += " " + quote(e.text.size() > 60 ? e.text.substr(0, 60) + "…" : e.text);
  return s;
}

json elementJson(const Element& e) {
  json j = {{"id", e.id}, {"type", e.type}, {"role", e.role}, {"text", e.text}};
  if (!e.selector.empty()) j["selector"] = e.selector;
  return j;
}

}  // namespace

std::string resolveUrl(const std::string& base, const std::string& url) {
  auto scheme = base.find("://");
  if (url.empty() || scheme == std::string::npos) return url;
  if (url[0] == '/' && url.rfind("//", 0) != 0) {
    auto path = base.find('/', scheme + 3);
    return (path == std::string::npos ? base : base.substr(0, path)) + url;
  }
  if (url[0] == '?') return base.substr(0, base.find_first_of("?#")) + url;
  if (url[0] == '#') return base.substr(0, base.find('#')) + url;
  return url;
}

std::string normalizeUrl(const std::string& url) {
  if (url.find("://") != std::string::npos || url.rfind("about:", 0) == 0 ||
      url.rfind("data:", 0) == 0 || url.rfind("file:", 0) == 0 || url.rfind("javascript:", 0) == 0) {
    return url;
  }
  std::string host = url.substr(0, url.find_first_of("/?#"));
  bool local = host.rfind("localhost", 0) == 0 || host.rfind("127.", 0) == 0 ||
               host.rfind("[::1]", 0) == 0 || host.find(':') != std::string::npos;
  return (local ? "http://" : "https://") + url;
}

Session::Session(BackendFactory* factory, SessionOptions options)
    : factory_(factory), options_(std::move(options)), config_(options_.config) {
  if (options_.strict) config_.strict_mode = true;
}

Session::~Session() = default;

Result<Backend*> Session::backend(Ctx& ctx) {
  if (!backend_) {
    ctx.call.report(0, 0, "starting the browser");
    auto created = factory_->create(ctx.deadline);
    if (!created) return created.status();
    ctx.call.note("info", "browser ready: " + (*created)->describe());
    backend_ = std::move(created.value());
    last_.reset();
    ids_.reset();
    tab_order_.clear();
    if (auto tabs = backend_->tabs(ctx.deadline)) {
      for (const auto& t : *tabs) {
        if (t.active) tabNumber(t.id);  // the first tab is [1]
      }
    }
  }
  return backend_.get();
}

void Session::dropBackendIfDead(Ctx& ctx, const Status& status) {
  if (backend_ && isBackendDead(status)) {
    spdlog::warn("browser session lost ({}); the next command starts a new one", status.message());
    ctx.call.note("warning", "browser session lost (" + status.message() + "); the next command starts a new one");
    backend_.reset();
    last_.reset();
    ids_.reset();
  }
}

Result<json> Session::scannerCall(Ctx& ctx, json command, const std::string& frame) {
  if (ctx.call.cancelled()) return Status(codes::kCancelled, "cancelled");
  auto b = backend(ctx);
  if (!b) return b.status();
  auto reply = (*b)->scanner(command, frame, ctx.deadline);
  if (!reply) {
    dropBackendIfDead(ctx, reply.status());
    return reply.status();
  }
  if (!reply->value("ok", false)) {
    std::string code = reply->value("code", std::string(codes::kScriptError));
    std::string hint;
    if (code == codes::kElementStale || code == codes::kElementNotFound) hint = "run observe to refresh ids";
    if (code == codes::kElementNotVisible) hint = "scroll to it, or wait visible";
    if (code == codes::kElementDisabled) hint = "wait enabled, or fill the fields it depends on";
    if (code == codes::kElementNotInteractable) hint = "dismiss_popups, or retry with --force";
    return Status(code, reply->value("error", std::string("scanner error")), hint);
  }
  return reply->value("data", json::object());
}

Result<PageScan> Session::scan(Ctx& ctx, const json& params, bool remember) {
  json cmd = {{"cmd", "scan"}, {"max_elements", kFullScanMax}};
  for (auto it = params.begin(); it != params.end(); ++it) cmd[it.key()] = *it;
  auto data = scannerCall(ctx, cmd);
  if (!data) return data.status();
  auto page = parseScan(*data);
  if (!page) return page.status();
  scanFrames(ctx, *page, params);
  std::string doc = page->document.empty() ? withoutFragment(page->url) : page->document;
  if (doc != last_document_) {
    ids_.reset();
    ids_.assign(*page, nullptr);
  } else {
    ids_.assign(*page, last_ ? &*last_ : nullptr);
  }
  if (remember) {
    last_document_ = doc;
    last_ = *page;
  }
  return page;
}

void Session::scanFrames(Ctx& ctx, PageScan& page, const json& params) {
  constexpr size_t kMaxFrames = 5;       // ad-heavy pages embed dozens; the first few matter
  constexpr double kMinFrameSide = 20;   // tracking pixels are not worth a scan
  auto frames = backend_->frames(ctx.deadline);
  if (!frames || frames->empty()) return;
  size_t scanned = 0;
  for (const auto& f : *frames) {
    if (scanned == kMaxFrames) break;
    if (f.box.width < kMinFrameSide || f.box.height < kMinFrameSide) continue;
    json cmd = {{"cmd", "scan"}, {"max_elements", kFullScanMax}};
    for (auto it = params.begin(); it != params.end(); ++it) {
      if (it.key() != "within" && it.key() != "near") cmd[it.key()] = *it;
    }
    auto data = scannerCall(ctx, cmd, f.id);
    if (!data) {
      spdlog::debug("frame {} not scanned: {}", shortUrl(f.url), data.status().message());
      continue;
    }
    auto sub = parseScan(*data, f.id);
    if (!sub) continue;
    ++scanned;
    page.frame_offsets[f.id] = Point{f.box.x, f.box.y};
    std::string label = "iframe " + shortUrl(f.url);
    for (auto& e : sub->elements) {
      e.rect.x += f.box.x;
      e.rect.y += f.box.y;
      e.frame_label = e.frame_label.empty() ? label : label + " >>> " + e.frame_label;
      page.elements.push_back(std::move(e));
    }
    for (auto& p : sub->patterns) page.patterns.push_back(std::move(p));
    for (auto& m : sub->messages) page.messages.push_back(std::move(m));
    page.interactive += sub->interactive;
    page.available += sub->available;
    // The top document listed this frame as "cross-origin, not scanned": it is scanned now.
    page.frames.erase(std::remove_if(page.frames.begin(), page.frames.end(),
                                     [&](const FrameNote& n) {
                                       return n.cross_origin && shortUrl(n.src) == shortUrl(f.url);
                                     }),
                      page.frames.end());
  }
}

Result<Point> Session::pointOf(Ctx& ctx, const Element& el, const std::string& check, bool force) {
  json cmd = {{"cmd", "point"}, {"id", el.scanner_id}, {"check", check}, {"force", force}};
  auto point = scannerCall(ctx, cmd, el.frame);
  if (!point && point.status().code() == codes::kElementNotVisible && !force) {
    // Seen a moment ago, not visible now: most often an entrance animation (a popup fading in
    // from opacity 0). Wait for it briefly, event-driven in the page, then ask again.
    auto shown = scannerCall(ctx, {{"cmd", "wait_for"}, {"condition", "visible"}, {"id", el.scanner_id},
                                   {"timeout", std::min<long long>(2000, ctx.deadline.remaining().count())}},
                             el.frame);
    if (shown && shown->value("met", false)) point = scannerCall(ctx, cmd, el.frame);
  }
  if (!point) return point.status();
  Point p{point->value("x", 0.0), point->value("y", 0.0)};
  if (!el.frame.empty() && last_) {
    auto off = last_->frame_offsets.find(el.frame);
    if (off != last_->frame_offsets.end()) {
      p.x += off->second.x;
      p.y += off->second.y;
    }
  }
  return p;
}

int Session::tabNumber(const std::string& tab_id) {
  auto it = std::find(tab_order_.begin(), tab_order_.end(), tab_id);
  if (it != tab_order_.end()) return static_cast<int>(it - tab_order_.begin()) + 1;
  tab_order_.push_back(tab_id);
  return static_cast<int>(tab_order_.size());
}

ResolverHooks Session::hooksFor(Ctx& ctx, const PageScan& page) {
  ResolverHooks hooks;
  hooks.select = [this, &ctx, &page](const std::string& selector, bool xpath) -> Result<std::vector<int>> {
    auto r = scannerCall(ctx, {{"cmd", "query"}, {xpath ? "xpath" : "selector", selector}});
    if (!r) return r.status();
    // The scanner answers with its ids of the current map; translate to agent ids.
    std::vector<int> out;
    for (const auto& sid : r->value("ids", json::array())) {
      for (const auto& e : page.elements) {
        if (e.scanner_id == sid.get<int>() && e.frame.empty()) out.push_back(e.id);
      }
    }
    return out;
  };
  hooks.near = [this, &ctx](const std::string& text) -> Result<std::vector<int>> {
    auto near = scan(ctx, {{"near", text}}, /*remember=*/false);
    if (!near) return near.status();
    std::vector<int> out;
    for (const auto& e : near->elements) out.push_back(e.id);
    // The scanner's map now holds the near-scan; scan again so ids match the page.
    auto again = scan(ctx);
    if (!again) return again.status();
    return out;
  };
  return hooks;
}

Result<Resolution> Session::resolve(Ctx& ctx, const TargetSpec& target, const PageScan& page) {
  return resolveTarget(target, page, hooksFor(ctx, page), config_.strict_mode);
}

Status Session::settle(Ctx& ctx) {
  auto b = backend(ctx);
  if (!b) return b.status();
  Deadline cap = ctx.deadline.capped(options_.settle_max);
  (*b)->waitForLoad(cap);
  (*b)->waitForNetworkIdle(options_.settle_quiet, cap);  // a busy page is not an error here
  Status loaded = (*b)->waitForLoad(cap);
  settleAnimations(ctx);
  return loaded;
}

void Session::settleAnimations(Ctx& ctx) {
  // Content animating in (a popup fading from opacity 0) is not visible until it ends: wait for
  // finite animations, briefly and event-driven in the page. Failure only means no wait.
  long long ms = std::min<long long>(1000, ctx.deadline.remaining().count());
  if (ms > 0) scannerCall(ctx, {{"cmd", "wait_animations"}, {"timeout", ms}});
}

void Session::reportEvents(Ctx& ctx, Response& r) {
  if (!backend_) return;
  for (const auto& ev : backend_->drainEvents()) {
    if (ev.kind == "dialog") {
      r.add("events", "dialog " + ev.detail + " " + quote(ev.message) + " (accepted)");
    } else if (ev.kind == "tab_opened") {
      int n = tabNumber(ev.detail);
      std::string url = ev.message;
      if (auto tabs = backend_->tabs(ctx.deadline)) {  // the opener's event may predate its URL
        for (const auto& t : *tabs) {
          if (t.id == ev.detail && !t.url.empty()) url = t.url;
        }
      }
      r.add("events", "new tab [" + std::to_string(n) + "] " + shortUrl(url) + " (tabs switch " +
                          std::to_string(n) + ")");
    } else if (ev.kind == "download") {
      r.add("events", "download " + ev.detail + " " + ev.message);
    } else {
      r.add("events", ev.kind + " " + ev.message);
    }
  }
}

Response Session::actAndReport(Ctx& ctx, const Command& command,
                               const std::function<Result<std::string>(Backend&, const PageScan&)>& act,
                               bool form_action) {
  auto before = scan(ctx);
  if (!before) return errorResponse(command.name, before.status());
  auto b = backend(ctx);
  if (!b) return errorResponse(command.name, b.status());
  auto done = act(**b, *before);
  if (!done && isElementGone(done.status())) {
    // §5.3: the element went away between scan and action: rescan and retry once.
    before = scan(ctx);
    if (!before) return errorResponse(command.name, before.status());
    done = act(**b, *before);
  }
  if (!done) {
    dropBackendIfDead(ctx, done.status());
    Response r = errorResponse(command.name, done.status());
    reportEvents(ctx, r);
    return r;
  }
  settle(ctx);
  auto after = scan(ctx);
  if (!after) {
    // A navigation may have replaced the document mid-scan: settle and try once more.
    settle(ctx);
    after = scan(ctx);
  }
  Response r = okResponse(command.name, *done);
  if (!after) {
    r.add("changes", "(page not readable after the action: " + after.status().message() + ")");
    reportEvents(ctx, r);
    return r;
  }
  std::string doc_before = before->document.empty() ? withoutFragment(before->url) : before->document;
  std::string doc_after = after->document.empty() ? withoutFragment(after->url) : after->document;
  DiffContext dc;
  dc.new_document = doc_before != doc_after;
  dc.form_action = form_action || ctx.form_action;
  ChangeReport report = diffScans(*before, *after, dc);
  if (report.noop()) {
    r.add("changes", "none");
  } else {
    for (auto& l : report.lines) r.add("changes", l);
  }
  r.data["changes"] = report.toJson();
  r.data["url"] = after->url;
  reportEvents(ctx, r);
  return r;
}

// --- dispatch ---------------------------------------------------------------------------------

const CommandSpec* Session::specFor(const std::string& name) {
  if (const CommandSpec* s = findCommand(name)) return s;
  auto entry = findIntent(name);
  return entry ? &entry->spec : nullptr;
}

CommandLookup Session::lookup() {
  return [this](const std::string& name) -> const CommandSpec* {
    auto entry = findIntent(name);
    return entry ? &entry->spec : nullptr;
  };
}

std::shared_ptr<const IntentEntry> Session::findIntent(const std::string& name) const {
  std::lock_guard<std::mutex> lock(intents_mu_);
  if (options_.registry) return options_.registry->find(name, &session_intents_, config_.tier_priority);
  auto it = session_intents_.find(name);
  return it == session_intents_.end() ? nullptr : it->second;
}

std::vector<std::shared_ptr<const IntentEntry>> Session::intents() const {
  std::vector<std::shared_ptr<const IntentEntry>> out;
  std::set<std::string> seen;
  auto add = [&](const std::string& name) {
    if (!seen.insert(name).second) return;
    if (auto e = findIntent(name)) out.push_back(e);
  };
  std::vector<std::string> names;
  {
    std::lock_guard<std::mutex> lock(intents_mu_);
    for (const auto& [name, e] : session_intents_) names.push_back(name);
  }
  if (options_.registry) {
    for (const auto& e : options_.registry->all()) names.push_back(e->def->name);
  }
  for (const auto& n : names) add(n);
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a->def->name < b->def->name; });
  return out;
}

uint64_t Session::intentsGeneration() const {
  std::lock_guard<std::mutex> lock(intents_mu_);
  return session_generation_ + (options_.registry ? options_.registry->generation() << 20 : 0);
}

Status Session::resolveSecrets(Command& command, Ctx& ctx) {
  const CommandSpec* spec = specFor(command.name);
  if (!spec) return Status::ok();
  for (const auto& p : spec->params) {
    if (!p.secret_ref || !command.args.contains(p.name) || !command.args[p.name].is_string()) continue;
    std::string name;
    if (!parseSecretRef(command.args[p.name].get<std::string>(), &name)) continue;
    std::optional<std::string> value;
    if (auto it = session_secrets_.find(name); it != session_secrets_.end()) value = it->second;
    if (!value && options_.secrets) value = options_.secrets->get(name);
    if (!value && ctx.call.elicit_secret) {
      auto asked = ctx.call.elicit_secret(name);
      if (!asked) return asked.status();
      value = *asked;
      session_secrets_[name] = *value;
    }
    if (!value) {
      return Status(codes::kParameterMissing, "secret '" + name + "' is not set",
                    "add " + name + "=... to the --secrets file, or set " + secretEnvName(name) +
                        " in the server's environment");
    }
    if (std::find(secrets_.begin(), secrets_.end(), *value) == secrets_.end()) secrets_.push_back(*value);
    command.args[p.name] = *value;
  }
  return Status::ok();
}

Response Session::execute(const Command& original, const CallContext& context) {
  Ctx ctx{Deadline::in(options_.command_timeout), context};
  if (original.args.contains("timeout") && original.args["timeout"].is_number()) {
    ctx.deadline = Deadline::inMs(original.args["timeout"].get<long long>() + 2000);
  }
  Command command = original;
  Status secrets = resolveSecrets(command, ctx);
  Response r = secrets ? dispatch(command, ctx) : errorResponse(command.name, secrets);
  scrubSecrets(r, secrets_);  // §13.1: a typed secret never comes back, wherever the page puts it
  if (!r.ok()) r.data["code"] = r.code;
  r.data["ok"] = r.ok();
  if (context.cancelled() && r.code.empty()) r.code = codes::kCancelled;
  return r;
}

Response Session::dispatch(const Command& c, Ctx& ctx) {
  const std::string& n = c.name;
  if (n == "goto") return doGoto(c, ctx);
  if (n == "back" || n == "forward" || n == "refresh") return doHistory(c, ctx);
  if (n == "url") return doUrl(c, ctx);
  if (n == "observe") return doObserve(c, ctx);
  if (n == "text") return doText(c, ctx);
  if (n == "title") return doTitle(c, ctx);
  if (n == "screenshot") return doScreenshot(c, ctx);
  if (n == "click") return doClick(c, ctx);
  if (n == "type") return doType(c, ctx);
  if (n == "press") return doPress(c, ctx);
  if (n == "scroll") return doScroll(c, ctx);
  if (n == "wait") return doWait(c, ctx);
  if (n == "tabs") return doTabs(c, ctx);
  if (n == "upload") return doUpload(c, ctx);
  if (n == "clear" || n == "check" || n == "uncheck" || n == "hover" || n == "focus" || n == "select") {
    return doElementCommand(c, ctx);
  }
  if (n == "intents") return doIntents(c, ctx);
  if (n == "define") return doDefine(c, ctx);
  if (n == "undefine") return doUndefine(c, ctx);
  if (n == "config") return doConfig(c, ctx);
  if (n == "intent") {
    // The stable entry to any intent: intent <name> {params}.
    std::string name = c.args.value("name", "");
    auto entry = findIntent(name);
    if (!entry) {
      return errorResponse(name.empty() ? "intent" : name,
                           Status(codes::kIntentNotFound, "no intent named \"" + name + "\"", "intents lists them"));
    }
    auto inner = commandFromArgs(name, c.args.value("params", json::object()), lookup());
    if (!inner) return errorResponse(name, inner.status());
    Status secrets = resolveSecrets(*inner, ctx);
    if (!secrets) return errorResponse(name, secrets);
    return runIntent(*inner, ctx, *entry);
  }
  if (auto entry = findIntent(n)) return runIntent(c, ctx, *entry);
  return errorResponse(n, Status(codes::kUnknownCommand, "unknown command " + n,
                                 "see the command list: observe, click, type, goto ..."));
}

std::vector<Response> Session::runScript(const std::string& script, const CallContext& context,
                                         bool stop_on_error, const ResponseCallback& on_response) {
  std::vector<Response> out;
  size_t start = 0;
  int line_no = 0;
  size_t total_lines = 0;
  for (size_t i = 0; i < script.size(); ++i) total_lines += script[i] == '\n' ? 1 : 0;
  if (!script.empty() && script.back() != '\n') ++total_lines;
  while (start <= script.size()) {
    size_t end = script.find('\n', start);
    std::string line = script.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    ++line_no;
    start = end == std::string::npos ? script.size() + 1 : end + 1;
    if (context.cancelled()) break;
    auto parsed = parseLine(line, lookup());
    if (parsed && parsed->has_value()) {
      // Progress names the command, never its arguments (they may hold secrets).
      context.report(static_cast<double>(out.size() + 1), static_cast<double>(total_lines),
                     "line " + std::to_string(line_no) + ": " + (*parsed)->name);
    }
    if (!parsed) {
      Status s = parsed.status();
      auto first = line.find_first_not_of(" \t");
      std::string word = first == std::string::npos ? "" : line.substr(first, line.find(' ', first) - first);
      out.push_back(errorResponse(word.empty() ? "parse" : word,
                                  Status(s.code(), "line " + std::to_string(line_no) + ": " + s.message(), s.hint())));
      if (on_response) on_response(line, out.back());
      if (stop_on_error) break;
      continue;
    }
    if (!parsed->has_value()) continue;
    out.push_back(execute(**parsed, context));
    if (on_response) on_response(line, out.back());
    if (stop_on_error && !out.back().ok()) break;
  }
  return out;
}

// --- navigation ----------------------------------------------------------------------------

Response Session::doGoto(const Command& c, Ctx& ctx) {
  std::string url = c.args.value("url", "");
  auto b = backend(ctx);
  if (!b) return errorResponse("goto", b.status());
  if (!url.empty() && (url[0] == '/' || url[0] == '?' || url[0] == '#')) {
    auto here = (*b)->currentUrl(ctx.deadline);
    if (here) url = resolveUrl(*here, url);
  }
  url = normalizeUrl(url);
  ctx.call.report(1, 3, "loading " + url);
  Status nav = (*b)->navigate(url, ctx.deadline);
  if (!nav && nav.code() != codes::kTimeout) {
    dropBackendIfDead(ctx, nav);
    return errorResponse("goto", nav);
  }
  ctx.call.report(2, 3, "scanning");
  if (nav) settleAnimations(ctx);
  auto page = scan(ctx);
  if (!page) return errorResponse("goto", page.status());
  Response r = okResponse("goto", shortUrl(page->url));
  r.body = formatObservation(*page, ObserveFormat{false, options_.observe_max});
  for (auto& l : patternLines(*page)) r.add("patterns", l);
  addAvailability(*page, r);
  if (!nav) r.add("warnings", nav.message());
  r.data["url"] = page->url;
  r.data["title"] = page->title;
  r.data["elements"] = static_cast<int>(page->elements.size());
  reportEvents(ctx, r);
  return r;
}

Response Session::doHistory(const Command& c, Ctx& ctx) {
  auto b = backend(ctx);
  if (!b) return errorResponse(c.name, b.status());
  return actAndReport(
      ctx, c,
      [&](Backend& be, const PageScan&) -> Result<std::string> {
        Status s = c.name == "back" ? be.goBack(ctx.deadline)
                   : c.name == "forward" ? be.goForward(ctx.deadline)
                                         : be.reload(ctx.deadline);
        if (!s && s.code() != codes::kTimeout) return s;
        return std::string();
      },
      false);
}

Response Session::doUrl(const Command&, Ctx& ctx) {
  auto b = backend(ctx);
  if (!b) return errorResponse("url", b.status());
  auto url = (*b)->currentUrl(ctx.deadline);
  if (!url) return errorResponse("url", url.status());
  Response r = okResponse("url", *url);
  r.data["url"] = *url;
  return r;
}

// --- observation ---------------------------------------------------------------------------

Response Session::doObserve(const Command& c, Ctx& ctx) {
  json params = json::object();
  if (c.args.value("hidden", false)) params["include_hidden"] = true;
  if (c.args.contains("near")) params["near"] = c.args["near"];
  if (c.args.contains("within")) params["within"] = c.args["within"];
  if (c.args.value("viewport", false)) params["viewport_only"] = true;
  bool filtered = !params.empty();
  auto page = scan(ctx, params, !filtered);
  if (!page) return errorResponse("observe", page.status());
  if (filtered) {
    // Filtered scans replace the scanner's element map: rescan so later ids resolve.
    auto full = scan(ctx);
    if (!full) return errorResponse("observe", full.status());
  }
  ObserveFormat f;
  f.full = c.args.value("full", false);
  f.max = static_cast<size_t>(c.args.value("max", static_cast<long long>(options_.observe_max)));
  Response r = okResponse("observe");
  r.body = formatObservation(*page, f);
  for (auto& l : patternLines(*page)) r.add("patterns", l);
  for (const auto& m : page->messages) r.add("messages", m.kind + ": " + quote(m.text));
  addAvailability(*page, r);
  r.data["url"] = page->url;
  r.data["title"] = page->title;
  json els = json::array();
  for (const auto& e : page->elements) els.push_back(elementJson(e));
  r.data["elements"] = els;
  reportEvents(ctx, r);
  return r;
}

Response Session::doText(const Command& c, Ctx& ctx) {
  std::string selector = "body";
  if (c.target && c.target->kind == TargetSpec::Kind::kCss && !c.target->anchor) {
    selector = c.target->value;  // any element, not only interactive ones: a result, a heading
  } else if (c.target) {
    auto page = scan(ctx);
    if (!page) return errorResponse("text", page.status());
    auto res = resolve(ctx, *c.target, *page);
    if (!res) return errorResponse("text", res.status());
    selector = res->element->selector;
  }
  auto data = scannerCall(ctx, {{"cmd", "get_text"}, {"selector", selector}});
  if (!data) return errorResponse("text", data.status());
  std::string text = data->value("text", std::string());
  size_t total = text.size();
  if (text.size() > kTextMax) {
    size_t cut = kTextMax;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    text = text.substr(0, cut) + "\n… " + std::to_string(total - cut) + " more characters (text <target>)";
  }
  Response r = okResponse("text");
  r.body = text;
  r.data["text"] = data->value("text", std::string());
  return r;
}

Response Session::doTitle(const Command&, Ctx& ctx) {
  auto data = scannerCall(ctx, {{"cmd", "execute"}, {"script", "return document.title"}});
  if (!data) return errorResponse("title", data.status());
  std::string title = data->value("value", json("")).is_string() ? data->value("value", std::string()) : "";
  Response r = okResponse("title", quote(title));
  r.data["title"] = title;
  return r;
}

Response Session::doScreenshot(const Command&, Ctx& ctx) {
  auto b = backend(ctx);
  if (!b) return errorResponse("screenshot", b.status());
  auto png = (*b)->screenshot(ctx.deadline);
  if (!png) return errorResponse("screenshot", png.status());
  Response r = okResponse("screenshot", "(image/png)");
  r.images.push_back(*png);
  r.data["bytes"] = png->size() * 3 / 4;
  return r;
}

// --- actions --------------------------------------------------------------------------------

// Actions use native ("trusted") input at the scanner's coordinates; when the scanner cannot
// give a point (old scanner, --force past a cover) they fall back to events the scanner
// dispatches itself, and say so ("synthetic events").

void Session::rememberSecret(const std::string& value) {
  if (!value.empty() && std::find(secrets_.begin(), secrets_.end(), value) == secrets_.end()) {
    secrets_.push_back(value);
  }
}

Result<std::string> Session::clickOn(Ctx& ctx, Backend& be, const Element& el, const ClickOptions& o) {
  ctx.form_action = ctx.form_action || el.role == "submit" || el.attributes.value("type", "") == "submit";
  // force: the element itself gets the click even when something covers it, which native
  // input at its position cannot do (it would hit the cover).
  auto point = o.force ? Result<Point>(Status(codes::kUnknownCommand, "forced")) : pointOf(ctx, el, "click");
  if (!point && point.status().code() == codes::kUnknownCommand) {
    static const char* kNames[] = {"left", "middle", "right"};
    auto clicked = scannerCall(ctx, {{"cmd", "click"}, {"id", el.scanner_id},
                                     {"button", kNames[static_cast<int>(o.button)]},
                                     {"click_count", o.count}, {"force", o.force}}, el.frame);
    if (!clicked) return clicked.status();
    return std::string(o.force ? " (forced: synthetic events)" : " (synthetic events)");
  }
  if (!point) return point.status();
  LSCOPE_RETURN_IF_ERROR(be.mouseClick(*point, o.button, o.count, 0, ctx.deadline));
  return std::string();
}

Result<std::string> Session::typeInto(Ctx& ctx, Backend& be, const Element& el, const std::string& text, bool clear) {
  if (el.type == "button" || el.type == "link" || el.type == "checkbox" || el.type == "radio") {
    return Status(codes::kElementNotInteractable,
                  "[" + std::to_string(el.id) + "] is a " + el.type + ", not a text field",
                  "type into an input: observe to find it");
  }
  if (el.isSensitive()) rememberSecret(text);
  auto point = pointOf(ctx, el, "type");
  if (point) {
    // Focus with a real click, clear through the scanner (native setter: React sees it),
    // then type with real key events.
    LSCOPE_RETURN_IF_ERROR(be.mouseClick(*point, MouseButton::kLeft, 1, 0, ctx.deadline));
    if (clear && el.value && !el.value->empty()) {
      auto cleared = scannerCall(ctx, {{"cmd", "clear"}, {"id", el.scanner_id}}, el.frame);
      if (!cleared) return cleared.status();
    }
    LSCOPE_RETURN_IF_ERROR(be.insertText(text, ctx.deadline));
    return std::string();
  }
  if (point.status().code() == codes::kUnknownCommand || point.status().code() == codes::kElementNotInteractable) {
    auto typed = scannerCall(ctx, {{"cmd", "type"}, {"id", el.scanner_id}, {"text", text}, {"clear", clear}}, el.frame);
    if (!typed) return typed.status();
    return std::string(" (synthetic events)");
  }
  return point.status();
}

Result<std::string> Session::selectIn(Ctx& ctx, const Element& el, const json& option) {
  json cmd = {{"cmd", "select"}, {"id", el.scanner_id}};
  if (option.is_number_integer()) {
    cmd["index"] = option;
  } else {
    cmd["text"] = option.is_string() ? option.get<std::string>() : option.dump();
  }
  auto sel = scannerCall(ctx, cmd, el.frame);
  if (!sel && cmd.contains("text") && sel.status().code() == codes::kElementNotFound) {
    cmd["value"] = cmd["text"];  // not an option's text: maybe its value
    cmd.erase("text");
    auto by_value = scannerCall(ctx, cmd, el.frame);
    if (by_value) sel = by_value;
  }
  if (!sel) return sel.status();
  return sel->value("text", std::string());
}

Result<std::string> Session::setChecked(Ctx& ctx, Backend& be, const Element& el, bool want) {
  if (el.checked && *el.checked == want) return std::string(want ? " (already checked)" : " (already unchecked)");
  if (!want && el.type == "radio") {
    return Status(codes::kElementNotInteractable, "a radio button cannot be unchecked",
                  "check another option of the group instead");
  }
  auto point = pointOf(ctx, el, "click");
  if (point) {
    LSCOPE_RETURN_IF_ERROR(be.mouseClick(*point, MouseButton::kLeft, 1, 0, ctx.deadline));
    auto v = scannerCall(ctx, {{"cmd", "get_value"}, {"id", el.scanner_id}}, el.frame);
    if (v && v->value("value", json()).is_boolean() && v->value("value", false) == want) return std::string();
  }
  auto set = scannerCall(ctx, {{"cmd", want ? "check" : "uncheck"}, {"id", el.scanner_id}}, el.frame);
  if (!set) return set.status();
  return std::string(" (synthetic events)");
}

Status Session::pressCombo(Ctx& ctx, Backend& be, const std::string& combo) {
  // "Control+Shift+A": every part but the last is a modifier.
  int modifiers = 0;
  std::string key = combo;
  size_t plus;
  while ((plus = key.find('+')) != std::string::npos && plus + 1 < key.size()) {
    std::string mod = lower(key.substr(0, plus));
    if (mod == "control" || mod == "ctrl") modifiers |= kModControl;
    else if (mod == "shift") modifiers |= kModShift;
    else if (mod == "alt") modifiers |= kModAlt;
    else if (mod == "meta" || mod == "cmd" || mod == "command") modifiers |= kModMeta;
    else return Status(codes::kParameterInvalid, "unknown modifier " + key.substr(0, plus),
                       "use Control, Shift, Alt or Meta: press Control+A");
    key = key.substr(plus + 1);
  }
  if (lower(key) == "enter") ctx.form_action = true;
  return be.pressKey(key, modifiers, ctx.deadline);
}

Response Session::doClick(const Command& c, Ctx& ctx) {
  json target_json;
  auto act = [&](Backend& be, const PageScan& page) -> Result<std::string> {
    auto res = resolve(ctx, *c.target, page);
    if (!res) return res.status();
    const Element& el = *res->element;
    target_json = elementJson(el);
    ClickOptions o;
    o.button = c.args.value("right", false) ? MouseButton::kRight
               : c.args.value("middle", false) ? MouseButton::kMiddle : MouseButton::kLeft;
    o.count = c.args.value("double", false) ? 2 : 1;
    o.force = c.args.value("force", false);
    auto note = clickOn(ctx, be, el, o);
    if (!note) return note.status();
    return describe(el) + (res->note.empty() ? "" : " (" + res->note + ")") + *note;
  };
  Response r = actAndReport(ctx, c, act, false);
  if (r.ok()) r.data["target"] = target_json;
  return r;
}

Response Session::doType(const Command& c, Ctx& ctx) {
  std::string text = c.args.value("text", "");
  bool enter = c.args.value("enter", false);
  bool append = c.args.value("append", false);
  json target_json;
  auto act = [&](Backend& be, const PageScan& page) -> Result<std::string> {
    auto res = resolve(ctx, *c.target, page);
    if (!res) return res.status();
    const Element& el = *res->element;
    target_json = elementJson(el);
    auto note = typeInto(ctx, be, el, text, !append);
    if (!note) return note.status();
    if (enter) LSCOPE_RETURN_IF_ERROR(pressCombo(ctx, be, "Enter"));
    std::string shown = el.isSensitive() ? std::string(kMask) : text;
    return describe(el) + " " + quote(shown) + *note + (enter ? " + Enter" : "");
  };
  Response r = actAndReport(ctx, c, act, false);
  if (r.ok()) r.data["target"] = target_json;
  return r;
}

Response Session::doElementCommand(const Command& c, Ctx& ctx) {
  const std::string& n = c.name;
  json target_json;
  auto act = [&](Backend& be, const PageScan& page) -> Result<std::string> {
    auto res = resolve(ctx, *c.target, page);
    if (!res) return res.status();
    const Element& el = *res->element;
    target_json = elementJson(el);
    std::string summary = describe(el);
    if (n == "hover") {
      auto point = pointOf(ctx, el, "hover");
      if (!point) return point.status();
      LSCOPE_RETURN_IF_ERROR(be.mouseMove(*point, ctx.deadline));
      return summary;
    }
    if (n == "check" || n == "uncheck") {
      auto note = setChecked(ctx, be, el, n == "check");
      if (!note) return note.status();
      return summary + *note;
    }
    if (n == "select") {
      json option;
      if (c.args.contains("index")) {
        option = c.args["index"];
      } else if (c.args.value("option", "").empty()) {
        return Status(codes::kParameterMissing, "select needs an option", "select <target> \"Option text\"");
      } else {
        option = c.args["option"];
      }
      auto chosen = selectIn(ctx, el, option);
      if (!chosen) return chosen.status();
      return summary + " ← " + quote(*chosen);
    }
    // clear, focus
    auto done = scannerCall(ctx, {{"cmd", n}, {"id", el.scanner_id}}, el.frame);
    if (!done) return done.status();
    return summary;
  };
  Response r = actAndReport(ctx, c, act, false);
  if (r.ok()) r.data["target"] = target_json;
  return r;
}

Response Session::doUpload(const Command& c, Ctx& ctx) {
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
  auto act = [&](Backend& be, const PageScan& page) -> Result<std::string> {
    auto res = resolve(ctx, *c.target, page);
    if (!res) return res.status();
    const Element& el = *res->element;
    if (el.attributes.value("type", "") != "file") {
      return Status(codes::kElementNotInteractable, "[" + std::to_string(el.id) + "] is not a file input",
                    "upload into an input of type file");
    }
    LSCOPE_RETURN_IF_ERROR(be.setFiles(el.scanner_id, el.frame, paths, ctx.deadline));
    std::string names;
    for (const auto& p : paths) names += (names.empty() ? "" : ", ") + fs::path(p).filename().string();
    return describe(el) + " ← " + names;
  };
  return actAndReport(ctx, c, act, false);
}

Response Session::doTabs(const Command& c, Ctx& ctx) {
  auto b = backend(ctx);
  if (!b) return errorResponse("tabs", b.status());
  std::string action = c.args.value("action", "list");
  std::string arg = c.args.value("tab", "");
  auto list = [&]() -> Result<std::vector<TabInfo>> { return (*b)->tabs(ctx.deadline); };
  auto byNumber = [&](const std::vector<TabInfo>& tabs) -> Result<std::string> {
    int n = 0;
    try {
      n = std::stoi(arg);
    } catch (...) {
    }
    for (const auto& t : tabs) {
      if (tabNumber(t.id) == n) return t.id;
    }
    return Status(codes::kTargetNotFound, "no tab " + (arg.empty() ? "given" : arg), "tabs to list them");
  };
  if (action == "new") {
    std::string url = arg.empty() ? "" : normalizeUrl(arg);
    auto id = (*b)->newTab(url, ctx.deadline);
    if (!id) return errorResponse("tabs", id.status());
    tabNumber(*id);
  } else if (action == "switch" || action == "close") {
    auto tabs = list();
    if (!tabs) return errorResponse("tabs", tabs.status());
    auto id = byNumber(*tabs);
    if (!id) return errorResponse("tabs", id.status());
    Status s = action == "switch" ? (*b)->switchTab(*id, ctx.deadline) : (*b)->closeTab(*id, ctx.deadline);
    if (!s) return errorResponse("tabs", s);
  }
  if (action != "list") {
    last_.reset();  // another document is in front now
    last_document_.clear();
  }
  auto tabs = list();
  if (!tabs) return errorResponse("tabs", tabs.status());
  Response r = okResponse("tabs", action == "list" ? "" : action + (arg.empty() ? "" : " " + arg));
  json arr = json::array();
  std::vector<std::pair<int, std::string>> lines;
  for (const auto& t : *tabs) {
    int n = tabNumber(t.id);
    lines.push_back({n, "[" + std::to_string(n) + "] " + shortUrl(t.url) + " " + quote(t.title) +
                            (t.active ? " (active)" : "")});
    arr.push_back({{"tab", n}, {"url", t.url}, {"title", t.title}, {"active", t.active}});
  }
  std::sort(lines.begin(), lines.end());
  for (auto& [n, l] : lines) r.body += l + "\n";
  r.data["tabs"] = arr;
  reportEvents(ctx, r);
  return r;
}

Response Session::doPress(const Command& c, Ctx& ctx) {
  std::string combo = c.args.value("key", "");
  auto act = [&](Backend& be, const PageScan&) -> Result<std::string> {
    LSCOPE_RETURN_IF_ERROR(pressCombo(ctx, be, combo));
    return combo;
  };
  return actAndReport(ctx, c, act, false);
}

Response Session::doScroll(const Command& c, Ctx& ctx) {
  json cmd = {{"cmd", "scroll"}};
  std::string dir = c.args.value("direction", "down");
  cmd["direction"] = dir;
  if (c.args.contains("amount")) {
    std::string a = c.args["amount"].get<std::string>();
    if (lower(a) == "page") {
      cmd["amount"] = "page";
    } else {
      try {
        cmd["amount"] = std::stod(a);
      } catch (...) {
        return errorResponse("scroll", Status(codes::kParameterInvalid, "amount must be pixels or 'page'",
                                              "scroll down 500"));
      }
    }
  }
  if (c.args.contains("within")) cmd["container"] = c.args["within"];
  if (c.args.value("smooth", false)) cmd["behavior"] = "smooth";
  json where;
  auto act = [&](Backend&, const PageScan&) -> Result<std::string> {
    auto r = scannerCall(ctx, cmd);
    if (!r) return r.status();
    where = *r;
    return dir + " (y " + std::to_string(static_cast<long long>(r->value("y", 0.0))) + " of " +
           std::to_string(static_cast<long long>(r->value("max_y", 0.0))) + ")";
  };
  Response r = actAndReport(ctx, c, act, false);
  if (r.ok()) r.data["scroll"] = where;
  return r;
}

Response Session::doWait(const Command& c, Ctx& ctx) {
  // Waits run in slices of at most kSlice so a cancellation (checked between backend calls)
  // stops them promptly; inside a slice, the wait is event-driven.
  constexpr Millis kSlice(1000);
  std::string cond = c.args.value("condition", "");
  long long timeout_ms = c.args.value("timeout", 30000LL);
  Deadline until = Deadline::inMs(timeout_ms);
  ctx.deadline = Deadline::inMs(timeout_ms + 5000);
  auto b = backend(ctx);
  if (!b) return errorResponse("wait", b.status());
  Clock::time_point start = Clock::now();
  auto waited = [&] {
    return std::to_string(std::chrono::duration_cast<Millis>(Clock::now() - start).count()) + "ms";
  };
  Status cancelled(codes::kCancelled, "cancelled");
  // Repeats `step` over slices until it succeeds, fails for another reason, or time is up.
  auto sliced = [&](const std::function<Status(Deadline)>& step) -> Status {
    for (;;) {
      if (ctx.call.cancelled()) return cancelled;
      Status s = step(until.capped(kSlice));
      if (s || s.code() != codes::kTimeout || until.expired()) return s;
    }
  };
  if (cond == "load") {
    Status s = sliced([&](Deadline d) { return (*b)->waitForLoad(d); });
    if (!s) return errorResponse("wait", s);
    return okResponse("wait", "load (" + waited() + ")");
  }
  if (cond == "idle") {
    Status s = sliced([&](Deadline d) { return (*b)->waitForNetworkIdle(Millis(500), d); });
    if (!s) return errorResponse("wait", s);
    return okResponse("wait", "idle (" + waited() + ")");
  }
  if (!c.target) {
    return errorResponse("wait", Status(codes::kParameterMissing, "wait " + cond + " needs a target",
                                        cond == "url" ? "wait url \"/dashboard\"" : "wait " + cond + " \"Success\""));
  }
  if (cond == "url" || cond == "navigation") {
    std::string part = c.target->value;
    std::string now;
    Status s = sliced([&](Deadline d) -> Status {
      uint64_t count = (*b)->navigationCount();
      auto url = (*b)->currentUrl(d);
      if (!url) return url.status();
      now = *url;
      if (url->find(part) != std::string::npos) return Status::ok();
      Status nav = (*b)->waitForNavigation(count, d);
      // A navigation to somewhere else keeps the wait going, like a slice that timed out.
      return nav ? Status(codes::kTimeout, "navigated elsewhere") : nav;
    });
    if (!s && s.code() == codes::kTimeout) {
      return errorResponse("wait", Status(codes::kTimeout, "the URL did not come to contain " + quote(part) +
                                                                " in " + std::to_string(timeout_ms) + " ms (now " +
                                                                shortUrl(now) + ")",
                                          "check the expected URL, or wait longer with --timeout"));
    }
    if (!s) return errorResponse("wait", s);
    return okResponse("wait", "url " + shortUrl(now) + " (" + waited() + ")");
  }
  // Element conditions, event-driven in the page (scanner wait_for uses MutationObserver).
  json cmd = {{"cmd", "wait_for"}, {"condition", cond}};
  if (c.target->kind == TargetSpec::Kind::kCss) {
    cmd["selector"] = c.target->value;
  } else if (c.target->kind == TargetSpec::Kind::kXpath) {
    cmd["xpath"] = c.target->value;
  } else if (c.target->kind == TargetSpec::Kind::kId) {
    auto page = last_ ? Result<PageScan>(*last_) : scan(ctx);
    if (!page) return errorResponse("wait", page.status());
    const Element* e = page->byId(c.target->id);
    if (!e) return errorResponse("wait", Status(codes::kTargetNotFound, "no element [" + c.target->value + "]",
                                                "run observe for current ids"));
    cmd["selector"] = e->selector;
  } else {
    cmd["text"] = c.target->value;
  }
  std::string detail;
  Status s = sliced([&](Deadline d) -> Status {
    cmd["timeout"] = static_cast<long long>(d.remaining().count());
    auto r = scannerCall(ctx, cmd);
    if (!r && r.status().code() == codes::kTimeout) detail = r.status().message();
    return r.status();
  });
  if (!s && s.code() == codes::kTimeout) {
    // The last slice's detail says what the page looked like ("no element matches").
    auto colon = detail.rfind(": ");
    std::string why = colon == std::string::npos ? "" : detail.substr(colon + 2);
    return errorResponse("wait", Status(codes::kTimeout, "wait " + cond + " " + c.target->toString() +
                                                             " timed out after " + std::to_string(timeout_ms) +
                                                             " ms" + (why.empty() ? "" : ": " + why),
                                        "increase --timeout, or check the condition"));
  }
  if (!s) return errorResponse("wait", s);
  return okResponse("wait", cond + " " + c.target->toString() + " (" + waited() + ")");
}

}  // namespace lscope

namespace lscope {

// --- intents, definitions, configuration (intent-engine.md §6, §7, §11) ----------------------

namespace {

// The OIL form of an intent without its options: "login <username> <password>".
std::string shortUsage(const CommandSpec& spec) {
  std::string u = spec.name;
  for (const auto& p : spec.params) {
    if (p.positional) u += " <" + p.name + ">";
  }
  return u;
}

bool globMatch(const std::string& pattern, const std::string& text) {
  // '*' matches any run of characters; everything else literally.
  size_t p = 0, t = 0, star = std::string::npos, mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = t;
    } else if (star != std::string::npos) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

bool hasText(const PageScan& page, std::initializer_list<const char*> words) {
  for (const auto& e : page.elements) {
    std::string t = normalizeText(e.text);
    for (const char* w : words) {
      if (t == w || (t.size() < 30 && t.find(w) != std::string::npos)) return true;
    }
  }
  return false;
}

}  // namespace

// Whether an intent can run on this page, and if not, what it needs (§6.1). Empty: no opinion.
static std::string readiness(const IntentDef& def, const PageScan& page) {
  auto has = [&](const char* p) { return page.pattern(p) != nullptr; };
  if (def.tier == "builtin") {
    const std::string& n = def.name;
    if (n == "login") {
      bool password = false;
      for (const auto& e : page.elements) password = password || e.role == "password";
      return has("login_form") || password ? "ready" : "";
    }
    if (n == "logout") return hasText(page, {"log out", "logout", "sign out", "signout"}) ? "ready" : "";
    if (n == "search") {
      bool box = false;
      for (const auto& e : page.elements) box = box || e.role == "search";
      return has("search_form") || box ? "ready" : "";
    }
    if (n == "accept_cookies") return has("cookie_banner") ? "ready" : "";
    if (n == "dismiss_popups") {
      return has("modal_dialog") || has("overlay") || has("notification_toast") || has("promo_popup") ? "ready" : "";
    }
    if (n == "fill_form") {
      int fields = 0;
      for (const auto& e : page.elements) fields += (e.type == "input" || e.type == "select" || e.type == "textarea") ? 1 : 0;
      return fields >= 2 ? "ready" : "";
    }
    if (n == "submit_form") {
      for (const auto& e : page.elements) {
        if (e.role == "submit") return "ready";
      }
      return "";
    }
    return "";
  }
  bool any = false;
  for (const auto& p : def.trigger_patterns) {
    any = true;
    if (!page.pattern(p)) return "needs " + p;
  }
  for (const auto& u : def.trigger_urls) {
    any = true;
    if (!globMatch(u, page.url) && !globMatch(u, shortUrl(page.url))) return "";
  }
  return any ? "ready" : "";
}

void Session::addAvailability(const PageScan& page, Response& r) {
  for (const auto& e : intents()) {
    std::string state = readiness(*e->def, page);
    if (state == "ready") r.add("available intents", "- " + shortUsage(e->spec) + ": ready");
  }
  if (page.pattern("cookie_banner")) r.add("suggested", "accept_cookies  # a consent banner is open");
  if (page.pattern("modal_dialog") || page.pattern("promo_popup") || page.pattern("overlay")) {
    r.add("suggested", "dismiss_popups  # a popup covers the page");
  }
}

Response Session::doIntents(const Command& c, Ctx& ctx) {
  (void)ctx;
  if (c.args.value("reload", false) && options_.registry) options_.registry->reload();
  std::vector<std::shared_ptr<const IntentEntry>> all;
  {
    std::lock_guard<std::mutex> lock(intents_mu_);
    if (c.args.value("clear_session", false)) {
      session_intents_.clear();
      ++session_generation_;
    }
    for (const auto& [name, e] : session_intents_) all.push_back(e);
  }
  bool only_session = c.args.value("session", false);
  Response r = okResponse("intents");
  json list = json::array();
  if (!only_session && options_.registry) {
    for (const auto& e : options_.registry->all()) all.push_back(e);
  }
  for (const auto& e : all) {
    auto winner = findIntent(e->def->name);
    bool wins = winner && winner->def.get() == e->def.get();
    std::string state = last_ ? readiness(*e->def, *last_) : "";
    std::string line = "- " + shortUsage(e->spec) + " (" + e->def->tier + ")";
    if (!wins) line += " overridden";
    if (wins && !state.empty()) line += ": " + state;
    r.body += line + "\n";
    list.push_back({{"name", e->def->name}, {"tier", e->def->tier}, {"active", wins}, {"state", state}});
  }
  if (options_.registry) {
    for (const auto& err : options_.registry->errors()) r.add("errors", err.message());
  }
  r.data["intents"] = list;
  return r;
}

Response Session::doDefine(const Command& c, Ctx& ctx) {
  (void)ctx;
  LoadOptions o;
  o.tier = "session";
  o.trusted = false;  // agent-defined: no execute steps (§13.2)
  auto def = parseIntent(c.args.value("definition", ""), "definition", o);
  if (!def) return errorResponse("define", def.status());
  if (findCommand(def->name)) {
    return errorResponse("define", Status(codes::kDefinitionInvalid,
                                          "\"" + def->name + "\" is a command; pick another name"));
  }
  std::string name = def->name;
  auto entry = makeEntry(std::move(def.value()));
  bool replaced;
  {
    std::lock_guard<std::mutex> lock(intents_mu_);
    replaced = session_intents_.count(name) > 0;
    session_intents_[name] = entry;
    ++session_generation_;
  }
  Response r = okResponse("define", name);
  r.add("registered", "Intent '" + name + "' " + (replaced ? "replaced" : "available") + " for this session.");
  r.add("usage", entry->spec.usage);
  r.data["name"] = name;
  return r;
}

Response Session::doUndefine(const Command& c, Ctx& ctx) {
  (void)ctx;
  std::string name = c.args.value("name", "");
  {
    std::lock_guard<std::mutex> lock(intents_mu_);
    if (!session_intents_.erase(name)) {
      return errorResponse("undefine", Status(codes::kIntentNotFound, "no session intent named \"" + name + "\"",
                                              "intents --session lists them"));
    }
    ++session_generation_;
  }
  return okResponse("undefine", name);
}

Response Session::doConfig(const Command& c, Ctx& ctx) {
  (void)ctx;
  std::string action = c.args.value("action", "show");
  std::string key = c.args.value("key", "");
  if (action == "set") {
    if (key.empty() || !c.args.contains("value")) {
      return errorResponse("config", Status(codes::kParameterMissing, "config set needs a key and a value",
                                            "config set execution.default_timeout 60s"));
    }
    Status s = config_.set(key, c.args["value"].get<std::string>());
    if (!s) return errorResponse("config", s);
  } else if (action == "reset") {
    Status s = config_.reset(key);
    if (!s) return errorResponse("config", s);
  }
  json shown = config_.toJson();
  if (action == "show" && !key.empty()) {
    std::string k = key.rfind("intent_engine", 0) == 0 ? key : "intent_engine." + key;
    json cur = shown;
    std::stringstream ss(k);
    for (std::string part; std::getline(ss, part, '.');) {
      if (!cur.is_object() || !cur.contains(part)) {
        return errorResponse("config", Status(codes::kParameterInvalid, "unknown setting \"" + key + "\""));
      }
      cur = cur[part];
    }
    shown = {{k, cur}};
  }
  Response r = okResponse("config", action == "show" ? "" : action + (key.empty() ? "" : " " + key));
  // Flat "key: value" lines: compact and readable.
  std::function<void(const json&, const std::string&)> flat = [&](const json& j, const std::string& prefix) {
    if (j.is_object()) {
      for (auto it = j.begin(); it != j.end(); ++it) flat(*it, prefix.empty() ? it.key() : prefix + "." + it.key());
    } else {
      r.body += prefix + ": " + (j.is_string() ? j.get<std::string>() : j.dump()) + "\n";
    }
  };
  flat(shown, "");
  r.data["config"] = config_.toJson();
  return r;
}

}  // namespace lscope
