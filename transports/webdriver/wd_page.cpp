// WdPage: Backend primitives over W3C WebDriver (w3.org/TR/webdriver2): Navigate To, Execute
// Async Script, Perform Actions, Take Screenshot, window handles, Switch To Frame, user prompts
// and Element Send Keys. Classic WebDriver has no events: navigation, dialogs, new windows and
// downloads are noticed when the next command runs.
#include "transports/webdriver/wd_page.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>

#include <spdlog/spdlog.h>

#include "engine/json_bounded.h"
#include "engine/scanner_protocol.h"
#include "scanner/scanner_source.h"

namespace lscope::wd {
namespace {

// §12.1 "web element identifier".
constexpr const char* kElementKey = "element-6066-11e4-a52e-4f735466cecf";
constexpr const char* kDialogInterrupted = "DIALOG_INTERRUPTED";

struct NamedKey {
  const char* name;
  const char* value;  // §17.4.2 "Keyboard actions": normalized key values
};
const NamedKey kKeys[] = {
    {"Enter", "\xEE\x80\x87"},     {"Return", "\xEE\x80\x87"},    {"Tab", "\xEE\x80\x84"},
    {"Escape", "\xEE\x80\x8C"},    {"Esc", "\xEE\x80\x8C"},       {"Space", " "},
    {"Backspace", "\xEE\x80\x83"}, {"Delete", "\xEE\x80\x97"},    {"ArrowUp", "\xEE\x80\x93"},
    {"ArrowDown", "\xEE\x80\x95"}, {"ArrowLeft", "\xEE\x80\x92"}, {"ArrowRight", "\xEE\x80\x94"},
    {"Home", "\xEE\x80\x91"},      {"End", "\xEE\x80\x90"},       {"PageUp", "\xEE\x80\x8E"},
    {"PageDown", "\xEE\x80\x8F"},  {"Insert", "\xEE\x80\x96"},    {"Shift", "\xEE\x80\x88"},
    {"Control", "\xEE\x80\x89"},   {"Ctrl", "\xEE\x80\x89"},      {"Alt", "\xEE\x80\x8A"},
    {"Meta", "\xEE\x80\xBD"},
};

std::string lowerAscii(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// UTF-8 encoding of a code point.
std::string utf8(unsigned cp) {
  std::string out;
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
  return out;
}

// Splits UTF-8 text into code points (each one key action's value).
std::vector<std::string> codePoints(const std::string& s) {
  std::vector<std::string> out;
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
    out.push_back(s.substr(i, n));
    i += n;
  }
  return out;
}

std::vector<std::string> modifierKeys(int modifiers) {
  std::vector<std::string> keys;
  if (modifiers & kModControl) keys.push_back(keyValue("Control"));
  if (modifiers & kModShift) keys.push_back(keyValue("Shift"));
  if (modifiers & kModAlt) keys.push_back(keyValue("Alt"));
  if (modifiers & kModMeta) keys.push_back(keyValue("Meta"));
  return keys;
}

json keySource(const json& actions) {
  return {{"type", "key"}, {"id", "keyboard"}, {"actions", actions}};
}

json pause() { return {{"type", "pause"}, {"duration", 0}}; }

// Errors of Execute Script that mean the document went away while the script ran.
bool isContextLost(const Status& s) {
  if (s.code() == codes::kConnectionError || s.code() == codes::kTimeout) return false;
  const std::string& m = s.message();
  // chromedriver: "document unloaded while waiting for result"; WPEWebDriver (as a stale
  // element error): "Callback was not called before the unload event."
  return m.find("unload") != std::string::npos || m.find("navigated") != std::string::npos ||
         m.find("context was destroyed") != std::string::npos || m.find("target closed") != std::string::npos ||
         m.find("Execution context") != std::string::npos;
}

// The install script: defines the scanner once per document, non-writable and
// non-configurable (WebDriver scripts run in the page's own realm, so the page could otherwise
// replace it), and notes the kind of each user prompt, which WebDriver does not report.
// The listener registry (scanner/listeners.js) comes first: it sees the listeners added from now
// on, and steps aside where it was installed at document start already (chromedriver, below).
std::string installScript(const std::string& channel) {
  std::string g(kScannerGlobal);
  return "const done = arguments[arguments.length - 1];\n"
         "if (!window." + g + ") {\n"
         "  try { " + listenerRegistryScript(channel) + " } catch (e) {}\n"
         "  Object.defineProperty(window, '" + std::string(kChannelGlobal) + "', {value: '" + channel +
         "', writable: false, configurable: false, enumerable: false});\n"
         "  Object.defineProperty(window, '" + g + "', {value: (\n" + std::string(scannerSource()) +
         "\n), writable: false, configurable: false, enumerable: false});\n"
         "  const last = {type: '', message: ''};\n"
         "  Object.defineProperty(window, '" + g + "_prompt', {value: last, configurable: false});\n"
         "  for (const type of ['alert', 'confirm', 'prompt']) {\n"
         "    const original = window[type];\n"
         "    if (typeof original !== 'function') continue;\n"
         "    window[type] = function (message) { last.type = type; last.message = String(message === undefined ? '' : message);\n"
         "      return original.apply(this, arguments); };\n"
         "  }\n"
         // Requests in flight (fetch, XMLHttpRequest) from now on: WebDriver has no network
         // events, and Resource Timing only lists requests that finished.
         "  const net = {inflight: 0};\n"
         "  Object.defineProperty(window, '" + g + "_net', {value: net, configurable: false});\n"
         "  const fetch0 = window.fetch;\n"
         "  if (typeof fetch0 === 'function') {\n"
         "    window.fetch = function () { net.inflight++; let p;\n"
         "      try { p = fetch0.apply(this, arguments); } catch (e) { net.inflight--; throw e; }\n"
         "      const end = () => { net.inflight--; };\n"
         "      Promise.resolve(p).then(end, end); return p; };\n"
         "  }\n"
         "  const XHR = window.XMLHttpRequest && window.XMLHttpRequest.prototype;\n"
         "  if (XHR && typeof XHR.send === 'function') {\n"
         "    const send0 = XHR.send;\n"
         "    XHR.send = function () { let ended = false;\n"
         "      const end = () => { if (!ended) { ended = true; net.inflight--; } };\n"
         "      try { this.addEventListener('loadend', end); net.inflight++; } catch (e) { ended = true; }\n"
         "      try { return send0.apply(this, arguments); } catch (e) { end(); throw e; } };\n"
         "  }\n"
         "}\n"
         "done(typeof window." + g + ".handle === 'function');";
}

std::string handleScript() {
  std::string g(kScannerGlobal);
  return "const done = arguments[arguments.length - 1];\n"
         "const s = window." + g + ";\n"
         "if (!s || typeof s.handle !== 'function') { done('__missing__'); return; }\n"
         "Promise.resolve(s.handle(arguments[0])).then(done, (e) => done(JSON.stringify(\n"
         "  {ok: false, code: 'SCRIPT_ERROR', error: 'scanner: ' + String(e)})));";
}

// The scanner's answer came back mangled: WebDriver runs scripts in the page's own realm, and
// this page replaced built-ins they rely on (JSON, DOM queries).
const char kHostileRealm[] = "this page replaced JavaScript built-ins (JSON, DOM queries) that scripts run over WebDriver rely on";
const char kIsolatedWorldHint[] = "the CDP backend (lscope-h) runs the scanner in an isolated world that pages cannot reach";

Status hostileRealm() { return Status(codes::kScriptError, kHostileRealm, kIsolatedWorldHint); }

// A text the remote end answered (a window handle, an element id, a URL); "" for anything else (a
// remote end may answer null for a window that is closing: never a reason to throw).
std::string stringOrEmpty(const json& v) { return v.is_string() ? v.get<std::string>() : std::string(); }

// A wait's script failed for good: no script of ours gets an answer from a page that replaced
// JSON (both of its errors carry the isolated-world hint), and only a document going away or a
// script error (a page mid-load) is worth asking again.
bool endsWait(const Status& s) {
  if (s.hint().find(kIsolatedWorldHint) != std::string::npos) return true;
  return !isContextLost(s) && s.code() != codes::kScriptError;
}

// How long a waiting script may wait in the page, at most `most` ms: it gives up a quarter of
// the time left (up to 250 ms) before the request's deadline, so its answer still arrives on a
// loaded machine and is read, not lost to the request timing out (a lost answer was a failed wait).
long long inPageSlice(Deadline deadline, long long most) {
  long long left = static_cast<long long>(deadline.remaining().count());
  return std::max<long long>(1, std::min<long long>(left - std::min<long long>(250, left / 4), most));
}

}  // namespace

std::string keyValue(const std::string& name) {
  std::string lname = lowerAscii(name);
  for (const auto& k : kKeys) {
    if (lname == lowerAscii(k.name)) return k.value;
  }
  if (name.size() >= 2 && name.size() <= 3 && (name[0] == 'F' || name[0] == 'f') &&
      std::all_of(name.begin() + 1, name.end(), ::isdigit)) {
    int n = std::stoi(name.substr(1));
    if (n >= 1 && n <= 12) return utf8(0xE031 + n - 1);  // F1 = U+E031
  }
  if (codePoints(name).size() == 1 && !name.empty() && static_cast<unsigned char>(name[0]) >= 0x20) return name;
  return {};
}

Result<std::unique_ptr<WdPage>> WdPage::open(std::shared_ptr<WdClient> client, const json& capabilities,
                                             WdPageOptions options, Deadline deadline) {
  std::unique_ptr<WdPage> page(new WdPage(std::move(client), std::move(options)));
  auto created = page->client_->call("POST", "/session", {{"capabilities", capabilities}}, deadline);
  if (!created) return created.status().wrap("starting a WebDriver session at " + page->client_->base());
  if (!created->is_object() || !created->contains("sessionId") || !(*created)["sessionId"].is_string()) {
    return Status(codes::kBrowserError, "the remote end at " + page->client_->base() +
                                            " answered New Session without a session id",
                  "is it a W3C WebDriver remote end?");
  }
  page->session_ = (*created)["sessionId"].get<std::string>();
  if (page->options_.registry) page->options_.registry->add({page->client_, page->session_, page->options_.owned_dirs});
  page->caps_ = created->value("capabilities", json::object());
  auto handle = page->command("GET", "/window", json(), deadline);
  if (!handle) return handle.status();
  page->window_ = stringOrEmpty(*handle);
  // The current window was closing as the session began (an attached browser whose tabs were
  // just replaced): take one that is open.
  if (page->window_.empty() && !page->takeOpenWindow(deadline)) {
    return Status(codes::kBrowserError, "the browser has no open window", "open one, or let lscope start its own browser");
  }
  page->known_windows_.insert(page->window_);
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!page->options_.downloads_dir.empty()) {
    for (const auto& e : fs::directory_iterator(page->options_.downloads_dir, ec)) {
      page->known_downloads_.insert(e.path().filename().string());
    }
  }
  page->probe(deadline);
  page->fitViewport(deadline);
  page->registerListeners(deadline);
  return page;
}

