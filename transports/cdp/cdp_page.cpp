// CdpPage: Backend primitives over CDP (Page, Runtime, Input, Network, Target domains).
// The scanner runs in an isolated world ("lemmascope") that page scripts cannot see.
#include "transports/cdp/cdp_page.h"

#include <spdlog/spdlog.h>

#include "scanner/scanner_source.h"
#include "transports/cdp/cdp_keys.h"

namespace lscope::cdp {
namespace {

constexpr const char* kWorldName = "lemmascope";

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

// The install expression: defines the API once per world and reports whether it is there.
std::string installExpression() {
  std::string g(kScannerGlobal);
  return "(globalThis." + g + " || (globalThis." + g + " = (\n" + std::string(scannerSource()) +
         "\n)), typeof globalThis." + g + ".handle === 'function')";
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

  json create = {{"url", "about:blank"},
                 {"width", options.viewport_width},
                 {"height", options.viewport_height}};
  if (!options.browser_context_id.empty()) create["browserContextId"] = options.browser_context_id;
  auto created = page->call("Target.createTarget", create, deadline);
  if (!created) return created.status();
  auto st = page->attachTab((*created)["targetId"].get<std::string>(), deadline);
  if (!st) return st;
  return page;
}

CdpPage::~CdpPage() {
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
    active_ = target_id;
  }
  for (const char* method : {"Page.enable", "Network.enable"}) {
    auto r = conn_->send(method, json::object(), session, deadline);
    if (!r) return r.status();
  }
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

Result<json> CdpPage::call(const std::string& method, const json& params, Deadline deadline) {
  std::string session;
  if (method.rfind("Target.", 0) != 0 && method.rfind("Browser.", 0) != 0) {
    std::lock_guard<std::mutex> lock(mu_);
    if (crashed_) {
      return Status(codes::kBrowserError, "the page crashed",
                    "goto a URL to load a fresh page, or refresh");
    }
    Target* t = activeTarget();
    if (!t) return Status(codes::kBrowserError, "no open tab", "goto a URL to open one");
    session = t->session_id;
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
  auto r = call("Page.navigate", {{"url", url}}, deadline);
  if (!r) return r.status();
  if (r->contains("errorText") && !(*r)["errorText"].get<std::string>().empty()) {
    return Status(codes::kNavigationError,
                  (*r)["errorText"].get<std::string>() + " loading " + url,
                  "check the URL and that the site is reachable");
  }
  if (!r->contains("loaderId")) return Status::ok();  // same-document navigation
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (Target* t = activeTarget()) t->loading = true;  // started-loading may not be seen yet
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
      {{"expression", installExpression()}, {"contextId", context}, {"returnByValue", true}},
      session, deadline);
  if (!installed) return installed.status();
  if (installed->contains("exceptionDetails")) {
    return exceptionStatus(*installed, "the scanner failed to load");
  }
  std::lock_guard<std::mutex> lock(mu_);
  if (Target* t = targetBySession(session)) t->worlds[frame_id] = context;
  return context;
}

Result<json> CdpPage::scanner(const json& command, const std::string& frame_id, Deadline deadline) {
  std::string session, frame;
  for (int attempt = 0;; ++attempt) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (crashed_) return Status(codes::kBrowserError, "the page crashed", "goto a URL or refresh");
      Target* t = nullptr;
      if (!frame_id.empty()) {
        auto it = targets_.find(frame_id);
        if (it != targets_.end() && it->second.is_frame) t = &it->second;
      }
      if (!t) t = activeTarget();
      if (!t) return Status(codes::kBrowserError, "no open tab", "goto a URL to open one");
      session = t->session_id;
      frame = t->main_frame_id;
    }
    auto context = scannerWorld(session, frame, deadline);
    Result<json> reply = context.status();
    if (context) {
      std::string expr = "globalThis." + std::string(kScannerGlobal) + ".handle(" +
                         command.dump(-1, ' ', false, json::error_handler_t::replace) + ")";
      reply = conn_->send("Runtime.evaluate",
                          {{"expression", expr},
                           {"contextId", *context},
                           {"awaitPromise", true},
                           {"returnByValue", true}},
                          session, deadline);
    }
    if (!reply) {
      // The document changed under us (navigation): forget the world and inject again.
      if (reply.status().code() == "CONTEXT_LOST" && attempt < 3) {
        std::lock_guard<std::mutex> lock(mu_);
        if (Target* t = targetBySession(session)) t->worlds.erase(frame);
        continue;
      }
      return reply.status();
    }
    if (reply->contains("exceptionDetails")) return exceptionStatus(*reply, "scanner");
    const json& value = (*reply)["result"]["value"];
    if (!value.is_string()) return Status(codes::kScriptError, "scanner returned no response");
    json parsed = json::parse(value.get<std::string>(), nullptr, false);
    if (parsed.is_discarded()) return Status(codes::kScriptError, "scanner returned invalid JSON");
    return parsed;
  }
}

