// The scanner protocol (scanner-protocol.md §3) as typed calls: the one place in the engine
// that builds scanner commands and turns scanner errors (§2.3) into Statuses with a hint.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/backend.h"
#include "engine/deadline.h"
#include "engine/status.h"

namespace lscope {

using json = nlohmann::json;

// scan (§3.1) parameters the engine uses.
struct ScanRequest {
  int max_elements = 0;  // 0: every element (the engine's scans: everything stays targetable)
  int detail_max = 0;    // elements returned with selector/xpath (0: the scanner's default)
  bool include_hidden = false;
  bool viewport_only = false;
  std::string near;      // keep elements near this text, nearest first
  std::string within;    // CSS selector of a container
  json pattern_rules;    // pack patterns (packs/*/patterns.yaml as JSON); null: none
};

// What an element wait (§3.14) waits on: exactly one of these.
struct WaitTarget {
  std::optional<int> id;
  std::string selector, xpath, text;
};

// A match of find_text (any visible text): the element to act on, and how it relates to the text.
struct TextMatchResult {
  json element;       // element JSON, registered in the scanner's map
  std::string via;    // "self": the text's own element; "ancestor": its nearest actionable ancestor
  std::string matched;
  json text_rect;     // the matched text's own box {x, y, width, height}, or null (an older scanner)
};

// The length of UTF-8 text as a page counts it (UTF-16 units: String.length).
long long utf16Length(const std::string& utf8);

// Not thread-safe; one per command execution. Every call honours the transport's deadline.
class ScannerClient {
 public:
  // Delivers one command to a frame ("" = top document) and returns the scanner's whole
  // response object, or why it could not be delivered.
  using Transport = std::function<Result<json>(const json& command, const std::string& frame)>;
  explicit ScannerClient(Transport transport) : transport_(std::move(transport)) {}

  // The `data` of an ok response; a scanner error becomes a Status with the scanner's code.
  Result<json> call(json command, const std::string& frame = "") const;