void WdPage::registerListeners(Deadline deadline) {
  // chromedriver runs DevTools commands on the current window's page: there the registry can be
  // in place before the page's own scripts, in every document the window loads from now on.
  // Other remote ends get it when the scanner is injected (installScript).
  if (!caps_.contains("goog:chromeOptions") || registered_windows_.count(window_)) return;
  registered_windows_.insert(window_);
  auto r = client_->call("POST", "/session/" + session_ + "/goog/cdp/execute",
                         {{"cmd", "Page.addScriptToEvaluateOnNewDocument"},
                          {"params", {{"source", listenerRegistryScript(channel_)}, {"runImmediately", true}}}},
                         deadline.capped(Millis(5000)));
  if (!r) spdlog::debug("webdriver: no listener registry at document start: {}", r.status().message());
}

void WdPage::fitViewport(Deadline deadline) {
  if (!caps_.value("setWindowRect", false)) return;  // e.g. WPE's headless view: fixed size
  // Window size includes the browser's own UI: size the window so the viewport is as asked.
  auto inner = execute("const done = arguments[arguments.length - 1]; done([innerWidth, innerHeight]);",
                       json::array(), deadline);
  auto rect = command("GET", "/window/rect", json(), deadline);
  if (!inner || !rect || !inner->is_array() || inner->size() != 2 || !rect->is_object()) return;
  int dw = options_.viewport_width - (*inner)[0].get<int>();
  int dh = options_.viewport_height - (*inner)[1].get<int>();
  if (dw == 0 && dh == 0) return;
  auto set = command("POST", "/window/rect",
                     {{"width", rect->value("width", 0) + dw}, {"height", rect->value("height", 0) + dh}}, deadline);
  if (!set) spdlog::debug("webdriver: cannot size the window: {}", set.status().message());
}

