// CdpPage: Backend primitives over CDP (Page, Runtime, Input, Network, Target domains).
// The scanner runs in an isolated world ("lemmascope") that page scripts cannot see.
#include "transports/cdp/cdp_page.h"

#include <condition_variable>
#include <filesystem>
#include <optional>
#include <set>

#include <spdlog/spdlog.h>

#include "engine/json_bounded.h"
#include "engine/scanner_protocol.h"
#include "scanner/scanner_source.h"
#include "transports/cdp/cdp_keys.h"

namespace lscope::cdp {
namespace {

constexpr const char* kWorldName = "lemmascope";
// evaluateInWorld's answer for a tab the extension drives with scripts (Target::scripted).
constexpr const char* kScriptMode = "SCRIPT_MODE";

// No script, parser or navigation of the page made it (Network.Initiator type "other").
bool initiatedByBrowser(const json& params) {
  return params.contains("initiator") && params["initiator"].value("type", "") == "other";
}

// A request the page did not make, of type Other: what Chromium fetches for itself, the page's
// icon above all. The page's fetches, images and documents have their own types and initiators.
bool isBrowsersOwnRequest(const json& params) {
  return params.value("type", "") == "Other" && initiatedByBrowser(params);
}

// A worker's own script (new Worker(url), a blob: URL too; a SharedWorker's): reported on the
// page's session with no document loader, and its end on the worker's target, never here.
bool isWorkerScriptRequest(const json& params) {
  return params.value("type", "") == "Script" && params.value("loaderId", "").empty() && initiatedByBrowser(params);
}

std::string buttonName(MouseButton b) {
  switch (b) {
    case MouseButton::kLeft: return "left";
    case MouseButton::kMiddle: return "middle";
    case MouseButton::kRight: return "right";
  }
  return "left";
}

int buttonMask(MouseButton b) {
  switch (b) {
    case MouseButton::kLeft: return 1;
    case MouseButton::kRight: return 2;
    case MouseButton::kMiddle: return 4;
  }
  return 1;
}

// The install expression: tells the world the listener registry's channel, defines the API once
// per world and reports whether it is there.
std::string installExpression(const std::string& channel) {
  std::string g(kScannerGlobal);
  return "(" + channelAssignment(channel) + ", globalThis." + g + " || (globalThis." + g + " = (\n" +
         std::string(scannerSource()) + "\n)), typeof globalThis." + g + ".handle === 'function')";
}

// The scanner's answer (a JSON string, scanner-protocol §2) inside an evaluate-shaped reply, from
// the debugger's world or the extension's script mode alike.
Result<json> scannerResponse(const json& reply) {
  const json& value = reply["result"]["value"];
  if (!value.is_string()) return Status(codes::kScriptError, "scanner returned no response");
  bool too_deep = false;
  json parsed = parseJsonBounded(value.get_ref<const std::string&>(), &too_deep, kMaxBrowserJsonNesting);
  if (too_deep) return Status(codes::kScriptError, "the scanner's answer is " + tooDeepMessage(kMaxBrowserJsonNesting));
  if (parsed.is_discarded()) return Status(codes::kScriptError, "scanner returned invalid JSON");
  return parsed;
}

// Runtime.evaluate reports a thrown exception in exceptionDetails, not as a CDP error.
Status exceptionStatus(const json& reply, const std::string& what) {
  const json& d = reply["exceptionDetails"];
  std::string text = d.value("text", std::string("exception"));
  if (d.contains("exception") && d["exception"].contains("description")) {
    text = d["exception"]["description"].get<std::string>();
  }
  return Status(codes::kScriptError, what + ": " + text.substr(0, 300));
}

}  // namespace

Result<std::unique_ptr<CdpPage>> CdpPage::open(std::shared_ptr<CdpConnection> conn,
                                               CdpPageOptions options, Deadline deadline) {
  std::unique_ptr<CdpPage> page(new CdpPage(conn, options));
  CdpPage* raw = page.get();
  page->listener_ = conn->addListener(
      [raw](const std::string& m, const json& p, const std::string& s) { raw->onEvent(m, p, s); });
  if (options.gate) options.gate->add(raw);

  json create = {{"url", "about:blank"},
                 {"width", options.viewport_width},
                 {"height", options.viewport_height}};
  if (!options.browser_context_id.empty()) create["browserContextId"] = options.browser_context_id;
  auto created = page->call("Target.createTarget", create, deadline);
  if (!created) return created.status();
  std::string target = (*created)["targetId"].get<std::string>();
  auto st = page->attachTab(target, deadline);
  if (!st) return st;
  if (options.fit_viewport) page->fitViewport(target, deadline);
  return page;
}

void CdpPage::fitViewport(const std::string& target_id, Deadline deadline) {
  // The window's size includes the browser's own UI, even headless: size the window so the
  // viewport is what was asked for (the same on every backend).
  auto inner = call("Runtime.evaluate", {{"expression", "[innerWidth, innerHeight]"}, {"returnByValue", true}}, deadline);
  auto win = call("Browser.getWindowForTarget", {{"targetId", target_id}}, deadline);
  if (!inner || !win) return;
  const json& size = (*inner)["result"]["value"];
  if (!size.is_array() || size.size() != 2) return;
  int dw = options_.viewport_width - size[0].get<int>();
  int dh = options_.viewport_height - size[1].get<int>();
  if (dw == 0 && dh == 0) return;
  const json& bounds = (*win)["bounds"];
  auto set = call("Browser.setWindowBounds",
                  {{"windowId", (*win)["windowId"]},
                   {"bounds", {{"width", bounds.value("width", 0) + dw}, {"height", bounds.value("height", 0) + dh}}}},
                  deadline);
  if (!set) spdlog::debug("cdp: cannot size the window: {}", set.status().message());
}

CdpPage::~CdpPage() {
  if (options_.gate) options_.gate->remove(this);
  conn_->removeListener(listener_);
  if (!conn_->connected()) return;
  auto deadline = Deadline::in(Millis(3000));
  if (options_.dispose_context && !options_.browser_context_id.empty()) {
    conn_->send("Target.disposeBrowserContext", {{"browserContextId", options_.browser_context_id}},
                "", deadline);
  } else {
    std::vector<std::string> ids;
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (auto& [id, t] : targets_) {
        if (!t.is_frame) ids.push_back(id);
      }
    }
    for (auto& id : ids) conn_->send("Target.closeTarget", {{"targetId", id}}, "", deadline);
  }
}