// --- input ---------------------------------------------------------------------------------

Status CdpPage::mouseMove(Point to, Deadline deadline) {
  auto r = call("Input.dispatchMouseEvent", {{"type", "mouseMoved"}, {"x", to.x}, {"y", to.y}}, deadline);
  return r.status();
}

Status CdpPage::mouseClick(Point at, MouseButton button, int click_count, int modifiers,
                           Deadline deadline) {
  spdlog::trace("cdp click at {},{}", at.x, at.y);
  LSCOPE_RETURN_IF_ERROR(mouseMove(at, deadline));
  for (int i = 1; i <= std::max(1, click_count); ++i) {
    json ev = {{"x", at.x},       {"y", at.y},         {"button", buttonName(button)},
               {"clickCount", i}, {"modifiers", modifiers}, {"buttons", buttonMask(button)}};
    ev["type"] = "mousePressed";
    LSCOPE_RETURN_IF_ERROR(call("Input.dispatchMouseEvent", ev, deadline));
    ev["type"] = "mouseReleased";
    ev["buttons"] = 0;
    LSCOPE_RETURN_IF_ERROR(call("Input.dispatchMouseEvent", ev, deadline));
  }
  return Status::ok();
}

Status CdpPage::insertText(const std::string& text, Deadline deadline) {
  // Printable ASCII goes key by key, so keydown/keyup listeners (autocomplete, validation) see
  // real keystrokes; anything else is committed at once like an input method would.
  for (size_t i = 0; i < text.size(); ++i) {
    auto key = keyForChar(text[i]);
    if (!key) return call("Input.insertText", {{"text", text.substr(i)}}, deadline).status();
    LSCOPE_RETURN_IF_ERROR(call("Input.dispatchKeyEvent", keyEvent(*key, "keyDown", 0), deadline));
    LSCOPE_RETURN_IF_ERROR(call("Input.dispatchKeyEvent", keyEvent(*key, "keyUp", 0), deadline));
  }
  return Status::ok();
}

Status CdpPage::pressKey(const std::string& key_name, int modifiers, Deadline deadline) {
  auto key = keyByName(key_name);
  if (!key) {
    return Status(codes::kParameterInvalid, "unknown key \"" + key_name + "\"",
                  "use a key name such as Enter, Tab, Escape, ArrowDown, F5, or a single character");
  }
  LSCOPE_RETURN_IF_ERROR(call("Input.dispatchKeyEvent", keyEvent(*key, "keyDown", modifiers), deadline));
  return call("Input.dispatchKeyEvent", keyEvent(*key, "keyUp", modifiers), deadline).status();
}

Result<std::string> CdpPage::screenshot(Deadline deadline) {
  auto r = call("Page.captureScreenshot", {{"format", "png"}}, deadline);
  if (!r) return r.status();
  return (*r)["data"].get<std::string>();
}

// --- frames, tabs, files --------------------------------------------------------------------