namespace {
void removeDirs(const std::vector<std::string>& dirs) {
  std::error_code ec;
  for (const auto& d : dirs) std::filesystem::remove_all(d, ec);
}
}  // namespace

void WdSessionRegistry::add(Entry entry) {
  std::lock_guard<std::mutex> lock(mu_);
  sessions_.push_back(std::move(entry));
}

void WdSessionRegistry::remove(const std::string& session) {
  std::lock_guard<std::mutex> lock(mu_);
  sessions_.erase(std::remove_if(sessions_.begin(), sessions_.end(),
                                 [&](const Entry& e) { return e.session == session; }),
                  sessions_.end());
}

void WdSessionRegistry::deleteAll(Millis each) {
  std::vector<Entry> all;
  {
    std::lock_guard<std::mutex> lock(mu_);
    all.swap(sessions_);
  }
  for (const auto& e : all) {
    e.client->call("DELETE", "/session/" + e.session, json(), Deadline::in(each));
    removeDirs(e.dirs);
  }
}

WdPage::~WdPage() {
  if (!session_.empty()) {
    if (options_.registry) options_.registry->remove(session_);
    // Delete Session closes the browser the remote end started for us.
    auto r = client_->call("DELETE", "/session/" + session_, json(), Deadline::in(Millis(10000)));
    if (!r) spdlog::debug("webdriver: deleting session {}: {}", session_, r.status().message());
  }
  removeDirs(options_.owned_dirs);
}

// --- plumbing --------------------------------------------------------------------------------

Result<json> WdPage::command(const std::string& method, const std::string& path, const json& body,
                             Deadline deadline, bool repeatable) {
  for (int attempt = 0;; ++attempt) {
    auto r = client_->call(method, "/session/" + session_ + path, body, deadline);
    if (r) return r;
    const std::string& code = r.status().code();
    if (code == "ALERT_OPEN" && attempt < 5) {
      // unhandledPromptBehavior "ignore": the prompt waits for us. Dialog policy as on CDP:
      // accept and report (a blocked page is worse than an accepted dialog).
      acceptPrompt(deadline);
      if (!repeatable) {
        return Status(kDialogInterrupted, "a dialog opened while the command ran (accepted)");
      }
      continue;
    }
    if (code == "NO_SUCH_WINDOW") {
      // The page closed its own window: carry on in one that is left.
      takeOpenWindow(deadline);
      return Status(codes::kBrowserError, "the tab was closed", "tabs lists the open ones");
    }
    return r.status();
  }
}

bool WdPage::acceptPrompt(Deadline deadline) {
  std::string base = "/session/" + session_;
  auto text = client_->call("GET", base + "/alert/text", json(), deadline);
  if (!text) return false;
  client_->call("POST", base + "/alert/accept", json::object(), deadline);
  // Which kind it was: the install script noted it (WebDriver only gives the text).
  std::string g(kScannerGlobal);
  auto kind = client_->call("POST", base + "/execute/sync",
                            {{"script", "const p = window." + g + "_prompt; return p ? p.type : '';"},
                             {"args", json::array()}},
                            deadline.capped(Millis(2000)));
  std::string type = kind && kind->is_string() && !kind->get<std::string>().empty() ? kind->get<std::string>() : "alert";
  std::lock_guard<std::mutex> lock(mu_);
  events_.push_back({"dialog", type, text->is_string() ? text->get<std::string>() : ""});
  return true;
}

Result<json> WdPage::execute(const std::string& script, const json& args, Deadline deadline, bool repeatable) {
  auto r = command("POST", "/execute/async", {{"script", script}, {"args", args}}, deadline, repeatable);
  if (r) return r;
  const std::string& m = r.status().message();
  // chromedriver wraps each script in code of its own that uses the page's JSON: a page that
  // replaced JSON breaks the wrapper, and no answer comes back (whatever the script was).
  if (m.find("call function result") != std::string::npos || m.find("cannot deserialize the result value") != std::string::npos) {
    return hostileRealm();
  }
  // WPEWebDriver reads an answer serialized with the page's JSON, and says only "unknown error"
  // when that answer is not what it can read (a value nested thousands of levels deep).
  static const std::string kBare = ": unknown error";
  if (m.size() > kBare.size() && m.compare(m.size() - kBare.size(), kBare.size(), kBare) == 0) {
    return Status(codes::kScriptError, m + ", with no reason given",
                  std::string("if this page replaced JSON.stringify, WebDriver scripts (run in the page's own realm) cannot answer; ") +
                      kIsolatedWorldHint);
  }
  return r;
}

