// The page a command works on: the session's browser state (backend, last scan, stable ids)
// seen through one command's deadline and call context. It owns the one implementation of every
// action (click, type, select, check, ...), with Playwright-style auto-wait, which OIL commands,
// intent steps and built-in intents all call; scans and settling; change reports.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "engine/backend.h"
#include "engine/changes.h"
#include "engine/config.h"
#include "engine/nav_policy.h"
#include "engine/page_model.h"
#include "engine/resolver.h"
#include "engine/response.h"
#include "engine/scanner_client.h"

namespace lscope {

// What a session keeps of its browser between commands. Owned by the Session; a Page borrows it
// for one command.
struct BrowserState {
  std::unique_ptr<Backend> backend;
  IdAllocator ids;
  std::optional<PageScan> last;   // the last full scan of the top document (+ its frames)
  std::string last_document;      // the scanner's token of that document
  // What the scanner calls each element of its latest scan (frame, agent id, scanner id): every
  // scan renumbers the scanner's map, also one not kept as `last` (an element held from an
  // earlier scan would otherwise be addressed by an id that now names something else). A flat
  // list in scan order: refilled at every scan, looked up once per action.
  struct ScannerId {
    std::string frame;
    int id = 0;
    int scanner_id = 0;
  };
  std::vector<ScannerId> scanner_ids;
  std::vector<std::string> secrets;    // values never shown again
  std::vector<std::string> tab_order;  // backend tab ids in the order first seen
  // The field the agent last typed into: submit_form submits its form (issue 12 item 4).
  struct Typed {
    std::string document, key, form;
  } typed;

  void forgetPage();  // another document is in front (navigation, tab switch, dead browser)
};

// Session-wide things a Page reads.
struct PageEnv {
  BackendFactory* factory = nullptr;
  Millis settle_quiet{20};    // the page still (no DOM change, no request) this long, and two frames, after an action
  Millis settle_network_quiet{150};  // once an action started requests: network quiet this long
  Millis settle_max{3000};    // at most this long settling
  bool strict = false;        // ambiguous targets fail instead of choosing
  json pattern_rules;         // pack patterns passed to every scan (packs/*/patterns.yaml)
  std::shared_ptr<const NavigationPolicy> policy;  // where pages may go; null: anywhere web
};

struct ClickOptions {
  MouseButton button = MouseButton::kLeft;
  int count = 1;
  bool force = false;  // the element gets the click even when something covers it
  // The text the element must still read when pressed (ScannerClient::point's `reads`): an
  // option of a list that re-sorts or reuses its rows is otherwise pressed as whatever it shows.
  std::string reads;
};

// How actions wait and what they do about covers (auto-wait, issue 12 item 2).
struct ActOptions {
  Millis timeout{5000};  // auto-wait: the target appears and becomes actionable within this
  // A target not drawn yet may be sought in the long lists that draw only the rows in view (a
  // person scrolls a long list to a name): that scrolling, work of our own that goes on while
  // rows come, may take this long from the action's start, past the auto-wait (not past the
  // command's timeout). An explicit timeout bounds it as well.
  Millis seek{12000};
  bool force = false;
  // Called when a detected popup (modal, consent banner, overlay) covers the target: clears it
  // and returns what it did ("dismiss_popups: closed modal ..."), or why it could not. Unset for
  // atomic commands, which report the cover instead.
  std::function<Result<std::string>(const std::string& popup_kind)> clear_cover;
  // What the action can be done to (type: a field, not a button): of several matches of the
  // target, the first such one is taken over a better one it cannot be done to. `accepts_what`
  // says it in the answer ("takes text").
  std::function<bool(const Element&)> accepts;
  std::string accepts_what;
  // Only over a match that reads the same (select: a grid's "Country" select over its sortable
  // "Country" header, not a "Country of birth" select over a "Country" dropdown button).
  bool accepts_same_text = false;
};

// What perform() acted on and what it did.
struct Acted {
  Element element;      // as scanned just before the action
  std::string detail;   // the action's note (" (synthetic events)", " ← \"France\"" ...)
  std::string how;      // how the target was found when not directly ("via text ...", "chose 1 of 3")
  std::vector<std::string> cleared;  // covers cleared first (intents)
};

// Whether a field showing `shown` holds what was typed: the text itself, or its letters and digits
// in order (a mask's literals and a number's separators aside: "(415) 555-2671" for "4155552671").
bool showsTyped(const std::string& shown, const std::string& typed);
// The part of `text` each section of a field drawn section by section takes, by the sections'
// kinds ("month day year", "hour minute dayPeriod"): the letters and digits of the text in the
// field's order, a date written year first ("2025-06-20") placed by kind, a 24-hour time into a
// field with AM/PM given its period. Empty when the text does not split into one part per section.
std::vector<std::string> sectionParts(const std::string& text, const std::vector<std::string>& kinds);
// Whether a field drawn section by section shows the parts typed: part by part, letters and
// digits only, a number's leading zeros aside ("6" shows as "06"), a period by its first letter.
bool showsParts(const std::string& shown, const std::vector<std::string>& parts);
// showsTyped for the field `el`: part by part for one drawn section by section.
bool fieldShowsTyped(const Element& el, const std::string& shown, const std::string& typed);

class Page {
 public:
  Page(BrowserState& state, const PageEnv& env, Deadline deadline, const CallContext& call);

