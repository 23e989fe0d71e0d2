// dismiss_popups (intent-engine.md §4.4): waits briefly for a popup (many open a moment after
// load), then closes popups the way a person does (the close button, "No thanks", Escape),
// verifying each is gone, until none remains: at most 5 rounds, so stacked popups and popups
// that open when the first one closes are covered.
#include "engine/builtins/common.h"

#include <algorithm>

#include "engine/observation.h"

namespace lscope {
namespace {

using namespace builtin;

// Popup patterns and the --type each answers to.
const std::vector<std::pair<const char*, const char*>>& kinds() {
  static const std::vector<std::pair<const char*, const char*>> k = {
      {"modal_dialog", "modal"}, {"promo_popup", "modal"}, {"overlay", "overlay"},
      {"notification_toast", "toast"}, {"cookie_banner", "banner"}};
  return k;
}

// The popup to close first: by kind (a modal before a toast), skipping those whose close control
// another popup covers while any other is up. `skip` holds containers.
// `only`: when not empty, the popup with that container (dismiss <target>).
const Pattern* topPopup(const PageScan& p, const std::string& type, std::string& kind,
                        const std::set<std::string>& skip = {}, const std::string& only = "") {
  const Pattern* fallback = nullptr;
  for (const auto& [name, k] : kinds()) {
    if (!type.empty() && type != k) continue;
    for (const auto& pat : p.patterns) {
      if (pat.name != name || (!only.empty() && pat.container != only)) continue;
      if (skip.count(pat.container)) {
        if (!fallback) fallback = &pat;
        continue;
      }
      kind = name;
      return &pat;
    }
  }
  if (fallback) kind = fallback->name;
  return fallback;
}

// How a person closes it: a close control first; an offer is declined, never taken.
const Element* closeControl(const PageScan& p, const Pattern& popup, const std::string& kind) {
  std::vector<const char*> order = {"close", "dismiss", "decline", "reject"};
  if (kind != "promo_popup") order.push_back("accept");
  for (const char* f : order) {
    auto it = popup.fields.find(f);
    if (it == popup.fields.end()) continue;
    if (const Element* e = p.byId(it->second)) return e;
  }
  return nullptr;
}

// Words of a way out a popup offers without a close control ("No thanks", "Not now").
bool isDecline(const Element& e) {
  return (e.type == "button" || e.type == "link" || e.type == "generic") &&
         textHas(e, {"no thanks", "no, thanks", "not now", "maybe later", "later", "skip", "dismiss", "close",
                     "cancel", "continue without", "no thank you", "not interested", "nein danke", "non merci",
                     "no gracias", "no grazie", "nee bedankt", "não obrigado", "nie dziękuję"});
}

// A decline control inside the popup's container, when its pattern named none.
const Element* declineInside(IntentRun& run, const Pattern& popup) {
  if (popup.container.empty()) return nullptr;
  auto inside = run.page.hooks(run.scan).select(":is(" + popup.container + ") *", false);
  if (!inside) return nullptr;
  for (int id : *inside) {
    const Element* e = run.scan.byId(id);
    if (e && e->visible && isDecline(*e)) return e;
  }
  return nullptr;
}

// What `dismiss <target>` names: the target, and the container of the popup holding it (the
// innermost when popups nest; empty when no popup pattern holds it).
struct Named {
  Element element;
  std::string container;
};

Result<Named> popupHolding(IntentRun& run, const std::string& target) {
  auto spec = parseTarget(target);
  if (!spec) return spec.status();
  // It may open a moment after the others: waited for as an action waits for its target.
  auto located = run.page.locate(*spec, run.deadline.capped(Millis(5000)));
  if (!located) return located.status();
  PageScan& scan = located->page;
  Named out{*located->res.element, ""};
  size_t smallest = 0;
  for (const auto& pat : scan.patterns) {
    bool popup = std::any_of(kinds().begin(), kinds().end(), [&](const auto& k) { return pat.name == k.first; });
    if (!popup || pat.container.empty()) continue;
    auto inside = run.page.hooks(scan).select(":is(" + pat.container + "), :is(" + pat.container + ") *", false);
    if (!inside || std::find(inside->begin(), inside->end(), out.element.id) == inside->end()) continue;
    if (out.container.empty() || inside->size() < smallest) {
      out.container = pat.container;
      smallest = inside->size();
    }
  }
  return out;
}

// A popup no pattern describes (a second toast of a stack): the close control nearest the
// target, within a toast's reach of it, as a person looks for the × beside the text.
const Element* closeBeside(const PageScan& p, const Element& target) {
  const Element* best = nullptr;
  double best_gap = 200;  // px between the boxes
  for (const auto& e : p.elements) {
    if (!e.visible || e.id == target.id || !isDecline(e)) continue;
    double gap = std::max(e.rect.gapX(target.rect), e.rect.gapY(target.rect));
    if (gap < best_gap) {
      best = &e;
      best_gap = gap;
    }
  }
  return best;
}

// dismiss <target> where no popup pattern holds it: its nearest close control, verified by the
// target going away.
Status dismissBeside(IntentRun& run, const Element& target) {
  const Element* close = closeBeside(run.scan, target);
  if (!close) {
    return Status(codes::kTargetNotFound, "no popup holds " + logLabel(target) + " and no close control is beside it",
                  "observe lists the popups under # patterns; or click the control that closes it");
  }
  auto c = run.act(*close, [&](const Element& e) { return run.page.click(e); }, 3000);
  if (!c) return c.status();
  run.log("click " + logLabel(c->element) + c->detail);
  run.page.settle();
  std::string key = target.key;
  Status gone = run.waitFor([&]() -> Result<bool> {
    for (const auto& e : run.scan.elements) {
      if (e.key == key && e.visible) return false;
    }
    return true;
  }, 1500);
  if (!gone) {
    if (gone.code() != codes::kTimeout) return gone;
    return Status(codes::kVerificationFailed, logLabel(target) + " is still shown after " + logLabel(c->element),
                  "observe it and click the control that closes it");
  }
  run.add("dismissed", "[1] " + quote(target.text) + " → clicked " + quote(c->element.text.empty() ? "close" : c->element.text));
  return Status::ok();
}

Status run(IntentRun& run) {
  std::string type = run.vars.value("type", "");
  bool all = run.vars.value("all", true);
  long long wait_ms = durationArg(run.vars.value("wait", json("3s")), 3000);
  std::string target = run.vars.value("target", "");
  Page& page = run.page;
  std::string kind;
  std::string only;  // dismiss <target>: the popup holding it
  auto anyPopup = [&](const PageScan& p) {
    std::string k;
    return topPopup(p, type, k, {}, only) != nullptr;
  };
  waitForPattern(run, anyPopup, wait_ms, "popup");
  if (!target.empty()) {
    auto named = popupHolding(run, target);
    if (!named) return named.status();
    LSCOPE_RETURN_IF_ERROR(run.rescan());
    if (named->container.empty()) return dismissBeside(run, named->element);
    only = named->container;
  }
  int dismissed = 0;
  int misses = 0;  // tries in a row that left the same popup up (animations swallow clicks)
  std::set<std::string> covered;  // popups whose close control another popup covers
  for (int round = 1; round <= 5; ++round) {  // §4.4: until none remain, at most 5 rounds
    const Pattern* popup = topPopup(run.scan, type, kind, covered, only);
    if (!popup) break;
    std::string title = popup->texts.count("title") ? popup->texts.at("title")
                        : popup->texts.count("text") ? popup->texts.at("text") : "";
    const std::string container = popup->container;  // `popup` points into a scan the click replaces
    const Element* close = closeControl(run.scan, *popup, kind);
    if (!close) close = declineInside(run, *popup);
    std::string how;
    int close_id = close ? close->id : 0;
    if (close) {
      auto c = run.act(*close, [&](const Element& e) { return page.click(e); }, 3000);
      if (!c && misses > 0 && (c.status().code() == codes::kElementNotVisible || isElementGone(c.status()))) {
        // Clicked a moment ago and now fading or gone: the popup is on its way out.
        LSCOPE_RETURN_IF_ERROR(run.waitForChange(500));
        continue;
      }
      if (!c && c.status().code() == codes::kElementNotInteractable && !covered.count(container)) {
        // Another popup sits on top of this one (a SweetAlert2 over a modal): that one first.
        covered.insert(container);
        LSCOPE_RETURN_IF_ERROR(run.rescan());
        continue;
      }
      if (!c) return c.status();
      covered.clear();
      how = "clicked " + quote(c->element.text.empty() ? c->element.attributes.value("aria-label", "close") : c->element.text);
      run.log("click " + logLabel(c->element) + c->detail);
    } else {
      LSCOPE_RETURN_IF_ERROR(run.press("Escape"));
      how = "pressed Escape";
    }
    page.settle();
    // Gone when this popup is: its close control hidden or gone (an exit animation keeps a
    // closing popup on screen for a moment: waited for, event-driven), or, closed by Escape, no
    // popup of its kind left in its place. Another popup of the same kind (a second toast of a
    // stack) says nothing about this one.
    auto stillUp = [&](const PageScan& p) {
      if (close_id) {
        const Element* again_close = p.byId(close_id);
        return again_close && again_close->visible;
      }
      for (const auto& again : p.patterns) {
        if (again.name == kind && again.container == container) return true;
      }
      return false;
    };
    Status gone = run.waitFor([&]() -> Result<bool> { return !stillUp(run.scan); }, 1500);
    if (!gone && gone.code() != codes::kTimeout) return gone;
    if (!gone) {
      if (++misses >= 2) break;
      continue;  // the same popup again next round
    }
    misses = 0;
    ++dismissed;
    run.add("dismissed", "[" + std::to_string(dismissed) + "] " + kind + (title.empty() ? "" : " " + quote(title)) + " → " + how);
    if (!all) break;
    // Closing one may open the next (or reveal one beneath): look again briefly.
    if (!anyPopup(run.scan)) run.waitFor([&]() -> Result<bool> { return anyPopup(run.scan); }, 800);
  }
  std::string left_kind;
  const Pattern* left = topPopup(run.scan, type, left_kind, {}, only);
  if (dismissed == 0 && !left) {
    run.result.push_back("No popups detected.");
    run.no_changes = true;
    return Status::ok();
  }
  if (left && all) {
    run.partial = dismissed > 0;
    run.message = "a " + left_kind + " could not be dismissed";
    return Status(codes::kVerificationFailed, run.message, "observe the popup and click its close control");
  }
  if (dismissed > 0) run.result.push_back("verified: no popup left");
  return Status::ok();
}

bool ready(const PageScan& page) {
  return page.pattern("modal_dialog") || page.pattern("overlay") || page.pattern("notification_toast") ||
         page.pattern("promo_popup");
}

}  // namespace

BuiltinIntent dismissPopupsIntent() {
  return {define("dismiss_popups", "Close modals, overlays, toasts and banners until none remain.",
                 {param("all", "boolean", false, true, "not just the top one"),
                  param("type", "string", false, nullptr, "", false, {"modal", "overlay", "toast", "banner"}),
                  param("wait", "string", false, "3s", "for a popup that opens late"),
                  param("target", "string", false, nullptr, "only the popup holding this")},
                 {"close the popup", "dismiss the popup", "get rid of the popup", "close the overlay", "dismiss the toast",
                  "close all popups"}),
          run, ready};
}

}  // namespace lscope
