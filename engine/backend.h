// The seam between the engine and browsers: a small set of primitives every backend offers
// (CDP, WebDriver, extension). Waiting, targeting, verification and diffs live above it.
#pragma once

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/deadline.h"
#include "engine/status.h"

namespace lscope {

using json = nlohmann::json;

struct Point {
  double x = 0;
  double y = 0;
  // The scanner focused the field itself (point with focus_quiet): no press is needed.
  bool focused = false;
  // A drop point at the end of a list (point check "drop"), which moves as a drag goes.
  bool list_end = false;
};

struct Rect {
  double x = 0, y = 0, width = 0, height = 0;
  double cx() const { return x + width / 2; }
  double cy() const { return y + height / 2; }
  // The gaps between two boxes along each axis (0 where they overlap on it).
  double gapX(const Rect& o) const { return std::max({0.0, x - (o.x + o.width), o.x - (x + width)}); }
  double gapY(const Rect& o) const { return std::max({0.0, y - (o.y + o.height), o.y - (y + height)}); }
  // This box lies within `o`, give or take `slack` pixels.
  bool within(const Rect& o, double slack = 0) const {
    return x >= o.x - slack && y >= o.y - slack && x + width <= o.x + o.width + slack &&
           y + height <= o.y + o.height + slack;
  }
};

enum class MouseButton { kLeft, kMiddle, kRight };

// Bit flags for keyboard modifiers, as in CDP Input (Alt=1, Ctrl=2, Meta=4, Shift=8).
enum KeyModifier : int { kModAlt = 1, kModControl = 2, kModMeta = 4, kModShift = 8 };

// A frame the scanner can run in. The empty id is the top-level document of the active tab;
// other ids name out-of-process (cross-origin) frames reported by frames().
struct FrameInfo {
  std::string id;
  std::string url;
  std::string parent_id;
  bool cross_origin = false;
  Rect box;  // where the frame's content sits in the top-level viewport (CSS px)
};

struct TabInfo {
  std::string id;
  std::string url;
  std::string title;
  bool active = false;
};

// Something that happened in the browser outside a command's direct result: a JavaScript
// dialog, a new tab, a finished download. Backends queue them; the engine drains and reports.
struct BrowserEvent {
  // "dialog", "tab_opened", "download", "crash"; "blocked" (a request the navigation policy
  // refused: detail = its URL, message = why) and "blocked_navigation" (the active tab's own);
  // "download_progress" (a download still running when a command ends, said once: detail = its
  // file name, message = downloadProgressText).
  std::string kind;
  std::string detail;   // dialog type, tab url, download path ...
  std::string message;  // dialog text, download size ...
  std::string tab = {};  // "blocked": the tab whose own document it was, when that is not the active one
};

// "312 MB of 1.0 GB so far" (or "312 MB so far" when the size is unknown).
inline std::string downloadProgressText(double received, double total) {
  auto size = [](double b) {
    char buf[32];
    if (b >= 1e9) std::snprintf(buf, sizeof buf, "%.1f GB", b / (1024.0 * 1024 * 1024));
    else if (b >= 1e6) std::snprintf(buf, sizeof buf, "%.0f MB", b / (1024.0 * 1024));
    else if (b >= 1e3) std::snprintf(buf, sizeof buf, "%.0f kB", b / 1024.0);
    else std::snprintf(buf, sizeof buf, "%.0f bytes", b);
    return std::string(buf);
  };
  return size(received) + (total > 0 ? " of " + size(total) : "") + " so far";
}

// One browser tab/page (and its frames) as the engine sees it.
// Thread-safety: a Backend is used by one engine Session at a time; implementations may
// receive browser events on other threads and must guard their own state.
// Every call blocks until done or until the deadline passes (then returns TIMEOUT).
class Backend {
 public:
  virtual ~Backend() = default;

  // Human-readable backend name for messages ("cdp chromium 156").
  virtual std::string describe() const = 0;

  // Navigation: returns once the new document's load event fired (or the deadline passed).
  virtual Status navigate(const std::string& url, Deadline deadline) = 0;
  virtual Status goBack(Deadline deadline) = 0;
  virtual Status goForward(Deadline deadline) = 0;
  virtual Status reload(Deadline deadline) = 0;
  virtual Result<std::string> currentUrl(Deadline deadline) = 0;

