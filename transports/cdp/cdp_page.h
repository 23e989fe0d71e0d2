// CdpPage: the Backend for one browser context (an engine session) over a shared CDP
// connection. Tracks its tabs, frames, scanner worlds, loading and network activity.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "engine/backend.h"
#include "scanner/scanner_source.h"
#include "transports/cdp/cdp_connection.h"
#include "transports/cdp/cdp_policy.h"

namespace lscope::cdp {

struct CdpPageOptions {
  std::string browser_context_id;  // empty: the browser's default context (attach mode)
  bool dispose_context = true;     // dispose the context when the page is destroyed
  int viewport_width = 1280;
  int viewport_height = 800;
  std::string downloads_dir;
  std::string description;
  // Size the window so the viewport is viewport_width x viewport_height. Off in a window that is
  // the user's (the extension backend in the user's own browser).
  bool fit_viewport = true;
  // The navigation policy's gate at the browser, when it enforces origin lists; may be null.
  std::shared_ptr<PolicyGate> gate;
  // Through the Lemmascope extension's relay, which may take a tab to script mode (Target::scripted).
  bool extension = false;
};

class CdpPage final : public Backend, public GatedPage {
 public:
  // Opens a tab in the context and attaches to it.
  static Result<std::unique_ptr<CdpPage>> open(std::shared_ptr<CdpConnection> conn,
                                               CdpPageOptions options, Deadline deadline);
  ~CdpPage() override;

  std::string describe() const override { return options_.description; }
  Status navigate(const std::string& url, Deadline deadline) override;
  Status goBack(Deadline deadline) override;
  Status goForward(Deadline deadline) override;
  Status reload(Deadline deadline) override;
  Result<std::string> currentUrl(Deadline deadline) override;
  Result<json> scanner(const json& command, const std::string& frame_id,
                       Deadline deadline) override;
  Status mouseClick(Point at, MouseButton button, int click_count, int modifiers,
                    Deadline deadline) override;
  Status mouseMove(Point to, Deadline deadline) override;
  Status mouseButton(Point at, bool down, Deadline deadline) override;
  Status insertText(const std::string& text, Deadline deadline) override;
  Status commitText(const std::string& text, Deadline deadline) override;
  Status typePaced(const std::string& text, Deadline deadline) override;
  bool commitsText() const override { return true; }
  Status pressKey(const std::string& key, int modifiers, Deadline deadline) override;
  Result<std::string> screenshot(Deadline deadline) override;
  Status waitForNetworkIdle(Millis quiet, Deadline deadline) override;
  std::optional<bool> networkActiveSince(Clock::time_point since) override;
  std::optional<bool> requestsInFlight() override;
  Status waitForLoad(Deadline deadline) override;
  uint64_t navigationCount() override;
  Status waitForNavigation(uint64_t after, Deadline deadline) override;
  Result<std::vector<FrameInfo>> frames(Deadline deadline) override;
  Result<std::vector<TabInfo>> tabs(Deadline deadline) override;
  Status switchTab(const std::string& tab_id, Deadline deadline) override;
  Status closeTab(const std::string& tab_id, Deadline deadline) override;
  Result<std::string> newTab(const std::string& url, Deadline deadline) override;
  Status setFiles(int scanner_id, const std::string& frame_id,
                  const std::vector<std::string>& paths, Deadline deadline) override;
  std::vector<BrowserEvent> drainEvents() override;
  bool ownsFrame(const std::string& frame_id) override;
  void noteBlocked(const std::string& frame_id, const std::string& url, const std::string& why) override;

 private:
  // One attached target: a tab, or an out-of-process iframe of the active tab.
  struct Target {
    std::string target_id;
    std::string session_id;
    std::string main_frame_id;
    std::string url;
    std::string title;
    bool is_frame = false;             // an out-of-process iframe target
    std::string parent_session;        // frames: the session of the page that embeds it
    std::map<std::string, int> worlds;  // frame id -> scanner execution context id
    std::set<std::string> child_frames;  // frames attached in this target's documents
    bool loading = false;               // main frame between started and stopped loading
    uint64_t load_starts = 0;           // main-frame loads seen starting (events)
    uint64_t navigations = 0;           // main-frame URL changes
    struct Request {
      std::string frame;   // the frame it is for
      std::string loader;  // the document that made it (empty: a worker's, a preflight)
    };
    std::map<std::string, Request> inflight;  // network requests in flight, by request id
    std::set<std::string> browser_own;        // in flight, the browser's own (the favicon): not the page's work
    Clock::time_point last_network = Clock::now();
    // Through the extension, a tab the browser refuses the debugger: why. The extension then
    // answers for it with scripts (transports/extension/chrome/script.js): the scanner runs
    // through Lemmascope.scanner, and input is synthesized (untrusted).
    std::string scripted;
  };