Status WdPage::leaveFrame(Deadline deadline) {
  if (frame_.empty()) return Status::ok();
  auto r = command("POST", "/frame", {{"id", nullptr}}, deadline);
  if (!r) return r.status();
  frame_.clear();
  return Status::ok();
}

Status WdPage::enterFrame(const std::string& frame_id, Deadline deadline) {
  if (frame_ == frame_id) return Status::ok();
  LSCOPE_RETURN_IF_ERROR(leaveFrame(deadline));
  if (frame_id.empty()) return Status::ok();
  auto r = command("POST", "/frame", {{"id", {{kElementKey, frame_id}}}}, deadline);
  if (!r) {
    if (r.status().code() == codes::kElementStale || r.status().code() == codes::kElementNotFound) {
      return Status(codes::kElementStale, "the frame is gone", "run observe again");
    }
    return r.status();
  }
  frame_ = frame_id;
  return Status::ok();
}

Status WdPage::probe(Deadline deadline) {
  // performance.timeOrigin differs for every document: a new one means a navigation.
  auto r = execute("const done = arguments[arguments.length - 1];"
                   "done([String(location.href), String(performance.timeOrigin)]);",
                   json::array(), deadline.capped(Millis(5000)));
  if (!r) return r.status();
  // WPEWebDriver serializes an answer with the page's JSON: a page that replaced it answers for us.
  if (!r->is_array() || r->size() != 2 || !(*r)[0].is_string() || !(*r)[1].is_string()) return hostileRealm();
  std::string url = (*r)[0].get<std::string>(), token = (*r)[1].get<std::string>();
  std::lock_guard<std::mutex> lock(mu_);
  if (!doc_token_.empty() && (url != doc_url_ || token != doc_token_)) ++navigations_;
  doc_url_ = url;
  doc_token_ = token;
  return Status::ok();
}

// --- navigation --------------------------------------------------------------------------------

Status WdPage::navigate(const std::string& url, Deadline deadline) {
  frame_.clear();  // Navigate To always loads in the top-level browsing context
  probe(deadline);
  std::string before_url, before_token;
  {
    std::lock_guard<std::mutex> lock(mu_);
    before_url = doc_url_;
    before_token = doc_token_;
  }
  auto r = command("POST", "/url", {{"url", url}}, deadline);
  if (!r) {
    const std::string& m = r.status().message();
    auto err = m.find("net::ERR_");
    if (err != std::string::npos) {
      std::string token = m.substr(err, m.find_first_of(" \n)", err) - err);
      return Status(codes::kNavigationError, token + " loading " + url, "check the URL and that the site is reachable");
    }
    if (r.status().code() == codes::kTimeout) {
      return Status(codes::kTimeout, "loading " + url + " did not finish in time",
                    "the page may still be usable: observe, or wait load");
    }
    return r.status();
  }
  LSCOPE_RETURN_IF_ERROR(probe(deadline));
  std::string stayed;
  {
    std::lock_guard<std::mutex> lock(mu_);
    // Some remote ends (WebKit's) report success for a load that failed: the browser stays where
    // it was, or lands on about:blank.
    bool nothing_happened = doc_token_ == before_token && doc_url_ == before_url && url != before_url;
    bool blank = doc_url_ == "about:blank" && url != "about:blank";
    if (!nothing_happened && !blank) return Status::ok();
    stayed = doc_url_;
  }
  // cog shows "Page load error" with WebKit's reason ("Could not connect to …: Connection refused").
  auto why = execute("const done = arguments[arguments.length - 1];"
                     "if (document.title !== 'Page load error' || !document.body) { done(''); return; }"
                     "done(document.body.innerText.split('\\n').map((l) => l.trim()).filter((l) => l &&"
                     "  l !== 'Page load error' && l !== 'Try again' && !/^[a-z]+:\\/\\//.test(l)).join(' ').slice(0, 200));",
                     json::array(), deadline.capped(Millis(3000)));
  std::string reason = why && why->is_string() ? why->get<std::string>() : "";
  return Status(codes::kNavigationError,
                "could not load " + url + (reason.empty() ? " (the browser stayed on " + stayed + ")" : ": " + reason),
                "check the URL and that the site is reachable");
}

Status WdPage::historyMove(const std::string& path, const std::string& what, Deadline deadline) {
  LSCOPE_RETURN_IF_ERROR(leaveFrame(deadline));
  LSCOPE_RETURN_IF_ERROR(probe(deadline));
  uint64_t before;
  {
    std::lock_guard<std::mutex> lock(mu_);
    before = navigations_;
  }
  auto r = command("POST", path, json::object(), deadline);
  if (!r) return r.status();
  frame_.clear();
  LSCOPE_RETURN_IF_ERROR(probe(deadline));
  std::lock_guard<std::mutex> lock(mu_);
  // Back at the first entry is not an error in WebDriver; the engine's contract says it is.
  if (navigations_ == before) return Status(codes::kNavigationError, "no " + what + " page in history");
  return Status::ok();
}

Status WdPage::goBack(Deadline deadline) { return historyMove("/back", "previous", deadline); }
Status WdPage::goForward(Deadline deadline) { return historyMove("/forward", "next", deadline); }

Status WdPage::reload(Deadline deadline) {
  LSCOPE_RETURN_IF_ERROR(leaveFrame(deadline));
  auto r = command("POST", "/refresh", json::object(), deadline);
  if (!r) return r.status();
  frame_.clear();
  probe(deadline);
  return Status::ok();
}

Result<std::string> WdPage::currentUrl(Deadline deadline) {
  auto r = command("GET", "/url", json(), deadline);  // the top-level URL, even inside a frame
  if (!r) return r.status();
  return r->is_string() ? r->get<std::string>() : std::string();
}