  // Runs one scanner-protocol command (scanner-protocol.md §2) in a frame and returns the
  // scanner's response object ({"ok":..., "data":..., "code":..., "error":...}). Injects the
  // scanner first when the document does not have it. A non-OK Status means the command
  // could not be delivered (browser gone, script failed to load); scanner-level errors come
  // back inside the response with ok=false.
  virtual Result<json> scanner(const json& command, const std::string& frame_id,
                               Deadline deadline) = 0;

  // Native ("trusted") input at CSS pixel coordinates of the top-level viewport.
  virtual Status mouseClick(Point at, MouseButton button, int click_count, int modifiers,
                            Deadline deadline) = 0;
  virtual Status mouseMove(Point to, Deadline deadline) = 0;
  // Presses (down) or releases the left button at `at`, for a drag: moves between them carry the
  // held button (buttons=1), as a person's do. A backend that cannot hold a button says so.
  virtual Status mouseButton(Point at, bool down, Deadline deadline) {
    (void)at, (void)down, (void)deadline;
    return Status(codes::kUnknownCommand, describe() + " cannot hold a mouse button down");
  }
  // Inserts text at the focused element as if typed (IME-style commit, fires input events).
  virtual Status insertText(const std::string& text, Deadline deadline) = 0;
  // Commits the whole text in one step (no key events; one input event), for a field nothing
  // listens to keys on. The default (a backend that cannot) types it key by key.
  virtual Status commitText(const std::string& text, Deadline deadline) { return insertText(text, deadline); }
  virtual bool commitsText() const { return false; }
  // Types key by key, the page's own work for each key done before the next is sent: a page
  // that catches up between keys (a controlled field written back a render later) keeps every
  // key, as at a typist's pace. The default types as insertText does.
  virtual Status typePaced(const std::string& text, Deadline deadline) { return insertText(text, deadline); }
  // Presses and releases one key ("Enter", "Tab", "a", "F5") with modifiers.
  virtual Status pressKey(const std::string& key, int modifiers, Deadline deadline) = 0;

  // PNG screenshot of the viewport, base64-encoded.
  virtual Result<std::string> screenshot(Deadline deadline) = 0;

  // Waits until no network request has been in flight for `quiet`.
  virtual Status waitForNetworkIdle(Millis quiet, Deadline deadline) = 0;
  // Whether requests of the active tab are in flight now; nullopt when the backend cannot see
  // them (classic WebDriver has no network events).
  virtual std::optional<bool> requestsInFlight() { return std::nullopt; }
  // Whether the active tab's network was busy at any time since `since`: a request started or
  // ended, a navigation began, or requests are in flight or a document loads now; nullopt when
  // the backend cannot see requests.
  virtual std::optional<bool> networkActiveSince(Clock::time_point) { return std::nullopt; }
  // Waits for the current document's load event.
  virtual Status waitForLoad(Deadline deadline) = 0;
  // Counts main-frame navigations of the active tab (new documents and same-document URL
  // changes). waitForNavigation blocks until the count exceeds `after` or the deadline.
  virtual uint64_t navigationCount() = 0;
  virtual Status waitForNavigation(uint64_t after, Deadline deadline) = 0;

  // Frames the scanner cannot reach from the top document (cross-origin, out of process).
  virtual Result<std::vector<FrameInfo>> frames(Deadline deadline) = 0;

  // Tabs of this session's browser context.
  virtual Result<std::vector<TabInfo>> tabs(Deadline deadline) = 0;
  virtual Status switchTab(const std::string& tab_id, Deadline deadline) = 0;
  // Closes a tab; closing the last one leaves a fresh blank tab.
  virtual Status closeTab(const std::string& tab_id, Deadline deadline) = 0;
  // Opens a tab (about:blank when url is empty), makes it active, returns its id.
  virtual Result<std::string> newTab(const std::string& url, Deadline deadline) = 0;

  // Sets the files of the <input type=file> that has `scanner_id` in the frame's last scan.
  virtual Status setFiles(int scanner_id, const std::string& frame_id,
                          const std::vector<std::string>& paths, Deadline deadline) = 0;

  // Takes every queued BrowserEvent (oldest first).
  virtual std::vector<BrowserEvent> drainEvents() = 0;
};

// Creates isolated Backends (one per MCP session: own cookies, tabs, storage). Launching or
// connecting to the browser happens lazily, on the first create().
// Thread-safe: create() may be called from several sessions at once.
class BackendFactory {
 public:
  virtual ~BackendFactory() = default;
  virtual Result<std::unique_ptr<Backend>> create(Deadline deadline) = 0;
  // Stops whatever the factory started (browser process, driver). Idempotent.
  virtual void shutdown() = 0;
};

}  // namespace lscope
