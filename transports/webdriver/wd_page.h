// WdPage: the Backend for one W3C WebDriver session (one engine session). The scanner runs
// through Execute Script in the page's own realm; trusted input goes through the Actions API;
// tabs are window handles; cross-origin frames are entered with Switch To Frame.
#pragma once

#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "engine/backend.h"
#include "scanner/scanner_source.h"
#include "transports/webdriver/wd_client.h"

namespace lscope::wd {

// The WebDriver sessions alive in this process, so a shutdown by signal can end them (the
// remote end then closes its browser and removes its profile) before stopping drivers.
class WdSessionRegistry {
 public:
  struct Entry {
    std::shared_ptr<WdClient> client;
    std::string session;
    std::vector<std::string> dirs;  // removed once the session is deleted (profile, downloads)
  };
  void add(Entry entry);
  void remove(const std::string& session);
  // Deletes every session still listed (each within `each`) and removes its directories.
  void deleteAll(Millis each);

 private:
  std::mutex mu_;
  std::vector<Entry> sessions_;
};

struct WdPageOptions {
  std::string description;    // "webdriver chromedriver 120 (chrome 120)"
  std::string downloads_dir;  // watched for finished downloads (empty: not reported)
  int viewport_width = 1280;  // the viewport asked for, where the remote end can resize windows
  int viewport_height = 800;
  // WebKit's WebDriver turns two clicks into two clicks, never a dblclick: send the dblclick
  // event ourselves after a double click.
  bool synthesize_dblclick = false;
  std::shared_ptr<WdSessionRegistry> registry;  // optional
  // Directories this session owns (a browser profile lscope made): removed when it ends.
  std::vector<std::string> owned_dirs;
  // Something the page keeps alive while it exists (a driver process of its own).
  std::shared_ptr<void> keepalive;
};

class WdPage final : public Backend {
 public:
  // Creates a session with `capabilities` (the "capabilities" member of New Session).
  static Result<std::unique_ptr<WdPage>> open(std::shared_ptr<WdClient> client, const json& capabilities,
                                              WdPageOptions options, Deadline deadline);
  ~WdPage() override;  // deletes the session

  const json& capabilities() const { return caps_; }
  void setDescription(std::string d) { options_.description = std::move(d); }

  std::string describe() const override { return options_.description; }
  Status navigate(const std::string& url, Deadline deadline) override;
  Status goBack(Deadline deadline) override;
  Status goForward(Deadline deadline) override;
  Status reload(Deadline deadline) override;
  Result<std::string> currentUrl(Deadline deadline) override;
  Result<json> scanner(const json& command, const std::string& frame_id, Deadline deadline) override;
  Status mouseClick(Point at, MouseButton button, int click_count, int modifiers, Deadline deadline) override;
  Status mouseMove(Point to, Deadline deadline) override;
  Status mouseButton(Point at, bool down, Deadline deadline) override;
  Status insertText(const std::string& text, Deadline deadline) override;
  Status typePaced(const std::string& text, Deadline deadline) override;
  Status pressKey(const std::string& key, int modifiers, Deadline deadline) override;
  Result<std::string> screenshot(Deadline deadline) override;
  Status waitForNetworkIdle(Millis quiet, Deadline deadline) override;
  Status waitForLoad(Deadline deadline) override;
  uint64_t navigationCount() override;
  Status waitForNavigation(uint64_t after, Deadline deadline) override;
  Result<std::vector<FrameInfo>> frames(Deadline deadline) override;
  Result<std::vector<TabInfo>> tabs(Deadline deadline) override;
  Status switchTab(const std::string& tab_id, Deadline deadline) override;
  Status closeTab(const std::string& tab_id, Deadline deadline) override;
  Result<std::string> newTab(const std::string& url, Deadline deadline) override;
  Status setFiles(int scanner_id, const std::string& frame_id, const std::vector<std::string>& paths,
                  Deadline deadline) override;
  std::vector<BrowserEvent> drainEvents() override;

 private:
  WdPage(std::shared_ptr<WdClient> client, WdPageOptions options)
      : client_(std::move(client)), options_(std::move(options)) {}

  // A command of this session (path relative to /session/{id}). A user prompt that blocks it
  // is accepted and reported as an event; the command is sent again when `repeatable`.
  Result<json> command(const std::string& method, const std::string& path, const json& body, Deadline deadline,
                       bool repeatable = true);
  // Execute Script (async flavour: the last argument is the callback) in the current frame.
  Result<json> execute(const std::string& script, const json& args, Deadline deadline, bool repeatable = true);
  // Accepts the open prompt (if any) and queues a "dialog" event. REQUIRES: mu_ not held.
  bool acceptPrompt(Deadline deadline);
  // Enters the cross-origin frame `frame_id` ("" = the top document).
  Status enterFrame(const std::string& frame_id, Deadline deadline);
  Status leaveFrame(Deadline deadline);
  // Runs a scanner call in the current frame, installing the scanner when the document lacks it.
  Result<json> scannerHere(const json& command, Deadline deadline, bool repeatable);
  // Where the active document is: its URL and a token unique to the document; updates the
  // navigation counter.
  Status probe(Deadline deadline);
  Status historyMove(const std::string& path, const std::string& what, Deadline deadline);
  Status performActions(const json& sources, Deadline deadline);
  // Key presses for chars[from, to), in one action sequence.
  Status typeKeys(const std::vector<std::string>& chars, size_t from, size_t to, Deadline deadline);
  // Resizes the window so the viewport has the size asked for (where the remote end can).
  void fitViewport(Deadline deadline);
  void noteNewWindows(Deadline deadline);
  // Switches to a window that is still open (the last the remote end lists); false if none.
  bool takeOpenWindow(Deadline deadline);
  // chromedriver: installs the listener registry at document start in the current window.
  void registerListeners(Deadline deadline);
  void noteDownloads();

  std::shared_ptr<WdClient> client_;
  WdPageOptions options_;
  std::string session_;   // the WebDriver session id
  json caps_;             // the capabilities the remote end answered with
  std::string window_;    // the active window handle
  std::string frame_;     // the frame we are in ("" = top)
  const std::string channel_ = newListenerChannel();  // the listener registry's event channel
  std::set<std::string> registered_windows_;          // windows with the registry at document start

  std::mutex mu_;  // guards what follows (events may be queued from any call)
  std::vector<BrowserEvent> events_;
  std::set<std::string> known_windows_;
  std::set<std::string> known_downloads_;
  std::set<std::string> known_partials_;  // downloads in progress, said once
  std::string doc_url_, doc_token_;
  uint64_t navigations_ = 0;
};

// The W3C key value ("\uE007") for a key name of intent-language.md ("Enter", "F5", "a").
// Empty when unknown. Exposed for its unit test.
std::string keyValue(const std::string& name);

}  // namespace lscope::wd