Status WdPage::waitForLoad(Deadline deadline) {
  for (;;) {
    long long slice = inPageSlice(deadline, 5000);
    auto r = execute("const done = arguments[arguments.length - 1];"
                     "if (document.readyState === 'complete') { done(true); return; }"
                     "addEventListener('load', () => done(true), {once: true});"
                     "setTimeout(() => done(false), arguments[0]);",
                     json::array({slice}), deadline);
    if (r && r->is_boolean() && r->get<bool>()) return Status::ok();
    if (!r && endsWait(r.status())) return r.status();
    if (deadline.expired()) {
      return Status(codes::kTimeout, "page load did not finish in time", "the page may still be usable: observe");
    }
  }
}

uint64_t WdPage::navigationCount() {
  probe(Deadline::in(Millis(5000)));
  std::lock_guard<std::mutex> lock(mu_);
  return navigations_;
}

Status WdPage::waitForNavigation(uint64_t after, Deadline deadline) {
  for (;;) {
    auto st = probe(deadline);
    if (!st && st.code() == codes::kConnectionError) return st;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (navigations_ > after) return Status::ok();
    }
    if (deadline.expired()) return Status(codes::kTimeout, "no navigation happened in time");
    // Wait in the page for a sign of navigation (pagehide, history moves, a URL change), at
    // most a short slice: pushState fires no event, so the URL is also compared.
    long long slice = inPageSlice(deadline, 300);
    execute("const done = arguments[arguments.length - 1]; const url = location.href;"
            "const finish = () => { clearInterval(iv); done(0); };"
            "const iv = setInterval(() => { if (location.href !== url) finish(); }, 15);"
            "for (const e of ['pagehide', 'popstate', 'hashchange']) addEventListener(e, finish, {once: true});"
            "setTimeout(finish, arguments[0]);",
            json::array({slice}), deadline);
  }
}

Status WdPage::waitForNetworkIdle(Millis quiet, Deadline deadline) {
  // No network events in classic WebDriver: quiet means no resource finished loading (Resource
  // Timing) for `quiet`, counted from the call, in a loaded document.
  for (;;) {
    long long slice = inPageSlice(deadline, 5000);
    auto r = execute(
        "const [quiet, max] = arguments; const done = arguments[arguments.length - 1];"
        "const start = performance.now(); let last = start;"
        "let po = null; try { po = new PerformanceObserver(() => { last = performance.now(); });"
        "  po.observe({type: 'resource'}); } catch (e) {}"
        "const net = window." + std::string(kScannerGlobal) + "_net;"
        // A page that says it is loading (a visible aria-busy region) is not idle either: requests
        // it started before the scanner came are invisible to us.
        "const busy = () => (net && net.inflight > 0) || [...document.querySelectorAll('[aria-busy=true]')]"
        "  .some((e) => e.getClientRects().length > 0);"
        "const tick = () => { const t = performance.now(); if (busy()) last = t;"
        "  if (document.readyState === 'complete' && t - last >= quiet) { if (po) po.disconnect(); done(true); }"
        "  else if (t - start >= max) { if (po) po.disconnect(); done(false); }"
        "  else setTimeout(tick, Math.max(10, Math.min(50, quiet - (t - last), max - (t - start)))); };"
        "tick();",
        json::array({quiet.count(), slice}), deadline);
    if (r && r->is_boolean() && r->get<bool>()) return Status::ok();
    if (!r && endsWait(r.status())) return r.status();
    if (deadline.expired()) {
      return Status(codes::kTimeout, "the page kept loading resources",
                    "the page keeps the network busy (polling, streaming); wait for an element instead");
    }
  }
}

// --- the scanner --------------------------------------------------------------------------------

Result<json> WdPage::scannerHere(const json& cmd, Deadline deadline, bool repeatable) {
  for (int attempt = 0;; ++attempt) {
    auto r = execute(handleScript(), json::array({cmd}), deadline, repeatable);
    if (!r && r.status().code() == kDialogInterrupted) {
      // The command opened a dialog; it ran, but its answer was lost with the prompt.
      return json{{"ok", true}, {"data", {{"dialog", true}}}, {"timing", {{"ms", 0}}}};
    }
    if (!r && isContextLost(r.status())) {
      if (repeatable && attempt < 3) continue;
      // WebKit unloads the page before the script can answer when a click or submit navigates
      // (Chromium navigates just after): for those, the navigation is the command's outcome.
      std::string name = cmd.value("cmd", "");
      if (name == "click" || name == "submit") {
        return json{{"ok", true}, {"data", {{"action", name}, {"navigated", true}}}, {"timing", {{"ms", 0}}}};
      }
      return Status(codes::kNavigationError, "the page navigated while the command ran", "observe the new page");
    }
    if (!r) return r.status();
    if (r->is_null() && acceptPrompt(deadline)) {
      // A dialog opened while the script ran: the remote end answered null and left it open.
      if (repeatable && attempt < 3) continue;
      return json{{"ok", true}, {"data", {{"dialog", true}}}, {"timing", {{"ms", 0}}}};
    }
    if (r->is_string() && r->get<std::string>() == "__missing__") {
      if (attempt >= 3) return Status(codes::kScriptError, "the scanner could not be installed in this page");
      auto installed = execute(installScript(channel_), json::array(), deadline);
      if (!installed) return installed.status().wrap("the scanner failed to load");
      if (!installed->is_boolean() || !installed->get<bool>()) {
        return Status(codes::kScriptError, "the scanner failed to load: the page took its name",
                      "this page defines window." + std::string(kScannerGlobal) + " itself");
      }
      continue;
    }
    // A page may have replaced JSON.stringify (scripts run in its realm): bound what we read.
    json parsed = r->is_string() ? parseJsonBounded(r->get<std::string>(), nullptr, kMaxBrowserJsonNesting) : json();
    if (!parsed.is_object() || !parsed.contains("ok")) return hostileRealm();
    return parsed;
  }
}