Status CdpPage::attachTab(const std::string& target_id, Deadline deadline) {
  auto attached = call("Target.attachToTarget", {{"targetId", target_id}, {"flatten", true}}, deadline);
  if (!attached) return attached.status();
  std::string session = (*attached)["sessionId"].get<std::string>();
  {
    std::lock_guard<std::mutex> lock(mu_);
    Target& t = targets_[target_id];
    t.target_id = target_id;
    t.session_id = session;
    t.scripted = attached->value("scripted", std::string());
    active_ = target_id;
  }
  for (const char* method : {"Page.enable", "Network.enable"}) {
    auto r = conn_->send(method, json::object(), session, deadline);
    if (!r) return r.status();
  }
  // The listener registry (scanner/listeners.js) in the main world of every document of the tab,
  // before the page's scripts; `runImmediately` also runs it in the documents there now.
  auto reg = conn_->send("Page.addScriptToEvaluateOnNewDocument",
                         {{"source", listenerRegistryScript(channel_)}, {"runImmediately", true}},
                         session, deadline);
  if (!reg) return reg.status();
  // Out-of-process (cross-origin) iframes become targets of their own, attached to this
  // session; the scanner runs in each (see onEvent: Target.attachedToTarget). They wait for us
  // until the listener registry is in place.
  auto aa = conn_->send("Target.setAutoAttach",
                        {{"autoAttach", true}, {"waitForDebuggerOnStart", true}, {"flatten", true}},
                        session, deadline);
  if (!aa) return aa.status();
  auto tree = conn_->send("Page.getFrameTree", json::object(), session, deadline);
  if (!tree) return tree.status();
  {
    std::lock_guard<std::mutex> lock(mu_);
    Target& t = targets_[target_id];
    t.main_frame_id = (*tree)["frameTree"]["frame"]["id"].get<std::string>();
    t.url = (*tree)["frameTree"]["frame"].value("url", std::string());
  }
  return Status::ok();
}

Result<std::string> CdpPage::activeSession() {
  std::lock_guard<std::mutex> lock(mu_);
  if (crashed_) return Status(codes::kBrowserError, "the page crashed", "goto a URL to load a fresh page, or refresh");
  Target* t = activeTarget();
  if (!t) return Status(codes::kBrowserError, "no open tab", "goto a URL to open one");
  return t->session_id;
}

Result<json> CdpPage::call(const std::string& method, const json& params, Deadline deadline) {
  std::string session;
  if (method.rfind("Target.", 0) != 0 && method.rfind("Browser.", 0) != 0) {
    auto active = activeSession();
    if (!active) return active.status();
    session = std::move(*active);
  }
  return conn_->send(method, params, session, deadline);
}

CdpPage::Target* CdpPage::activeTarget() {
  auto it = targets_.find(active_);
  return it == targets_.end() ? nullptr : &it->second;
}

CdpPage::Target* CdpPage::targetBySession(const std::string& session_id) {
  for (auto& [id, t] : targets_) {
    if (t.session_id == session_id) return &t;
  }
  return nullptr;
}

// --- navigation -------------------------------------------------------------------------

Status CdpPage::navigate(const std::string& url, Deadline deadline) {
  bool tabless;
  {
    std::lock_guard<std::mutex> lock(mu_);
    tabless = !crashed_ && !activeTarget();
  }
  // Every tab was closed under us (by the user, or a page): a goto opens a fresh one.
  if (tabless) return newTab(url, deadline).status();
  uint64_t starts_before = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (Target* t = activeTarget()) starts_before = t->load_starts;
  }
  auto r = call("Page.navigate", {{"url", url}}, deadline);
  if (!r) return r.status();
  if (r->contains("errorText") && !(*r)["errorText"].get<std::string>().empty()) {
    return Status(codes::kNavigationError,
                  (*r)["errorText"].get<std::string>() + " loading " + url,
                  "check the URL and that the site is reachable");
  }
  if (!r->contains("loaderId")) return Status::ok();  // same-document navigation
  {
    // The load may not be seen starting yet: it is, then. Seen starting, the events tell whether
    // it still runs: a page that loaded before this thread woke has stopped already, and marking
    // it loading then waited for a stop that never came (30 s, 1 in 5 attaches under load).
    std::lock_guard<std::mutex> lock(mu_);
    Target* t = activeTarget();
    if (t && t->load_starts == starts_before) t->loading = true;
  }
  return waitNotLoading(deadline, "loading " + url);
}

Status CdpPage::waitNotLoading(Deadline deadline, const std::string& what) {
  std::unique_lock<std::mutex> lock(mu_);
  bool done = cv_.wait_until(lock, deadline.at(), [&] {
    Target* t = activeTarget();
    return crashed_ || !t || !t->loading;
  });
  if (crashed_) return Status(codes::kBrowserError, "the page crashed while " + what);
  if (!done) {
    return Status(codes::kTimeout, what + " did not finish in time",
                  "the page may still be usable: observe, or wait load");
  }
  return Status::ok();
}

Status CdpPage::history(int delta, Deadline deadline) {
  auto h = call("Page.getNavigationHistory", json::object(), deadline);
  if (!h) return h.status();
  int index = (*h)["currentIndex"].get<int>() + delta;
  const json& entries = (*h)["entries"];
  if (index < 0 || index >= static_cast<int>(entries.size())) {
    return Status(codes::kNavigationError,
                  delta < 0 ? "no previous page in history" : "no next page in history");
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (Target* t = activeTarget()) t->loading = true;
  }
  auto r = call("Page.navigateToHistoryEntry", {{"entryId", entries[index]["id"]}}, deadline);
  if (!r) return r.status();
  return waitNotLoading(deadline, delta < 0 ? "going back" : "going forward");
}

Status CdpPage::goBack(Deadline deadline) { return history(-1, deadline); }
Status CdpPage::goForward(Deadline deadline) { return history(1, deadline); }

Status CdpPage::reload(Deadline deadline) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (Target* t = activeTarget()) t->loading = true;
  }
  auto r = call("Page.reload", json::object(), deadline);
  if (!r) return r.status();
  return waitNotLoading(deadline, "reloading");
}

Result<std::string> CdpPage::currentUrl(Deadline deadline) {
  {
    // The URL the last frameNavigated/navigatedWithinDocument reported: always there, even in
    // the moment after a navigation when history calls answer "Not attached to an active page".
    std::lock_guard<std::mutex> lock(mu_);
    Target* t = activeTarget();
    if (t && !t->url.empty()) return t->url;
  }
  auto h = call("Page.getNavigationHistory", json::object(), deadline);
  if (!h) return h.status();
  return (*h)["entries"][(*h)["currentIndex"].get<int>()].value("url", std::string());
}