  Deadline deadline;          // the command's; long waits extend it
  const CallContext& call;
  bool form_action = false;   // the current action may submit a form (diffs report FormSubmitted)

  // --- browser and scans ---
  Result<Backend*> backend();
  // Drops the backend when `status` says the browser is gone (the next command starts one).
  void dropBackendIfDead(const Status& status);
  const ScannerClient& scanner() { return scanner_; }
  // Scans the top document and its cross-origin frames, assigns stable ids; remembers it as the
  // last scan unless !remember (filtered observations).
  Result<PageScan> scan(const ScanRequest& request = {}, bool remember = true);
  const PageScan* last() const { return state_.last ? &*state_.last : nullptr; }
  BrowserState& state() { return state_; }
  Status settle();
  // settle() has run since the last thing this command did to the page (an action, a wait for a
  // change, a navigation): a second settle would only wait out quiet spells again.
  bool settled() const { return settled_; }
  void settleAnimations();
  // Web components still loading their definitions (an autoloader after load) have no behaviour
  // yet: wait while they keep loading, briefly. Failure only means no wait.
  void settleComponents();
  // A page that hides itself until it has drawn (goto saw no control shown): the next change to
  // the DOM within `cap`, then what it loads and a quiet spell. False when nothing changed.
  bool waitUntilDrawn(Deadline cap);
  // Blocks until the page changes (DOM mutation, transition end, load, navigation) or `until`.
  // Slices of at most `slice` keep cancellation prompt.
  void waitForChange(Deadline until, Millis slice = Millis(1000));
  // Reports browser events (dialogs, new tabs, downloads) into the response.
  void reportEvents(Response& r);

  // --- the navigation policy (engine/nav_policy.h) ---
  // goto and new tabs: refused before anything is sent when the policy forbids the URL; after
  // the navigation, where it ended is checked too (a redirect).
  Status navigate(const std::string& url);
  Result<std::string> newTab(const std::string& url);
  // After an action: a tab that reached a URL the policy forbids (a redirect, a link or a popup,
  // on a backend that cannot stop the request itself) is stopped at about:blank, a new tab closed.
  // NAVIGATION_ERROR says where; ok when nothing was out of bounds.
  Status enforcePolicy();
  int tabNumber(const std::string& tab_id);
  void rememberSecret(const std::string& value);
  bool isSecret(const std::string& value) const;

  // --- targets (resolver.cpp is the only resolver; these supply it with the page) ---
  ResolverHooks hooks(const PageScan& page);
  Result<Resolution> resolve(const TargetSpec& target, const PageScan& page);
  // Adds elements the scanner registered outside the last scan (query, find_text) to `page`
  // with agent ids, and returns them.
  std::vector<const Element*> adopt(PageScan& page, const std::vector<json>& elements);

  // --- actions: the one implementation of each ---
  // Each acts on an element of the current scan with trusted input at scanner-computed points,
  // and returns a note for the action log ("" or " (synthetic events)") or why it failed.
  // `el` as the scanner knows it now: its id of the latest scan (ids of an older one may name
  // another element since), else as given.
  Element current(const Element& el) const;
  Result<std::string> click(const Element& el, const ClickOptions& o = {});
  Result<std::string> type(const Element& el, const std::string& text, bool clear = true);
  // Native <select>s by option text, value or index; custom dropdowns (select2, tom-select,
  // choices, ARIA listboxes) by opening them and clicking the option. Returns the chosen text.
  Result<std::string> select(const Element& el, const json& option);
  // A <select multiple> takes a list of options at once (§3.6's text or value, as a list); a
  // widget takes them one select at a time. The texts now chosen.
  static bool takesListAtOnce(const Element& el) { return el.tag == "select" && el.visible; }
  // Whether `type` can type into el: not a button, link, checkbox, option, tab... (a slider takes a number).
  static bool typable(const Element& el);
  Result<std::vector<std::string>> selectList(const Element& el, const json& options);
  Result<std::string> setChecked(const Element& el, bool want);
  Result<std::string> chooseOption(const Element& el, bool want);  // check/uncheck on an option
  // A guarded click, then the element's boolean state (read again once drawn when not `want`).
  Result<std::optional<bool>> clickForState(Backend& b, const Element& el, Point at, bool want);
  // " (already checked)", or what it means after this action's own click was drawn anew.
  std::string alreadyChecked(bool want) const;
  Result<std::string> hover(const Element& el);
  // Drags `el` (pressed on its handle when it has one) onto `to`, found on the page as it is
  // then: an element like it takes its place; a heading names the list or column under it, and
  // the drop lands at its end. The mouse moves in steps, a frame each, as a person's hand does.
  Result<std::string> drag(const Element& el, const TargetSpec& to, Deadline until);
  // After drag (and the page settled): where the dragged item is now, "now 2nd of 2 under
  // \"Done\"", or that it is where it was; empty when the scanner could not tell.
  std::string dragOutcome(json* place);
  Result<std::string> focus(const Element& el);
  Result<std::string> clear(const Element& el);
  Status press(const std::string& combo, const Element* on = nullptr);
  Result<json> scroll(const json& params, const Element* el = nullptr);
  Status upload(const Element& el, const std::vector<std::string>& paths);