Result<json> WdPage::scanner(const json& cmd, const std::string& frame_id, Deadline deadline) {
  // Reading commands are safe to repeat in a new document (engine/scanner_protocol.h).
  bool repeatable = isReadOnlyScannerCommand(cmd.value("cmd", ""));
  LSCOPE_RETURN_IF_ERROR(enterFrame(frame_id, deadline));
  // A wait longer than the session's script timeout raises it for this call.
  long long wait_ms = cmd.value("timeout", json(0)).is_number() ? cmd.value("timeout", 0LL) : 0;
  long long script_ms = caps_.value("timeouts", json::object()).value("script", 0LL);
  bool raised = script_ms > 0 && wait_ms + 5000 > script_ms;
  if (raised) command("POST", "/timeouts", {{"script", wait_ms + 5000}}, deadline);
  auto r = scannerHere(cmd, deadline, repeatable);
  if (raised) command("POST", "/timeouts", {{"script", script_ms}}, deadline.capped(Millis(5000)));
  if (!frame_id.empty()) leaveFrame(deadline);
  return r;
}

// --- input (Perform Actions, §17) ----------------------------------------------------------------

Status WdPage::performActions(const json& sources, Deadline deadline) {
  LSCOPE_RETURN_IF_ERROR(leaveFrame(deadline));  // viewport coordinates are the top document's
  auto r = command("POST", "/actions", {{"actions", sources}}, deadline, false);
  if (!r && r.status().code() == kDialogInterrupted) return Status::ok();
  return r.status();
}

Status WdPage::mouseMove(Point to, Deadline deadline) {
  json pointer = {{"type", "pointer"},
                  {"id", "mouse"},
                  {"parameters", {{"pointerType", "mouse"}}},
                  {"actions", json::array({{{"type", "pointerMove"},
                                            {"duration", 0},
                                            {"origin", "viewport"},
                                            {"x", std::lround(to.x)},
                                            {"y", std::lround(to.y)}}})}};
  return performActions(json::array({pointer}), deadline);
}

// The session's input state keeps the button pressed between calls (§17.3 input state table),
// so the moves that follow a press are a drag's.
Status WdPage::mouseButton(Point at, bool down, Deadline deadline) {
  json actions = json::array({{{"type", "pointerMove"},
                               {"duration", 0},
                               {"origin", "viewport"},
                               {"x", std::lround(at.x)},
                               {"y", std::lround(at.y)}},
                              {{"type", down ? "pointerDown" : "pointerUp"}, {"button", 0}}});
  json pointer = {{"type", "pointer"}, {"id", "mouse"}, {"parameters", {{"pointerType", "mouse"}}}, {"actions", actions}};
  Status done = performActions(json::array({pointer}), deadline);
  // A button the remote end may still hold makes the next click's press nothing (§17.5: a
  // pressed button is not pressed again): Release Actions lets every input go.
  if (!done && !down) command("DELETE", "/actions", json(), Deadline::in(Millis(2000)), false);
  return done;
}

Status WdPage::mouseClick(Point at, MouseButton button, int click_count, int modifiers, Deadline deadline) {
  int b = button == MouseButton::kLeft ? 0 : button == MouseButton::kMiddle ? 1 : 2;
  json moves = json::array({{{"type", "pointerMove"},
                             {"duration", 0},
                             {"origin", "viewport"},
                             {"x", std::lround(at.x)},
                             {"y", std::lround(at.y)}}});
  for (int i = 0; i < std::max(1, click_count); ++i) {
    moves.push_back({{"type", "pointerDown"}, {"button", b}});
    moves.push_back({{"type", "pointerUp"}, {"button", b}});
  }
  auto mods = modifierKeys(modifiers);
  json pointer_actions = json::array(), key_actions = json::array();
  // Modifiers go down in the ticks before the pointer acts and up in the ticks after.
  for (const auto& m : mods) {
    key_actions.push_back({{"type", "keyDown"}, {"value", m}});
    pointer_actions.push_back(pause());
  }
  for (const auto& a : moves) {
    pointer_actions.push_back(a);
    key_actions.push_back(pause());
  }
  for (const auto& m : mods) {
    key_actions.push_back({{"type", "keyUp"}, {"value", m}});
    pointer_actions.push_back(pause());
  }
  json sources = json::array({{{"type", "pointer"},
                               {"id", "mouse"},
                               {"parameters", {{"pointerType", "mouse"}}},
                               {"actions", pointer_actions}}});
  if (!mods.empty()) sources.push_back(keySource(key_actions));
  spdlog::trace("webdriver click at {},{}", at.x, at.y);
  LSCOPE_RETURN_IF_ERROR(performActions(sources, deadline));
  if (click_count == 2 && options_.synthesize_dblclick) {
    auto r = execute("const [x, y, button] = arguments; const done = arguments[arguments.length - 1];"
                     "const el = document.elementFromPoint(x, y);"
                     "if (el) el.dispatchEvent(new MouseEvent('dblclick', {bubbles: true, cancelable: true, composed: true,"
                     "  view: window, detail: 2, clientX: x, clientY: y, button}));"
                     "done(!!el);",
                     json::array({at.x, at.y, b}), deadline, false);
    if (!r && r.status().code() != kDialogInterrupted) return r.status();
  }
  return Status::ok();
}

Status WdPage::typeKeys(const std::vector<std::string>& chars, size_t from, size_t to, Deadline deadline) {
  json actions = json::array();
  for (size_t i = from; i < to; ++i) {
    std::string v = chars[i] == "\n" ? keyValue("Enter") : chars[i];
    actions.push_back({{"type", "keyDown"}, {"value", v}});
    actions.push_back({{"type", "keyUp"}, {"value", v}});
  }
  return performActions(json::array({keySource(actions)}), deadline);
}

Status WdPage::insertText(const std::string& text, Deadline deadline) {
  auto chars = codePoints(text);
  // Batches keep each request small; every character is a real keyDown/keyUp pair.
  for (size_t start = 0; start < chars.size(); start += 64) {
    LSCOPE_RETURN_IF_ERROR(typeKeys(chars, start, std::min(chars.size(), start + 64), deadline));
  }
  return Status::ok();
}

