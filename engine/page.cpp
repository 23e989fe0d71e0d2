// Page: scans, target resolution with auto-wait, the one implementation of every action, and
// change reports. Actions use native ("trusted") input at the scanner's coordinates; when the
// scanner cannot give a point (--force past a cover) they fall back to events the scanner
// dispatches itself, and say so ("synthetic events").
#include "engine/page.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <regex>
#include <set>
#include <utility>

#include <spdlog/spdlog.h>

#include "engine/observation.h"
#include "engine/waits.h"

namespace lscope {

namespace {

constexpr int kStillFrames = 2;  // animation frames a still window spans besides its time (settle)
constexpr long long kStateQuietMs = 50;  // a toggled control's state drawn late: DOM quiet this long
constexpr long long kWorkQuietMs = 80;  // the least DOM stillness after an action that started work (settle)

// Whether `id` is among the ids inside the open modal dialogs (ResolverHooks::in_modal).
bool inModal(const std::vector<int>& modal, int id) { return std::find(modal.begin(), modal.end(), id) != modal.end(); }

bool isBackendDead(const Status& s) {
  return s.code() == codes::kConnectionError ||
         (s.code() == codes::kBrowserError && s.message().find("crashed") != std::string::npos);
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string withoutFragment(const std::string& url) { return url.substr(0, url.find('#')); }

// Popups that can sit in front of the page, in the order a person deals with them.
const char* const kCoveringPatterns[] = {"cookie_banner", "modal_dialog", "promo_popup", "overlay"};

// Actionability failures that time may cure (the element is appearing, animating, enabling, or
// something in front of it is going away).
bool mayPass(const Status& s) {
  const std::string& c = s.code();
  if (c == codes::kElementNotInteractable) {
    // What the element is does not pass: a read-only field, one that cannot take focus, a
    // checkbox typed into, a text field given files, a radio button unchecked.
    for (const char* lasting : {"read-only", "cannot take keyboard focus", ", not a text field", "is no text field", "did not bring it to",
                                "do not fit on the screen together", "which is not made again", "drag within one document",
                                ", not a checkbox",
                                "is not a file input",
                                "cannot be unchecked"}) {
      if (s.message().find(lasting) != std::string::npos) return false;
    }
    return true;
  }
  return c == codes::kElementNotVisible || c == codes::kElementDisabled || isElementGone(s);
}

}  // namespace

std::string describe(const Element& e) {
  std::string s = "[" + std::to_string(e.id) + "]";
  if (!e.text.empty()) s += " " + quote(e.text.size() > 60 ? e.text.substr(0, 60) + "…" : e.text);
  return s;
}

std::string documentOf(const PageScan& p) { return p.document.empty() ? withoutFragment(p.url) : p.document; }

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

std::string normalizeUrl(const std::string& raw) {
  // Blanks around a pasted URL are not part of it (browsers trim them too).
  size_t b = raw.find_first_not_of(" \t\r\n");
  size_t e = raw.find_last_not_of(" \t\r\n");
  std::string url = b == std::string::npos ? "" : raw.substr(b, e - b + 1);
  if (url.find("://") != std::string::npos) return url;
  // A scheme of its own (about:, data:, file:, javascript:, mailto:, any case), unless what
  // follows the colon is a port (localhost:8080/x).
  size_t colon = url.find(':');
  if (colon != std::string::npos && colon > 0 && std::isalpha(static_cast<unsigned char>(url[0]))) {
    bool scheme = std::all_of(url.begin(), url.begin() + static_cast<long>(colon), [](unsigned char c) {
      return std::isalnum(c) || c == '+' || c == '-' || c == '.';
    });
    size_t digits = url.find_first_not_of("0123456789", colon + 1);
    bool port = digits != colon + 1 && (digits == std::string::npos || url[digits] == '/' || url[digits] == '?' || url[digits] == '#');
    if (scheme && !port) return url;
  }
  std::string host = url.substr(0, url.find_first_of("/?#"));
  bool local = host.rfind("localhost", 0) == 0 || host.rfind("127.", 0) == 0 ||
               host.rfind("[::1]", 0) == 0 || host.find(':') != std::string::npos;
  return (local ? "http://" : "https://") + url;
}

void BrowserState::forgetPage() {
  last.reset();
  last_document.clear();
  scanner_ids.clear();
}

Page::Page(BrowserState& state, const PageEnv& env, Deadline dl, const CallContext& c)
    : deadline(dl),
      call(c),
      state_(state),
      env_(env),
      scanner_([this](const json& command, const std::string& frame) -> Result<json> {
        if (call.cancelled()) return Status(codes::kCancelled, "cancelled");
        auto b = backend();
        if (!b) return b.status();
        auto reply = (*b)->scanner(command, frame, deadline);
        if (!reply) dropBackendIfDead(reply.status());
        return reply;
      }) {}

// --- browser and scans -----------------------------------------------------------------------

Result<Backend*> Page::backend() {
  if (!state_.backend && lost_) {
    // A fresh browser in the middle of a command would be a blank page acting as the one the
    // command started on (a login "succeeding" on about:blank): the command ends here.
    return Status(codes::kBrowserError, "the browser went away during this command (" + lost_why_ + ")",
                  "run it again: the next command starts a fresh browser");
  }
  if (!state_.backend) {
    call.report(0, 0, "starting the browser");
    auto created = env_.factory->create(deadline);
    if (!created) return created.status();
    call.note("info", "browser ready: " + (*created)->describe());
    state_.backend = std::move(created.value());
    state_.forgetPage();
    state_.ids.reset();
    state_.tab_order.clear();
    if (auto tabs = state_.backend->tabs(deadline)) {
      for (const auto& t : *tabs) {
        if (t.active) tabNumber(t.id);  // the first tab is [1]
      }
    }
  }
  return state_.backend.get();
}

void Page::dropBackendIfDead(const Status& status) {
  if (state_.backend && isBackendDead(status)) {
    spdlog::warn("browser session lost ({}); the next command starts a new one", status.message());
    call.note("warning", "browser session lost (" + status.message() + "); the next command starts a new one");
    retired_ = std::move(state_.backend);
    state_.forgetPage();
    state_.ids.reset();
    lost_ = true;
    lost_why_ = status.message();
  }
}

Result<PageScan> Page::scan(const ScanRequest& request, bool remember) {
  ScanRequest r = request;
  // Every element stays targetable however long the page is; selectors only for the first few
  // hundred (observe --full prints at most that many).
  if (r.detail_max == 0) r.detail_max = 300;
  if (r.pattern_rules.is_null()) r.pattern_rules = env_.pattern_rules;
  auto data = scanner_.scan(r);
  if (!data) return data.status();
  auto page = parseScan(*data);
  if (!page) return page.status();
  scanFrames(*page, r);
  std::string doc = documentOf(*page);
  if (doc != state_.last_document) {
    state_.ids.reset();
    state_.ids.assign(*page, nullptr);
  } else {
    state_.ids.assign(*page, state_.last ? &*state_.last : nullptr);
  }
  state_.scanner_ids.clear();
  state_.scanner_ids.reserve(page->elements.size());
  for (const auto& e : page->elements) state_.scanner_ids.push_back({e.frame, e.id, e.scanner_id});
  if (remember) {
    state_.last_document = doc;
    state_.last = *page;
    last_fresh_ = true;
  }
  return page;
}

Element Page::current(const Element& el) const {
  Element now = el;
  for (const auto& s : state_.scanner_ids) {
    if (s.id == el.id && s.frame == el.frame) {
      now.scanner_id = s.scanner_id;
      break;
    }
  }
  return now;
}

void Page::scanFrames(PageScan& page, const ScanRequest& request) {
  constexpr size_t kMaxFrames = 5;       // ad-heavy pages embed dozens; the first few matter
  constexpr double kMinFrameSide = 20;   // tracking pixels are not worth a scan
  auto frames = state_.backend->frames(deadline);
  if (!frames || frames->empty()) return;
  size_t scanned = 0;
  for (const auto& f : *frames) {
    if (scanned == kMaxFrames) break;
    if (f.box.width < kMinFrameSide || f.box.height < kMinFrameSide) continue;
    ScanRequest sub_request = request;
    sub_request.near.clear();
    sub_request.within.clear();
    auto data = scanner_.scan(sub_request, f.id);
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

Status Page::settle() {
  // A settle cut short by its cap saw no quiet end: the next one is not skipped.
  const auto t0 = Clock::now();
  Status s = settleOnce();
  settled_ = Clock::now() - t0 < env_.settle_max;
  return s;
}

Status Page::settleOnce() {
  auto b = backend();
  if (!b) return b.status();
  Deadline cap = deadline.capped(env_.settle_max);
  // Event-driven (issue 17): an action the page does nothing about (no DOM change, request or
  // navigation since just before it, nor within a brief still window after it) is answered then.
  // Any of those is work, waited for as below: the end of a transition or a timer may show the
  // next step without another sign (Bootstrap's tabs add `show` 155 ms after `active`). A
  // backend blind to requests (classic WebDriver) cannot tell, and always waits as for work.
  // The still window spans at least two animation frames besides its time: a reaction the page
  // draws in its next frame is seen however slowly a loaded machine draws.
  const auto since = std::exchange(watch_since_, std::nullopt);
  const bool unheard_ok = std::exchange(unheard_ok_, false);
  bool work_followed = false;  // the registry followed the action's work to its end, and it ran
  if (since) {
    auto busy = (*b)->networkActiveSince(*since);
    const bool quiet_so_far = busy && !*busy;
    // One call: the changes counted since the action, then (none) the still window, unless no
    // listener of the page heard the action at all (nothing of the page ran: nothing to see).
    auto changed = scanner_.watched(quiet_so_far ? env_.settle_quiet.count() : 0, kStillFrames,
                                    std::min<long long>(600, cap.remaining().count()), unheard_ok);
    if (quiet_so_far && changed == 0 && !(*b)->networkActiveSince(*since).value_or(true)) return Status::ok();
    // Short timers the action started run first: what they do (a debounced filter's re-render or
    // request, a menu shown 300 ms after the click) is then waited for below. So do the requests
    // its code made, and their handlers.
    work_followed = scanner_.waitTimers(std::min<long long>(1000, cap.remaining().count()));
  }
  // Loads and requests are waited for when the action started some (or the backend cannot tell):
  // a change in the page alone needs no network quiet spell. A request started late (by a frame
  // or a promise after the action) is seen after the DOM's quiet spell, and waited for then.
  auto networkWork = [&] { return !since || (*b)->networkActiveSince(*since).value_or(true); };
  Status loaded = Status::ok();
  auto waitNetwork = [&] {
    (*b)->waitForLoad(cap);
    // A busy page is not an error here; said in the log (a request that never ends costs every
    // action on the page this wait).
    if (Status idle = (*b)->waitForNetworkIdle(env_.settle_network_quiet, cap); !idle) {
      spdlog::debug("settle: the network is not quiet: {}", idle.message());
    }
    loaded = (*b)->waitForLoad(cap);
  };
  // The listener registry followed the requests the action's code made (fetch, XMLHttpRequest)
  // and what their handlers scheduled to their end, and no request is in flight now (the backend
  // sees them all): the network's quiet spell, for requests nobody followed, is not needed. The
  // quiet window after work still is: what a response leads to may take steps the registry
  // cannot follow (a module imported, a worker's answer).
  auto requestsDone = [&] { return !(*b)->requestsInFlight().value_or(true); };
  const bool network_first = networkWork();
  const bool network_followed = network_first && work_followed && requestsDone();
  if (network_followed) {
    spdlog::debug("settle: the action's requests were followed to their end; no network quiet spell");
    loaded = (*b)->waitForLoad(cap);
  } else if (network_first) {
    waitNetwork();
  }
  settleComponents();
  settleAnimations();
  // Script-driven animations and re-renders change the DOM frame after frame: a brief quiet
  // spell means the page shows the action's result. At least 80 ms; longer when the user asks
  // the page to stay still longer (--settle-quiet). When no request came and the listener
  // registry followed every piece of work the action's code scheduled (timers, frames, messages)
  // to its end, the page's reaction is over: the spell is then the still window of an action the
  // page ignored (--settle-quiet, two frames).
  const long long work_quiet = std::max<long long>(kWorkQuietMs, env_.settle_quiet.count());
  const auto quietSpell = [&](bool may_be_done) {
    std::optional<ScannerClient::DoneSpell> done;
    if (may_be_done) done = ScannerClient::DoneSpell{env_.settle_quiet.count(), kStillFrames};
    auto q = scanner_.waitQuiet(work_quiet, std::min<long long>(work_quiet + 520, deadline.remaining().count()),
                                false, done);
    if (q.done) spdlog::debug("settle: the action's work was followed to its end; a still window after it");
  };
  quietSpell(since.has_value() && !network_first && !networkWork());
  if (network_followed ? !requestsDone() : !network_first && networkWork()) {
    waitNetwork();
    quietSpell(false);
  }
  return loaded;
}

void Page::settleAnimations() {
  // Content animating in (a popup fading from opacity 0) is not visible until it ends: wait for
  // finite animations, briefly and event-driven in the page. Failure only means no wait.
  scanner_.waitAnimations(std::min<long long>(1000, deadline.remaining().count()));
}

bool Page::waitUntilDrawn(Deadline cap) {
  // A page that hides itself until it has drawn (Stencil's components, Ionic's, until their code
  // has arrived and rendered) is not there yet for a person. The next change, then what it
  // loads (the network's quiet spell while requests are in flight) and a DOM quiet spell.
  auto changed = scanner_.waitChange(cap.remaining().count());
  if (!changed || !*changed) return false;
  auto b = backend();
  if (b && (*b)->requestsInFlight().value_or(false)) {
    if (Status idle = (*b)->waitForNetworkIdle(env_.settle_network_quiet, cap); !idle) {
      spdlog::debug("goto: the network is not quiet: {}", idle.message());
    }
  }
  const long long quiet = std::max<long long>(kWorkQuietMs, env_.settle_quiet.count());
  scanner_.waitQuiet(quiet, std::min<long long>(quiet + 520, cap.remaining().count()), false, std::nullopt);
  settleComponents();
  settleAnimations();
  return true;
}

void Page::settleComponents() {
  // A brief look first: definitions already on their way arrive within a few frames. Modules
  // still downloading show no progress the page can see: while requests are in flight, wait for
  // the network to be quiet, then for the definitions it brought. Nothing loading and nothing in
  // flight: the tags left are never defined (an Angular app's hosts, a tag used for styling) and
  // cost no more waiting in this document. A backend blind to requests (classic WebDriver) waits
  // on only while the look saw progress, and gives tags up only when an action waits for them.
  Deadline cap = deadline.capped(Millis(3000));
  auto first = scanner_.waitUpgrades(cap.remaining().count(), 30, 3, false);
  if (first.settled) return;
  auto b = backend();
  std::optional<bool> in_flight = b ? (*b)->requestsInFlight() : std::nullopt;
  if (!in_flight) {
    if (first.progress) scanner_.waitUpgrades(cap.remaining().count(), 300, 10, false);
    return;
  }
  if (!first.progress && !*in_flight) {
    scanner_.waitUpgrades(cap.remaining().count(), 0, 0, true);
    return;
  }
  (*b)->waitForNetworkIdle(Millis(100), cap);
  scanner_.waitUpgrades(cap.remaining().count(), 300, 10, true);
}

void Page::waitForChange(Deadline until, Millis slice) {
  // Event-driven: the scanner resolves on the next DOM mutation (or when time is up); a
  // navigation ends the wait too.
  startAction();
  long long ms = std::min<long long>(until.remaining().count(), slice.count());
  if (ms <= 0) return;
  auto r = scanner_.waitChange(ms);
  if (!r && state_.backend) state_.backend->waitForLoad(until.capped(Millis(3000)));
}

void Page::reportEvents(Response& r) {
  std::vector<BrowserEvent> events;
  events.swap(held_events_);
  if (state_.backend) {
    for (auto& ev : state_.backend->drainEvents()) events.push_back(std::move(ev));
  }
  // What the page did comes first; how the input reached it (synthesized) is a footnote.
  std::stable_partition(events.begin(), events.end(), [](const BrowserEvent& e) { return e.kind != "synthesized_input"; });
  for (const auto& ev : events) {
    // An error that already says it (the script stopped by this command's own call) is not
    // repeated as an event.
    if (!r.ok() && !ev.message.empty() && r.summary.find(ev.message) != std::string::npos) continue;
    if (ev.kind == "blocked") {
      r.add("events", "blocked " + shortUrl(ev.detail) + ": " + ev.message);
    } else if (ev.kind == "dialog") {
      r.add("events", "dialog " + ev.detail + " " + quote(ev.message) + " (accepted)");
    } else if (ev.kind == "tab_opened") {
      int n = tabNumber(ev.detail);
      std::string url = ev.message;
      // The opener's event may predate its URL (no browser left: the event's own).
      auto tabs = state_.backend ? state_.backend->tabs(deadline) : Result<std::vector<TabInfo>>(std::vector<TabInfo>());
      if (tabs) {
        for (const auto& t : *tabs) {
          if (t.id == ev.detail && !t.url.empty()) url = t.url;
        }
      }
      r.add("events", "new tab [" + std::to_string(n) + "] " + shortUrl(url) + " (tabs switch " +
                          std::to_string(n) + ")");
    } else if (ev.kind == "synthesized_input") {
      // Issue 15: input without the debugger is synthesized in the page, and the agent is told.
      r.add("events", "input synthesized (untrusted: isTrusted is false, a page may ignore it): the browser refuses "
                      "the debugger on this tab (" + ev.message + ")");
    } else if (ev.kind == "script_stopped") {
      r.add("events", "the page's script " + ev.message);
    } else if (ev.kind == "download") {
      r.add("events", "download " + ev.detail + " " + ev.message);
    } else if (ev.kind == "download_progress") {
      r.add("events", "download " + ev.detail + " in progress, " + ev.message + " (a later response says when it is saved)");
    } else {
      r.add("events", ev.kind + " " + ev.message);
    }
  }
}

// --- the navigation policy -------------------------------------------------------------------

Status Page::navigate(const std::string& url) {
  settled_ = false;
  auto b = backend();
  if (!b) return b.status();
  if (env_.policy) {
    std::string why = env_.policy->refusal(url);
    if (!why.empty()) {
      return Status(codes::kNavigationError, "refused " + url + ": " + why,
                    "lscope's navigation policy (README, Security) decides where pages may go");
    }
  }
  Status nav = (*b)->navigate(url, deadline);
  Status stop = enforcePolicy();
  if (!stop) return stop;
  return nav;
}

Result<std::string> Page::newTab(const std::string& url) {
  settled_ = false;
  auto b = backend();
  if (!b) return b.status();
  if (env_.policy && !url.empty()) {
    std::string why = env_.policy->refusal(url);
    if (!why.empty()) {
      return Status(codes::kNavigationError, "refused " + url + ": " + why,
                    "lscope's navigation policy (README, Security) decides where pages may go");
    }
  }
  auto id = (*b)->newTab(url, deadline);
  if (!id) return id;
  Status stop = enforcePolicy();
  if (!stop) return stop;
  return id;
}

Status Page::enforcePolicy() {
  if (!env_.policy || !env_.policy->restrictsOrigins() || !state_.backend) return Status::ok();
  Backend& b = *state_.backend;
  // What the browser stopped itself (CDP intercepts every document request): said as it was.
  for (auto& ev : b.drainEvents()) held_events_.push_back(std::move(ev));
  // The active tab's own navigation the browser refused: the command stops there.
  std::string stopped;
  for (const auto& ev : held_events_) {
    if (ev.kind == "blocked_navigation" && stopped.empty()) stopped = ev.detail + ": " + ev.message;
  }
  held_events_.erase(std::remove_if(held_events_.begin(), held_events_.end(),
                                    [](const BrowserEvent& e) { return e.kind == "blocked_navigation"; }),
                     held_events_.end());
  // New tabs out of bounds are closed (their request was refused, or they loaded anyway).
  std::vector<BrowserEvent> closed;
  std::set<std::string> closed_ids;
  for (const auto& ev : held_events_) {
    if (ev.kind != "tab_opened") continue;
    auto tabs = b.tabs(deadline);
    if (!tabs) break;
    for (const auto& t : *tabs) {
      if (t.id != ev.detail) continue;
      // The browser refused the tab's document itself: the tab may have no URL yet.
      const BrowserEvent* refused = nullptr;
      for (const auto& e : held_events_) {
        if (e.kind == "blocked" && e.tab == t.id) refused = &e;
      }
      std::string url = refused ? refused->detail : t.url;
      std::string why = refused ? refused->message : url.empty() ? "" : env_.policy->refusal(url);
      if (why.empty() || !b.closeTab(t.id, deadline)) continue;
      closed_ids.insert(t.id);
      closed.push_back({"blocked", url, why + "; the new tab was closed", t.id});
    }
  }
  held_events_.erase(std::remove_if(held_events_.begin(), held_events_.end(),
                                    [&](const BrowserEvent& e) {
                                      return (e.kind == "tab_opened" && closed_ids.count(e.detail)) ||
                                             (e.kind == "blocked" && closed_ids.count(e.tab));
                                    }),
                     held_events_.end());
  // The active tab: where it is now.
  auto here = b.currentUrl(deadline);
  std::string why = here ? env_.policy->refusal(*here) : "";
  if (!why.empty() || !stopped.empty()) {
    Status blank = b.navigate("about:blank", deadline);
    state_.forgetPage();
    // The browser's own account when it refused the request (it names the redirect).
    std::string msg = "stopped at " + (!stopped.empty() ? stopped : *here + ": " + why) +
                      (blank ? "; the tab shows about:blank now" : "");
    for (auto& c : closed) held_events_.push_back(std::move(c));
    return Status(codes::kNavigationError, msg, "lscope's navigation policy (README, Security) decides where pages may go");
  }
  for (auto& c : closed) held_events_.push_back(std::move(c));
  return Status::ok();
}

int Page::tabNumber(const std::string& tab_id) {
  auto& order = state_.tab_order;
  auto it = std::find(order.begin(), order.end(), tab_id);
  if (it != order.end()) return static_cast<int>(it - order.begin()) + 1;
  order.push_back(tab_id);
  return static_cast<int>(order.size());
}

void Page::rememberSecret(const std::string& value) {
  addLogSecret(value);
  auto& s = state_.secrets;
  if (!value.empty() && std::find(s.begin(), s.end(), value) == s.end()) s.push_back(value);
}

bool Page::isSecret(const std::string& value) const {
  return std::find(state_.secrets.begin(), state_.secrets.end(), value) != state_.secrets.end();
}

// --- targets ---------------------------------------------------------------------------------

std::vector<const Element*> Page::adopt(PageScan& page, const std::vector<json>& elements) {
  std::vector<const Element*> out;
  std::vector<int> ids;
  for (const auto& j : elements) {
    Element e;
    if (!parseElement(j, "", e)) continue;
    e.id = state_.ids.idFor(e);
    ids.push_back(e.id);
    if (!page.byId(e.id)) page.elements.push_back(e);
    // Found once, targetable from now on: the remembered scan learns it too.
    if (state_.last && &*state_.last != &page && !state_.last->byId(e.id)) state_.last->elements.push_back(e);
  }
  for (int id : ids) {
    if (const Element* e = page.byId(id)) out.push_back(e);
  }
  return out;
}

ResolverHooks Page::hooks(const PageScan& page) {
  ResolverHooks h;
  h.select = [this, &page](const std::string& selector, bool xpath) -> Result<std::vector<int>> {
    auto r = scanner_.query(selector, xpath);
    if (!r) return r.status();
    // The scanner answers with its ids of the current map; translate to agent ids.
    std::vector<int> out;
    for (int sid : r->ids) {
      for (const auto& e : page.elements) {
        if (e.scanner_id == sid && e.frame.empty()) out.push_back(e.id);
      }
    }
    // Matches the scan did not list (a heading, a container): registered by the scanner, adopted
    // into the remembered scan so they resolve by id.
    for (const auto& j : r->added) {
      Element e;
      if (!parseElement(j, "", e)) continue;
      e.id = state_.ids.idFor(e);
      out.push_back(e.id);
      if (state_.last && !state_.last->byId(e.id)) state_.last->elements.push_back(e);
    }
    return out;
  };
  // Asked by the sort and again by the tie count: the scanner is queried once per resolution.
  auto modal = std::make_shared<std::optional<std::vector<int>>>();
  h.in_modal = [this, &page, modal]() {
    if (*modal) return **modal;
    std::vector<int> out;
    for (const auto& p : page.patterns) {
      if (p.name != "modal_dialog") continue;
      for (const auto& [field, id] : p.fields) out.push_back(id);
      if (p.container.empty()) continue;
      auto inside = scanner_.query(":is(" + p.container + ") *", false, p.frame);
      if (!inside) continue;
      for (int sid : inside->ids) {
        for (const auto& e : page.elements) {
          if (e.scanner_id == sid && e.frame == p.frame) out.push_back(e.id);
        }
      }
    }
    *modal = out;
    return out;
  };
  h.near = [this](const std::string& text) -> Result<std::vector<int>> {
    ScanRequest near;
    near.near = text;
    auto n = scan(near, /*remember=*/false);
    // The scanner's ELEMENT_NOT_FOUND here is a text not on the page (yet): a target not found,
    // which waiting or scrolling a long list may still show, not an element gone.
    if (!n && n.status().code() == codes::kElementNotFound) {
      return Status(codes::kTargetNotFound, n.status().message(), n.status().hint());
    }
    if (!n) return n.status();
    std::vector<int> out;
    for (const auto& e : n->elements) out.push_back(e.id);
    // The scanner's map now holds the near-scan; scan again so ids match the page.
    auto again = scan();
    if (!again) return again.status();
    return out;
  };
  h.find_text = [this](const std::string& text, const std::string& match) -> Result<std::vector<FoundText>> {
    auto r = scanner_.findText(text, match, 10);
    if (!r) {
      // An older scanner without find_text: no fallback, the target is simply not found.
      if (r.status().code() == codes::kUnknownCommand) return std::vector<FoundText>{};
      return r.status();
    }
    std::vector<FoundText> out;
    for (const auto& m : *r) {
      FoundText f;
      if (!parseElement(m.element, "", f.element)) continue;
      f.element.id = state_.ids.idFor(f.element);
      f.via = m.via;
      f.matched = m.matched;
      f.text_rect = m.text_rect.is_object() ? rectFromJson(m.text_rect) : f.element.rect;
      if (state_.last && !state_.last->byId(f.element.id)) state_.last->elements.push_back(f.element);
      out.push_back(std::move(f));
    }
    return out;
  };
  return h;
}

Result<Resolution> Page::resolve(const TargetSpec& target, const PageScan& page) {
  // Element pointers of the resolution point into `page` (or into its own extra elements).
  return resolveTarget(target, page, hooks(page), env_.strict);
}

const Pattern* Page::coveringPopup(const PageScan& page, const Element* el) {
  for (const char* kind : kCoveringPatterns) {
    for (const auto& p : page.patterns) {
      if (p.name != kind) continue;
      if (!el) return &p;
      bool member = false;
      for (const auto& [f, id] : p.fields) member = member || id == el->id;
      if (member) continue;
      if (!p.container.empty() && p.frame == el->frame) {
        auto inside = scanner_.query(":is(" + p.container + ") *", false, p.frame);
        if (inside && std::find(inside->ids.begin(), inside->ids.end(), el->scanner_id) != inside->ids.end()) continue;
      }
      return &p;
    }
  }
  return nullptr;
}

// --- actions ---------------------------------------------------------------------------------

Result<Point> Page::pointOf(const Element& el, const std::string& check, bool force, bool guard, bool focus_quiet,
                            const std::string& reads) {
  // Clicks wait for a still target (Playwright's "stable"); typing and hovering do not need it.
  bool stable = check == "click" && !force;
  // Changes the action makes are counted from here (the top document only: settle asks there;
  // and only where the backend sees requests: settle waits in full on the others anyway).
  const auto asked = Clock::now();
  const bool watch = (check == "click" || check == "type") && el.frame.empty() && state_.backend &&
                     state_.backend->networkActiveSince(asked).has_value();
  std::optional<Point> offset;
  if (el.aim) offset = Point{el.aim->cx() - el.rect.cx(), el.aim->cy() - el.rect.cy()};
  const auto ask = [&] {
    return scanner_.point(el.scanner_id, el.frame, check, force, stable, guard, watch, focus_quiet, offset, reads);
  };
  auto point = ask();
  if (!point && point.status().code() == codes::kElementNotVisible && !force) {
    // Seen a moment ago, not visible now: most often an entrance animation (a popup fading in
    // from opacity 0). Wait for it briefly, event-driven in the page, then ask again.
    WaitTarget t;
    t.id = el.scanner_id;
    auto shown = scanner_.waitFor("visible", t, std::min<long long>(2000, deadline.remaining().count()), el.frame);
    if (shown && shown->met) point = ask();
  }
  if (!point) return point.status();
  if (watch) watch_since_ = asked;
  Point p = *point;
  const Point origin = frameOrigin(el.frame);
  p.x += origin.x;
  p.y += origin.y;
  return p;
}

Point Page::frameOrigin(const std::string& frame) const {
  if (frame.empty() || !state_.last) return {};
  auto off = state_.last->frame_offsets.find(frame);
  return off == state_.last->frame_offsets.end() ? Point{} : off->second;
}

// Whether `shown` is what is left of `typed` with some of its characters left out, in order
// (case aside): a field that refuses some keys.
static bool keptFrom(const std::string& shown, const std::string& typed) {
  size_t j = 0;
  for (char c : shown) {
    while (j < typed.size() && std::tolower(static_cast<unsigned char>(typed[j])) != std::tolower(static_cast<unsigned char>(c))) ++j;
    if (j == typed.size()) return false;
    ++j;
  }
  return true;
}

// An <input> checkbox or radio button: its own default action only toggles it.
static bool isNativeToggle(const Element& el) {
  const std::string t = el.attributes.value("type", "");
  return (t == "checkbox" || t == "radio") && (el.type == "checkbox" || el.type == "radio");
}

void Page::startAction() {
  last_fresh_ = false;
  settled_ = false;
  unheard_ok_ = false;  // only the action just made may skip the still window
}

Result<std::string> Page::click(const Element& given, const ClickOptions& o) {
  const Element el = current(given);
  startAction();
  auto b = backend();
  if (!b) return b.status();
  form_action = form_action || el.role == "submit" || el.attributes.value("type", "") == "submit";
  if (o.force) {
    // The element itself gets the click even when something covers it, which native input at
    // its position cannot do (it would hit the cover).
    LSCOPE_RETURN_IF_ERROR(scanner_.click(el.scanner_id, el.frame, o.button, o.count, true));
    return std::string(" (forced: synthetic events)");
  }
  auto point = pointOf(el, "click", false, /*guard=*/true, false, o.reads);
  if (!point && point.status().code() == codes::kUnknownCommand) {
    LSCOPE_RETURN_IF_ERROR(scanner_.click(el.scanner_id, el.frame, o.button, o.count, false));
    return std::string(" (synthetic events)");
  }
  if (!point) return point.status();
  LSCOPE_RETURN_IF_ERROR(guardedClick(**b, el, *point, o.button, o.count));
  // A native checkbox or radio button does nothing but toggle (it neither submits nor follows a
  // link around it): if the page heard none of the click (settle asks), there is no reaction.
  if (isNativeToggle(el) && o.button == MouseButton::kLeft && o.count == 1) unheard_ok_ = watch_since_.has_value();
  return std::string();
}

Status Page::guardedClick(Backend& b, const Element& el, Point at, MouseButton button, int count) {
  LSCOPE_RETURN_IF_ERROR(b.mouseClick(at, button, count, 0, deadline));
  // The page may have moved between the check and the press (a toast inserted above the target):
  // the guard cancelled a press that landed elsewhere, and the caller looks again (auto-wait).
  // A failed call means the click navigated: nothing to report.
  // At most a second: a frame the click removed (a consent dialog's own iframe) may never answer.
  Deadline saved = deadline;
  deadline = deadline.capped(Millis(1000));
  auto seen = scanner_.guardResult(el.frame);
  deadline = saved;
  // A press that landed elsewhere, or one the element took before moving away from the release
  // (a list scrolling itself under the pointer): either click was held back. Auto-wait presses
  // again once it holds still.
  if (seen && (!seen->intercepted.empty() || !seen->slipped.empty())) {
    const std::string landed = !seen->intercepted.empty() ? "the press landed on " + seen->intercepted + " and was held back"
                                                          : "the release landed on " + seen->slipped + " and its click was held back";
    return Status(codes::kElementNotInteractable, describe(el) + " moved as it was clicked: " + landed,
                  "observe, then click again");
  }
  return Status::ok();
}

Result<std::string> Page::type(const Element& given, const std::string& text, bool clear) {
  const Element el = current(given);
  startAction();
  if (el.type == "slider") return setSlider(el, text);
  if (!typable(el)) {
    return Status(codes::kElementNotInteractable, "[" + std::to_string(el.id) + "] is a " + el.type + ", not a text field",
                  "type into an input: observe to find it");
  }
  if (el.attributes.contains("sections")) return typeSections(el, text);
  auto b = backend();
  if (!b) return b.status();
  if (el.isSensitive()) rememberSecret(text);
  static const std::set<std::string> kWholeValue = {"date", "time", "datetime-local", "month", "week", "color", "range"};
  const bool whole_value = kWholeValue.count(el.attributes.value("type", "")) > 0;
  // Issue 17: a field nothing listens to key events on (its path, document, window) cannot tell
  // key by key typing from one commit, so the text goes in one step; the value, the input event
  // (one, as for a paste), and the change event on leaving are the same. Control characters (a
  // newline) stay keys. An editing host (contenteditable) too, once the click focused it.
  const bool plain_text = std::none_of(text.begin(), text.end(), [](unsigned char c) { return c < 0x20 || c == 0x7f; });
  // A code split over boxes takes a character per box and moves the focus on at each: keys.
  const bool segmented = el.attributes.contains("segments");
  const bool may_commit = plain_text && !segmented && (*b)->commitsText();
  const bool in_one_step = el.value && may_commit;
  // And when nothing would hear the focusing press either, the scanner focuses the field and
  // selects its text in its point call (the text typed then replaces it): one round trip for
  // the press, the clearing and the question about keys. Appending keeps the press, which
  // leaves the caret where a person's click would.
  const bool focus_quiet = in_one_step && !text.empty() && !whole_value && el.frame.empty() && (clear || el.value->empty());
  auto point = pointOf(el, "type", false, false, focus_quiet);
  if (point && whole_value) {
    // Keys into a date or time field follow the browser's locale (mm/dd/yyyy here): the value is
    // set as a whole, as the field's picker would, with input and change events.
    LSCOPE_RETURN_IF_ERROR(scanner_.type(el.scanner_id, el.frame, text, true));
    state_.typed = {state_.last_document, el.key, el.form};
    return std::string(" (value set)");
  }
  if (!point) {
    if (point.status().code() != codes::kUnknownCommand) return point.status();
    LSCOPE_RETURN_IF_ERROR(scanner_.type(el.scanner_id, el.frame, text, clear));
    state_.typed = {state_.last_document, el.key, el.form};
    return std::string(" (synthetic events)");
  }
  // Where the keys go after the click, asked once: whether it took the focus, takes text, and
  // whether the page listens to key events there.
  std::optional<ScannerClient::KeysTarget> focus;
  if (point->focused) {
    spdlog::debug("type: {} focused without the press (nothing on the page would hear it)", describe(el));
  } else {
    // Focus with a real click, clear through the scanner (native setter: React sees it), then
    // type with real key events.
    // A popup in front of the field would take the focusing click (and the keys): the type
    // check does not hit-test (a floating label may cover a field), so ask once more when a
    // popup is up.
    if (state_.last && coveringPopup(*state_.last, &el)) {
      auto hit = scanner_.point(el.scanner_id, el.frame, "click", false);
      if (!hit && hit.status().code() == codes::kElementNotInteractable) return hit.status();
    }
    LSCOPE_RETURN_IF_ERROR((*b)->mouseClick(*point, MouseButton::kLeft, 1, 0, deadline));
    // A field the click did not focus, the focus now on something that takes no text: a popup
    // opened over it since the last look (a product tour's overlay) took the click. Looked at
    // again, so that the caller sees the popup, closes it and tries once more.
    if (el.frame.empty() || !el.value) focus = scanner_.keysTarget(el.scanner_id, el.frame);
    const auto focusLost = [&] {
      return el.value && el.frame.empty() && focus->on_target == false && focus->takes_text == false;
    };
    // A picker the click opened beside the field may take the focus and drop it (PrimeReact's
    // Calendar panel leaves it on the body): a person clicks the field again, still in sight.
    // Only when the field is on top at its point (the hit test): a cover would take that click.
    if (focusLost()) {
      if (auto again = scanner_.point(el.scanner_id, el.frame, "click", false)) {
        spdlog::debug("type: {} lost the focus to nothing on the click: clicked again", describe(el));
        LSCOPE_RETURN_IF_ERROR((*b)->mouseClick(*again, MouseButton::kLeft, 1, 0, deadline));
        focus = scanner_.keysTarget(el.scanner_id, el.frame);
      }
    }
    if (focusLost()) {
      scan();
      return Status(codes::kElementNotInteractable,
                    describe(el) + " did not take the focus: the click on it went to something over it",
                    "dismiss_popups, then type again");
    }
    // Emptied as it is now: the click may have filled it (a date range's end takes the start's
    // date when the start field loses the focus). Not a custom select's box: what it shows is its
    // choice, and the keys go to its filter, empty when a person starts typing there. Keys that
    // empty it take a choice away (Backspace in an empty Vue-Multiselect or react-select filter
    // removes the last chosen item).
    const bool choice_box = el.type == "select" && el.tag != "input" && el.tag != "select";
    if (clear && el.value && !el.value->empty() && !choice_box) {
      LSCOPE_RETURN_IF_ERROR(clearForTyping(**b, el));
    } else if (clear && el.value && (el.tag == "input" || el.tag == "textarea")) {
      LSCOPE_RETURN_IF_ERROR(scanner_.clear(el.scanner_id, el.frame));  // nothing to do when still empty
    }
    // No value to read back (text, a label, a slider's handle): the click must have put the focus
    // in something that takes text, or the keys would go nowhere and "ok" lie. A box that mounts
    // its editor on the click focuses it a moment later: asked once more after a quiet spell.
    if (!el.value && focus->takes_text == false) {
      untilStateDrawn();
      focus = scanner_.keysTarget(el.scanner_id, el.frame);
      if (focus->takes_text == false) {
        return Status(codes::kElementNotInteractable,
                      describe(el) + " is no text field: the click on it focused nothing that takes text",
                      el.type == "select" ? "choose with select" : "type into a field: observe to find it");
      }
    }
  }
  // Quietly focused, nothing listens to keys or input either (the scanner asked); or clicked, and
  // nothing listens to key events where the focus is.
  const bool one_step = point->focused ||
                        (may_commit && (el.value || focus->takes_text == true) &&
                         !(focus ? *focus : scanner_.keysTarget(el.scanner_id, el.frame)).listened);
  if (one_step) {
    LSCOPE_RETURN_IF_ERROR((*b)->commitText(text, deadline));
    // Text in one step can neither submit nor navigate: if the page heard none of it (settle
    // asks the registry), it ran no code and there is nothing to wait for.
    unheard_ok_ = watch_since_.has_value();
  } else {
    LSCOPE_RETURN_IF_ERROR(typeLines(**b, el, text, false, deadline));
  }
  state_.typed = {state_.last_document, el.key, el.form};
  auto landed = typedLanded(el, text);
  // Keys the field did not keep as typed, though it takes them all: a controlled field that
  // writes its value back a render after each key (Carbon's NumberInput: the next key landed on
  // the old value, "300" for "60") keeps up with a typist. Typed once more, the page's work for
  // each key done before the next.
  const int max = std::atoi(el.attributes.value("maxlength", "").c_str());
  const bool fits = max <= 0 || utf16Length(text) <= max;
  if (landed && !landed->empty() && !one_step && !segmented && clear && el.value && fits) {
    spdlog::debug("type: {} did not keep the keys as typed; typed again at a typist's pace", describe(el));
    // Over its text, selected, as a typist types over it: emptied first, such a field may write
    // the old value back while the keys come.
    LSCOPE_RETURN_IF_ERROR((*b)->pressKey("a", kModControl, deadline));
    LSCOPE_RETURN_IF_ERROR(typeLines(**b, el, text, true, deadline));
    settle();  // read once what the keys started has run: the field's last word on them
    landed = typedLanded(el, text);
    // A field that rewrites what is typed into it key by key, even at a typist's pace (a colour
    // picker that falls back to black for each incomplete "#e8"): a person pastes the text. In
    // one step, over its text selected: one input event, as a paste makes; change on leaving.
    // Not a field that only leaves out keys it refuses ("123" of "abc123": a paste would put in
    // what it filters); one that wrote text of its own ("#000000").
    // (Where the backend has no one-step commit, WebDriver's, the scanner sets the value with
    // one input event, as a paste.)
    const auto shown = scanner_.getValue(el.scanner_id, el.frame);
    const bool own_text = shown && shown->is_string() && !keptFrom(shown->get<std::string>(), text);
    if (landed && !landed->empty() && plain_text && own_text) {
      spdlog::debug("type: {} rewrote the keys at a typist's pace too; entered in one step, as a paste", describe(el));
      if (may_commit) {
        LSCOPE_RETURN_IF_ERROR((*b)->pressKey("a", kModControl, deadline));
        LSCOPE_RETURN_IF_ERROR((*b)->commitText(text, deadline));
      } else {
        LSCOPE_RETURN_IF_ERROR(scanner_.type(el.scanner_id, el.frame, text, /*clear=*/false, /*paste=*/true));
      }
      settle();
      auto pasted = typedLanded(el, text);
      if (pasted && pasted->empty()) return std::string(" (pasted: the field rewrote the keys)");
      if (pasted) landed = pasted;
    }
  }
  return landed;
}

namespace {
// Letters and digits only: a mask's literals ("(415) 555-2671") and a number's separators are
// not what a person typed.
// `keep`: characters kept besides them (a decimal point the typed number had).
std::string alnumOnly(const std::string& s, const std::string& keep = "") {
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c >= 0x80 || keep.find(static_cast<char>(c)) != std::string::npos) {
      out += static_cast<char>(std::tolower(c));
    }
  }
  return out;
}

// The first number in `text` ("25", "1,000 km", "-2.5"), or none.
std::optional<double> leadingNumber(const std::string& text) {
  std::string digits;
  for (char c : text) {
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.' || (c == '-' && digits.empty())) digits += c;
    else if (!digits.empty() && c != ',') break;  // "1,000 km": the number ends at the unit
  }
  if (digits.empty() || digits == "-" || digits == ".") return std::nullopt;
  try {
    return std::stod(digits);
  } catch (...) {
    return std::nullopt;
  }
}

// 25, 2.5, -10: a number as a person writes it.
std::string formatNumber(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// The point "(x, y)" a scanner message gives after `lead`, its last one ("click away at (12, 30)").
std::optional<Point> pointAfter(const std::string& message, const std::string& lead) {
  const size_t at = message.rfind(lead + " (");
  Point p;
  if (at == std::string::npos || std::sscanf(message.c_str() + at + lead.size(), " (%lf, %lf)", &p.x, &p.y) != 2) {
    return std::nullopt;
  }
  return p;
}

}  // namespace

namespace {
// The runs of digits and of letters in `text` ("7:30pm" -> 7, 30, pm). Past ASCII, a character is
// a letter ("März", "午後") unless it is punctuation or a space (a dash "–", a no-break space).
std::vector<std::string> alnumRuns(const std::string& text) {
  std::vector<std::string> out;
  int last = 0;  // 1 digit, 2 letter
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    size_t len = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    len = std::min(len, text.size() - i);
    int kind;
    if (len == 1) {
      kind = std::isdigit(c) ? 1 : std::isalpha(c) ? 2 : 0;
    } else {
      unsigned cp = c & (len == 2 ? 0x1F : len == 3 ? 0x0F : 0x07);
      for (size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
      const bool separator = (cp >= 0x80 && cp <= 0xBF) || (cp >= 0x2000 && cp <= 0x2BFF) ||
                             (cp >= 0x3000 && cp <= 0x303F) || cp == 0xFEFF;
      kind = separator ? 0 : 2;
    }
    if (kind && kind == last) out.back() += text.substr(i, len);
    else if (kind) out.push_back(text.substr(i, len));
    last = kind;
    i += len;
  }
  return out;
}

bool allDigits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

int kindIndex(const std::vector<std::string>& kinds, const std::string& kind) {
  auto at = std::find(kinds.begin(), kinds.end(), kind);
  return at == kinds.end() ? -1 : static_cast<int>(at - kinds.begin());
}
}  // namespace

std::vector<std::string> sectionParts(const std::string& text, const std::vector<std::string>& kinds) {
  std::vector<std::string> runs = alnumRuns(text);
  const int hour = kindIndex(kinds, "hour");
  const int period = kindIndex(kinds, "dayPeriod");
  // A 24-hour time ("19:30") into a field that draws AM/PM last: the hour on its clock, the period added.
  if (runs.size() + 1 == kinds.size() && hour >= 0 && period == static_cast<int>(kinds.size()) - 1 &&
      hour < period && allDigits(runs[hour]) && runs[hour].size() <= 2) {
    int h = std::atoi(runs[hour].c_str());
    if (h > 23) return {};
    runs.push_back(h >= 12 ? "PM" : "AM");
    h = h % 12 == 0 ? 12 : h % 12;
    runs[hour] = (h < 10 ? "0" : "") + std::to_string(h);
  }
  if (runs.size() != kinds.size()) return {};
  // A date written year first (ISO 8601: "2025-06-20") into a field that does not start with the
  // year: each date of the field (a range has two) put in the field's order.
  for (size_t i = 0; i + 3 <= kinds.size();) {
    const std::vector<std::string> block(kinds.begin() + i, kinds.begin() + i + 3);
    const int y = kindIndex(block, "year"), m = kindIndex(block, "month"), d = kindIndex(block, "day");
    if (y < 0 || m < 0 || d < 0) {
      ++i;
      continue;
    }
    if (y > 0 && runs[i].size() == 4 && allDigits(runs[i]) && allDigits(runs[i + 1]) && allDigits(runs[i + 2])) {
      const std::string year = runs[i], month = runs[i + 1], day = runs[i + 2];
      runs[i + y] = year;
      runs[i + m] = month;
      runs[i + d] = day;
    }
    i += 3;
  }
  // A period in Latin letters takes its first: the field completes it ("P" is PM) and moves on; a
  // second letter would go to what the focus moved to. Others go whole: 午前 and 午後 share their
  // first character (a field matches what was typed as a prefix).
  if (period >= 0 && !allDigits(runs[period]) && static_cast<unsigned char>(runs[period][0]) < 0x80) {
    runs[period] = runs[period].substr(0, 1);
  }
  return runs;
}

bool showsParts(const std::string& shown, const std::vector<std::string>& parts) {
  const auto norm = [](std::string s) {
    if (allDigits(s)) {
      s.erase(0, std::min(s.find_first_not_of('0'), s.size() - 1));
    }
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  std::vector<std::string> seen = alnumRuns(shown);
  // Words a field draws between its parts ("2025年6月20日"): its numbers alone, when all parts are numbers.
  if (seen.size() != parts.size() && std::all_of(parts.begin(), parts.end(), allDigits)) {
    seen.erase(std::remove_if(seen.begin(), seen.end(), [](const std::string& r) { return !allDigits(r); }), seen.end());
  }
  if (seen.size() != parts.size()) return false;
  for (size_t i = 0; i < parts.size(); ++i) {
    const std::string want = norm(parts[i]), got = norm(seen[i]);
    // A number as typed, leading zeros aside ("2" is not "20"); a word by its start ("p" typed, "pm" shown).
    if (allDigits(want) ? got != want : got.rfind(want, 0) != 0) return false;
  }
  return true;
}

namespace {
// The kinds of a field's sections ("month day year"), as the scanner lists them.
std::vector<std::string> sectionKinds(const Element& el) {
  std::vector<std::string> out;
  std::string all = el.attributes.value("sections", "");
  for (size_t at = 0; at < all.size();) {
    size_t end = all.find(' ', at);
    if (end == std::string::npos) end = all.size();
    if (end > at) out.push_back(all.substr(at, end - at));
    at = end + 1;
  }
  return out;
}
}  // namespace

bool fieldShowsTyped(const Element& el, const std::string& shown, const std::string& typed) {
  if (el.attributes.contains("sections")) {
    if (alnumRuns(typed).empty()) return shown.empty();  // emptied
    const auto parts = sectionParts(typed, sectionKinds(el));
    if (!parts.empty()) return showsParts(shown, parts);
  }
  return showsTyped(shown, typed);
}

Result<std::string> Page::typeSections(const Element& el, const std::string& text) {
  // A date or time field drawn section by section (MUI X's field, React Aria's DateField): a
  // person clicks it and types each part into its section, and the field moves on by itself
  // once a part is whole. Each part goes into its own section, focused in turn (a part shorter
  // than its section, "6" for the month, leaves the focus there), at a typist's pace: the field
  // moves the focus a render after the key.
  auto b = backend();
  if (!b) return b.status();
  const std::vector<std::string> kinds = sectionKinds(el);
  const std::vector<std::string> parts = sectionParts(text, kinds);
  // Nothing to type (no letters or digits): the field emptied, as typing "" into a text field does.
  if (alnumRuns(text).empty()) {
    LSCOPE_RETURN_IF_ERROR(clearSections(**b, el));
    state_.typed = {state_.last_document, el.key, el.form};
    return std::string();
  }
  auto point = pointOf(el, "type");
  if (!point) return point.status();
  LSCOPE_RETURN_IF_ERROR((*b)->mouseClick(*point, MouseButton::kLeft, 1, 0, deadline));
  if (parts.empty()) {
    // Not one part per section: typed as it is, from the first section on.
    auto at = scanner_.focusSection(el.scanner_id, el.frame, 0);
    if (!at) return at.status();
    LSCOPE_RETURN_IF_ERROR((*b)->typePaced(text, deadline));
  }
  for (size_t i = 0; i < parts.size(); ++i) {
    auto at = scanner_.focusSection(el.scanner_id, el.frame, static_cast<int>(i));
    if (!at) return at.status();
    if (!at->focused) {
      return Status(codes::kElementNotInteractable,
                    describe(el) + " did not take the focus in its " + kinds[i] + " section",
                    "observe, then type again");
    }
    // Typed over: a section just focused takes a part anew (its old one is selected).
    LSCOPE_RETURN_IF_ERROR((*b)->typePaced(parts[i], deadline));
  }
  state_.typed = {state_.last_document, el.key, el.form};
  settle();  // the field's last word on the keys: it may pad, complete or refuse a part
  auto v = scanner_.getValue(el.scanner_id, el.frame);
  if (!v || !v->is_string()) return std::string();
  const std::string shown = v->get<std::string>();
  if (fieldShowsTyped(el, shown, text)) return std::string();
  if (shown.empty()) {
    return Status(codes::kElementNotInteractable, describe(el) + " kept none of the keys",
                  "observe, then type again");
  }
  return " (the field reads " + quote(shown.size() > 60 ? shown.substr(0, 60) + "…" : shown) + ")";
}

Status Page::clearSections(Backend& b, const Element& el) {
  // The last section first, as Backspace empties a field from its end: a section emptied by
  // Backspace (all of it in MUI X, a character per press in React Aria), read again after each.
  const int n = std::atoi(el.attributes.value("segments", "0").c_str());
  LSCOPE_RETURN_IF_ERROR(pointOf(el, "type").status());
  for (int i = n - 1; i >= 0; --i) {
    for (int press = 0; press < 8; ++press) {
      auto at = scanner_.focusSection(el.scanner_id, el.frame, i);
      if (!at) return at.status();
      if (at->text.empty()) break;
      if (!at->focused) {
        return Status(codes::kElementNotInteractable, describe(el) + " did not take the focus to be emptied",
                      "observe, then clear again");
      }
      LSCOPE_RETURN_IF_ERROR(b.pressKey("Backspace", 0, deadline));
    }
  }
  // A section Backspace does not empty (an era) keeps the field from being empty: said.
  settle();
  auto v = scanner_.getValue(el.scanner_id, el.frame);
  if (v && v->is_string() && !v->get<std::string>().empty()) {
    return Status(codes::kElementNotInteractable,
                  describe(el) + " still reads " + quote(v->get<std::string>()) + " after Backspace in each section",
                  "type the whole value instead");
  }
  return Status::ok();
}

bool Page::typable(const Element& el) {
  static const std::set<std::string> kNot = {"button", "link", "checkbox", "radio", "option", "row", "item", "tab", "menuitem"};
  return !kNot.count(el.type);
}

bool showsTyped(const std::string& shown, const std::string& typed) {
  if (normalizeText(shown).find(normalizeText(typed)) != std::string::npos) return true;
  // A decimal point typed stays one: "10.00" shown as "1,000" is not what was typed.
  const std::string keep = typed.find('.') != std::string::npos ? "." : "";
  return alnumOnly(shown, keep).find(alnumOnly(typed, keep)) != std::string::npos;
}

Status Page::typeLines(Backend& b, const Element& el, const std::string& text, bool paced, Deadline deadline) {
  const auto keys = [&](const std::string& part) { return paced ? b.typePaced(part, deadline) : b.insertText(part, deadline); };
  // A line break in an editor (an editing host, not a native field) is the Shift+Enter a person
  // presses for one (Lexical cancels a newline that comes as text: what followed it was lost),
  // not Enter: that sends a chat editor's message. A textarea takes it as text; in a one-line
  // field it is nothing (Enter there submits the form).
  if (el.tag == "input" || el.tag == "textarea" || text.find('\n') == std::string::npos) return keys(text);
  for (size_t from = 0;;) {
    const size_t nl = text.find('\n', from);
    std::string line = text.substr(from, nl == std::string::npos ? std::string::npos : nl - from);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) LSCOPE_RETURN_IF_ERROR(keys(line));
    if (nl == std::string::npos) return Status::ok();
    LSCOPE_RETURN_IF_ERROR(b.pressKey("Enter", kModShift, deadline));
    from = nl + 1;
  }
}

Status Page::clearForTyping(Backend& b, const Element& el) {
  // An input mask keeps a buffer of its own (Inputmask): a value emptied in one step reads to it
  // as one Backspace, and the keys typed next land among what it kept.
  // (Keys only into a field that has the focus: elsewhere Backspace is a page's shortcut.)
  // A code split over boxes is emptied box by box by the scanner.
  if (el.attributes.contains("segments")) return scanner_.clear(el.scanner_id, el.frame);
  if (auto keys = scanner_.keysTarget(el.scanner_id, el.frame); keys.listened && keys.takes_text != false) {
    LSCOPE_RETURN_IF_ERROR(b.pressKey("a", kModControl, deadline));
    // A number field keeps no mask buffer: its text, selected, is replaced by the keys typed, as
    // a person types over it. Emptied first, a controlled one may write its own "0" back while
    // the keys arrive (Carbon's NumberInput read "00" for "60").
    if (el.attributes.value("type", "") == "number") return Status::ok();
    LSCOPE_RETURN_IF_ERROR(b.pressKey("Backspace", 0, deadline));
    if (el.attributes.value("type", "") == "password" || el.isSensitive()) {
      auto n = scanner_.valueLength(el.scanner_id, el.frame);
      if (n && *n == 0) return Status::ok();
    } else {
      // Empty, or the mask's drawing only ("(___) ___-____", "dd/mm/yyyy"): the old text is gone.
      const auto gone = [&](const Result<json>& v) {
        return v && v->is_string() && (alnumOnly(v->get<std::string>()).empty() || !showsTyped(v->get<std::string>(), *el.value));
      };
      auto v = scanner_.getValue(el.scanner_id, el.frame);
      if (gone(v)) return Status::ok();
      // Nothing went: the field refused the select-all (UI5's StepInput takes Ctrl+A for a
      // character it does not accept, and cancels it). A person deletes from the end.
      const std::string now = v && v->is_string() ? v->get<std::string>() : "";
      if (!now.empty() && now == *el.value && utf16Length(now) <= 64) {
        LSCOPE_RETURN_IF_ERROR(b.pressKey("End", 0, deadline));
        for (size_t i = 0, n = utf16Length(now); i < n; ++i) LSCOPE_RETURN_IF_ERROR(b.pressKey("Backspace", 0, deadline));
        if (gone(scanner_.getValue(el.scanner_id, el.frame))) return Status::ok();
      }
    }
  }
  return scanner_.clear(el.scanner_id, el.frame);
}

Result<std::string> Page::typedLanded(const Element& el, const std::string& text) {
  // A popup that opens while typing (on focus, on the first keystroke) takes the keys: check
  // that they landed — the value (the field keeps the focus for secrets, whose value is
  // masked) — and when not, blame the popup so auto-wait can clear it and type again.
  bool landed = true;
  std::string shown;  // what a field that did not take the text as typed shows instead
  if (el.attributes.value("type", "") == "password" || el.isSensitive()) {
    // The value is masked: count its characters instead.
    auto n = scanner_.valueLength(el.scanner_id, el.frame);
    landed = !n || *n >= utf16Length(text);
  } else if (!el.value) {
    landed = true;  // not a value-bearing field (contenteditable): nothing to read back cheaply
  } else {
    // A mask draws the text its own way ("4155552671" reads "(415) 555-2671"): the letters and
    // digits typed, in order, are what landed (showsTyped).
    auto v = scanner_.getValue(el.scanner_id, el.frame);
    landed = !v || !v->is_string() || showsTyped(v->get<std::string>(), text);
    if (!landed) shown = v->get<std::string>();
  }
  if (!landed) {
    settleAnimations();  // the popup may still be fading in
    auto now = scan();
    if (now && coveringPopup(*now, &el)) {
      return Status(codes::kElementNotInteractable, describe(el) + " lost the keys to a popup that opened while typing",
                    "dismiss_popups, then type again");
    }
    // No popup shows yet, but the field lost the focus while typing, and not to another field of
    // its form (a code split over boxes moves on by itself): a dialog that is opening took it
    // (its focus trap acts before it shows). A mask or a maxlength keeps the focus. Auto-wait
    // looks again: the popup, once it shows, is cleared, and the text typed anew.
    const Element* field = now && el.frame.empty() ? now->byId(el.id) : nullptr;
    if (field && !field->focused) {
      const auto& all = now->elements;
      auto focus = std::find_if(all.begin(), all.end(), [](const Element& e) { return e.focused; });
      const bool moved_on = focus != all.end() && focus->value && !el.form.empty() && focus->form == el.form;
      if (!moved_on) {
        return Status(codes::kElementNotInteractable, describe(el) + " lost the keys while typing: the focus went elsewhere",
                      "observe, then type again");
      }
      shown.clear();  // the rest went on to the next box
    } else if (field && shown.empty()) {
      // Empty right after the keys: a field that writes its value a task after each key (a
      // component syncing its state from its props, maybe debounced) shows what it kept once the
      // work the keys started has run (the settle follows its timers). Still empty, nothing
      // more is known; as typed, it landed; else it is said, and the caller types again at a
      // typist's pace. (Read whole: a scan's values are cut short.)
      settle();
      auto v = scanner_.getValue(current(el).scanner_id, el.frame);  // (scanned since: `now`)
      if (v && v->is_string()) {
        if (showsTyped(v->get<std::string>(), text)) return std::string();
        shown = v->get<std::string>();
      }
    }
  }
  // Kept, but not as typed (a maxlength, a mask that dropped what did not fit): said, not hidden.
  if (!shown.empty() && !isSecret(text)) return " (the field reads " + quote(shown.size() > 60 ? shown.substr(0, 60) + "…" : shown) + ")";
  return std::string();
}

Result<std::vector<std::string>> Page::selectList(const Element& el, const json& options) {
  startAction();
  if (!takesListAtOnce(el)) return Status(codes::kParameterInvalid, describe(el) + " takes its options one at a time");
  auto chosen = scanner_.selectList(el.scanner_id, el.frame, "text", options);
  if (!chosen && chosen.status().code() == codes::kElementNotFound) {
    if (auto by_value = scanner_.selectList(el.scanner_id, el.frame, "value", options)) chosen = by_value;
  }
  return chosen;
}

Result<std::string> Page::select(const Element& given, const json& option) {
  const Element el = current(given);
  startAction();
  if (el.type == "slider") return setSlider(el, option.is_string() ? option.get<std::string>() : option.dump());
  bool native = el.tag == "select";
  if (!native || !el.visible) {
    // A widget in place of <select> (select2, tom-select, choices, an ARIA listbox), or a native
    // select a widget hides: a person opens it and picks the option.
    std::string text = option.is_string() ? option.get<std::string>() : option.dump();
    auto picked = selectCustom(el, text);
    if (picked || !native) return picked;
  }
  Result<std::string> sel = Status(codes::kInternal, "no option given");
  if (option.is_number_integer()) {
    sel = scanner_.selectIndex(el.scanner_id, el.frame, option.get<int>());
  } else {
    std::string text = option.is_string() ? option.get<std::string>() : option.dump();
    sel = scanner_.selectText(el.scanner_id, el.frame, text);
    if (!sel && sel.status().code() == codes::kElementNotFound) {
      auto by_value = scanner_.selectValue(el.scanner_id, el.frame, text);  // not a text: maybe a value
      if (by_value) sel = by_value;
    }
  }
  return sel;
}

namespace {
// A choice of an open list, as select picks it. (A multiple select's list may be a menu of
// checkable items: Fluent UI React's multiselect Dropdown.)
bool isOption(const Element& e) {
  const std::string role = e.attributes.value("role", "");
  return e.visible && (e.type == "option" || e.type == "menuitem" || e.type == "item" || e.type == "radio" ||
                       role == "option" || role == "menuitemcheckbox" || role == "menuitemradio");
}
}  // namespace

Result<std::string> Page::selectCustom(const Element& el, const std::string& text) {
  auto b = backend();
  if (!b) return b.status();
  TargetSpec want;
  want.kind = TargetSpec::Kind::kText;
  want.value = text;
  // The option, once the widget shows its list: exact text first (the resolver ranks it so).
  // Widgets whose options the scan folds into the widget (tom-select, select2) show them as
  // text: found then like any text a person reads (find_text), outside the widget's own box.
  std::set<int> known;  // the elements before the widget opened
  auto findOption = [&](const PageScan& page, bool open) -> std::optional<Element> {
    auto cands = findCandidates(want, page, hooks(page));
    if (cands) {
      for (const Element* e : *cands) {
        // Before the widget is opened, only an option proper (an inline listbox's, a list left
        // open): a cell or list item that reads the same elsewhere is no choice of this widget
        // (a grid's "Manager" behind a dialog's Role select).
        // Once it is open, an item that was there before is no choice it offers either.
        const bool proper = e->type == "option" || e->attributes.value("role", "") == "option";
        if (isOption(*e) && e->id != el.id && (proper || (open && !known.count(e->id)))) return *e;
      }
    }
    if (!open) return std::nullopt;
    const Element* widget = page.byId(el.id);
    Rect box = widget ? widget->rect : el.rect;
    for (const char* mode : {"exact", "contains"}) {
      auto found = scanner_.findText(text, mode, 10);
      if (!found) return std::nullopt;
      std::optional<Element> fallback;
      for (const auto& m : *found) {
        Element e;
        if (!parseElement(m.element, "", e) || !e.visible || e.type == "input" || e.type == "textarea") continue;
        if (e.rect.within(box)) continue;  // the current choice shown in the widget itself
        // Not the widget's own wrapper (a label around it reads every option of the original
        // select) nor any block that holds much more than the option: the list may not be open yet.
        bool holds_widget = box.width > 0 && box.within(e.rect);
        if (holds_widget || normalizeText(e.text).size() > 2 * normalizeText(text).size() + 24) continue;
        e.id = state_.ids.idFor(e);
        // What the click opened, not what was there before it (a checkbox "Email me product news"
        // is no option "Pro", however the list is slow to appear); nor the list itself (its text
        // holds every option, and a click there lands on whichever is in its middle); and its own
        // text reads the option, as whole words.
        if (known.count(e.id)) continue;
        std::string role = e.attributes.value("role", "");
        if (e.type == "select" || role == "listbox" || role == "menu" || role == "tree" || role == "grid") continue;
        if (!containsWords(normalizeText(e.text), normalizeText(text))) continue;
        if (isOption(e) || e.attributes.value("role", "") == "option" || e.attributes.value("role", "") == "treeitem") return e;
        if (!fallback) fallback = e;
      }
      if (fallback) return fallback;
    }
    return std::nullopt;
  };
  auto before = scan();
  if (!before) return before.status();
  for (const auto& e : before->elements) known.insert(e.id);
  std::optional<Element> option = findOption(*before, false);
  if (!option) {
    // Open it as a person does: a click on the widget.
    const Element* now = before->byId(el.id);
    if (!now) return Status(codes::kElementStale, describe(el) + " went away", "observe the page");
    auto opened = click(*now);
    if (!opened) return opened.status();
    Deadline until = deadline.capped(Millis(3000));
    std::optional<PageScan> page;
    bool typed = false;
    bool scrolling = true;
    Status waited = waitUntil(*this, [&]() -> Result<bool> {
      auto p = scan();
      if (!p) return p.status();
      page = std::move(p.value());
      option = findOption(*page, true);
      if (option) return true;
      // Long lists filter as you type: a search field the widget focused takes the text, and so
      // does the widget's own text field (an autocomplete: MUI's, Vuetify's), emptied first of
      // what it holds (the last choice's text filters the list down to it).
      if (!typed) {
        for (const auto& e : page->elements) {
          bool own = e.id == el.id && e.tag == "input";
          if (e.focused && (e.type == "input" || e.role == "search") && (own || (e.id != el.id && !known.count(e.id)))) {
            typed = true;
            if (own && e.value && !e.value->empty()) LSCOPE_RETURN_IF_ERROR(scanner_.clear(e.scanner_id, e.frame));
            LSCOPE_RETURN_IF_ERROR((*b)->insertText(text, deadline));
            // The list filters as the keys arrive: an option seen before it is quiet may be in a
            // row that shows another one a render later (PrimeReact's filtered Dropdown).
            untilStateDrawn();
            break;
          }
        }
      }
      // A long list that renders what is in view (Ant Design's virtual list), with nothing to type
      // into: scroll it as a person does, a screen at a time, until the option shows or it ends.
      if (!typed && scrolling) {
        const Element* shown = nullptr;
        for (const auto& e : page->elements) {
          if (isOption(e) && e.id != el.id && !known.count(e.id)) shown = &e;  // what opening showed
        }
        if (shown) {
          auto moved = scanner_.scroll(json{{"within", shown->scanner_id}, {"direction", "down"}}, shown->frame);
          scrolling = moved && moved->value("moved", false);
          if (scrolling) return false;
        }
      }
      return false;
    }, until, WakeOn::kPageChange, Millis(300));
    if (!waited) {
      std::string shown;
      int n = 0;
      if (page) {
        for (const auto& e : page->elements) {
          if (isOption(e) && n++ < 6) shown += (shown.empty() ? "" : ", ") + quote(e.text);
        }
      }
      if (shown.empty()) {
        for (const auto& o : el.options) {
          if (n++ < 6) shown += (shown.empty() ? "" : ", ") + quote(o);
        }
      }
      return Status(codes::kTargetNotFound, "no option " + quote(text) + " in " + describe(el),
                    shown.empty() ? "observe after clicking it to see how it opens" : "options: " + shown);
    }
  }
  Element chosen = *option;
  // Chosen already, in a list of checkable items: a click would take the choice back. The list
  // is closed as after a choice.
  if (chosen.type == "checkbox" && chosen.checked.value_or(false)) {
    spdlog::debug("select: {} is checked already", describe(chosen));
    auto now = scan();
    if (!now) return now.status();
    LSCOPE_RETURN_IF_ERROR(closeListLeftOpen(el, chosen, *now, known));
    return chosen.text;
  }
  // A list that has just opened may not take presses yet: it fades or slides in, or holds off
  // pointer events for a moment so that the press that opened it picks nothing (w2ui's menus,
  // for 100 ms: a timer, which a browser may hold back to a second in a tab it throttles). A
  // person waits until it is there; so does the press, for at most two seconds, as the page
  // changes. Only where no press was made: a list that moved as it was pressed took the press.
  auto pressWhenReady = [&](const Element& option) -> Status {
    ClickOptions press;
    press.reads = option.text;
    Status last = Status::ok();
    Status waited = waitUntil(*this, [&]() -> Result<bool> {
      auto c = click(option, press);
      if (c) return true;
      last = c.status();
      const std::string& why = last.message();
      const bool unpressed = why.find(" is covered by ") != std::string::npos ||
                             why.find("does not receive pointer events") != std::string::npos;
      if (last.code() == codes::kElementNotInteractable && unpressed && mayPass(last)) {
        spdlog::debug("select: {}", why);
        return false;
      }
      return last;
    }, deadline.capped(Millis(2000)), WakeOn::kPageChange, Millis(250));
    return waited.code() == codes::kTimeout ? last : waited;
  };
  // Pressed only while it still reads its text: a list that re-sorts as options are chosen
  // (Carbon's MultiSelect puts the chosen first, its rows keyed by position) draws another
  // option into the same row. Found again then, at most twice.
  for (int tries = 0;; ++tries) {
    Status c = pressWhenReady(chosen);
    if (c) break;
    if (c.code() != codes::kElementStale || tries == 2) return c;
    spdlog::debug("select: {}", c.message());
    auto again = scan();
    if (!again) return again.status();
    auto found = findOption(*again, true);
    if (!found) return c;
    chosen = *found;
  }
  std::string shown;
  auto verify = [&](const PageScan& p) -> bool {
    const Element* now = p.byId(el.id);
    if (!now) return true;  // re-rendered: trust the click
    shown = now->value ? *now->value : now->text;
    std::string a = normalizeText(shown + " " + now->text), want_text = normalizeText(chosen.text);
    if (want_text.empty() || a.find(want_text) != std::string::npos) return true;
    // An option with a note ("Pro $20 / month") shows only its name in the widget ("Pro"): the
    // text asked for counts when the widget shows it as words.
    if (normalizeText(chosen.text) != normalizeText(text) && containsWords(normalizeText(shown), normalizeText(text))) {
      return true;
    }
    // A list that stays open marks the option chosen (aria-selected; Carbon's
    // FilterableMultiSelect, whose field shows only the filter typed): the page's own word.
    // (The same option: a list that reuses its rows may show another one there now.)
    if (const Element* opt = p.byId(chosen.id);
        opt && opt->visible && opt->hasModifier("selected") && !chosen.hasModifier("selected") &&
        normalizeText(opt->text) == want_text) {
      return true;
    }
    // A multiple select shows its choices as chips: all of its text counts, and so does the
    // choice's text shown right beside its text field (select2's chips).
    auto all = scanner_.textOfElement(now->scanner_id, now->frame);
    if (all && normalizeText(*all).find(want_text) != std::string::npos) return true;
    auto near = scanner_.findText(chosen.text, "contains", 5);
    if (!near) return false;
    const Rect& w = now->rect;
    for (const auto& m : *near) {
      Element e;
      if (!parseElement(m.element, "", e) || !e.visible) continue;
      if (e.rect.gapX(w) < 40 && e.rect.gapY(w) < 8) return true;
    }
    return false;
  };
  // intent-language.md, Action Commands: `select` picks the option as a person does, to the end.
  // A dialog that takes the choice only on its confirming button (Ionic's alert: the options
  // are radios, then "OK"): the option, now checked, still shows in an open modal dialog and
  // the widget does not show it. A person presses the dialog's OK.
  if (chosen.checked) {
    // The page draws the check when it renders (at once, or a frame later): until the widget
    // shows the choice, or the option reads checked, or it is gone.
    std::optional<PageScan> p;
    bool shows = false;
    Status drawn = waitUntil(*this, [&]() -> Result<bool> {
      auto now = scan();
      if (!now) return now.status();
      p = std::move(now.value());
      shows = verify(*p);
      const Element* e = p->byId(chosen.id);
      return shows || !e || !e->visible || e->checked.value_or(false);
    }, deadline.capped(Millis(1000)), WakeOn::kPageChange, Millis(100));
    if (!drawn && drawn.code() != codes::kTimeout) return drawn;
    const Element* picked = p ? p->byId(chosen.id) : nullptr;
    const bool taken_later = !shows && picked && picked->visible && picked->checked.value_or(false);
    if (const Element* confirm = taken_later ? dialogConfirmButton(*p, chosen.id) : nullptr) {
      spdlog::debug("select: {} is chosen in a dialog that confirms with {}", describe(chosen), describe(*confirm));
      auto pressed = click(*confirm);
      if (!pressed) return pressed.status();
    }
  }
  // Verify: the widget now shows the choice (or its native select holds it).
  Deadline until = deadline.capped(Millis(2000));
  std::optional<PageScan> last;  // the scan that showed it
  Status ok = waitUntil(*this, [&]() -> Result<bool> {
    auto p = scan();
    if (!p) return p.status();
    last = std::move(p.value());
    return verify(*last);
  }, until, WakeOn::kPageChange, Millis(300));
  if (!ok && ok.code() == codes::kTimeout) {
    return Status(codes::kVerificationFailed,
                  "clicked " + quote(chosen.text) + " but " + describe(el) + " shows " + quote(shown),
                  "observe the widget");
  }
  if (!ok) return ok;
  if (last) LSCOPE_RETURN_IF_ERROR(closeListLeftOpen(el, chosen, *last, known));
  return chosen.text;
}

Status Page::closeListLeftOpen(const Element& el, const Element& chosen, const PageScan& last,
                               const std::set<int>& known) {
  // A list that stays open after the choice (a multiple select's: Naive UI's, MUI's) covers what
  // lies below it: a person closes it (Escape) before going on. Not in a modal dialog, whose own
  // Escape handler might close the dialog as well. Open: options the widget showed, or the
  // widget says so (a list an earlier choice left open holds no new options).
  const auto isOpen = [&](const PageScan& page) {
    const Element* widget = page.byId(el.id);
    return (widget && widget->attributes.value("aria-expanded", "") == "true") ||
           std::any_of(page.elements.begin(), page.elements.end(), [&](const Element& e) {
             return e.id != el.id && e.id != chosen.id && !known.count(e.id) && isOption(e);
           });
  };
  if (!isOpen(last) || inModal(hooks(last).in_modal(), el.id)) return Status::ok();
  // Only once the page is done with the choice, as a person sees it taken first: a list may
  // close a frame later by itself, and a key pressed while the page still handles the click
  // races with it (Carbon's FilterableMultiSelect then highlights an option of the closed,
  // re-sorted list, and the next blur picks that one).
  untilStateDrawn();
  auto now = scan();
  if (!now) return now.status();
  if (!isOpen(*now)) return Status::ok();
  auto b = backend();
  if (!b) return b.status();
  spdlog::debug("select: the list stays open after the choice; Escape closes it");
  return (*b)->pressKey("Escape", 0, deadline);
}

std::optional<std::string> Page::closeOpenList(const std::string& cover, int& tries, Deadline until) {
  // A select's or an autocomplete's list left open over the target (scanner: openListOver): a
  // person presses Escape, once; where that does not close it, or would empty the field they
  // typed in ("no Escape"), clicks beside it, once.
  if (tries >= 2 || cover.find("is covered by an open list") == std::string::npos) return std::nullopt;
  auto b = backend();
  if (!b) return std::nullopt;
  if (tries == 0 && cover.find(", no Escape)") == std::string::npos) {
    tries = 1;
    if ((*b)->pressKey("Escape", 0, until)) return std::string("pressed Escape first: an open list covered it");
    return std::nullopt;
  }
  auto away = pointAfter(cover, "click away at");
  if (!away) return std::nullopt;
  const bool escaped = tries == 1;
  tries = 2;
  if (!(*b)->mouseClick(*away, MouseButton::kLeft, 1, 0, until)) return std::nullopt;
  return std::string("clicked beside an open list that covered it") +
         (escaped ? ": Escape did not close it" : ": Escape would have undone the text typed");
}

const Element* Page::dialogConfirmButton(const PageScan& page, int member) {
  // The buttons that take a choice made in a dialog (Ionic's alert: "OK").
  static const std::regex kConfirm(R"(^(ok|okay|done|confirm|apply|select|choose|set|save)$)", std::regex::icase);
  auto modal = hooks(page).in_modal();
  if (!inModal(modal, member)) return nullptr;
  const Element* confirm = nullptr;
  for (int id : modal) {
    const Element* e = page.byId(id);
    if (e && e->visible && e->type == "button" && std::regex_match(normalizeText(e->text), kConfirm)) confirm = e;
  }
  return confirm;
}

Result<std::string> Page::setChecked(const Element& given, bool want) {
  const Element el = current(given);
  startAction();
  if (el.type != "checkbox" && el.type != "radio" && !el.checked) {
    // A row or card named by what it shows, holding one checkbox (AG Grid's selection box in its
    // row): that box is what a person checks; more than one is no answer.
    // Else the words of a table row or a list item: the one checkbox on their line close by
    // (Carbon's DataTable: each row's box before its name, outside the text's own box).
    const auto boxesWhere = [&](auto placed) {
      std::vector<const Element*> out;
      if (!state_.last) return out;
      for (const auto& e : state_.last->elements) {
        if ((e.type == "checkbox" || e.type == "radio") && e.visible && e.id != el.id && e.frame == el.frame &&
            placed(e.rect)) {
          out.push_back(&e);
        }
      }
      return out;
    };
    std::vector<const Element*> boxes = boxesWhere([&](const Rect& r) { return r.within(el.rect, 1); });
    if (boxes.empty() && el.type == "option") return chooseOption(el, want);
    if (boxes.empty()) {
      boxes = boxesWhere([&](const Rect& r) {
        return r.cy() >= el.rect.y && r.cy() <= el.rect.y + el.rect.height && r.gapX(el.rect) <= 120;
      });
    }
    if (boxes.size() == 1) {
      const Element box = *boxes.front();
      auto r = setChecked(box, want);
      if (!r) return r;
      return " (its " + box.type + " " + describe(box) + ")" + *r;
    }
    return Status(codes::kElementNotInteractable,
                  describe(el) + " is a " + el.type + ", not a checkbox" +
                      (boxes.empty() ? "" : ", and it holds " + std::to_string(boxes.size()) + " of them"),
                  "check the checkbox itself: observe to find it");
  }
  if (el.checked && *el.checked == want) return alreadyChecked(want);
  if (!want && el.type == "radio") {
    return Status(codes::kElementNotInteractable, "a radio button cannot be unchecked",
                  "check another option of the group instead");
  }
  auto b = backend();
  if (!b) return b.status();
  auto point = pointOf(el, "click", false, /*guard=*/true);
  if (point) {
    auto state = clickForState(**b, el, *point, want);
    if (!state) return state.status();
    if (*state == want) {
      // As for click: a native box that was only toggled, unheard, has no reaction to wait for.
      unheard_ok_ = isNativeToggle(el) && watch_since_.has_value();
      return std::string();
    }
  } else if (point.status().code() != codes::kUnknownCommand && mayPass(point.status())) {
    return point.status();  // not actionable yet: auto-wait decides
  }
  LSCOPE_RETURN_IF_ERROR(scanner_.setChecked(el.scanner_id, el.frame, want));
  return std::string(" (synthetic events)");
}

std::string Page::alreadyChecked(bool want) const {
  if (clicked_away_) return " (drawn anew after its click)";
  return want ? " (already checked)" : " (already unchecked)";
}

Result<std::optional<bool>> Page::clickForState(Backend& b, const Element& el, Point at, bool want) {
  LSCOPE_RETURN_IF_ERROR(guardedClick(b, el, at, MouseButton::kLeft, 1));
  bool gone = false;
  auto read = [&]() -> std::optional<bool> {
    auto v = scanner_.getValue(el.scanner_id, el.frame);
    if (v && v->is_boolean()) return v->get<bool>();
    gone = !v && isElementGone(v.status());
    return std::nullopt;
  };
  std::optional<bool> state = read();
  if (state && *state != want) {
    // A component may draw its new state a frame later (Ionic's ion-toggle sets aria-checked
    // when it renders): the DOM's first quiet moment, before the click is called unheard.
    untilStateDrawn();
    state = read();
  }
  if (gone) {
    // The page wrote the row again on the change (Clusterize.js's update()): the action's wait
    // finds the new box and reads its state (alreadyChecked).
    clicked_away_ = true;
    return Status(codes::kElementStale, describe(el) + " was drawn anew after its click", "observe, then look at its state");
  }
  return state;
}

Result<std::string> Page::chooseOption(const Element& el, bool want) {
  // An option that holds its own state (Carbon's MultiSelect: the scanner lists it alone, its
  // checkbox part of it): to check it is to choose it, by a click.
  if (el.hasModifier("selected") == want) return alreadyChecked(want);
  auto b = backend();
  if (!b) return b.status();
  auto point = pointOf(el, "click", false, /*guard=*/true);
  if (!point) return point.status();
  auto state = clickForState(**b, el, *point, want);
  if (!state) return state.status();
  if (*state && **state != want) {
    // A list that keeps one choice does not take it back when it is clicked again.
    return Status(codes::kVerificationFailed, describe(el) + " is still " + (want ? "not chosen" : "chosen") + " after its click",
                  want ? "observe: the list may need to be open, or the option enabled"
                       : "choose another option instead");
  }
  return std::string();
}

void Page::untilStateDrawn() {
  // A component that draws its new state a frame later: the DOM's first quiet moment after the
  // action (mutations quiet for kStateQuietMs, at most 250 ms more), then it is read again.
  scanner_.waitQuiet(kStateQuietMs, std::min<long long>(kStateQuietMs + 250, deadline.remaining().count()));
}

Result<std::string> Page::setSlider(const Element& el, const std::string& text) {
  startAction();
  auto want = leadingNumber(text);
  if (!want) {
    return Status(codes::kParameterInvalid, describe(el) + " is a slider: it takes a number, not " + quote(text),
                  "type \"" + el.text + "\" \"25\"");
  }
  auto b = backend();
  if (!b) return b.status();
  auto now = [&]() -> std::optional<double> {
    auto v = scanner_.getValue(el.scanner_id, el.frame);
    if (!v || !v->is_string()) return std::nullopt;
    return leadingNumber(v->get<std::string>());
  };
  auto point = pointOf(el, "click");
  if (!point) return point.status();
  // A press on the handle focuses it where it is (a press on the track would move it).
  LSCOPE_RETURN_IF_ERROR((*b)->mouseClick(*point, MouseButton::kLeft, 1, 0, deadline));
  // A handle the press does not focus (bootstrap-slider without its `focus` option: its
  // mousedown keeps the focus where it was) takes the keys once focused as Tab would focus it.
  // (Best effort: one that takes no focus at all may still hear the keys where they go.)
  if (el.frame.empty() && el.tag != "input" && scanner_.keysTarget(el.scanner_id, el.frame).on_target == false) {
    const Status focused = scanner_.focus(el.scanner_id, el.frame);
    spdlog::debug("setSlider: {} took no focus from the press: focused as Tab would{}", describe(el),
                  focused.ok() ? "" : " (" + focused.message() + ")");
  }
  auto v = now();
  if (!v) return Status(codes::kElementNotInteractable, describe(el) + " shows no value (aria-valuenow) to set", "");
  auto press = [&](const char* key, int times) -> Status {
    for (int i = 0; i < times; ++i) LSCOPE_RETURN_IF_ERROR((*b)->pressKey(key, 0, deadline));
    return Status::ok();
  };
  // One arrow key shows the step, and which way it goes (a right-to-left slider turns the arrows
  // round); Page keys cover long ways while they go further than an arrow. A slider that stops
  // short (at its end, held by another handle) is said so below.
  auto settled = [&]() {
    auto r = now();
    if (r && v && std::abs(*r - *v) < 1e-9) {  // a component that draws its value a frame later
      untilStateDrawn();
      r = now();
    }
    if (r && v && std::abs(*r - *v) < 1e-9) {
      // One that redraws on a timer of its own (ion.rangeSlider: every 300 ms while idle) shows
      // the move at its next redraw: wait a while for the value to change.
      const double was = *v;
      (void)waitUntil(*this, [&]() -> Result<bool> {
        auto x = now();
        return x && std::abs(*x - was) > 1e-9;
      }, deadline.capped(Millis(700)));
      r = now();
    }
    return r;
  };
  double step = 0;
  bool pages = true;
  bool flipped = false;
  for (int round = 0; round < 8 && v && std::abs(*want - *v) > 1e-9; ++round) {
    const bool more = *want > *v;
    const double gap = std::abs(*want - *v);
    const double before = *v;
    if (pages && step > 0 && gap / step > 20) {
      LSCOPE_RETURN_IF_ERROR(press(more ? "PageUp" : "PageDown", 1));
      v = settled();
      if (!v) break;
      const double moved = *v - before;
      if (std::abs(moved) <= step || (moved > 0) != more) {
        pages = false;  // no further than an arrow, or the wrong way: arrows from here
        continue;
      }
      const int n = static_cast<int>(std::abs(*want - *v) / std::abs(moved));
      if (n > 0) {
        LSCOPE_RETURN_IF_ERROR(press(more ? "PageUp" : "PageDown", std::min(n, 200)));
        v = settled();
      }
      continue;
    }
    const int n = step > 0 ? std::max(1, static_cast<int>(std::lround(gap / step))) : 1;
    LSCOPE_RETURN_IF_ERROR(press((more != flipped) ? "ArrowRight" : "ArrowLeft", std::min(n, 400)));
    v = settled();
    if (!v) break;
    const double moved = *v - before;
    if (std::abs(moved) < 1e-9) break;  // the keys move it not, or it is at its end
    if (step == 0) {
      step = std::abs(moved);
      if ((moved > 0) != more) flipped = !flipped;
    }
  }
  if (!v || (step > 0 ? std::abs(*want - *v) > step / 2 : std::abs(*want - *v) > 1e-9)) {
    std::string at = v ? " stays at " + formatNumber(*v) : " did not say where it is";
    return Status(codes::kElementNotInteractable,
                  describe(el) + at + ": the arrow keys did not bring it to " + formatNumber(*want),
                  "observe its range (aria-valuemin, aria-valuemax)");
  }
  return " ← " + formatNumber(*v);
}

Result<std::string> Page::hover(const Element& el) {
  startAction();
  auto b = backend();
  if (!b) return b.status();
  auto point = pointOf(el, "hover");
  if (!point) return point.status();
  LSCOPE_RETURN_IF_ERROR((*b)->mouseMove(*point, deadline));
  return std::string();
}

namespace {

// The mouse button goes up whatever happens after the press, with time of its own (the
// command's may be spent): a button left down turns every later move into a drag.
struct ButtonUp {
  Backend& be;
  const Point& at;
  bool armed = true;
  Status done = Status::ok();
  void now() {
    if (armed) done = be.mouseButton(at, false, Deadline::in(Millis(2000)));
    armed = false;
  }
  ~ButtonUp() { now(); }
};

// How long a hand that drags a carousel holds still before it lets go (past the time the
// libraries look back for a fling).
constexpr Millis kHoldStill(220);

// A hand's way from `from` by (dx, dy): past the distance most libraries wait for before a press
// becomes a drag (5-8 px), then on in steps of at most `step_px`, between 4 and `max_steps`
// (a frame each: a library reads the pointer once per frame).
std::vector<Point> handPath(Point from, double dx, double dy, double step_px, int max_steps) {
  double dist = std::hypot(dx, dy);
  if (dist < 1) dx = 0, dy = 1, dist = 1;
  const double lift = std::min(10.0, std::max(dist / 2, 1.0));
  std::vector<Point> path{{from.x + dx / dist * lift, from.y + dy / dist * lift}};
  const int steps = std::clamp(static_cast<int>(std::ceil(dist / step_px)), 4, max_steps);
  for (int i = 1; i <= steps; ++i) path.push_back({from.x + dx * i / steps, from.y + dy * i / steps});
  return path;
}

}  // namespace

Result<std::string> Page::drag(const Element& el, const TargetSpec& to, Deadline until) {
  // The place is looked for in the scan `el` came from (its ids are that scan's). Found only in
  // a later scan, the scanner's ids have moved on: perform() looks for both again.
  auto where = locate(to, until);
  if (!where) return where.status();
  if (!where->fresh) {
    return Status(codes::kElementStale, "the page changed while " + to.toString() + " was looked for", "run drag again");
  }
  const Element dest = *where->res.element;
  if (dest.frame != el.frame) {
    return Status(codes::kParameterInvalid, describe(el) + " and " + describe(dest) + " are in different frames",
                  "drag within one frame");
  }
  if (dest.id == el.id) return Status(codes::kParameterInvalid, "drag onto itself: " + describe(el), "name where it goes");
  startAction();
  auto b = backend();
  if (!b) return b.status();
  auto from = pointOf(el, "grab");
  if (!from) return from.status();
  // Both on the screen at once: showing the place may scroll the element away (then once more
  // from where it is now).
  Result<Point> at = Status::ok();
  for (int round = 0;; ++round) {
    at = pointOf(dest, "drop");
    if (!at) return at.status();
    auto again = pointOf(el, "grab");
    if (!again) return again.status();
    if (std::abs(again->x - from->x) <= 1 && std::abs(again->y - from->y) <= 1) break;
    if (round == 1) {
      return Status(codes::kElementNotInteractable,
                    describe(el) + " and " + describe(dest) + " do not fit on the screen together",
                    "drag in two steps, through a place between them");
    }
    from = again;
  }
  Backend& be = **b;
  const std::string& frame = el.frame;
  const bool list_end = at->list_end;
  const Point offset = frameOrigin(frame);
  // The page's own HTML drag and drop (draggable=true) starts from the native press in Chromium;
  // where it cannot (script mode, WebKit's WebDriver), the scanner fires its events instead.
  auto watch = scanner_.call({{"cmd", "drag"}, {"op", "watch"}, {"id", el.scanner_id}}, frame);
  drag_before_ = watch ? watch->value("place", json()) : json();
  drag_frame_ = frame;
  const auto frame_step = [&] { scanner_.call({{"cmd", "drag"}, {"op", "frame"}}, frame); };
  LSCOPE_RETURN_IF_ERROR(be.mouseMove(*from, deadline));
  Point last = *from;
  ButtonUp release{be, last};
  if (Status pressed = be.mouseButton(*from, true, deadline); !pressed) return pressed;
  const auto gesture = [&]() -> Status {
    frame_step();
    std::vector<Point> path = handPath(*from, at->x - from->x, at->y - from->y, 40, 25);
    // A last small move over the place: some libraries decide where the item goes on the move
    // after it arrived (the first one over a new list only enters it).
    path.push_back({at->x, at->y + 1});
    path.push_back(*at);
    for (const Point& p : path) {
      LSCOPE_RETURN_IF_ERROR(be.mouseMove(p, deadline));
      last = p;
      frame_step();
    }
    frame_step();
    // The end of a list moves while the drag goes (the library makes room for the item as it
    // passes): as a person's eye follows it, the hand goes where it is now, until it stays.
    for (int i = 0; i < 4 && list_end; ++i) {
      // (Forced: the item carried over the heading may cover it.)
      auto now = scanner_.call({{"cmd", "point"}, {"id", dest.scanner_id}, {"check", "drop"}, {"scroll_into_view", false},
                                {"force", true}}, frame);
      if (!now) break;
      Point p{now->value("x", last.x) + offset.x, now->value("y", last.y) + offset.y};
      if (std::abs(p.x - last.x) < 3 && std::abs(p.y - last.y) < 3) break;
      LSCOPE_RETURN_IF_ERROR(be.mouseMove({(p.x + last.x) / 2, (p.y + last.y) / 2}, deadline));
      frame_step();
      LSCOPE_RETURN_IF_ERROR(be.mouseMove(p, deadline));
      last = p;
      frame_step();
      frame_step();
    }
    return Status::ok();
  };
  Status moved = gesture();
  release.now();
  // Once pressed, the drag is not made again (auto-wait would): the page may have taken it.
  const auto underway = [](const Status& s) {
    return Status(codes::kElementNotInteractable, s.message() + " (during the drag, which is not made again)", s.hint());
  };
  if (!moved) return underway(moved);
  if (!release.done) return underway(release.done);
  std::string how;
  if (watch) {
    auto seen = scanner_.call({{"cmd", "drag"}, {"op", "seen"}}, frame);
    if (seen && seen->value("draggable", false) && !seen->value("started", false)) {
      auto fired = scanner_.call({{"cmd", "drag"}, {"op", "html5"}, {"id", el.scanner_id}, {"to", dest.scanner_id}}, frame);
      if (!fired) return underway(fired.status());
      how = fired->value("dropped", false) ? " (HTML drag events)" : " (HTML drag events: the place took no drop)";
    }
  }
  return " → " + describe(dest) + how;
}

std::string Page::dragOutcome(json* place) {
  auto seen = scanner_.call({{"cmd", "drag"}, {"op", "seen"}}, drag_frame_);
  if (!seen || !drag_before_.is_object()) return {};
  const json now = seen->value("place", json());
  if (place) *place = now;
  const auto where = [](const json& p) {
    std::string under = p.value("under", "");
    return ordinalWord(p.value("index", 0)) + " of " + std::to_string(p.value("count", 0)) +
           (under.empty() ? "" : " under " + quote(under));
  };
  if (!now.is_object()) return "it is no longer on the page";
  if (now == drag_before_) return "it is where it was: " + where(now);
  return "now " + where(now);
}

Result<std::string> Page::focus(const Element& el) {
  startAction();
  LSCOPE_RETURN_IF_ERROR(scanner_.focus(el.scanner_id, el.frame));
  return std::string();
}

Result<std::string> Page::clear(const Element& el) {
  startAction();
  if (el.attributes.contains("sections")) {
    auto b = backend();
    if (!b) return b.status();
    LSCOPE_RETURN_IF_ERROR(clearSections(**b, el));
    return std::string();
  }
  LSCOPE_RETURN_IF_ERROR(scanner_.clear(el.scanner_id, el.frame));
  return std::string();
}

Status Page::press(const std::string& combo, const Element* on) {
  startAction();
  auto b = backend();
  if (!b) return b.status();
  if (on) LSCOPE_RETURN_IF_ERROR(scanner_.focus(on->scanner_id, on->frame));
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
  if (lower(key) == "enter") form_action = true;
  return (*b)->pressKey(key, modifiers, deadline);
}

Result<json> Page::scroll(const json& params, const Element* el) {
  startAction();
  json p = params;
  if (el) p["element"] = el->scanner_id;
  return scanner_.scroll(p, el ? el->frame : "");
}

Status Page::upload(const Element& el, const std::vector<std::string>& paths) {
  startAction();
  auto b = backend();
  if (!b) return b.status();
  if (el.attributes.value("type", "") == "file") return (*b)->setFiles(el.scanner_id, el.frame, paths, deadline);
  // A drop area, a label, a button: the file input its click would open (Dropzone's hidden one).
  const int input = scanner_.fileInputFor(el.scanner_id, el.frame);
  if (input == 0) {
    return Status(codes::kElementNotInteractable, "[" + std::to_string(el.id) + "] is not a file input, and opens none",
                  "upload into an input of type file, or the area that opens one");
  }
  return (*b)->setFiles(input, el.frame, paths, deadline);
}

// --- auto-wait -------------------------------------------------------------------------------

namespace {

// The text a person would scroll a long list for: the target's, or its anchor's ("Invite" near
// "Rosa Quinn"); none for ids, roles, selectors, patterns and regular expressions.
bool namedByWords(const TargetSpec& s) {
  return (s.kind == TargetSpec::Kind::kText || s.kind == TargetSpec::Kind::kWord) && s.match != TextMatch::kRegex;
}

std::string seekableText(const TargetSpec& t) {
  if (t.anchor) return namedByWords(*t.anchor) ? t.anchor->value : "";
  return namedByWords(t) ? t.value : "";
}

}  // namespace

Result<Page::Located> Page::locate(const TargetSpec& target, Deadline until, std::optional<Deadline> seek_until) {
  std::optional<Located> found;
  Status last = Status::ok();
  bool first = true;
  bool sought = false;
  const auto started = Clock::now();
  constexpr Millis kSeekAfter(250);
  constexpr Millis kAfterSeek(2000);  // at most this long past the auto-wait, for a row found by scrolling
  std::optional<Deadline> grace;      // set once a scroll found the target
  std::string scrolled_through;  // what scrolling the long lists through found: nothing
  // Named near the header of a closed section that holds it ("Take the quiz" near "Week 3:
  // Keyboard", while Week 1's quiz shows): that section is opened first, as a person opens Week 3.
  if (target.anchor && namedByWords(target) && namedByWords(*target.anchor)) {
    if (Revealed opened = revealSlide(target.value, until, target.anchor->value); opened.presses > 0) {
      sought = true;
      first = false;  // the command's scan is of the page before
      sought_how_ = revealedHow(opened);
    }
  }
  Status waited = waitUntil(*this, [&]() -> Result<bool> {
    for (;;) {
      // The first look may use this command's fresh scan; later ones scan again.
      const bool fresh = first && last_fresh_ && state_.last;
      Result<PageScan> page = fresh ? Result<PageScan>(*state_.last) : scan();
      first = false;
      if (!page) return page.status();
      // Moving a scan keeps its elements where they are: the resolution's pointers stay valid.
      Located loc{std::move(page.value()), Resolution(), fresh, std::nullopt};
      auto res = resolve(target, loc.page);
      if (res) {
        loc.res = std::move(res.value());
        if (sought) {
          sought_page_ = loc.page;
          loc.after_seek = grace;
        }
        found.emplace(std::move(loc));
        return true;
      }
      last = res.status();
      // Not there (yet): wait for the page to change. Anything else (a bad selector, an
      // ambiguous target in strict mode) will not get better by waiting.
      if (res.status().code() != codes::kTargetNotFound && !isElementGone(res.status())) return res.status();
      // Scrolled to, then gone: the list drew its rows anew after the scroll (Clusterize.js writes
      // the whole cluster again); it shows the row again in a moment.
      if (grace && !grace->expired()) {
        waitForChange(*grace, Millis(250));
        continue;
      }
      // Not drawn, perhaps: a long list that draws only the rows in view (react-window, AG Grid)
      // is scrolled to it as a person scrolls to a name (scanner `seek`), once; then looked at again.
      if (sought || res.status().code() != codes::kTargetNotFound) return false;
      std::string text = seekableText(target);
      if (text.empty()) return false;
      // A target the action's own rendering is about to show comes first: a quarter second
      // for the page to change, then a look at it, before any list is scrolled.
      if (auto waited_ms = Clock::now() - started; waited_ms < kSeekAfter) {
        waitForChange(until, std::chrono::duration_cast<Millis>(kSeekAfter - waited_ms));
        continue;
      }
      sought = true;
      // On a slide its carousel does not show, or in a closed section (a tab's panel, an
      // accordion's): the carousel is moved to it or the section opened first, as a person
      // presses "Next" or the tab (scanner `reveal`); then looked at again.
      const Deadline seek_end = seek_until.value_or(until);
      if (Revealed moved = revealSlide(text, seek_end); moved.presses > 0) {
        sought_how_ = revealedHow(moved);
        if (!moved.shown) {
          scrolled_through = "; " + revealedHow(moved, false) + ", and it still does not show";
          return false;
        }
        grace = Deadline(std::max(until.at(), seek_end.capped(kAfterSeek).at()));
        continue;
      }
      sought_how_ = "scrolled its list to it";
      auto seek_started = Clock::now();
      // The end of the window keeps time for finding the row again and acting on it: 1.5 s, or
      // half of a short window (an explicit timeout).
      const Millis window = seek_until.value_or(until).remaining();
      const Millis seek_for = window - std::min(Millis(1500), window / 2);
      auto seen = scanner_.seek(text, seek_for);
      if (!seen) return false;
      if (!seen->found) {
        if (seen->boxes > 0) {
          scrolled_through = seen->timed_out ? "; a long list, scrolled until the time ran out, did not show it"
                                             : "; no row of the long list" + std::string(seen->boxes > 1 ? "s" : "") +
                                                   " scrolled through shows it";
        }
        return false;
      }
      // What the scrolls started runs first, as after an action (scanner seek armed the registry).
      if (seen->moved) scanner_.waitTimers(std::min<long long>(1000, until.remaining().count()));
      spdlog::debug("locate: scrolled a list to {} ({} steps, {})", quote(text), seen->steps, elapsedSince(seek_started));
      grace = Deadline(std::max(until.at(), seek_until.value_or(until).capped(kAfterSeek).at()));
    }
  }, until);
  if (!waited && !scrolled_through.empty() && last.code() == codes::kTargetNotFound) {
    last = Status(last.code(), last.message() + scrolled_through, last.hint());
  }
  if (!waited) return waited.code() == codes::kTimeout && !last.isOk() ? last : waited;
  return std::move(*found);
}

std::string Page::revealedHow(const Revealed& r, bool purpose) {
  std::string out = r.pointed ? "pointed at the carousel, " : "";
  for (size_t i = 0; i < r.pressed.size(); ++i) {
    const auto& [name, times] = r.pressed[i];
    // ("pressed A, then B", "dragged the carousel, then pressed A")
    const bool pressing_on = i > 0 && !r.pressed[i - 1].first.empty();
    const std::string what = name.empty() ? "dragged the carousel" : (pressing_on ? "" : "pressed ") + quote(name);
    out += (i > 0 ? ", then " : "") + what + (times > 1 ? " " + std::to_string(times) + " times" : "");
  }
  if (!purpose) return out;
  return out + (r.opened ? " to show it" : " to show its slide");
}

Page::Revealed Page::revealSlide(const std::string& text, Deadline until, const std::string& by) {
  constexpr int kMaxPresses = 30;
  Revealed out;
  int last_away = std::numeric_limits<int>::max();
  std::string last_toward;
  bool waited = false;
  bool pointing_tried = false;
  // A drag not yet seen to move the carousel: the look after it shows the slide, or nearer, or
  // the other way (past it). One that is not seen so, whatever ends the presses, is not told,
  // and the caller goes on as if none was made (a long list is scrolled).
  bool unconfirmed_drag = false;
  while (!until.expired() && out.presses < kMaxPresses) {
    auto r = scanner_.reveal(text, by, pointing_tried);
    if (!r) {
      spdlog::debug("reveal: {}", r.status().message());
      break;
    }
    if (r->shown) {
      out.shown = true;
      unconfirmed_drag = false;
      break;
    }
    if (r->toward != last_toward || r->away < last_away) unconfirmed_drag = false;
    if (!state_.last) break;
    // Its arrows show only under the pointer (UIkit's uk-hidden-hover): the pointer goes over the
    // carousel, once, as a person's does, and the page is looked at again.
    // (Where it cannot be pointed at, its dots may still do.)
    if (!r->hover.is_null() && !pointing_tried) {
      pointing_tried = true;
      auto adopted = adopt(*state_.last, {r->hover});
      if (adopted.empty()) continue;
      if (auto pointed = hover(*adopted.front()); !pointed) {
        spdlog::debug("reveal: could not point at {}: {}", describe(*adopted.front()), pointed.status().message());
        continue;
      }
      out.pointed = true;
      settle();  // (an arrow that fades in as the pointer comes: .carousel:hover .arrow {transition})
      if (!scan()) break;
      continue;
    }
    if (r->control.is_null() && r->swipe.is_null()) {
      spdlog::debug("reveal: no way to {} shown", quote(text));
      break;
    }
    spdlog::debug("reveal: {} {} away, {}", r->toward, r->away,
                  r->swipe.is_null() ? r->control.value("text", std::string()) : "drag " + r->swipe.dump());
    // (Slides and closed sections count apart: a tab opened on a carousel starts its count.)
    if (r->toward != last_toward) last_away = std::numeric_limits<int>::max();
    if (r->away >= last_away) {
      // Still moving (an animation that settling did not see), or the press did nothing: a
      // moment more, once, then no more presses.
      if (waited) break;
      waited = true;
      waitForChange(until, Millis(300));
      continue;
    }
    std::string name;  // (empty: dragged)
    if (!r->swipe.is_null()) {
      // (A drag, the carousel's settling and a look after it take a second or more.)
      if (until.remaining() < Millis(1500)) break;
      if (Status dragged = swipe(r->swipe, until); !dragged) {
        spdlog::debug("reveal: the carousel could not be dragged: {}", dragged.message());
        break;
      }
    } else {
      auto adopted = adopt(*state_.last, {r->control});
      if (adopted.empty()) break;
      const Element control = *adopted.front();
      if (auto pressed = click(control); !pressed) {
        spdlog::debug("reveal: {} could not be pressed: {}", describe(control), pressed.status().message());
        break;
      }
      name = !control.text.empty() ? control.text : !r->label.empty() ? r->label : describe(control);
    }
    unconfirmed_drag = name.empty();
    if (!out.pressed.empty() && out.pressed.back().first == name) ++out.pressed.back().second;
    else out.pressed.emplace_back(name, 1);
    out.opened = out.opened || r->toward == "open";
    ++out.presses;
    last_away = r->away;
    last_toward = r->toward;
    waited = false;
    settle();
  }
  // (A drag that moved nothing: a row clipped in a box that no hand moves, not a carousel.)
  if (unconfirmed_drag && !out.pressed.empty() && out.pressed.back().first.empty()) {
    if (--out.pressed.back().second == 0) out.pressed.pop_back();
    --out.presses;
  }
  if (out.presses > 0) spdlog::debug("reveal: {} for {}", revealedHow(out), quote(text));
  return out;
}

Status Page::swipe(const json& gesture, Deadline until) {
  auto b = backend();
  if (!b) return b.status();
  Backend& be = **b;
  const Point from{gesture.value("x", 0.0), gesture.value("y", 0.0)};
  const double dx = gesture.value("dx", 0.0), dy = gesture.value("dy", 0.0);
  if (!(std::hypot(dx, dy) >= 1)) return Status(codes::kParameterInvalid, "a drag of no length: " + gesture.dump());
  startAction();
  LSCOPE_RETURN_IF_ERROR(be.mouseMove(from, until));
  Point last = from;
  // (Armed before the press: the browser may take a press whose answer comes late.)
  ButtonUp release{be, last};
  LSCOPE_RETURN_IF_ERROR(be.mouseButton(from, true, until));
  // A quick hand: steps of about 60 px.
  for (const Point& p : handPath(from, dx, dy, 60, 12)) {
    LSCOPE_RETURN_IF_ERROR(be.mouseMove(p, until));
    last = p;
    scanner_.call({{"cmd", "drag"}, {"op", "frame"}});
  }
  // Held still until the carousel has stood still under the hand for longer than it looks back
  // for a fling (Keen-Slider 200 ms, Embla 170 ms): let go, it stops at the slide the drag
  // brought, not one or two further.
  scanner_.call({{"cmd", "wait_quiet"}, {"quiet", kHoldStill.count()}, {"frames", 1},
                 {"timeout", std::max<long long>(0, std::min(Millis(1000), until.remaining()).count())}});
  release.now();
  return release.done;
}

Result<Acted> Page::perform(const TargetSpec& target, const ActFn& act, const ActOptions& o) {
  Deadline until = deadline.capped(o.timeout);
  clicked_away_ = false;
  const Deadline seek_until = deadline.capped(std::max(o.timeout, o.seek));
  auto t0 = Clock::now();
  Acted out;
  bool cleared = false;
  int list_tries = 0;  // what closeOpenList has tried: 1 Escape, 2 a click beside the list
  Status last = Status::ok();
  for (;;) {
    auto where = locate(target, until, seek_until);
    // A row a scroll found has its own short wait, past the auto-wait's end.
    if (where && where->after_seek && where->after_seek->at() > until.at()) until = *where->after_seek;
    if (!where) {
      Status s = where.status();
      if (Clock::now() - t0 >= Millis(500) && s.code() == codes::kTargetNotFound) {
        s = Status(s.code(), s.message() + " (waited " + elapsedSince(t0) + ")", s.hint());
      }
      return s;
    }
    const Element* chosen = where->res.element;
    out.how = where->res.note;
    // Of the matches, one the action can be done to: a person types into the field called
    // "Comment", not into the button beside it that reads the same.
    if (o.accepts && !o.accepts(*chosen)) {
      auto fit = std::find_if(where->res.candidates.begin(), where->res.candidates.end(), [&](const Element* c) {
        return o.accepts(*c) && (!o.accepts_same_text || normalizeText(c->text) == normalizeText(chosen->text));
      });
      if (fit != where->res.candidates.end()) {
        chosen = *fit;
        out.how = "the one that " + o.accepts_what + " of " + std::to_string(where->res.candidates.size()) + " matches";
      }
    }
    const Element el = *chosen;  // a copy: later scans replace the page
    out.element = el;
    auto done = act(el);
    if (done) {
      out.detail = *done;
      return out;
    }
    last = done.status();
    spdlog::debug("perform: {} on {}: {}", last.code(), describe(el), last.message());
    // Covered by another match of the same target (a list opened over a table whose cell reads the
    // same: Tabulator's editor over its column): the one on top is the one a person sees and means.
    if (const Element* top = coveringMatch(last, target, where->res, el); top && !o.force) {
      const Element chosen = *top;
      auto again = act(chosen);
      if (again) {
        out.element = chosen;
        out.how = "the one on top of " + describe(el);
        out.detail = *again;
        return out;
      }
    }
    if (last.code() == codes::kElementNotInteractable && !o.force) {
      if (auto closed = closeOpenList(last.message(), list_tries, until)) {
        // (After a click beside it, the Escape before did not close it: said once, not twice.)
        if (!out.cleared.empty() && out.cleared.back().rfind("pressed Escape first", 0) == 0) out.cleared.pop_back();
        out.cleared.push_back(*closed);
        waitForChange(until, Millis(250));
        continue;
      }
    }
    if (last.code() == codes::kElementNotInteractable && !o.force) {
      // Covered: by a popup we know (a person closes it), or by something passing.
      // The newest scan: a popup may have opened during the action itself.
      const PageScan& latest = state_.last ? *state_.last : where->page;
      if (const Pattern* popup = coveringPopup(latest, &el)) {
        std::string kind = popup->name;
        std::string title = popup->texts.count("title") ? popup->texts.at("title")
                            : popup->texts.count("text") ? popup->texts.at("text") : "";
        std::string cover = "a " + kind + (title.empty() ? "" : " " + quote(title.size() > 50 ? title.substr(0, 50) + "…" : title));
        std::string clears = kind == "cookie_banner" ? "accept_cookies" : "dismiss_popups";
        if (o.clear_cover && !cleared) {
          cleared = true;
          auto c = o.clear_cover(kind);
          if (!c) {
            return Status(codes::kElementNotInteractable,
                          describe(el) + " is covered by " + cover + ", and " + clears + " could not clear it: " +
                              c.status().message(),
                          "observe the popup and close it by hand");
          }
          out.cleared.push_back(*c);
          continue;  // once more, now that it is gone
        }
        return Status(codes::kElementNotInteractable, describe(el) + " is covered by " + cover,
                      clears + " clears it (then try again), or --force clicks through it");
      }
    }
    if (!mayPass(last) || until.expired()) break;
    // Not actionable yet: wait for the page to change (shorter slices: animations and scrolling
    // move things without a mutation), then look again.
    waitForChange(until, Millis(250));
  }
  if (Clock::now() - t0 >= Millis(500)) {
    return Status(last.code(), last.message() + " (waited " + elapsedSince(t0) + ")", last.hint());
  }
  return last;
}

const Element* Page::coveringMatch(const Status& failed, const TargetSpec& target, const Resolution& res,
                                   const Element& el) const {
  // Only for a target named by its words alone: a relation, an ordinal or an id chose this one.
  if (failed.code() != codes::kElementNotInteractable || !el.frame.empty() || target.anchor || target.nth != 0 ||
      target.kind == TargetSpec::Kind::kId) {
    return nullptr;
  }
  // "... is covered by <what> at (x, y); dismiss ...": the point the cover took.
  if (failed.message().find(" is covered by ") == std::string::npos) return nullptr;
  auto hit = pointAfter(failed.message(), " at");
  if (!hit) return nullptr;
  for (const Element* c : res.candidates) {
    // A box around the target (its row) holds the point too, and is no cover.
    if (c->id == el.id || !c->frame.empty() || !c->visible || el.rect.within(c->rect, 1)) continue;
    const Rect& r = c->rect;
    if (hit->x >= r.x && hit->x < r.x + r.width && hit->y >= r.y && hit->y < r.y + r.height) return c;
  }
  return nullptr;
}

Result<Acted> Page::performOn(const Element& el, const ActFn& act, const ActOptions& o) {
  TargetSpec t;
  t.kind = TargetSpec::Kind::kId;
  t.id = el.id;
  t.value = std::to_string(el.id);
  return perform(t, act, o);
}

// --- change reports --------------------------------------------------------------------------

void Page::addChanges(Response& r, const PageScan& before, const PageScan& after, bool skip_noop) {
  DiffContext dc;
  dc.new_document = documentOf(before) != documentOf(after);
  dc.form_action = form_action;
  ChangeReport report = diffScans(before, after, dc);
  if (report.noop()) {
    if (!skip_noop) r.add("changes", "none");
  } else {
    for (auto& l : report.lines) r.add("changes", l);
  }
  r.data["changes"] = report.toJson();
  r.data["url"] = after.url;
}

Response Page::actAndReport(const std::string& command, const std::function<Result<std::string>()>& act) {
  auto before = scan();
  if (!before) return errorResponse(command, before.status());
  PageScan before_page = *before;
  sought_page_.reset();
  auto done = act();
  if (sought_page_) {
    before_page = std::move(*sought_page_);
    sought_page_.reset();
    if (done) *done += " (" + sought_how_ + ")";
  }
  if (!done) {
    dropBackendIfDead(done.status());
    Response r = errorResponse(command, done.status());
    reportEvents(r);
    return r;
  }
  settle();
  if (Status stop = enforcePolicy(); !stop) {
    Response r = errorResponse(command, stop);
    reportEvents(r);
    return r;
  }
  auto after = scan();
  if (!after) {
    // A navigation may have replaced the document mid-scan: settle and try once more.
    settle();
    after = scan();
  }
  Response r = okResponse(command, *done);
  if (!after) {
    r.add("changes", "(page not readable after the action: " + after.status().message() + ")");
    reportEvents(r);
    return r;
  }
  addChanges(r, before_page, *after);
  reportEvents(r);
  return r;
}

}  // namespace lscope