Status CdpPage::waitForLoad(Deadline deadline) { return waitNotLoading(deadline, "page load"); }

uint64_t CdpPage::navigationCount() {
  std::lock_guard<std::mutex> lock(mu_);
  Target* t = activeTarget();
  return t ? t->navigations : 0;
}

Status CdpPage::waitForNavigation(uint64_t after, Deadline deadline) {
  std::unique_lock<std::mutex> lock(mu_);
  bool done = cv_.wait_until(lock, deadline.at(), [&] {
    Target* t = activeTarget();
    return crashed_ || (t && t->navigations > after);
  });
  if (crashed_) return Status(codes::kBrowserError, "the page crashed");
  if (!done) return Status(codes::kTimeout, "no navigation happened in time");
  return Status::ok();
}

void CdpPage::dropRequests(Target& t, const std::function<bool(const Target::Request&)>& gone) {
  for (auto it = t.inflight.begin(); it != t.inflight.end();) {
    if (gone(it->second)) it = t.inflight.erase(it);
    else ++it;
  }
}

void CdpPage::dropRequestsOf(Target& t, const std::string& frame_id) {
  if (!frame_id.empty()) dropRequests(t, [&](const Target::Request& r) { return r.frame == frame_id; });
}

void CdpPage::frameSessionEnded(std::map<std::string, Target>::iterator frame) {
  // A command waiting on the frame (a click's guard check, a scan) would otherwise wait for its
  // deadline: nothing answers for a frame that went.
  conn_->failSession(frame->second.session_id);
  targets_.erase(frame);
  ++frames_gone_;
}

Status CdpPage::waitForNetworkIdle(Millis quiet, Deadline deadline) {
  auto since = Clock::now();  // quiet is counted from the call: earlier silence does not count
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    Target* t = activeTarget();
    if (crashed_) return Status(codes::kBrowserError, "the page crashed");
    if (!t) return Status::ok();
    auto idle_at = std::max(t->last_network, since) + quiet;
    if (t->inflight.empty() && !t->loading && Clock::now() >= idle_at) return Status::ok();
    // Wake on any event, or when the quiet period would be over.
    auto until = t->inflight.empty() && !t->loading ? std::min(idle_at, deadline.at()) : deadline.at();
    if (cv_.wait_until(lock, until) == std::cv_status::timeout && Clock::now() >= deadline.at()) {
      return Status(codes::kTimeout,
                    std::to_string(t->inflight.size()) + " network request(s) still in flight",
                    "the page keeps the network busy (polling, streaming); wait for an element instead");
    }
  }
}

std::optional<bool> CdpPage::networkActiveSince(Clock::time_point since) {
  std::lock_guard<std::mutex> lock(mu_);
  Target* t = activeTarget();
  return t && (!t->inflight.empty() || t->loading || t->last_network >= since);
}

std::optional<bool> CdpPage::requestsInFlight() { return networkActiveSince(Clock::time_point::max()); }

// --- the scanner --------------------------------------------------------------------------

Result<int> CdpPage::scannerWorld(const std::string& session, const std::string& frame_id,
                                  Deadline deadline) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    Target* t = targetBySession(session);
    if (!t) return Status(codes::kBrowserError, "the tab is gone");
    auto it = t->worlds.find(frame_id);
    if (it != t->worlds.end()) return it->second;
  }
  auto world = conn_->send("Page.createIsolatedWorld",
                           {{"frameId", frame_id}, {"worldName", kWorldName}}, session, deadline);
  if (!world) return world.status();
  int context = (*world)["executionContextId"].get<int>();
  auto installed = conn_->send(
      "Runtime.evaluate",
      {{"expression", installExpression(channel_)}, {"contextId", context}, {"returnByValue", true}},
      session, deadline);
  if (!installed) return installed.status();
  if (installed->contains("exceptionDetails")) {
    return exceptionStatus(*installed, "the scanner failed to load");
  }
  std::lock_guard<std::mutex> lock(mu_);
  if (Target* t = targetBySession(session)) t->worlds[frame_id] = context;
  return context;
}

Status CdpPage::locateFrame(const std::string& frame_id, std::string& session, std::string& frame) {
  std::lock_guard<std::mutex> lock(mu_);
  if (crashed_) return Status(codes::kBrowserError, "the page crashed", "goto a URL or refresh");
  Target* t = nullptr;
  if (!frame_id.empty()) {
    auto it = targets_.find(frame_id);
    if (it == targets_.end() || !it->second.is_frame) {
      return Status(codes::kElementStale, "the frame is gone", "run observe again");
    }
    t = &it->second;
  } else {
    t = activeTarget();
  }
  if (!t) return Status(codes::kBrowserError, "no open tab", "goto a URL to open one");
  session = t->session_id;
  frame = t->main_frame_id;
  return Status::ok();
}

bool CdpPage::rendererBusy(const std::string& session) {
  // The smallest script there is: a renderer that cannot run it in a second is held by the page.
  auto probe = conn_->send("Runtime.evaluate", {{"expression", "0"}}, session, Deadline::in(Millis(1000)));
  return !probe && probe.status().code() == codes::kTimeout;
}