Status WdPage::typePaced(const std::string& text, Deadline deadline) {
  auto chars = codePoints(text);
  for (size_t i = 0; i < chars.size(); ++i) {
    LSCOPE_RETURN_IF_ERROR(typeKeys(chars, i, i + 1, deadline));
    // As CdpPage::typePaced: the work the key queued (a zero timer: React's render and effects)
    // runs before the next key, or a field that syncs its state a render late loses keys.
    auto caught_up = execute("setTimeout(arguments[arguments.length - 1], 0);", json::array(), deadline, false);
    if (!caught_up && caught_up.status().code() != kDialogInterrupted) return caught_up.status();
  }
  return Status::ok();
}

Status WdPage::pressKey(const std::string& key, int modifiers, Deadline deadline) {
  std::string v = keyValue(key);
  if (v.empty()) {
    return Status(codes::kParameterInvalid, "unknown key \"" + key + "\"",
                  "use a key name such as Enter, Tab, Escape, ArrowDown, F5, or a single character");
  }
  auto mods = modifierKeys(modifiers);
  json actions = json::array();
  for (const auto& m : mods) actions.push_back({{"type", "keyDown"}, {"value", m}});
  actions.push_back({{"type", "keyDown"}, {"value", v}});
  actions.push_back({{"type", "keyUp"}, {"value", v}});
  for (auto it = mods.rbegin(); it != mods.rend(); ++it) actions.push_back({{"type", "keyUp"}, {"value", *it}});
  return performActions(json::array({keySource(actions)}), deadline);
}

Result<std::string> WdPage::screenshot(Deadline deadline) {
  LSCOPE_RETURN_IF_ERROR(leaveFrame(deadline));
  auto r = command("GET", "/screenshot", json(), deadline);
  if (!r) return r.status();
  if (!r->is_string()) return Status(codes::kBrowserError, "the screenshot is not base64 text");
  return r->get<std::string>();
}

// --- frames, tabs, files ------------------------------------------------------------------------

Result<std::vector<FrameInfo>> WdPage::frames(Deadline deadline) {
  LSCOPE_RETURN_IF_ERROR(leaveFrame(deadline));
  // Frames whose document the top one cannot reach (cross-origin), with their content boxes.
  auto r = execute(
      "const done = arguments[arguments.length - 1]; const out = [];"
      "for (const f of document.querySelectorAll('iframe, frame')) {"
      "  let reachable = false; try { reachable = !!f.contentDocument; } catch (e) {}"
      "  if (reachable) continue;"
      "  const r = f.getBoundingClientRect(); const cs = getComputedStyle(f);"
      "  const pl = parseFloat(cs.paddingLeft) || 0, pt = parseFloat(cs.paddingTop) || 0;"
      "  const pr = parseFloat(cs.paddingRight) || 0, pb = parseFloat(cs.paddingBottom) || 0;"
      "  out.push([f, f.src || '', r.left + f.clientLeft + pl, r.top + f.clientTop + pt,"
      "            f.clientWidth - pl - pr, f.clientHeight - pt - pb]);"
      "}"
      "done(out);",
      json::array(), deadline);
  if (!r) return r.status();
  std::vector<FrameInfo> out;
  if (!r->is_array()) return out;
  for (const auto& f : *r) {
    if (!f.is_array() || f.size() != 6 || !f[0].is_object() || !f[0].contains(kElementKey)) continue;
    FrameInfo info;
    info.id = stringOrEmpty(f[0][kElementKey]);
    info.url = stringOrEmpty(f[1]);
    if (info.id.empty() || !f[2].is_number() || !f[3].is_number() || !f[4].is_number() || !f[5].is_number()) continue;
    info.parent_id = window_;
    info.cross_origin = true;
    info.box = Rect{f[2].get<double>(), f[3].get<double>(), f[4].get<double>(), f[5].get<double>()};
    out.push_back(info);
  }
  return out;
}

Result<std::vector<TabInfo>> WdPage::tabs(Deadline deadline) {
  auto handles = command("GET", "/window/handles", json(), deadline);
  if (!handles) return handles.status();
  std::vector<TabInfo> out;
  std::string active = window_;
  for (const auto& h : *handles) {
    std::string id = stringOrEmpty(h);
    if (id.empty()) continue;
    {
      std::lock_guard<std::mutex> lock(mu_);
      known_windows_.insert(id);
    }
    if (id != window_) {
      // Title and URL belong to the current window: visit, then come back.
      if (!command("POST", "/window", {{"handle", id}}, deadline)) continue;
      window_ = id;
      frame_.clear();
    }
    TabInfo t{id, "", "", id == active};
    if (auto url = command("GET", "/url", json(), deadline); url && url->is_string()) t.url = url->get<std::string>();
    if (auto title = command("GET", "/title", json(), deadline); title && title->is_string()) {
      t.title = title->get<std::string>();
    }
    out.push_back(t);
  }
  if (window_ != active) {
    LSCOPE_RETURN_IF_ERROR(command("POST", "/window", {{"handle", active}}, deadline));
    window_ = active;
    frame_.clear();
  }
  return out;
}

Status WdPage::switchTab(const std::string& tab_id, Deadline deadline) {
  auto r = command("POST", "/window", {{"handle", tab_id}}, deadline);
  if (!r) return r.status();
  window_ = tab_id;
  frame_.clear();
  {
    std::lock_guard<std::mutex> lock(mu_);
    doc_token_.clear();  // another tab's document is not a navigation
  }
  registerListeners(deadline);
  return probe(deadline);
}

