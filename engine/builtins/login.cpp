// login (intent-engine.md §4.1): finds the sign-in form (pattern first, §4.1 heuristics after),
// types the username or email and the password, ticks "remember me" when asked, submits, and
// verifies the outcome from the page. Two-step forms (identifier, then password), buttons that
// enable after input and popups that open midway are handled through the action layer.
#include "engine/builtins/common.h"

#include "engine/observation.h"
#include "engine/resolver.h"

namespace lscope {
namespace {

using namespace builtin;

bool isPassword(const Element& e) { return e.role == "password" || e.attributes.value("type", "") == "password"; }

bool isUserField(const Element& e) {
  return e.type == "input" && !isPassword(e) &&
         (e.role == "email" || e.role == "username" || attrHas(e, {"email", "user", "login", "identifier"}) ||
          textHas(e, {"email", "e-mail", "user", "login", "account"}));
}

// Links and buttons beside a sign-in form that are not its submit.
bool isSideAction(const Element& e) {
  return textHas(e, {"forgot", "reset", "register", "sign up", "signup", "create", "help", "google", "facebook",
                     "github", "apple", "microsoft", "sso", "back", "cancel"});
}

bool isSubmitLike(const Element& e) {
  return (e.type == "button" || e.type == "generic" || e.type == "link") && !isSideAction(e) &&
         (e.role == "submit" || textHas(e, {"sign in", "log in", "login", "signin", "continue", "next", "submit", "enter"}));
}

// The best submit of a group: words that mean "sign in" and primary styling beat a bare submit.
const Element* bestSubmit(const PageScan& p, const std::function<bool(const Element&)>& in_group) {
  const Element* best = nullptr;
  int best_score = -1;
  for (const auto& e : p.elements) {
    if (!in_group(e) || !isSubmitLike(e)) continue;
    int s = (e.visible ? 8 : 0) + (e.role == "submit" ? 2 : 0) + (e.hasModifier("primary") ? 2 : 0) +
            (textHas(e, {"sign in", "log in", "login", "signin"}) ? 4 : 0) + (e.type == "button" ? 1 : 0);
    if (s > best_score) {
      best = &e;
      best_score = s;
    }
  }
  return best;
}

// The login controls of the page, chosen as one form: the pattern's, else the form (or, without
// a <form>, the landmark) of the password field.
struct LoginForm {
  const Element* user = nullptr;
  const Element* pass = nullptr;
  const Element* submit = nullptr;
  const Element* remember = nullptr;
};

bool sameGroup(const Element& a, const Element& b) {
  if (!a.form.empty() || !b.form.empty()) return a.form == b.form;
  return a.landmark == b.landmark && a.frame == b.frame;
}

LoginForm findForm(const PageScan& p) {
  LoginForm f;
  f.user = patternField(p, "login_form", {"email", "username"});
  f.pass = patternField(p, "login_form", {"password"});
  f.submit = patternField(p, "login_form", {"submit"});
  if (f.submit && isSideAction(*f.submit)) f.submit = nullptr;  // "Forgot password?" is no submit
  f.remember = patternField(p, "login_form", {"remember"});
  if (!f.pass) f.pass = firstWhere(p, isPassword);
  const Element* anchor = f.pass ? f.pass : f.user;
  if (!f.user) {
    // The identifier field of the same form, else any.
    if (anchor) f.user = firstWhere(p, [&](const Element& e) { return isUserField(e) && sameGroup(e, *anchor); });
    if (!f.user) f.user = firstWhere(p, isUserField);
    if (!f.user && f.pass) {
      // A plain text input just before the password field ("Name", no signals).
      const Element* prev = nullptr;
      for (const auto& e : p.elements) {
        if (&e == f.pass) break;
        if (e.type == "input" && !isPassword(e) && e.visible && sameGroup(e, *f.pass)) prev = &e;
      }
      f.user = prev;
    }
  }
  anchor = f.pass ? f.pass : f.user;
  if (!f.submit && anchor) {
    f.submit = bestSubmit(p, [&](const Element& e) { return sameGroup(e, *anchor) && e.id != anchor->id; });
  }
  if (!f.submit) {
    f.submit = firstWhere(p, [](const Element& e) {
      return (e.type == "button" || e.type == "generic") && textHas(e, {"sign in", "log in", "login", "signin"});
    });
  }
  if (!f.remember && anchor) {
    f.remember = firstWhere(p, [&](const Element& e) {
      return e.type == "checkbox" && sameGroup(e, *anchor) &&
             (textHas(e, {"remember", "keep me", "stay signed", "stay logged"}) || attrHas(e, {"remember"}));
    });
  }
  return f;
}

Status run(IntentRun& run) {
  std::string username = run.vars.value("username", "");
  std::string password = run.vars.value("password", "");
  long long wait_ms = durationArg(run.vars.value("wait", json("10s")), 10000);
  long long appear_ms = durationArg(run.vars.value("appear", json("3s")), 3000);
  bool remember = run.vars.value("remember", false);
  Page& page = run.page;

  // The form may render a moment after load.
  waitForPattern(run, [](const PageScan& p) {
    LoginForm f = findForm(p);
    return f.pass || f.user;
  }, appear_ms, "login form");
  LoginForm f = findForm(run.scan);
  if (!f.user && !f.pass) {
    return Status(codes::kTargetNotFound, "no login form on this page",
                  "goto the sign-in page first; observe shows a \"Sign in\" link if there is one");
  }
  // Ids, not pointers: every action rescans.
  int pass_id = f.pass ? f.pass->id : 0;
  int user_id = f.user ? f.user->id : 0;
  if (f.user) {
    auto t = run.type(*f.user, username);
    if (!t) return t.status();
  }
  if (!pass_id) {
    // Two-step sign-in: the password field comes after "Next".
    const Element* user_now = user_id ? run.scan.byId(user_id) : nullptr;  // f's pointers are stale now
    const Element* next = firstWhere(run.scan, [&](const Element& e) {
      return (e.type == "button" || e.type == "generic") && textHas(e, {"next", "continue", "sign in", "log in", "submit"}) &&
             (!user_now || sameGroup(e, *user_now));
    });
    if (!next) next = firstWhere(run.scan, [](const Element& e) { return e.role == "submit"; });
    if (!next) {
      return Status(codes::kTargetNotFound, "no password field on this page",
                    "this page asks for the username only and has no Next button; observe it");
    }
    auto c = run.click(*next);
    if (!c) return c.status();
    page.settle();
    auto t0 = Clock::now();
    Status shown = run.waitFor([&]() -> Result<bool> {
      const Element* p = firstWhere(run.scan, isPassword);
      return p && p->visible;
    }, wait_ms);
    if (!shown) {
      if (shown.code() != codes::kTimeout) return shown;
      return Status(codes::kTargetNotFound, "no password field appeared after " + logLabel(c->element),
                    "observe the page: it may ask for something else first");
    }
    run.log("wait password field (" + elapsedSince(t0) + ")");
    f = findForm(run.scan);
    if (!f.pass) return Status(codes::kTargetNotFound, "no password field appeared", "observe the page");
    pass_id = f.pass->id;
  }
  page.rememberSecret(password);
  const Element* pass = run.scan.byId(pass_id);
  if (!pass) return Status(codes::kElementStale, "the password field went away", "observe the page");
  auto tp = run.type(*pass, password);
  if (!tp) return tp.status();
  run.summary = quote(username);
  if (remember) {
    LoginForm now = findForm(run.scan);
    if (!now.remember) {
      run.add("skipped", "remember: no \"Remember me\" checkbox on this form");
    } else {
      auto r = run.act(*now.remember, [&](const Element& e) { return page.setChecked(e, true); });
      if (!r) return r.status();
      run.log("check " + logLabel(r->element) + r->detail);
    }
  }
  if (run.vars.value("no_submit", false)) {
    run.log("not submitted (--no_submit)");
    return Status::ok();
  }

  PageScan before = run.scan;
  // Words a page uses to confirm a sign-in it shows in place; counted before and after.
  static const char* kWelcome[] = {"logged in", "signed in", "welcome", "you are in"};
  auto welcomeCount = [&]() -> int {
    auto t = page.scanner().textOf("body");
    if (!t) return 0;
    std::string text = normalizeText(*t);
    int n = 0;
    for (const char* w : kWelcome) {
      for (size_t pos = text.find(w); pos != std::string::npos; pos = text.find(w, pos + 1)) ++n;
    }
    return n;
  };
  int welcome_before = welcomeCount();
  LoginForm now = findForm(run.scan);
  if (now.submit) {
    // A button that enables once both fields are filled is waited for by the action layer.
    auto c = run.click(*now.submit);
    if (!c) return c.status();
  } else {
    const Element* p = run.scan.byId(pass_id);
    LSCOPE_RETURN_IF_ERROR(run.press("Enter", p));
  }
  page.form_action = true;

  // Outcome (§4.1 step 7): success when the page moved on and no login form remains; failure
  // when an error shows, or the form is still there when time is up.
  auto t0 = Clock::now();
  Deadline until = run.deadline.capped(Millis(wait_ms));
  for (;;) {
    page.settle();
    LSCOPE_RETURN_IF_ERROR(run.rescan());
    const PageScan& p = run.scan;
    auto errors = newErrors(before, p);
    bool form_left = !p.pattern("login_form") && !firstWhere(p, isPassword);
    bool moved = documentOf(p) != documentOf(before) || p.url != before.url;
    if (!errors.empty()) {
      run.message = "authentication failed";
      run.result.push_back("Form error: " + quote(errors.front()));
      run.hint = "Verify credentials and retry.";
      return Status(codes::kVerificationFailed, "authentication failed", "Verify credentials and retry.");
    }
    // Some sites stay on the page and say so: "Logged in. Welcome back!", "Signed in."
    if (!moved && welcomeCount() > welcome_before) {
      run.log("wait confirmation (" + elapsedSince(t0) + ")");
      run.result.push_back("authenticated: true");
      return Status::ok();
    }
    if (form_left || (moved && !p.pattern("login_form"))) {
      run.log("wait navigation (" + elapsedSince(t0) + ")");
      run.result.push_back("authenticated: true");
      if (moved) run.result.push_back("redirect: " + shortUrl(p.url));
      return Status::ok();
    }
    if (until.expired()) {
      run.message = "the login form is still there after submitting";
      return Status(codes::kVerificationFailed, run.message,
                    "the page shows no error message: observe it (a captcha or a second factor may be asking)");
    }
    page.waitForChange(until);
  }
}

bool ready(const PageScan& page) {
  if (page.pattern("login_form")) return true;
  for (const auto& e : page.elements) {
    if (e.role == "password") return true;
  }
  return false;
}

}  // namespace

BuiltinIntent loginIntent() {
  return {define("login", "Sign in with a username or email and a password; verified.",
                 {param("username", "string", true, nullptr, "username or email"),
                  param("password", "string", true, nullptr, "password, or secret:NAME", true),
                  param("remember", "boolean", false, false, "tick \"Remember me\""),
                  param("no_submit", "boolean", false, false, "fill in, do not submit"),
                  param("wait", "string", false, "10s", "for the outcome after submitting"), appearParam()},
                 {"log in", "sign in", "login", "log me in", "log into", "sign into my account", "authenticate"}),
          run, ready};
}

}  // namespace lscope