Result<json> CdpPage::evaluateInWorld(const std::string& frame_id, const std::string& expression,
                                      bool by_value, Deadline deadline, bool retry) {
  // Only a renderer silent for a while may be judged held by the page: one call that waited 3 s,
  // or several short ones (a settle's steps) that all ran out over 3 s. A short call alone (a
  // click's guard check) must never stop a page's long but finite handler.
  constexpr Millis kSilence{3000};
  for (int attempt = 0;; ++attempt) {
    const auto started = Clock::now();
    std::string session, frame;
    LSCOPE_RETURN_IF_ERROR(locateFrame(frame_id, session, frame));
    uint64_t navigations = 0;
    {
      std::lock_guard<std::mutex> lock(mu_);
      Target* t = targetBySession(session);
      if (t && !t->scripted.empty()) {
        return Status(kScriptMode, "the tab went to script mode (" + t->scripted + ")", "run the command again");
      }
      if (t) navigations = t->navigations;
    }
    auto context = scannerWorld(session, frame, deadline);
    bool dispatched = false;
    Result<json> reply = context.status();
    if (context) {
      dispatched = true;
      reply = conn_->send("Runtime.evaluate",
                          {{"expression", expression},
                           {"contextId", *context},
                           {"awaitPromise", true},
                           {"returnByValue", by_value}},
                          session, deadline);
    }
    const bool timed_out = !reply && reply.status().code() == codes::kTimeout;
    bool silent = false;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (timed_out) {
        auto since = unanswered_since_.emplace(session, started).first->second;
        auto quiet = std::chrono::duration_cast<Millis>(Clock::now() - since);
        silent = quiet >= kSilence;
        spdlog::debug("cdp: a script call ran out of time ({}); the renderer has not answered for {} ms",
                      reply.status().message(), quiet.count());
      } else {
        unanswered_since_.erase(session);
      }
    }
    bool busy = silent && rendererBusy(session);
    // A script stopped by an earlier call of this command (a wait before the scan) is the reason
    // this one ran out of time too: said the same way, once.
    bool stopped_before = timed_out && stopped_script_.exchange(false);
    if (reply) stopped_script_ = false;
    if (busy || stopped_before) {
      // The page's own script has not yielded (an endless loop keeps the renderer's thread, so
      // the scanner never ran): stop that script, as DevTools' pause button would, so the tab
      // answers again, and say so.
      if (busy) {
        conn_->post("Runtime.terminateExecution", json::object(), session);
        stopped_script_ = true;
        std::lock_guard<std::mutex> lock(mu_);
        unanswered_since_.erase(session);
        events_.push_back({"script_stopped", "", "kept the browser busy (an endless loop?): lscope stopped it"});
      }
      return Status(codes::kTimeout,
                    "the page's own script kept the browser busy (an endless loop?): lscope stopped it",
                    "observe again: the tab answers now; the page may be half-broken, refresh it if so");
    }
    if (!reply) {
      // A frame's own session ends when the frame goes (a consent iframe removed by the click
      // that answered it): the frame is gone, the browser is not.
      if (!frame_id.empty() && reply.status().code() == codes::kConnectionError) {
        return Status(codes::kElementStale, "the frame is gone (" + reply.status().message() + ")", "run observe again");
      }
      if (reply.status().code() != "CONTEXT_LOST") return reply.status();
      if (frame_id.empty() && options_.extension) {
        // Through the extension the browser also ends a world when a page takes in another
        // extension's frame (the debugger is refused from then on): no navigation, and the
        // extension says script mode a moment later. The command goes on there.
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait_until(lock, std::min(deadline.at(), Clock::now() + Millis(500)), [&] {
          Target* t = targetBySession(session);
          return !t || !t->scripted.empty() || t->navigations != navigations;
        });
        Target* t = targetBySession(session);
        if (t && !t->scripted.empty() && t->navigations == navigations) {
          return Status(kScriptMode, "the tab went to script mode (" + t->scripted + ")", "run the command again");
        }
      }
      // The document changed under us (navigation): forget the world. A command that had not
      // run yet, or is safe to repeat, runs again in the new document.
      {
        std::lock_guard<std::mutex> lock(mu_);
        if (Target* t = targetBySession(session)) t->worlds.erase(frame);
      }
      if ((!dispatched || retry) && attempt < 3) continue;
      return Status(codes::kNavigationError, "the page navigated while the command ran",
                    "observe the new page");
    }
    if (reply->contains("exceptionDetails")) return exceptionStatus(*reply, "scanner");
    return reply;
  }
}

Result<json> CdpPage::scriptedScanner(const std::string& session, const json& command, bool repeatable,
                                      Deadline deadline) {
  for (int attempt = 0;; ++attempt) {
    auto reply = conn_->send("Lemmascope.scanner", {{"command", command}}, session, deadline);
    if (!reply && reply.status().code() == "CONTEXT_LOST") {
      if (repeatable && attempt < 3) continue;  // the document went: read the new one
      return Status(codes::kNavigationError, "the page navigated while the command ran", "observe the new page");
    }
    if (!reply) return reply.status();
    return scannerResponse(*reply);
  }
}

Result<json> CdpPage::scanner(const json& command, const std::string& frame_id, Deadline deadline) {
  // Reading commands are safe to repeat in a new document; actions and waits are not.
  bool repeatable = isReadOnlyScannerCommand(command.value("cmd", ""));
  // The session to send Lemmascope.scanner to when the tab is in script mode: the tab's, or a
  // cross-origin frame's own (the extension's frame sessions of a scripted tab).
  auto scripted = [&]() {
    std::lock_guard<std::mutex> lock(mu_);
    if (frame_id.empty()) {
      Target* t = activeTarget();
      return t && !t->scripted.empty() ? t->session_id : std::string();
    }
    auto it = targets_.find(frame_id);
    if (it == targets_.end() || !it->second.is_frame) return std::string();
    Target* parent = targetBySession(it->second.parent_session);
    return parent && !parent->scripted.empty() ? it->second.session_id : std::string();
  };
  std::string session = scripted();
  if (!session.empty()) return scriptedScanner(session, command, repeatable, deadline);
  std::string expr = "globalThis." + std::string(kScannerGlobal) + ".handle(" +
                     command.dump(-1, ' ', false, json::error_handler_t::replace) + ")";
  auto reply = evaluateInWorld(frame_id, expr, true, deadline, repeatable);
  // The tab went to script mode under this command: its world went with the debugger, in the
  // same document. A command without effects on the page (a read, a wait) runs again there; an
  // action that may have run says so.
  if (!reply && reply.status().code() == kScriptMode && !(session = scripted()).empty()) {
    if (isEffectFreeScannerCommand(command.value("cmd", ""))) {
      return scriptedScanner(session, command, repeatable, deadline);
    }
    return Status(codes::kNavigationError, "the tab went to script mode while the command ran (" + reply.status().message() + ")",
                  "observe, then try again");
  }
  if (!reply) return reply.status();
  return scannerResponse(*reply);
}

// --- input ---------------------------------------------------------------------------------

void CdpPage::noteSynthesizedInput() {
  std::lock_guard<std::mutex> lock(mu_);
  Target* t = activeTarget();
  if (!t || t->scripted.empty()) return;
  // Once per answer: the engine drains events after each command.
  bool noted = std::any_of(events_.begin(), events_.end(), [](const BrowserEvent& e) { return e.kind == "synthesized_input"; });
  if (!noted) events_.push_back({"synthesized_input", "", t->scripted});
}

Status CdpPage::mouseMove(Point to, Deadline deadline) {
  noteSynthesizedInput();
  json ev = {{"type", "mouseMoved"}, {"x", to.x}, {"y", to.y}};
  if (held_buttons_) ev.update({{"button", "left"}, {"buttons", held_buttons_}});
  auto r = call("Input.dispatchMouseEvent", ev, deadline);
  return r.status();
}

