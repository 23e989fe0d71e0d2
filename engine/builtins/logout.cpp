// logout (intent-engine.md §2.1): finds the sign-out control, opening an account menu when it
// hides in one, clicks it and verifies the session ended.
#include "engine/builtins/common.h"

namespace lscope {
namespace {

using namespace builtin;

bool isSignOut(const Element& e) {
  return (e.type == "link" || e.type == "button" || e.type == "generic" || e.type == "menuitem" || e.type == "item") &&
         textHas(e, {"log out", "logout", "sign out", "signout", "log off"});
}

Status run(IntentRun& run) {
  long long wait_ms = durationArg(run.vars.value("wait", json("10s")), 10000);
  Page& page = run.page;
  const Element* control = firstWhere(run.scan, isSignOut);
  if (!control) {
    // The control often hides in an account menu.
    const Element* menu = firstWhere(run.scan, [](const Element& e) {
      return (e.type == "button" || e.type == "generic" || e.type == "link") &&
             (textHas(e, {"account", "profile", "my ", "user", "menu"}) || e.attributes.contains("aria-haspopup"));
    });
    if (menu) {
      auto c = run.act(*menu, [&](const Element& e) { return page.click(e); });
      if (!c) return c.status();
      run.log("click " + logLabel(c->element) + c->detail + " (menu)");
      page.settle();
      run.waitFor([&]() -> Result<bool> { return firstWhere(run.scan, isSignOut) != nullptr; }, 2000);
      control = firstWhere(run.scan, isSignOut);
    }
  }
  if (!control) {
    return Status(codes::kTargetNotFound, "no log-out control on this page",
                  "observe: it may sit in a menu with an unusual name; click it, then logout");
  }
  PageScan before = run.scan;
  auto c = run.click(*control);
  if (!c) return c.status();
  Deadline until = run.deadline.capped(Millis(wait_ms));
  for (;;) {
    page.settle();
    LSCOPE_RETURN_IF_ERROR(run.rescan());
    bool moved = documentOf(run.scan) != documentOf(before) || run.scan.url != before.url;
    if (!firstWhere(run.scan, isSignOut) || moved || run.scan.pattern("login_form")) {
      run.result.push_back("signed out: true");
      return Status::ok();
    }
    if (until.expired()) {
      return Status(codes::kVerificationFailed, "still signed in: the log-out control is still there",
                    "observe: the site may ask to confirm");
    }
    page.waitForChange(until);
  }
}

bool ready(const PageScan& page) {
  for (const auto& e : page.elements) {
    if (isSignOut(e)) return true;
  }
  return false;
}

}  // namespace

BuiltinIntent logoutIntent() {
  return {define("logout", "Sign out (finds the control, opening an account menu if needed).",
                 {param("wait", "string", false, "10s", "")},
                 {"log out", "sign out", "logout", "log me out"}),
          run, ready};
}

}  // namespace lscope