  using ActFn = std::function<Result<std::string>(const Element&)>;
  // Auto-wait (Playwright's actionability as the anchor): resolves `target` against fresh scans,
  // waiting for it to exist, and runs `act` on it; an element that is not yet visible, enabled or
  // receiving events is waited for too, event-driven, up to o.timeout. A target covered by a
  // detected popup is cleared through o.clear_cover (then retried once) or reported with what
  // clears it.
  Result<Acted> perform(const TargetSpec& target, const ActFn& act, const ActOptions& o);
  // The same for an element already chosen (intent steps and built-ins).
  Result<Acted> performOn(const Element& el, const ActFn& act, const ActOptions& o);
  // Waits (event-driven) until `target` resolves on the page; returns the scan and resolution.
  struct Located {
    PageScan page;
    Resolution res;
    bool fresh = false;  // found in the command's fresh scan (its ids are those of the elements in hand)
    // Found by scrolling a long list: the action may wait for it until then even past `until` (a
    // list that draws its rows anew after the scroll that showed the row).
    std::optional<Deadline> after_seek;
  };
  // `seek_until`: how long scrolling long lists for it may go on (default: `until`).
  Result<Located> locate(const TargetSpec& target, Deadline until, std::optional<Deadline> seek_until = std::nullopt);

  // Runs `act` between a before-scan and an after-scan and adds the change report.
  Response actAndReport(const std::string& command, const std::function<Result<std::string>()>& act);
  // The change report between two scans, as response lines and data.
  void addChanges(Response& r, const PageScan& before, const PageScan& after, bool skip_noop = false);

  // The popup pattern (modal_dialog, promo_popup, overlay, cookie_banner) in front on `page`,
  // that `el` is not part of; nullptr when none.
  const Pattern* coveringPopup(const PageScan& page, const Element* el);

 private:
  // After typing `text` into el: the keys landed, or a popup that opened took them (an error).
  Result<std::string> typedLanded(const Element& el, const std::string& text);
  Result<std::string> typeSections(const Element& el, const std::string& text);
  Status clearSections(Backend& b, const Element& el);
  // Types `text` key by key (`paced`: each key's work done before the next), a line break as
  // Shift+Enter in an editor.
  Status typeLines(Backend& b, const Element& el, const std::string& text, bool paced, Deadline deadline);
  // Empties the focused field `el` before typing: with real keys (select all, Backspace) where
  // the page listens to its keys, as a person does; the scanner's one-step clear otherwise, or
  // for what the keys left.
  Status clearForTyping(Backend& b, const Element& el);
  // An ARIA slider (role=slider: noUiSlider's handles) set to the number in `text` as a person
  // does with the keyboard: focused by a press on it, then arrow keys (Page keys for long ways),
  // reading aria-valuenow, until it holds the number; an error when it cannot get there.
  Result<std::string> setSlider(const Element& el, const std::string& text);
  // Waits for the DOM's first quiet moment, for a state or value a component draws late.
  void untilStateDrawn();
  Result<Point> pointOf(const Element& el, const std::string& check, bool force = false, bool guard = false,
                        bool focus_quiet = false, const std::string& reads = {});
  // Where a cross-origin frame's viewport starts in the top one (0, 0 for the top document).
  Point frameOrigin(const std::string& frame) const;
  // A native click at `at` after pointOf(..., guard): fails (not interactable, so auto-wait looks
  // again) when the page moved and the press landed elsewhere; the guard held that press back.
  Status guardedClick(Backend& b, const Element& el, Point at, MouseButton button, int count);
  void scanFrames(PageScan& page, const ScanRequest& request);
  Status settleOnce();
  // After select chose `chosen` in `el`'s list: Escape, when the list is still open in `last`.
  Status closeListLeftOpen(const Element& el, const Element& chosen, const PageScan& last, const std::set<int>& known);
  Result<std::string> selectCustom(const Element& el, const std::string& text);
  // The button of the open modal dialog holding element `member` that confirms a choice made in
  // it ("OK", "Done", "Apply"), or null.
  const Element* dialogConfirmButton(const PageScan& page, int member);
  // perform(): closes an open list of choices that `cover` (the scanner's "covered by" message)
  // says lies over the target: Escape, then a click beside it (`tries`: 0, 1, 2). What it did,
  // for Acted::cleared, or nothing when there is nothing (more) to try.
  std::optional<std::string> closeOpenList(const std::string& cover, int& tries, Deadline until);
  // perform(): the other match of the target that covers `el` where it was to be pressed (the
  // failure's "covered by ... at (x, y)"), or null.
  const Element* coveringMatch(const Status& failed, const TargetSpec& target, const Resolution& res,
                               const Element& el) const;