Status CdpPage::mouseButton(Point at, bool down, Deadline deadline) {
  noteSynthesizedInput();
  const int buttons = down ? buttonMask(MouseButton::kLeft) : 0;
  json ev = {{"type", down ? "mousePressed" : "mouseReleased"}, {"x", at.x}, {"y", at.y}, {"button", "left"},
             {"clickCount", 1}, {"buttons", buttons}};
  Status sent = call("Input.dispatchMouseEvent", ev, deadline).status();
  // Held only once pressed; let go whatever the release's answer (it was sent).
  if (sent || !down) held_buttons_ = buttons;
  return sent;
}

Status CdpPage::mouseClick(Point at, MouseButton button, int click_count, int modifiers,
                           Deadline deadline) {
  spdlog::trace("cdp click at {},{}", at.x, at.y);
  noteSynthesizedInput();
  std::vector<std::pair<const char*, json>> events;
  events.emplace_back("Input.dispatchMouseEvent", json{{"type", "mouseMoved"}, {"x", at.x}, {"y", at.y}});
  for (int i = 1; i <= std::max(1, click_count); ++i) {
    json ev = {{"x", at.x},       {"y", at.y},         {"button", buttonName(button)},
               {"clickCount", i}, {"modifiers", modifiers}, {"buttons", buttonMask(button)}};
    ev["type"] = "mousePressed";
    events.emplace_back("Input.dispatchMouseEvent", ev);
    ev["type"] = "mouseReleased";
    ev["buttons"] = 0;
    events.emplace_back("Input.dispatchMouseEvent", ev);
  }
  return dispatchInOrder(events, deadline);
}

Status CdpPage::insertText(const std::string& text, Deadline deadline) {
  noteSynthesizedInput();
  // Printable ASCII goes key by key, so keydown/keyup listeners (autocomplete, validation, input
  // masks) see real keystrokes; anything else is committed at once like an input method would.
  std::vector<std::pair<const char*, json>> events;
  size_t i = 0;
  for (; i < text.size(); ++i) {
    auto key = keyForChar(text[i]);
    if (!key) break;
    events.emplace_back("Input.dispatchKeyEvent", keyEvent(*key, "keyDown", 0));
    events.emplace_back("Input.dispatchKeyEvent", keyEvent(*key, "keyUp", 0));
  }
  if (i < text.size()) events.emplace_back("Input.insertText", json{{"text", text.substr(i)}});
  return dispatchInOrder(events, deadline);
}

Status CdpPage::typePaced(const std::string& text, Deadline deadline) {
  noteSynthesizedInput();
  for (size_t i = 0; i < text.size(); ++i) {
    auto key = keyForChar(text[i]);
    if (!key) return dispatchInOrder({{"Input.insertText", json{{"text", text.substr(i)}}}}, deadline);
    LSCOPE_RETURN_IF_ERROR(dispatchInOrder({{"Input.dispatchKeyEvent", keyEvent(*key, "keyDown", 0)},
                                            {"Input.dispatchKeyEvent", keyEvent(*key, "keyUp", 0)}}, deadline));
    // The work the key queued runs before the next key (a zero timer comes after it: React's
    // scheduled render and effects). The answer alone left Carbon's NumberInput behind 7 times in 8.
    auto caught_up = call("Runtime.evaluate",
                          {{"expression", "new Promise((r) => setTimeout(r, 0))"}, {"awaitPromise", true}}, deadline);
    if (!caught_up) return caught_up.status();
  }
  return Status::ok();
}

Status CdpPage::commitText(const std::string& text, Deadline deadline) {
  noteSynthesizedInput();
  return dispatchInOrder({{"Input.insertText", json{{"text", text}}}}, deadline);
}

Status CdpPage::dispatchInOrder(const std::vector<std::pair<const char*, json>>& events, Deadline deadline) {
  if (events.empty()) return Status::ok();
  auto active = activeSession();
  if (!active) return active.status();
  const std::string& session = *active;
  // Sent without waiting for each answer: the browser's input queue delivers them in order, each
  // handled (its listeners run, its input event fired) before the next, as for a fast typist. A
  // round trip per event cost ~30 ms for a 4-letter word. The last answer comes after the others.
  struct Failure {
    std::mutex mu;
    Status status;
  };
  auto failure = std::make_shared<Failure>();
  auto note = [failure](const Result<json>& r) {
    std::lock_guard<std::mutex> lock(failure->mu);
    if (!r && failure->status.ok()) failure->status = r.status();
  };
  for (size_t k = 0; k + 1 < events.size(); ++k) conn_->post(events[k].first, events[k].second, session, note);
  // The last answer. Input that makes the page remove the out-of-process frame it went to (a
  // consent dialog's button in a cross-origin frame: the page drops the frame on its message)
  // is never answered: Chromium drops the acknowledgement with the frame's widget. So once a
  // frame went meanwhile, a short wait more, then the input counts as given (the engine looks
  // at what it did, as after any click).
  struct Last {
    std::mutex mu;
    std::condition_variable cv;
    std::optional<Result<json>> answer;
  };
  auto last = std::make_shared<Last>();
  const uint64_t gone_before = framesGone();
  conn_->post(events.back().first, events.back().second, session, [last](const Result<json>& r) {
    std::lock_guard<std::mutex> lock(last->mu);
    last->answer = r;
    last->cv.notify_all();
  });
  std::optional<Clock::time_point> gone_at;
  for (;;) {
    auto now = Clock::now();
    if (!gone_at && framesGone() != gone_before) gone_at = now;
    std::unique_lock<std::mutex> lock(last->mu);
    if (last->answer) {
      if (!*last->answer) return last->answer->status();
      break;
    }
    if (gone_at && now >= *gone_at + kUnansweredAfterFrameGone) {
      spdlog::debug("cdp: {} unanswered after a frame went: taken as given", events.back().first);
      break;
    }
    if (now >= deadline.at()) return Status(codes::kTimeout, std::string(events.back().first) + " did not answer in time");
    // Woken by the answer; a frame going is looked for every tick.
    last->cv.wait_until(lock, std::min(deadline.at(), now + std::chrono::milliseconds(100)));
  }
  std::lock_guard<std::mutex> lock(failure->mu);
  return failure->status;
}

uint64_t CdpPage::framesGone() {
  std::lock_guard<std::mutex> lock(mu_);
  return frames_gone_;
}