Status WdPage::closeTab(const std::string& tab_id, Deadline deadline) {
  auto handles = command("GET", "/window/handles", json(), deadline);
  if (!handles) return handles.status();
  if (handles->size() <= 1) {
    // Closing the last window would end the WebDriver session: open a fresh tab first.
    auto fresh = newTab("", deadline);
    if (!fresh) return fresh.status();
  }
  std::string back_to = window_ == tab_id ? "" : window_;
  LSCOPE_RETURN_IF_ERROR(command("POST", "/window", {{"handle", tab_id}}, deadline));
  auto left = command("DELETE", "/window", json(), deadline);
  if (!left) return left.status();
  {
    std::lock_guard<std::mutex> lock(mu_);
    known_windows_.erase(tab_id);
  }
  if (back_to.empty()) {
    if (!left->is_array() || left->empty()) return Status(codes::kBrowserError, "no tab is left");
    back_to = stringOrEmpty(left->back());
  }
  return switchTab(back_to, deadline);
}

Result<std::string> WdPage::newTab(const std::string& url, Deadline deadline) {
  LSCOPE_RETURN_IF_ERROR(leaveFrame(deadline));
  std::string handle;
  auto r = command("POST", "/window/new", {{"type", "tab"}}, deadline);
  if (r && r->is_object() && r->contains("handle")) {
    handle = stringOrEmpty((*r)["handle"]);
    std::lock_guard<std::mutex> lock(mu_);
    if (known_windows_.count(handle)) {
      // WPE's cog answers with the window it already has: a single-view browser.
      return Status(codes::kUnsupported, "this browser has a single view and cannot open tabs",
                    "goto the URL in the current tab instead");
    }
  } else {
    if (r.status().code() != codes::kUnsupported && !r.ok()) return r.status();
    // New Window is optional in the spec; a script-opened window is the fallback.
    auto before = command("GET", "/window/handles", json(), deadline);
    if (!before) return before.status();
    auto opened = execute("const done = arguments[arguments.length - 1]; done(!!window.open('about:blank', '_blank'));",
                          json::array(), deadline);
    if (!opened) return opened.status();
    auto after = command("GET", "/window/handles", json(), deadline);
    if (!after) return after.status();
    for (const auto& h : *after) {
      if (std::find(before->begin(), before->end(), h) == before->end()) handle = stringOrEmpty(h);
    }
    if (handle.empty()) return Status(codes::kUnsupported, "this remote end cannot open a tab");
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    known_windows_.insert(handle);
  }
  LSCOPE_RETURN_IF_ERROR(switchTab(handle, deadline));
  if (!url.empty()) LSCOPE_RETURN_IF_ERROR(navigate(url, deadline));
  return handle;
}

Status WdPage::setFiles(int scanner_id, const std::string& frame_id, const std::vector<std::string>& paths,
                        Deadline deadline) {
  LSCOPE_RETURN_IF_ERROR(enterFrame(frame_id, deadline));
  std::string g(kScannerGlobal);
  auto el = execute("const done = arguments[arguments.length - 1];"
                    "done(window." + g + " ? window." + g + ".element(arguments[0]) : null);",
                    json::array({scanner_id}), deadline);
  Status st = Status::ok();
  if (!el) {
    st = el.status();
  } else if (!el->is_object() || !el->contains(kElementKey)) {
    st = Status(codes::kElementStale, "the file input is gone", "run observe again");
  } else {
    // Element Send Keys on a file input sets its files (§12.5.3), one path per line.
    std::string text;
    for (const auto& p : paths) text += (text.empty() ? "" : "\n") + p;
    auto r = command("POST", "/element/" + stringOrEmpty((*el)[kElementKey]) + "/value",
                     {{"text", text}}, deadline);
    st = r.status();
  }
  if (!frame_id.empty()) leaveFrame(deadline);
  return st;
}

bool WdPage::takeOpenWindow(Deadline deadline) {
  // client_ directly: command() calls this when the window is gone.
  auto handles = client_->call("GET", "/session/" + session_ + "/window/handles", json(), deadline);
  if (!handles || !handles->is_array() || handles->empty()) return false;
  std::string next = stringOrEmpty(handles->back());
  if (next.empty() || !client_->call("POST", "/session/" + session_ + "/window", {{"handle", next}}, deadline)) return false;
  window_ = next;
  frame_.clear();
  return true;
}

void WdPage::noteNewWindows(Deadline deadline) {
  auto handles = client_->call("GET", "/session/" + session_ + "/window/handles", json(), deadline);
  if (!handles || !handles->is_array()) return;
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& h : *handles) {
    std::string id = stringOrEmpty(h);
    if (!id.empty() && known_windows_.insert(id).second) events_.push_back({"tab_opened", id, ""});
  }
}

void WdPage::noteDownloads() {
  if (options_.downloads_dir.empty()) return;
  namespace fs = std::filesystem;
  std::error_code ec;
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& e : fs::directory_iterator(options_.downloads_dir, ec)) {
    std::string name = e.path().filename().string();
    if (known_downloads_.count(name)) continue;
    std::string ext = e.path().extension().string();
    if (ext == ".crdownload" || ext == ".part" || ext == ".download" || name.rfind(".com.google.Chrome", 0) == 0) {
      // Still being written: said once (Chromium names it "Unconfirmed N.crdownload" at first).
      if (ext != ".crdownload" && ext != ".part" && ext != ".download") continue;
      if (!known_partials_.insert(name).second) continue;
      auto so_far = fs::file_size(e.path(), ec);
      events_.push_back({"download_progress", e.path().stem().string(), downloadProgressText(ec ? 0 : so_far, 0)});
      continue;
    }
    known_downloads_.insert(name);
    auto size = fs::file_size(e.path(), ec);
    events_.push_back({"download", e.path().string(), ec ? "size unknown" : std::to_string(size) + " bytes"});
  }
}

std::vector<BrowserEvent> WdPage::drainEvents() {
  noteNewWindows(Deadline::in(Millis(3000)));
  noteDownloads();
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<BrowserEvent> out;
  out.swap(events_);
  return out;
}

}  // namespace lscope::wd