  json drag_before_;        // drag(): where the dragged item was ({under, index, count}, or null)
  std::string drag_frame_;
  // The browser was lost during this command: backend() does not start another until the next.
  bool lost_ = false;
  std::string lost_why_;
  // The lost browser's backend lives until the command ends: a Backend* taken before a scanner
  // call found it dead stays valid (its calls fail) instead of dangling (CI: settle() crashed
  // when the browser was killed during login).
  std::unique_ptr<Backend> retired_;
  // Browser events taken early (by enforcePolicy) for the next reportEvents.
  std::vector<BrowserEvent> held_events_;
  BrowserState& state_;
  const PageEnv& env_;
  ScannerClient scanner_;
  // The remembered scan was taken in this command and nothing has acted since: a target can be
  // resolved against it without scanning again.
  bool last_fresh_ = false;
  // The page as it was after locate scrolled a long list to the target (seek): the action's
  // change report starts from there, not from the rows the scrolling replaced.
  std::optional<PageScan> sought_page_;
  std::string sought_how_;  // how locate brought it into view, for the action's line
  // locate(): brings the slide showing `text` into view with its carousel's control, or opens
  // the closed sections around it (scanner `reveal`), a press at a time while each press brings
  // it nearer, as a person presses "Next" or a tab.
  struct Revealed {
    // What was pressed (its name; empty: the carousel was dragged), how often, in turn.
    std::vector<std::pair<std::string, int>> pressed;
    int presses = 0;
    bool shown = false;   // the text is in view now
    bool opened = false;  // a closed section (a tab, an accordion) was opened, not only a carousel moved
    bool pointed = false; // the pointer was moved over the carousel first: its arrows show only then
  };
  // `by`: only a closed section whose opener is named so.
  Revealed revealSlide(const std::string& text, Deadline until, const std::string& by = "");
  // "pressed \"Billing\", then \"Next slide\" 2 times to show it"; "pointed at the carousel, pressed …"
  static std::string revealedHow(const Revealed& r, bool purpose = true);
  // Drags the carousel as a person does who has no arrows to press (scanner `reveal`'s `swipe`):
  // presses at {x, y}, moves by {dx, dy} a frame at a time, holds still, lets go.
  Status swipe(const json& gesture, Deadline until);
  // The page counts its DOM changes from this moment (pointOf before a click or typing in the
  // top document), for settle() to answer at once when the action changed nothing.
  std::optional<Clock::time_point> watch_since_;
  // The watched action was one whose events alone the page could react to (typing plain text in
  // one step, a click on a native checkbox or radio button): when no listener of the page heard
  // them, settle() need not wait for a reaction.
  bool unheard_ok_ = false;
  // A box this action clicked was drawn anew before its state could be read (a list that writes
  // its rows again on every change): found in the wanted state afterwards, the click did it.
  bool clicked_away_ = false;
  bool settled_ = false;  // settled(): set at settle's end, cleared by startAction and navigations
  // An action (or a wait) begins: the remembered scan is no longer fresh, and no earlier action
  // may skip the still window.
  void startAction();
};

// `[3] "Sign in"` for action logs.
std::string describe(const Element& e);
// Adds a scheme when missing: http:// for localhost, loopback and host:port, else https://.
std::string normalizeUrl(const std::string& url);
// Resolves "/path", "?query" and "#fragment" against `base`; other URLs are returned as is.
std::string resolveUrl(const std::string& base, const std::string& url);
// The document identity of a scan: the scanner's token, else the URL without fragment.
std::string documentOf(const PageScan& p);

}  // namespace lscope