Status CdpPage::pressKey(const std::string& key_name, int modifiers, Deadline deadline) {
  auto key = keyByName(key_name);
  if (!key) {
    return Status(codes::kParameterInvalid, "unknown key \"" + key_name + "\"",
                  "use a key name such as Enter, Tab, Escape, ArrowDown, F5, or a single character");
  }
  noteSynthesizedInput();
  return dispatchInOrder({{"Input.dispatchKeyEvent", keyEvent(*key, "keyDown", modifiers)},
                          {"Input.dispatchKeyEvent", keyEvent(*key, "keyUp", modifiers)}},
                         deadline);
}

Result<std::string> CdpPage::screenshot(Deadline deadline) {
  auto r = call("Page.captureScreenshot", {{"format", "png"}}, deadline);
  if (!r) return r.status();
  return (*r)["data"].get<std::string>();
}

// --- frames, tabs, files --------------------------------------------------------------------

Result<std::vector<FrameInfo>> CdpPage::frames(Deadline deadline) {
  std::vector<std::pair<FrameInfo, std::string>> found;  // frame, parent session
  std::string scripted_session;
  {
    std::lock_guard<std::mutex> lock(mu_);
    Target* page = activeTarget();
    if (page && !page->scripted.empty()) scripted_session = page->session_id;
  }
  // Script mode: the extension announces the cross-origin frames there are now (their
  // Target.attachedToTarget events arrive before this answer).
  if (!scripted_session.empty()) conn_->send("Lemmascope.frames", json::object(), scripted_session, deadline);
  {
    std::lock_guard<std::mutex> lock(mu_);
    Target* page = activeTarget();
    if (!page) return std::vector<FrameInfo>{};
    for (auto& [id, t] : targets_) {
      if (t.is_frame && t.parent_session == page->session_id) {
        found.push_back({FrameInfo{id, t.url, active_, true, {}}, t.parent_session});
      }
    }
  }
  std::vector<FrameInfo> out;
  for (auto& [info, parent] : found) {
    if (info.url.empty()) {
      // Attached before its first navigation (through the extension frames do not wait for the
      // debugger): the frame's own tree says where it is now.
      std::string session;
      {
        std::lock_guard<std::mutex> lock(mu_);
        auto it = targets_.find(info.id);
        if (it != targets_.end()) session = it->second.session_id;
      }
      auto tree = session.empty() ? Result<json>(Status(codes::kElementStale, "gone"))
                                  : conn_->send("Page.getFrameTree", json::object(), session, deadline);
      if (tree) {
        info.url = (*tree)["frameTree"]["frame"].value("url", std::string());
        std::lock_guard<std::mutex> lock(mu_);
        auto it = targets_.find(info.id);
        if (it != targets_.end()) it->second.url = info.url;
      }
    }
    // Where the <iframe> element's content box is, in the embedding page's viewport.
    auto owner = conn_->send("DOM.getFrameOwner", {{"frameId", info.id}}, parent, deadline);
    if (!owner) continue;  // detached meanwhile
    auto box = conn_->send("DOM.getBoxModel", {{"backendNodeId", (*owner)["backendNodeId"]}}, parent, deadline);
    if (!box) continue;  // not rendered (display:none)
    const json& q = (*box)["model"]["content"];
    info.box = Rect{q[0].get<double>(), q[1].get<double>(), q[4].get<double>() - q[0].get<double>(),
                    q[5].get<double>() - q[1].get<double>()};
    out.push_back(info);
  }
  return out;
}

Result<std::vector<TabInfo>> CdpPage::tabs(Deadline deadline) {
  auto r = call("Target.getTargets", json::object(), deadline);
  if (!r) return r.status();
  std::vector<TabInfo> out;
  for (const auto& info : (*r)["targetInfos"]) {
    if (info.value("type", "") != "page") continue;
    if (!options_.browser_context_id.empty() &&
        info.value("browserContextId", "") != options_.browser_context_id) {
      continue;
    }
    std::string id = info["targetId"].get<std::string>();
    std::lock_guard<std::mutex> lock(mu_);
    if (options_.browser_context_id.empty() && !targets_.count(id)) continue;  // not ours
    if (closed_tabs_.count(id)) continue;  // closed, not yet gone from the browser's list
    out.push_back({id, info.value("url", ""), info.value("title", ""), id == active_});
  }
  return out;
}

Status CdpPage::switchTab(const std::string& tab_id, Deadline deadline) {
  bool attached;
  {
    std::lock_guard<std::mutex> lock(mu_);
    attached = targets_.count(tab_id) && !targets_[tab_id].session_id.empty();
    if (attached) active_ = tab_id;
  }
  if (!attached) LSCOPE_RETURN_IF_ERROR(attachTab(tab_id, deadline));
  return call("Target.activateTarget", {{"targetId", tab_id}}, deadline).status();
}

Status CdpPage::closeTab(const std::string& tab_id, Deadline deadline) {
  auto r = call("Target.closeTarget", {{"targetId", tab_id}}, deadline);
  if (!r) return r.status();
  std::string next;
  bool next_attached = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    targets_.erase(tab_id);
    closed_tabs_.insert(tab_id);  // the browser lists it a moment longer: tabs() does not
    if (active_ != tab_id) return Status::ok();
    active_.clear();
    for (auto& [id, t] : targets_) {
      if (t.is_frame) continue;
      next = id;
      next_attached = !t.session_id.empty();
    }
    if (next_attached) active_ = next;
  }
  if (next.empty()) return newTab("", deadline).status();  // never leave the session tab-less
  if (!next_attached) return switchTab(next, deadline);
  return Status::ok();
}

Result<std::string> CdpPage::newTab(const std::string& url, Deadline deadline) {
  json create = {{"url", "about:blank"}};  // a tab of the context's window, same size
  if (!options_.browser_context_id.empty()) create["browserContextId"] = options_.browser_context_id;
  auto created = call("Target.createTarget", create, deadline);
  if (!created) return created.status();
  std::string id = (*created)["targetId"].get<std::string>();
  LSCOPE_RETURN_IF_ERROR(attachTab(id, deadline));
  if (!url.empty()) LSCOPE_RETURN_IF_ERROR(navigate(url, deadline));
  return id;
}

Status CdpPage::setFiles(int scanner_id, const std::string& frame_id,
                         const std::vector<std::string>& paths, Deadline deadline) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    Target* t = activeTarget();
    if (frame_id.empty() && t && !t->scripted.empty()) {
      return Status(codes::kUnsupported, "a file upload needs the debugger, which the browser refuses on this tab (" + t->scripted + ")",
                    "upload on a page without another extension's frame, or use the cdp backend");
    }
  }
  // The element object from the scanner's map, then DOM.setFileInputFiles on it.
  std::string expr = "globalThis." + std::string(kScannerGlobal) + ".element(" + std::to_string(scanner_id) + ")";
  auto el = evaluateInWorld(frame_id, expr, false, deadline);
  if (!el) return el.status();
  const json& result = (*el)["result"];
  if (!result.contains("objectId")) {
    return Status(codes::kElementStale, "the file input is gone", "run observe again");
  }
  std::string session, frame;
  LSCOPE_RETURN_IF_ERROR(locateFrame(frame_id, session, frame));
  auto r = conn_->send("DOM.setFileInputFiles", {{"files", paths}, {"objectId", result["objectId"]}}, session, deadline);
  conn_->post("Runtime.releaseObject", {{"objectId", result["objectId"]}}, session);
  return r.status();
}