  Result<json> scan(const ScanRequest& request, const std::string& frame = "") const;
  // Actionability checks for `check` (click, type, hover) and the viewport point to send native
  // input to (frame-local coordinates of the top-level viewport for the scanner's frame).
  // `stable`: also wait (up to 10 frames) until its box is the same in two frames.
  // `guard` (clicks): arm the page's check that the press lands on this element (guardResult).
  // `watch`: start counting the page's DOM changes, for watched() after the action.
  // `focus_quiet` (type): where no listener of the page would hear the focusing press nor the
  // keys, the scanner focuses the field and selects its text itself (Point::focused).
  // `offset`: from the middle of its box (the resolver's aim at words inside it).
  // `reads`: the text it was chosen by, which it must still read (ELEMENT_STALE if the page drew
  // something else into it since the scan).
  Result<Point> point(int id, const std::string& frame, const std::string& check, bool force,
                      bool stable = false, bool guard = false, bool watch = false, bool focus_quiet = false,
                      std::optional<Point> offset = std::nullopt, const std::string& reads = {}) const;
  // The DOM changes since point(..., watch), a pending short timer counting as one; nullopt
  // when no watch was armed (or no answer).
  // With quiet_ms and none counted, the same call then waits for a still spell (wait_quiet with
  // animations, spanning `frames` animation frames too, at most timeout_ms) and adds its changes.
  // `unheard_ok`: no still spell when the listener registry says no listener of the page heard
  // the action's events (no code of the page ran for it).
  std::optional<int> watched(long long quiet_ms = 0, int frames = 0, long long timeout_ms = 0,
                             bool unheard_ok = false) const;
  // After a guarded native click: what took the press instead ("button.toast-close \"×\""), or
  // what the release landed on when the element moved away under a press it took (its click
  // held back); both empty when the element got the click (or the document is gone: a click
  // that navigated).
  struct GuardResult {
    std::string intercepted;
    std::string slipped;
  };
  Result<GuardResult> guardResult(const std::string& frame) const;
  // Synthetic-event fallbacks (§3.2-3.9) when native input cannot be used.
  Status click(int id, const std::string& frame, MouseButton button, int count, bool force) const;
  // `paste`: the text goes in as a paste does, one input event and no key events.
  Status type(int id, const std::string& frame, const std::string& text, bool clear, bool paste = false) const;
  Status clear(int id, const std::string& frame) const;
  Status setChecked(int id, const std::string& frame, bool checked) const;
  Status focus(int id, const std::string& frame) const;
  // One section of a field drawn section by section (attributes "sections"), focused as a press
  // does: whether it took the focus, and the text it holds ("" while it shows its placeholder).
  struct SectionFocus {
    bool focused = false;
    std::string text;
  };
  Result<SectionFocus> focusSection(int id, const std::string& frame, int section) const;
  // Selects by visible text, by value, or by index; returns the chosen option's text.
  Result<std::string> selectText(int id, const std::string& frame, const std::string& text) const;
  Result<std::string> selectValue(int id, const std::string& frame, const std::string& value) const;
  Result<std::string> selectIndex(int id, const std::string& frame, int index) const;
  // A <select multiple>'s options, all at once, by "text" or "value": the texts now chosen.
  Result<std::vector<std::string>> selectList(int id, const std::string& frame, const std::string& by,
                                              const json& list) const;
  Result<json> getValue(int id, const std::string& frame) const;
  // Characters in the field's value (utf16Length), masked ones included.
  Result<long long> valueLength(int id, const std::string& frame) const;
  Result<std::string> textOf(const std::string& selector) const;     // get_text (§3.12)
  Result<std::string> textOfElement(int id, const std::string& frame) const;
  Result<json> exists(const std::string& selector) const;            // exists (§3.13): {exists, visible, count}
  // query: ids of the last scan's elements a selector matches, plus elements it registered.
  struct QueryResult {
    std::vector<int> ids;
    std::vector<json> added;
  };
  Result<QueryResult> query(const std::string& selector, bool xpath, const std::string& frame = "") const;
  Result<std::vector<TextMatchResult>> findText(const std::string& text, const std::string& match,
                                                int max, const std::string& frame = "") const;
  Result<json> getSelector(int id, const std::string& frame) const;  // {selector, xpath}
  Result<json> scroll(const json& params, const std::string& frame = "") const;
  // seek: scrolls the lists that draw only the rows in view until one shows `text` (it is
  // scrolled into view then); not found, each goes back where it was.
  struct Sought {
    bool found = false;
    int boxes = 0;          // lists that draw only the rows in view
    bool timed_out = false;
    int steps = 0;          // scrolls made
    bool moved = false;     // found, and a list scrolled to it
  };
  Result<Sought> seek(const std::string& text, Millis timeout) const;
  // reveal: `text` on a slide its carousel does not show or in a closed section, and the control
  // that brings it in ("Next slide": its element, toward "next" or "previous", `away` slides from
  // those shown; a tab or a collapsed toggle: toward "open", `away` sections closed around it);
  // `shown` when the text is in view; neither when no carousel or closed section holds it.
  struct Revealing {
    bool shown = false;
    json control;  // null when there is none
    json hover;    // the carousel to point at first: its arrows show only under the pointer (else null)
    json swipe;    // {x, y, dx, dy}: the drag that moves a carousel with no arrows or dots (else null)
    std::string label;  // what to call a control with no name ("dot 3 of 4")
    std::string toward;
    int away = 0;
  };
  // `by`: only a closed section whose opener is named so (the target's `near` text). `hovered`:
  // the pointer is over the carousel already (no `hover` again).
  Result<Revealing> reveal(const std::string& text, const std::string& by = "", bool hovered = false) const;
  Status submit(std::optional<int> id, const std::string& frame = "") const;
  // Event-driven waits in the page (§3.14): whether the condition held within timeout_ms (0: a
  // check now), and when not, what the page looked like ("no element matches").
  struct WaitOutcome {
    bool met = false;
    std::string detail;
  };
  Result<WaitOutcome> waitFor(const std::string& condition, const WaitTarget& target, long long timeout_ms,
                              const std::string& frame = "") const;
  // The next DOM mutation, transition end or load (true), or timeout_ms passing (false).
  Result<bool> waitChange(long long timeout_ms) const;
  // Until the finite animations running now end (at most timeout_ms); failures are ignored.
  void waitAnimations(long long timeout_ms) const;
  // Until the work the last watched action's code started has run (a debounced filter's timer,
  // a menu shown a moment after the click, a request and its handlers), at most timeout_ms.
  // True when it has and the listener registry followed all of it to its end (nothing open).
  bool waitTimers(long long timeout_ms) const;
  // Until the DOM has been still for quiet_ms (at most timeout_ms); with `animations`, also no
  // finite animation moving or revealing anything. `changes`: the mutations and animations seen
  // meanwhile; a failure (no answer) counts as a change.
  // `done` (the settle after a watched action): when the listener registry says all the work the
  // action's code scheduled was followed and has run, the spell is done->quiet_ms and
  // done->frames animation frames instead, animations counted, and Quiet::done says so.
  struct Quiet {
    bool settled = false;
    int changes = 1;
    bool done = false;
  };
  struct DoneSpell {
    long long quiet_ms = 0;
    int frames = 0;
  };
  Quiet waitQuiet(long long quiet_ms, long long timeout_ms, bool animations = false,
                  std::optional<DoneSpell> done = std::nullopt) const;
  // Until the page's web components are defined, while definitions or loaded resources keep
  // coming (no progress for patience_ms and `frames` checks ends it), at most timeout_ms.
  // !settled: some still undefined (with `final`, the scanner stops waiting for those tags in
  // this document); progress: a definition or a loaded resource came meanwhile. A failure: settled.
  struct Upgrades {
    bool settled = true;
    bool progress = false;
  };
  Upgrades waitUpgrades(long long timeout_ms, long long patience_ms, int frames, bool final) const;
  Result<json> execute(const std::string& script, const json& args = json::array()) const;
  // Where keys typed now go (key_listeners): whether anything there listens to them (unknown:
  // true), and whether the focused element takes text, a text field or an editing host (nullopt
  // when the scanner cannot tell: an older one, a frame it cannot see into, a failed call).
  struct KeysTarget {
    bool listened = true;
    std::optional<bool> takes_text;
    // Whether the focus is on the element (or inside it); unknown where the scanner cannot see it.
    std::optional<bool> on_target;
  };
  KeysTarget keysTarget(int id, const std::string& frame) const;
  // The scanner id of the file input `id` stands for (a drop area's, a label's), 0 when none.
  int fileInputFor(int id, const std::string& frame) const;

 private:
  Transport transport_;
};

// The hint an agent gets for a scanner error code (§2.3 "Recovery Strategy").
std::string scannerErrorHint(const std::string& code);

}  // namespace lscope