  CdpPage(std::shared_ptr<CdpConnection> conn, CdpPageOptions options)
      : conn_(std::move(conn)), options_(std::move(options)) {}

  Status attachTab(const std::string& target_id, Deadline deadline);
  // Resizes the tab's window so its viewport has the size asked for.
  void fitViewport(const std::string& target_id, Deadline deadline);
  // The session and frame id the scanner runs in for `frame_id` ("" = the active tab's page).
  Status locateFrame(const std::string& frame_id, std::string& session, std::string& frame);
  // Evaluates `expression` in the frame's scanner world, injecting the scanner if needed.
  // When the document goes away meanwhile, `retry` evaluates again in the new one (only for
  // expressions that are safe to repeat); otherwise the result is NAVIGATION_ERROR.
  Result<json> evaluateInWorld(const std::string& frame_id, const std::string& expression,
                               bool by_value, Deadline deadline, bool retry = true);
  void finishDownload(const json& params);  // REQUIRES: mu_ held
  // Script mode: a scanner command through the extension, which injects the scanner itself.
  Result<json> scriptedScanner(const std::string& session, const json& command, bool repeatable, Deadline deadline);
  // In script mode, notes (once per answer) that the active tab's input is synthesized.
  void noteSynthesizedInput();
  // Whether the renderer of `session` cannot run even a trivial script (the page's script holds
  // its thread).
  bool rendererBusy(const std::string& session);
  // The active tab's session id; an error when the page crashed or no tab is open.
  Result<std::string> activeSession();
  Result<json> call(const std::string& method, const json& params, Deadline deadline);
  // Sends input events to the active tab in order without waiting for each answer; returns
  // after the last one's, with the first failure if any.
  Status dispatchInOrder(const std::vector<std::pair<const char*, json>>& events, Deadline deadline);
  // How long the last input event may go unanswered once a frame went meanwhile (the frame it
  // went to, whose acknowledgement went with it) before it counts as given.
  static constexpr std::chrono::milliseconds kUnansweredAfterFrameGone{1000};
  uint64_t framesGone();  // frames_gone_, under mu_
  Result<int> scannerWorld(const std::string& session, const std::string& frame_id,
                           Deadline deadline);
  // Waits until the active tab's main frame is not loading.
  Status waitNotLoading(Deadline deadline, const std::string& what);
  Status history(int delta, Deadline deadline);
  void onEvent(const std::string& method, const json& params, const std::string& session_id);
  Target* activeTarget();  // REQUIRES: mu_ held
  Target* targetBySession(const std::string& session_id);  // REQUIRES: mu_ held
  // Forgets the requests in flight of one frame of `t` (its requests end elsewhere, or never).
  static void dropRequestsOf(Target& t, const std::string& frame_id);  // REQUIRES: mu_ held
  // Forgets the requests in flight of `t` that `gone` picks. REQUIRES: mu_ held.
  static void dropRequests(Target& t, const std::function<bool(const Target::Request&)>& gone);
  // A frame target's session ended: its waiting commands fail now, and the target goes.
  void frameSessionEnded(std::map<std::string, Target>::iterator frame);  // REQUIRES: mu_ held

  std::shared_ptr<CdpConnection> conn_;
  CdpPageOptions options_;
  const std::string channel_ = newListenerChannel();  // the listener registry's event channel
  int listener_ = -1;

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::string, Target> targets_;  // by target id
  std::set<std::string> closed_tabs_;      // tabs closeTab closed (ids are never reused)
  std::string active_;                     // target id of the active tab
  std::vector<BrowserEvent> events_;
  int held_buttons_ = 0;  // mouseButton's: the moves of a drag carry them
  struct Download {
    std::string name;       // the file name the site suggested
    double received = 0, total = 0;
    bool announced = false;  // reported as in progress once
  };
  std::map<std::string, Download> downloads_;  // by guid, until saved or canceled
  bool crashed_ = false;
  uint64_t frames_gone_ = 0;  // frames detached or out-of-process frame sessions ended, ever
  // lscope stopped a page script that held the renderer; not yet said in an error.
  std::atomic<bool> stopped_script_{false};
  // By session: since when the renderer has left every script call unanswered (the first call of
  // a run of timeouts started then); any answer ends the run.
  std::map<std::string, Clock::time_point> unanswered_since_;
};

}  // namespace lscope::cdp