bool CdpPage::ownsFrame(const std::string& frame_id) {
  std::lock_guard<std::mutex> lock(mu_);
  if (targets_.count(frame_id)) return true;
  for (const auto& [id, t] : targets_) {
    if (t.main_frame_id == frame_id || t.child_frames.count(frame_id)) return true;
  }
  return false;
}

void CdpPage::noteBlocked(const std::string& frame_id, const std::string& url, const std::string& why) {
  std::lock_guard<std::mutex> lock(mu_);
  Target* t = activeTarget();
  bool own_document = t && (frame_id == t->target_id || frame_id == t->main_frame_id);
  // Another tab's own document (a popup refused before it had a URL): name the tab, so the
  // engine closes it even while the browser still lists it without one.
  std::string tab;
  for (const auto& [id, other] : targets_) {
    if (!own_document && (frame_id == other.target_id || frame_id == other.main_frame_id)) tab = id;
  }
  events_.push_back({own_document ? "blocked_navigation" : "blocked", url, why, tab});
}

std::vector<BrowserEvent> CdpPage::drainEvents() {
  std::lock_guard<std::mutex> lock(mu_);
  // A download still running when a command ends is said once, so the agent knows to look later.
  for (auto& [guid, d] : downloads_) {
    if (d.announced) continue;
    d.announced = true;
    events_.push_back({"download_progress", d.name, downloadProgressText(d.received, d.total)});
  }
  std::vector<BrowserEvent> out;
  out.swap(events_);
  return out;
}

// --- events (socket thread: quick, never blocking) -------------------------------------------

void CdpPage::finishDownload(const json& params) {
  auto it = downloads_.find(params.value("guid", ""));
  if (it == downloads_.end()) return;
  std::string state = params.value("state", "");
  if (state == "inProgress") {
    it->second.received = params.value("receivedBytes", 0.0);
    it->second.total = params.value("totalBytes", 0.0);
    return;
  }
  if (state == "canceled") {
    events_.push_back({"download", it->second.name, "canceled"});
    downloads_.erase(it);
    return;
  }
  if (state != "completed") return;
  // Chromium saved it under its guid ("allowAndName"); give it the name the site suggested,
  // without overwriting an earlier download.
  namespace fs = std::filesystem;
  fs::path dir(options_.downloads_dir);
  fs::path from = dir / it->first;
  std::string name = it->second.name.empty() ? it->first : fs::path(it->second.name).filename().string();
  fs::path to = dir / name;
  for (int n = 2; fs::exists(to); ++n) {
    to = dir / (fs::path(name).stem().string() + " (" + std::to_string(n) + ")" + fs::path(name).extension().string());
  }
  std::error_code ec;
  fs::rename(from, to, ec);
  if (ec) to = from;
  auto size = fs::file_size(to, ec);
  events_.push_back({"download", to.string(), ec ? "size unknown" : std::to_string(size) + " bytes"});
  downloads_.erase(it);
}