Result<std::vector<FrameInfo>> CdpPage::frames(Deadline) {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<FrameInfo> out;
  for (auto& [id, t] : targets_) {
    if (t.is_frame) out.push_back({id, t.url, active_, true});
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
  std::lock_guard<std::mutex> lock(mu_);
  targets_.erase(tab_id);
  if (active_ == tab_id) {
    active_.clear();
    for (auto& [id, t] : targets_) {
      if (!t.is_frame) active_ = id;
    }
  }
  return Status::ok();
}

Status CdpPage::setFiles(const std::string& selector, const std::string& frame_id,
                         const std::vector<std::string>& paths, Deadline deadline) {
  (void)frame_id;
  auto doc = call("DOM.getDocument", {{"depth", 0}}, deadline);
  if (!doc) return doc.status();
  auto node = call("DOM.querySelector",
                   {{"nodeId", (*doc)["root"]["nodeId"]}, {"selector", selector}}, deadline);
  if (!node) return node.status();
  if ((*node)["nodeId"].get<int>() == 0) {
    return Status(codes::kElementNotFound, "no file input matches " + selector);
  }
  return call("DOM.setFileInputFiles", {{"files", paths}, {"nodeId", (*node)["nodeId"]}}, deadline)
      .status();
}

std::vector<BrowserEvent> CdpPage::drainEvents() {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<BrowserEvent> out;
  out.swap(events_);
  return out;
}

// --- events (socket thread: quick, never blocking) -------------------------------------------

void CdpPage::onEvent(const std::string& method, const json& params, const std::string& session_id) {
  spdlog::trace("cdp event {}", method);  // never params: they can carry typed secrets
  std::lock_guard<std::mutex> lock(mu_);
  if (session_id.empty()) {
    // Browser-level events: keep those about our context's targets.
    if (method == "Target.targetCreated" || method == "Target.targetInfoChanged") {
      const json& info = params["targetInfo"];
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
      targets_.erase(params.value("targetId", ""));
    } else if (method == "Browser.downloadWillBegin") {
      downloads_[params.value("guid", "")] = params.value("suggestedFilename", "");
    } else if (method == "Browser.downloadProgress") {
      auto it = downloads_.find(params.value("guid", ""));
      if (it == downloads_.end()) return;
      std::string state = params.value("state", "");
      if (state == "completed") {
        events_.push_back({"download", options_.downloads_dir + "/" + params.value("guid", ""),
                           it->second + " (" +
                               std::to_string(params.value("receivedBytes", 0.0) / 1.0) + " bytes)"});
        downloads_.erase(it);
      } else if (state == "canceled") {
        downloads_.erase(it);
      }
    }
    cv_.notify_all();
    return;
  }

  Target* t = targetBySession(session_id);
  if (!t) return;
  if (method == "Page.frameStartedLoading" || method == "Page.frameStartedNavigating") {
    // frameStartedNavigating comes first, as soon as the browser starts a navigation (a form
    // submission is scheduled asynchronously after the click that caused it).
    bool new_document = method == "Page.frameStartedLoading" ||
                        params.value("navigationType", "") == "differentDocument";
    if (params.value("frameId", "") == t->main_frame_id && new_document) t->loading = true;
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
    }
  } else if (method == "Page.navigatedWithinDocument") {
    if (params.value("frameId", "") == t->main_frame_id) {
      t->url = params.value("url", "");
      ++t->navigations;
    }
  } else if (method == "Page.frameDetached") {
    t->worlds.erase(params.value("frameId", ""));
  } else if (method == "Network.requestWillBeSent") {
    t->inflight.insert(params.value("requestId", ""));
    t->last_network = Clock::now();
  } else if (method == "Network.loadingFinished" || method == "Network.loadingFailed") {
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
    crashed_ = true;
    events_.push_back({"crash", t->target_id, "the page crashed"});
  }
  cv_.notify_all();
}

}  // namespace lscope::cdp
