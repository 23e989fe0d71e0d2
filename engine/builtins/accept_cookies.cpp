// accept_cookies (intent-engine.md §4.3): waits briefly for a consent banner (they load late),
// clicks its accept (or, with --reject, its reject) button — found by the consent pack's vendor
// rules or the scanner's multilingual detection — and verifies the banner is gone. A banner
// without a reject button is rejected through its settings ("Save"/"Confirm choices" with
// everything optional left off).
#include "engine/builtins/common.h"

#include "engine/observation.h"
#include "engine/resolver.h"

namespace lscope {
namespace {

using namespace builtin;

// Buttons of a consent dialog, when the scanner saw no banner container (§4.3 step 2). The
// scanner's own vocabulary covers more languages; these are the engine's last resort.
bool isAccept(const Element& e) {
  return (e.type == "button" || e.type == "link" || e.type == "generic") &&
         textHas(e, {"accept all", "accept cookies", "allow all", "i agree", "agree and", "got it", "accept & close",
                     "allow cookies", "alle akzeptieren", "tout accepter", "aceptar todo", "accetta tutti",
                     "alles accepteren", "aceitar todos", "zaakceptuj wszystkie"});
}

bool isReject(const Element& e) {
  return (e.type == "button" || e.type == "link" || e.type == "generic") &&
         textHas(e, {"reject all", "decline", "only necessary", "necessary only", "refuse", "deny", "alle ablehnen",
                     "tout refuser", "rechazar todo", "rifiuta tutti", "alles weigeren", "rejeitar todos",
                     "odrzuć wszystkie"});
}

// In a consent banner's settings: the button that saves the current (all-optional-off) choice.
bool isSaveChoice(const Element& e) {
  return (e.type == "button" || e.type == "link" || e.type == "generic") &&
         textHas(e, {"save", "confirm", "reject all", "only necessary", "necessary only", "decline", "speichern",
                     "enregistrer", "guardar", "salva", "opslaan", "salvar", "zapisz", "ablehnen", "refuser"});
}

const Element* bannerButton(const PageScan& p, const char* field) {
  for (const auto& pat : p.patterns) {
    if (pat.name != "cookie_banner") continue;
    auto it = pat.fields.find(field);
    if (it == pat.fields.end()) continue;
    if (const Element* e = p.byId(it->second)) return e;
  }
  return nullptr;
}

std::string vendorOf(const PageScan& p) {
  const Pattern* b = p.pattern("cookie_banner");
  if (!b) return "";
  auto v = b->texts.find("vendor");
  return v == b->texts.end() ? "" : v->second;
}

Status run(IntentRun& run) {
  bool reject = run.vars.value("reject", false);
  long long wait_ms = durationArg(run.vars.value("wait", json("3s")), 3000);
  Page& page = run.page;
  // Consent managers often load late: give the banner `wait` to appear.
  waitForPattern(run, [&](const PageScan& p) {
    return p.pattern("cookie_banner") != nullptr || firstWhere(p, reject ? isReject : isAccept) != nullptr;
  }, wait_ms, "cookie banner");
  const PageScan& p = run.scan;
  bool banner = p.pattern("cookie_banner") != nullptr;
  std::string vendor = vendorOf(p);
  const Element* button = banner ? bannerButton(p, reject ? "reject" : "accept") : nullptr;
  if (!button) button = firstWhere(p, reject ? isReject : isAccept);
  if (!banner && !button) {
    run.result.push_back("No cookie banner detected.");
    run.no_changes = true;
    return Status::ok();
  }
  if (!button && reject) {
    // No reject button on the banner: its settings hold the choice (everything optional is off
    // until a person turns it on), saved with "Save"/"Confirm".
    const Element* settings = bannerButton(p, "settings");
    if (!settings) {
      return Status(codes::kTargetNotFound, "the cookie banner has neither a reject button nor settings",
                    "accept_cookies without --reject, or observe the banner");
    }
    auto c = run.click(*settings);
    if (!c) return c.status();
    page.settle();
    Status found = run.waitFor([&]() -> Result<bool> {
      return bannerButton(run.scan, "reject") != nullptr || bannerButton(run.scan, "save") != nullptr ||
             firstWhere(run.scan, isReject) != nullptr || firstWhere(run.scan, isSaveChoice) != nullptr;
    }, 3000);
    if (!found) {
      return Status(codes::kTargetNotFound, "the consent settings show no way to save a choice",
                    "observe the settings and click their save button");
    }
    button = bannerButton(run.scan, "reject");
    if (!button) button = firstWhere(run.scan, isReject);
    if (!button) button = bannerButton(run.scan, "save");
    if (!button) button = firstWhere(run.scan, isSaveChoice);
  }
  if (!button) {
    return Status(codes::kTargetNotFound, std::string("the cookie banner has no ") + (reject ? "reject" : "accept") + " button",
                  reject ? "accept_cookies without --reject, or open its settings and choose there"
                         : "observe the banner and click its button");
  }
  int button_id = button->id;  // the scan is replaced by every rescan: keep ids, not pointers
  auto c = run.click(*button);
  if (!c) return c.status();
  if (!vendor.empty()) run.result.push_back("consent manager: " + vendor);
  auto bannerGone = [&]() -> Result<bool> {
    const Element* still = run.scan.byId(button_id);
    return !run.scan.pattern("cookie_banner") && (!still || !still->visible);
  };
  Status gone = run.waitFor(bannerGone, 1500);
  if (!gone && gone.code() == codes::kTimeout) {
    // A banner shown before its script wired the buttons (tarteaucitron wires them 500 ms
    // later) ignores the first click; as a person would, click the same choice once more.
    const Element* again = run.scan.byId(button_id);
    if (again && again->visible && again->enabled) {
      auto c2 = run.click(*again);
      if (!c2) return c2.status();
      gone = run.waitFor(bannerGone, 3500);
    }
  }
  if (!gone) {
    if (gone.code() != codes::kTimeout) return gone;
    return Status(codes::kVerificationFailed, "the cookie banner is still shown",
                  "observe: it may want a second confirmation");
  }
  run.result.push_back(std::string("verified: the banner is gone (") + (reject ? "rejected" : "accepted") + ")");
  return Status::ok();
}

bool ready(const PageScan& page) { return page.pattern("cookie_banner") != nullptr; }

}  // namespace

BuiltinIntent acceptCookiesIntent() {
  return {define("accept_cookies", "Accept (or --reject) a cookie consent banner.",
                 {param("reject", "boolean", false, false, ""),
                  param("wait", "string", false, "3s", "for a late banner")},
                 {"accept cookies", "accept the cookie banner", "get rid of the cookie popup", "allow cookies",
                  "agree to cookies", "consent to cookies", "reject cookies"}),
          run, ready};
}

}  // namespace lscope