// Events run on the socket thread: update state, queue BrowserEvents, never block.
void CdpPage::onEvent(const std::string& method, const json& params, const std::string& session_id) {
  spdlog::trace("cdp event {}", method);  // never params: they can carry typed secrets
  std::lock_guard<std::mutex> lock(mu_);
  if (session_id.empty()) {
    // Browser-level events: keep those about our context's targets.
    if (method == "Target.targetCreated" || method == "Target.targetInfoChanged") {
      const json& info = params["targetInfo"];
      if (info.value("type", "") == "iframe") {
        auto it = targets_.find(info.value("targetId", ""));
        if (it != targets_.end()) it->second.url = info.value("url", "");
        return;
      }
      if (info.value("type", "") != "page") return;
      if (options_.browser_context_id.empty() ||
          info.value("browserContextId", "") != options_.browser_context_id) {
        return;
      }
      std::string id = info["targetId"].get<std::string>();
      bool is_new = !targets_.count(id);
      Target& t = targets_[id];
      t.target_id = id;
      t.url = info.value("url", "");
      t.title = info.value("title", "");
      if (is_new && method == "Target.targetCreated" && !active_.empty()) {
        events_.push_back({"tab_opened", id, t.url});
      }
    } else if (method == "Target.targetDestroyed") {
      auto it = targets_.find(params.value("targetId", ""));
      if (it != targets_.end() && !it->second.is_frame) targets_.erase(it);
    } else if (method == "Target.detachedFromTarget") {
      for (auto it = targets_.begin(); it != targets_.end(); ++it) {
        if (it->second.session_id == params.value("sessionId", "")) {
          if (it->second.is_frame) frameSessionEnded(it);
          else it->second.session_id.clear();
          break;
        }
      }
    } else if (method == "Browser.downloadWillBegin") {
      downloads_[params.value("guid", "")].name = params.value("suggestedFilename", "");
    } else if (method == "Browser.downloadProgress") {
      finishDownload(params);
    }
    cv_.notify_all();
    return;
  }

  if (method == "Target.attachedToTarget") {
    // A cross-origin iframe of one of our pages (auto-attach): a target of its own. Auto-attached
    // targets wait for the debugger: anything else (a worker) just runs.
    const json& info = params["targetInfo"];
    std::string attached_session = params.value("sessionId", "");
    if (info.value("type", "") != "iframe") {
      if (params.value("waitingForDebugger", false)) {
        conn_->post("Runtime.runIfWaitingForDebugger", json::object(), attached_session);
      }
      return;
    }
    std::string id = info.value("targetId", "");
    // The frame's document request went on in the frame's own process, whose network this page
    // does not follow: its end never comes here, and the page would look busy for good.
    if (Target* parent = targetBySession(session_id)) dropRequestsOf(*parent, id);
    Target& f = targets_[id];
    f.target_id = id;
    f.session_id = params.value("sessionId", "");
    f.main_frame_id = id;  // an out-of-process frame's id is its target id
    f.url = info.value("url", "");
    f.is_frame = true;
    f.parent_session = session_id;
    // Messages of one session run in order: the registry is in place before the frame runs.
    conn_->post("Page.enable", json::object(), f.session_id);
    conn_->post("Page.addScriptToEvaluateOnNewDocument",
                {{"source", listenerRegistryScript(channel_)}, {"runImmediately", true}}, f.session_id);
    conn_->post("Target.setAutoAttach", {{"autoAttach", true}, {"waitForDebuggerOnStart", true}, {"flatten", true}},
                f.session_id);
    if (params.value("waitingForDebugger", false)) {
      conn_->post("Runtime.runIfWaitingForDebugger", json::object(), f.session_id);
    }
    cv_.notify_all();
    return;
  }
  if (method == "Target.detachedFromTarget") {
    for (auto it = targets_.begin(); it != targets_.end(); ++it) {
      if (it->second.is_frame && it->second.session_id == params.value("sessionId", "")) {
        frameSessionEnded(it);
        break;
      }
    }
    return;
  }

  Target* t = targetBySession(session_id);
  if (!t) return;
  if (method == "Lemmascope.scripted") {
    // The extension lost the debugger on this tab (a frame of another extension appeared) and
    // drives it with scripts from now on: its worlds went with the debugger.
    t->scripted = params.value("reason", std::string("the browser refuses the debugger"));
    t->worlds.clear();
    t->child_frames.clear();
    t->main_frame_id = params.value("frameId", t->main_frame_id);
    if (params.contains("url")) t->url = params.value("url", t->url);
    t->loading = params.value("loading", false);
    t->inflight.clear();
    t->browser_own.clear();
    for (auto it = targets_.begin(); it != targets_.end();) {  // its out-of-process frames went too
      if (it->second.is_frame && it->second.parent_session == session_id) it = targets_.erase(it);
      else ++it;
    }
    cv_.notify_all();
    return;
  }
  if (method == "Lemmascope.debugger") {
    // A new document of a scripted tab that the browser lets the debugger have again: trusted
    // input, the real frame id, and the document's own load events from here on.
    t->scripted.clear();
    t->worlds.clear();
    t->main_frame_id = params.value("frameId", t->main_frame_id);
    if (params.contains("url")) t->url = params.value("url", t->url);
    t->loading = params.value("loading", false);
    t->inflight.clear();
    t->browser_own.clear();
    cv_.notify_all();
    return;
  }
  if (method == "Lemmascope.popupBlocked") {
    events_.push_back({"blocked", params.value("url", ""),
                       "the browser's popup blocker stopped a window the page opened (it wants a user's gesture, and "
                       "synthesized input is none): goto it to follow"});
    return;
  }
  if (method == "Page.frameStartedLoading" || method == "Page.frameStartedNavigating") {
    // frameStartedNavigating comes first, as soon as the browser starts a navigation (a form
    // submission is scheduled asynchronously after the click that caused it).
    bool new_document = method == "Page.frameStartedLoading" ||
                        params.value("navigationType", "") == "differentDocument";
    if (params.value("frameId", "") == t->main_frame_id && new_document && !t->is_frame) {
      t->loading = true;
      ++t->load_starts;
    }
    t->last_network = Clock::now();
  } else if (method == "Page.frameRequestedNavigation") {
    t->last_network = Clock::now();  // activity: restarts the quiet period
  } else if (method == "Page.frameStoppedLoading") {
    if (params.value("frameId", "") == t->main_frame_id) t->loading = false;
  } else if (method == "Page.frameNavigated") {
    const json& frame = params["frame"];
    std::string id = frame.value("id", "");
    t->worlds.erase(id);
    if (!frame.contains("parentId")) {
      t->main_frame_id = id;
      t->url = frame.value("url", "");
      ++t->navigations;
      // A new document: what the previous one (and its frames) still had in flight ends
      // unreported (an XHR or beacon sent as the page left), and is no work of this page.
      const std::string loader = frame.value("loaderId", "");
      if (!loader.empty()) {
        dropRequests(*t, [&](const Target::Request& r) { return !r.loader.empty() && r.loader != loader; });
      }
    } else if (t->is_frame && id == t->main_frame_id) {
      t->url = frame.value("url", "");  // an out-of-process frame's own document
    }
  } else if (method == "Page.navigatedWithinDocument") {
    if (params.value("frameId", "") == t->main_frame_id) {
      t->url = params.value("url", "");
      ++t->navigations;
    }
  } else if (method == "Page.frameAttached") {
    t->child_frames.insert(params.value("frameId", ""));
  } else if (method == "Page.frameDetached") {
    // Removed, or swapped to another process: either way its requests end elsewhere or not at all.
    t->worlds.erase(params.value("frameId", ""));
    t->child_frames.erase(params.value("frameId", ""));
    ++frames_gone_;
    dropRequestsOf(*t, params.value("frameId", ""));
  } else if (method == "Network.requestWillBeSent") {
    // An event stream stays open as long as the page (a feed), and a video or sound buffers as
    // long as it plays: neither is work an action started. What a feed's messages change, the
    // settle's quiet spell in the DOM sees.
    const std::string type = params.value("type", "");
    if (isBrowsersOwnRequest(params) || isWorkerScriptRequest(params)) {
      // Counted, the favicon after the load event cost the first action a quiet spell; a
      // worker's script (Monaco's), every action on the page its 3 s cap.
      t->browser_own.insert(params.value("requestId", ""));
      return;
    }
    if (type != "EventSource" && type != "Media") {
      t->inflight[params.value("requestId", "")] = {params.value("frameId", ""), params.value("loaderId", "")};
    }
    t->last_network = Clock::now();
  } else if (method == "Network.loadingFinished" || method == "Network.loadingFailed") {
    if (t->browser_own.erase(params.value("requestId", ""))) return;
    t->inflight.erase(params.value("requestId", ""));
    t->last_network = Clock::now();
  } else if (method == "Page.javascriptDialogOpening") {
    // Dialog policy: accept everything (alerts, confirms, prompts with their default text,
    // beforeunload) and report the text; a blocked page is worse than an accepted dialog.
    std::string type = params.value("type", "alert");
    events_.push_back({"dialog", type, params.value("message", "")});
    conn_->post("Page.handleJavaScriptDialog",
                {{"accept", true}, {"promptText", params.value("defaultPrompt", "")}}, session_id);
  } else if (method == "Inspector.targetCrashed") {
    if (!t->is_frame) {
      crashed_ = true;
      events_.push_back({"crash", t->target_id, "the page crashed"});
    }
  }
  cv_.notify_all();
}

}  // namespace lscope::cdp
