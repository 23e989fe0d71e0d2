// The eight built-in intents (intent-engine.md §4, Appendix A), in C++: login, logout, search,
// accept_cookies, dismiss_popups, fill_form, submit_form, scroll_to. Each finds its controls by
// pattern first and by the §4 heuristics after, acts with trusted input, and verifies the
// outcome from the page, not from the absence of errors.
#include <algorithm>
#include <cctype>
#include <set>

#include "engine/commands.h"
#include "engine/expression.h"
#include "engine/observation.h"
#include "engine/intent_run.h"

namespace lscope {

namespace {

ParamDef param(const char* name, const char* type, bool required, json def, const char* description,
               bool sensitive = false, json enum_values = nullptr) {
  ParamDef p;
  p.name = name;
  p.type = type;
  p.required = required;
  p.default_value = std::move(def);
  p.description = description;
  p.sensitive = sensitive;
  p.enum_values = std::move(enum_values);
  return p;
}

IntentDef builtin(const char* name, const char* description, std::vector<ParamDef> params) {
  IntentDef d;
  d.name = name;
  d.version = "1.0.0";
  d.description = description;
  d.params = std::move(params);
  d.tier = "builtin";
  d.trusted = true;
  return d;
}

}  // namespace

std::vector<IntentDef> builtinIntents() {
  std::vector<IntentDef> b;
  b.push_back(builtin("login", "Sign in with a username or email and a password; verified.",
                      {param("username", "string", true, nullptr, "username or email"),
                       param("password", "string", true, nullptr, "password, or secret:NAME", true),
                       param("no_submit", "boolean", false, false, "fill in, do not submit"),
                       param("wait", "string", false, "10s", "")}));
  b.push_back(builtin("logout", "Sign out (finds the control, opening an account menu if needed).",
                      {param("wait", "string", false, "10s", "")}));
  b.push_back(builtin("search", "Search the site for a query and wait for results.",
                      {param("query", "string", true, nullptr, ""),
                       param("submit", "string", false, "auto", "enter, click or auto", false, {"enter", "click", "auto"}),
                       param("wait", "string", false, "5s", "")}));
  b.push_back(builtin("accept_cookies", "Accept (or --reject) a cookie consent banner.",
                      {param("reject", "boolean", false, false, ""),
                       param("wait", "string", false, "2s", "for a late banner")}));
  b.push_back(builtin("dismiss_popups", "Close modals, overlays, toasts and banners until none remain.",
                      {param("all", "boolean", false, true, "not just the top one"),
                       param("type", "string", false, nullptr, "", false,
                             {"modal", "overlay", "toast", "banner"})}));
  b.push_back(builtin("fill_form", "Fill a form's fields from {field: value} (text, selects, checkboxes, radios).",
                      {param("data", "object", true, nullptr, "{field: value}"),
                       param("pattern", "string", false, nullptr, ""),
                       param("partial", "boolean", false, false, "some fields may be missing")}));
  b.push_back(builtin("submit_form", "Submit the current form and report the outcome.",
                      {param("pattern", "string", false, nullptr, ""),
                       param("wait", "string", false, "10s", "")}));
  b.push_back(builtin("scroll_to", "Scroll an element into view.",
                      {param("target", "string", true, nullptr, "id, \"text\", role or css(…)")}));
  return b;
}

// --- helpers shared by the built-ins -----------------------------------------------------------

namespace {

std::string low(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool textHas(const Element& e, std::initializer_list<const char*> words) {
  std::string t = normalizeText(e.text + " " + e.attributes.value("aria-label", "") + " " +
                                e.attributes.value("value", "") + " " + e.attributes.value("title", ""));
  for (const char* w : words) {
    if (t.find(w) != std::string::npos) return true;
  }
  return false;
}

bool attrHas(const Element& e, std::initializer_list<const char*> words) {
  std::string t = low(e.attributes.value("name", "") + " " + e.attributes.value("id", "") + " " +
                      e.attributes.value("autocomplete", "") + " " + e.attributes.value("placeholder", ""));
  for (const char* w : words) {
    if (t.find(w) != std::string::npos) return true;
  }
  return false;
}

const Element* firstWhere(const PageScan& p, const std::function<bool(const Element&)>& f) {
  for (const auto& e : p.elements) {
    if (e.visible && f(e)) return &e;
  }
  for (const auto& e : p.elements) {
    if (f(e)) return &e;
  }
  return nullptr;
}

const Element* patternField(const PageScan& p, const char* pattern, std::initializer_list<const char*> fields) {
  const Pattern* pat = p.pattern(pattern);
  if (!pat) return nullptr;
  for (const char* f : fields) {
    auto it = pat->fields.find(f);
    if (it != pat->fields.end()) {
      if (const Element* e = p.byId(it->second)) return e;
    }
  }
  return nullptr;
}

std::string label(const Element& e) {
  std::string s = "[" + std::to_string(e.id) + "]";
  if (!e.text.empty()) s += " " + quote(e.text.size() > 50 ? e.text.substr(0, 50) + "…" : e.text);
  return s;
}

long long durationArg(const json& v, long long fallback) {
  if (v.is_number()) return v.get<long long>();
  if (v.is_string()) {
    auto ms = parseDurationMs(v.get<std::string>());
    if (ms) return *ms;
  }
  return fallback;
}

std::set<std::string> errorKeys(const PageScan& p) {
  std::set<std::string> k;
  for (const auto& m : p.messages) {
    if (m.kind == "error") k.insert(m.key);
  }
  return k;
}

// Error messages on the page that were not in `before`.
std::vector<std::string> newErrors(const PageScan& before, const PageScan& now) {
  auto old = errorKeys(before);
  std::vector<std::string> out;
  for (const auto& m : now.messages) {
    if (m.kind == "error" && !old.count(m.key)) out.push_back(m.text);
  }
  return out;
}

std::string docOf(const PageScan& p) { return p.document.empty() ? p.url.substr(0, p.url.find('#')) : p.document; }

}  // namespace

// --- login (§4.1) ----------------------------------------------------------------------------------

Status Session::builtinLogin(IntentRun& run) {
  std::string username = run.vars.value("username", "");
  std::string password = run.vars.value("password", "");
  long long wait_ms = durationArg(run.vars.value("wait", json("10s")), 10000);
  auto b = backend(run.ctx);
  if (!b) return b.status();
  PageScan& p = run.page;

  auto findUser = [&]() {
    if (const Element* e = patternField(p, "login_form", {"email", "username"})) return e;
    return firstWhere(p, [](const Element& e) {
      return e.type == "input" && e.role != "password" &&
             (e.role == "email" || e.role == "username" || attrHas(e, {"email", "user", "login"}));
    });
  };
  auto findPass = [&]() {
    if (const Element* e = patternField(p, "login_form", {"password"})) return e;
    return firstWhere(p, [](const Element& e) { return e.role == "password" || e.attributes.value("type", "") == "password"; });
  };
  auto findSubmit = [&]() {
    if (const Element* e = patternField(p, "login_form", {"submit"})) return e;
    if (const Element* e = firstWhere(p, [](const Element& e) {
          return (e.type == "button" || e.type == "generic") && textHas(e, {"sign in", "log in", "login", "signin", "continue"});
        })) {
      return e;
    }
    return firstWhere(p, [](const Element& e) { return e.role == "submit"; });
  };

  const Element* user = findUser();
  const Element* pass = findPass();
  if (!user && !pass) {
    return Status(codes::kTargetNotFound, "no login form on this page",
                  "goto the sign-in page first; observe shows a \"Sign in\" link if there is one");
  }
  if (user) {
    auto t = typeInto(run.ctx, **b, *user, username, true);
    if (!t) return t.status();
    run.log("type " + label(*user).substr(0, label(*user).find(' ')) + " " + quote(username) + *t);
  }
  if (!pass) {
    // Two-step sign-in: the password field comes after "Next".
    const Element* next = firstWhere(p, [](const Element& e) {
      return e.type == "button" && textHas(e, {"next", "continue", "sign in", "log in"});
    });
    if (!next) {
      return Status(codes::kTargetNotFound, "no password field on this page",
                    "this page asks for the username only and has no Next button; observe it");
    }
    auto c = clickOn(run.ctx, **b, *next, {});
    if (!c) return c.status();
    run.log("click " + label(*next) + *c);
    settle(run.ctx);
    ConditionDef has_password;
    has_password.kind = ConditionDef::Kind::kVisible;
    has_password.target = std::make_shared<TargetDef>();
    has_password.target->kind = TargetDef::Kind::kRole;
    has_password.target->value = "password";
    auto t0 = Clock::now();
    LSCOPE_RETURN_IF_ERROR(waitCondition(has_password, run, run.deadline.capped(Millis(wait_ms))));
    run.log("wait password field (" + std::to_string(std::chrono::duration_cast<Millis>(Clock::now() - t0).count()) + "ms)");
    pass = findPass();
    if (!pass) return Status(codes::kTargetNotFound, "no password field appeared", "observe the page");
  }
  rememberSecret(password);
  auto tp = typeInto(run.ctx, **b, *pass, password, true);
  if (!tp) return tp.status();
  run.log("type " + label(*pass).substr(0, label(*pass).find(' ')) + " " + quote(kMask) + *tp);
  run.summary = quote(username);
  if (run.vars.value("no_submit", false)) {
    run.log("not submitted (--no_submit)");
    return Status::ok();
  }

  PageScan before = p;
  // Words a page uses to confirm a sign-in it shows in place; counted before and after.
  static const char* kWelcome[] = {"logged in", "signed in", "welcome", "you are in"};
  auto welcomeCount = [&]() -> int {
    auto t = scannerCall(run.ctx, {{"cmd", "get_text"}, {"selector", "body"}});
    if (!t) return 0;
    std::string text = normalizeText(t->value("text", std::string()));
    int n = 0;
    for (const char* w : kWelcome) {
      for (size_t pos = text.find(w); pos != std::string::npos; pos = text.find(w, pos + 1)) ++n;
    }
    return n;
  };
  int welcome_before = welcomeCount();
  const Element* submit = findSubmit();
  if (submit) {
    auto c = clickOn(run.ctx, **b, *submit, {});
    if (!c) return c.status();
    run.log("click " + label(*submit) + *c);
  } else {
    LSCOPE_RETURN_IF_ERROR(pressCombo(run.ctx, **b, "Enter"));
    run.log("press Enter");
  }
  run.ctx.form_action = true;

  // Outcome (§4.1 step 7): success when the page moved on and no login form remains; failure
  // when an error shows, or the form is still there when time is up.
  auto t0 = Clock::now();
  Deadline until = run.deadline.capped(Millis(wait_ms));
  for (;;) {
    settle(run.ctx);
    LSCOPE_RETURN_IF_ERROR(rescan(run));
    auto errors = newErrors(before, p);
    bool form_left = !p.pattern("login_form") && !findPass();
    bool moved = docOf(p) != docOf(before) || p.url != before.url;
    if (!errors.empty()) {
      run.message = "authentication failed";
      run.result.push_back("Form error: " + quote(errors.front()));
      run.hint = "Verify credentials and retry.";
      return Status(codes::kVerificationFailed, "authentication failed", "Verify credentials and retry.");
    }
    // Some sites stay on the page and say so: "Logged in. Welcome back!", "Signed in."
    if (!moved && welcomeCount() > welcome_before) {
      run.log("wait confirmation (" + std::to_string(std::chrono::duration_cast<Millis>(Clock::now() - t0).count()) + "ms)");
      run.result.push_back("authenticated: true");
      return Status::ok();
    }
    if (form_left || (moved && !p.pattern("login_form"))) {
      run.log("wait navigation (" + std::to_string(std::chrono::duration_cast<Millis>(Clock::now() - t0).count()) + "ms)");
      run.result.push_back("authenticated: true");
      if (moved) run.result.push_back("redirect: " + shortUrl(p.url));
      return Status::ok();
    }
    if (until.expired()) {
      run.message = "the login form is still there after submitting";
      return Status(codes::kVerificationFailed, run.message,
                    "the page shows no error message: observe it (a captcha or a second factor may be asking)");
    }
    waitForChange(run, until);
  }
}

// --- logout ----------------------------------------------------------------------------------------

Status Session::builtinLogout(IntentRun& run) {
  long long wait_ms = durationArg(run.vars.value("wait", json("10s")), 10000);
  auto b = backend(run.ctx);
  if (!b) return b.status();
  auto findControl = [&]() {
    return firstWhere(run.page, [](const Element& e) {
      return (e.type == "link" || e.type == "button" || e.type == "generic") &&
             textHas(e, {"log out", "logout", "sign out", "signout", "log off"});
    });
  };
  const Element* control = findControl();
  if (!control) {
    // The control often hides in an account menu.
    const Element* menu = firstWhere(run.page, [](const Element& e) {
      return (e.type == "button" || e.type == "generic") &&
             (textHas(e, {"account", "profile", "my ", "user", "menu"}) || e.attributes.contains("aria-haspopup"));
    });
    if (menu) {
      auto c = clickOn(run.ctx, **b, *menu, {});
      if (!c) return c.status();
      run.log("click " + label(*menu) + *c + " (menu)");
      settle(run.ctx);
      LSCOPE_RETURN_IF_ERROR(rescan(run));
      control = findControl();
    }
  }
  if (!control) {
    return Status(codes::kTargetNotFound, "no log-out control on this page",
                  "observe: it may sit in a menu with an unusual name; click it, then logout");
  }
  PageScan before = run.page;
  auto c = clickOn(run.ctx, **b, *control, {});
  if (!c) return c.status();
  run.log("click " + label(*control) + *c);
  Deadline until = run.deadline.capped(Millis(wait_ms));
  for (;;) {
    settle(run.ctx);
    LSCOPE_RETURN_IF_ERROR(rescan(run));
    bool moved = docOf(run.page) != docOf(before) || run.page.url != before.url;
    if (!findControl() || moved || run.page.pattern("login_form")) {
      run.result.push_back("signed out: true");
      return Status::ok();
    }
    if (until.expired()) {
      return Status(codes::kVerificationFailed, "still signed in: the log-out control is still there",
                    "observe: the site may ask to confirm");
    }
    waitForChange(run, until);
  }
}

// --- search (§4.2) -------------------------------------------------------------------------------

Status Session::builtinSearch(IntentRun& run) {
  std::string query = run.vars.value("query", "");
  std::string mode = run.vars.value("submit", "auto");
  long long wait_ms = durationArg(run.vars.value("wait", json("5s")), 5000);
  auto b = backend(run.ctx);
  if (!b) return b.status();
  PageScan& p = run.page;
  const Element* input = patternField(p, "search_form", {"input"});
  if (!input) input = firstWhere(p, [](const Element& e) { return e.role == "search"; });
  if (!input) {
    input = firstWhere(p, [](const Element& e) {
      return e.type == "input" && (attrHas(e, {"search", "query", "q"}) || textHas(e, {"search", "find"}));
    });
  }
  if (!input) return Status(codes::kTargetNotFound, "no search box on this page", "observe for a search link or icon; click it first");
  const Element* button = patternField(p, "search_form", {"submit"});
  if (!button) {
    button = firstWhere(p, [](const Element& e) {
      return e.type == "button" && textHas(e, {"search", "go", "find"});
    });
  }
  int input_id = input->id;
  int button_id = button ? button->id : 0;

  auto text_before = scannerCall(run.ctx, {{"cmd", "get_text"}, {"selector", "body"}});
  PageScan before = p;
  if (input->value && !input->value->empty()) run.log("clear " + label(*input).substr(0, label(*input).find(' ')));
  auto t = typeInto(run.ctx, **b, *input, query, true);
  if (!t) return t.status();
  run.log("type " + label(*input).substr(0, label(*input).find(' ')) + " " + quote(query) + *t);

  // Signs that the search ran: a new page, new elements, or new text.
  auto changed = [&]() -> Result<bool> {
    LSCOPE_RETURN_IF_ERROR(rescan(run));
    if (docOf(p) != docOf(before) || p.url != before.url) return true;
    auto now = scannerCall(run.ctx, {{"cmd", "get_text"}, {"selector", "body"}});
    if (!now) return now.status();
    std::string a = text_before ? text_before->value("text", std::string()) : "";
    std::string c = now->value("text", std::string());
    // Typing the query changes nothing else; results or "no results" change the text.
    return c != a && c.size() != a.size();
  };
  auto waitResults = [&](Deadline until) -> Result<bool> {
    for (;;) {
      settle(run.ctx);
      auto ch = changed();
      if (!ch || *ch) return ch;
      if (until.expired()) return false;
      waitForChange(run, until);
    }
  };
  auto t0 = Clock::now();
  auto clickButton = [&]() -> Status {
    const Element* btn = p.byId(button_id);
    if (!btn) return Status(codes::kTargetNotFound, "no search button", "search --submit enter");
    auto c = clickOn(run.ctx, **b, *btn, {});
    if (!c) return c.status();
    run.log("click " + label(*btn) + *c);
    return Status::ok();
  };
  Result<bool> done = false;
  if (mode == "click") {
    LSCOPE_RETURN_IF_ERROR(clickButton());
    done = waitResults(run.deadline.capped(Millis(wait_ms)));
  } else {
    // Enter first (most sites); in auto mode, the button when Enter changed nothing.
    LSCOPE_RETURN_IF_ERROR(pressCombo(run.ctx, **b, "Enter"));
    run.log("press Enter");
    Millis first = mode == "auto" && button_id ? Millis(std::min<long long>(wait_ms, 1500)) : Millis(wait_ms);
    done = waitResults(run.deadline.capped(first));
    if (done && !*done && mode == "auto" && button_id) {
      LSCOPE_RETURN_IF_ERROR(rescan(run));
      LSCOPE_RETURN_IF_ERROR(clickButton());
      done = waitResults(run.deadline.capped(Millis(wait_ms)));
    }
  }
  if (!done) return done.status();
  (void)input_id;
  run.summary = quote(query);
  if (!*done) {
    return Status(codes::kVerificationFailed, "the page did not change after searching",
                  button_id ? "try search --submit click, or wait longer with --wait 10s"
                            : "observe: the site may need another way to submit");
  }
  run.log("wait results (" + std::to_string(std::chrono::duration_cast<Millis>(Clock::now() - t0).count()) + "ms)");
  return Status::ok();
}

// --- accept_cookies (§4.3) ---------------------------------------------------------------------

Status Session::builtinAcceptCookies(IntentRun& run) {
  bool reject = run.vars.value("reject", false);
  long long wait_ms = durationArg(run.vars.value("wait", json("2s")), 2000);
  auto b = backend(run.ctx);
  if (!b) return b.status();
  // Consent managers often load late: give the banner `wait` to appear.
  Deadline appear = run.deadline.capped(Millis(wait_ms));
  while (!run.page.pattern("cookie_banner") && !appear.expired()) {
    waitForChange(run, appear);
    LSCOPE_RETURN_IF_ERROR(rescan(run));
  }
  const Pattern* banner = run.page.pattern("cookie_banner");
  const Element* button = nullptr;
  if (banner) {
    auto it = banner->fields.find(reject ? "reject" : "accept");
    if (it != banner->fields.end()) button = run.page.byId(it->second);
  } else {
    // §4.3 step 2: consent words on buttons, when the scanner saw no banner container.
    button = firstWhere(run.page, [&](const Element& e) {
      if (e.type != "button" && e.type != "link") return false;
      return reject ? textHas(e, {"reject all", "decline", "only necessary", "necessary only", "refuse"})
                    : textHas(e, {"accept all", "accept cookies", "allow all", "i agree", "agree and", "got it",
                                  "accept & close", "allow cookies"});
    });
  }
  if (!banner && !button) {
    run.result.push_back("No cookie banner detected.");
    run.no_changes = true;
    return Status::ok();
  }
  if (!button) {
    return Status(codes::kTargetNotFound,
                  std::string("the cookie banner has no ") + (reject ? "reject" : "accept") + " button",
                  reject ? "accept_cookies without --reject, or open its settings and choose there"
                         : "observe the banner and click its button");
  }
  int button_id = button->id;  // run.page is replaced by every rescan: keep ids, not pointers
  auto c = clickOn(run.ctx, **b, *button, {});
  if (!c) return c.status();
  run.log("click " + label(*button) + *c);
  Deadline gone = run.deadline.capped(Millis(5000));
  for (;;) {
    settle(run.ctx);
    LSCOPE_RETURN_IF_ERROR(rescan(run));
    const Element* still = run.page.byId(button_id);
    if (!run.page.pattern("cookie_banner") && (!still || !still->visible)) {
      return Status::ok();
    }
    if (gone.expired()) {
      return Status(codes::kVerificationFailed, "the cookie banner is still shown",
                    "observe: it may want a second confirmation");
    }
    waitForChange(run, gone);
  }
}

// --- dismiss_popups (§4.4) -----------------------------------------------------------------------

Status Session::builtinDismissPopups(IntentRun& run) {
  std::string type = run.vars.value("type", "");
  bool all = run.vars.value("all", true);
  auto b = backend(run.ctx);
  if (!b) return b.status();
  static const std::vector<std::pair<const char*, const char*>> kKinds = {
      {"modal_dialog", "modal"}, {"promo_popup", "modal"}, {"overlay", "overlay"},
      {"notification_toast", "toast"}, {"cookie_banner", "banner"}};
  auto topPopup = [&](std::string& kind) -> const Pattern* {
    for (const auto& [name, k] : kKinds) {
      if (!type.empty() && type != k) continue;
      if (const Pattern* p = run.page.pattern(name)) {
        kind = name;
        return p;
      }
    }
    return nullptr;
  };
  int dismissed = 0;
  int misses = 0;  // tries in a row that left the same popup up (animations swallow clicks)
  int last_clicked = 0;
  for (int round = 1; round <= 5; ++round) {  // §4.4: repeat until none remain, at most 5 rounds
    std::string kind;
    const Pattern* popup = topPopup(kind);
    if (!popup) break;
    std::string title = popup->texts.count("title") ? popup->texts.at("title")
                        : popup->texts.count("text") ? popup->texts.at("text") : "";
    const Element* close = nullptr;
    for (const char* f : {"close", "dismiss", "accept", "reject"}) {
      auto it = popup->fields.find(f);
      if (it != popup->fields.end() && (close = run.page.byId(it->second))) break;
    }
    std::string how;
    int close_id = close ? close->id : 0;
    if (close) {
      auto c = clickOn(run.ctx, **b, *close, {});
      if (!c && close->id == last_clicked &&
          (c.status().code() == codes::kElementNotVisible || isElementGone(c.status()))) {
        // Clicked a moment ago and now fading or gone: the popup is on its way out.
        settle(run.ctx);
        LSCOPE_RETURN_IF_ERROR(rescan(run));
        continue;
      }
      if (!c) return c.status();
      last_clicked = close->id;
      how = "clicked " + quote(close->text.empty() ? close->attributes.value("aria-label", "close") : close->text);
      run.log("click " + label(*close) + *c);
    } else {
      LSCOPE_RETURN_IF_ERROR(pressCombo(run.ctx, **b, "Escape"));
      how = "pressed Escape";
      run.log("press Escape");
    }
    settle(run.ctx);
    LSCOPE_RETURN_IF_ERROR(rescan(run));
    auto stillUp = [&] {
      const Pattern* again = run.page.pattern(kind);
      if (!again) return false;
      const Element* again_close = close_id ? run.page.byId(close_id) : nullptr;
      return !close_id || (again->fields.count("close") && again->fields.at("close") == close_id) ||
             (again_close && again_close->visible);
    };
    bool still = stillUp();
    if (still && close_id) {
      // An exit animation keeps a closing popup on screen for a moment: wait (event-driven, in the
      // page) for its close control to go, then look again.
      if (const Element* again_close = run.page.byId(close_id)) {
        auto gone = scannerCall(run.ctx, {{"cmd", "wait_for"}, {"condition", "hidden"}, {"id", again_close->scanner_id},
                                          {"timeout", 1500}}, again_close->frame);
        if (gone && gone->value("met", false)) {
          LSCOPE_RETURN_IF_ERROR(rescan(run));
          still = stillUp();
        }
      }
    }
    if (still) {
      if (++misses >= 2) break;
      continue;  // the same popup again next round
    }
    misses = 0;
    ++dismissed;
    run.add("dismissed", "[" + std::to_string(dismissed) + "] " + kind + (title.empty() ? "" : " " + quote(title)) + " → " + how);
    if (!all) break;
  }
  std::string left_kind;
  const Pattern* left = topPopup(left_kind);
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
  return Status::ok();
}

// --- fill_form and submit_form (§4.5, §4.6) ------------------------------------------------------

Status Session::fillForm(IntentRun& run, const json& data, const std::string& pattern, bool partial) {
  auto b = backend(run.ctx);
  if (!b) return b.status();
  // The fields that may take values, optionally those of one pattern's container.
  std::set<int> scope;
  const Pattern* pat = nullptr;
  if (!pattern.empty()) {
    pat = run.page.pattern(pattern.substr(0, pattern.find('.')));
    if (!pat) return Status(codes::kTargetNotFound, "no " + pattern + " on this page", "observe lists the patterns");
    auto ids = hooksFor(run.ctx, run.page).select(":is(" + pat->container + ") *", false);
    if (ids) scope.insert(ids->begin(), ids->end());
    for (const auto& [n, id] : pat->fields) scope.insert(id);
  }
  auto isField = [](const Element& e) {
    return e.type == "input" || e.type == "select" || e.type == "textarea" || e.type == "checkbox" ||
           e.type == "radio" || (e.type == "generic" && e.tag != "a");
  };
  auto squash = [](const std::string& s) {
    std::string out;
    for (unsigned char c : s) {
      if (std::isalnum(c)) out += static_cast<char>(std::tolower(c));
    }
    return out;
  };
  auto valueText = [](const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); };

  // 1. Match every key to a field (§4.5 step 2: pattern field, name, id, label, placeholder).
  struct Assignment {
    std::string key;
    json value;
    int id;  // the field, or for radios the option to check
  };
  std::vector<Assignment> plan;
  std::vector<std::string> skipped;
  std::set<int> used;
  for (auto it = data.begin(); it != data.end(); ++it) {
    const std::string key = it.key();
    std::string k = squash(key);
    const Element* best = nullptr;
    int best_score = 0;
    for (const auto& e : run.page.elements) {
      if (!isField(e) || used.count(e.id) || (!scope.empty() && !scope.count(e.id))) continue;
      int score = 0;
      if (pat && pat->fields.count(key) && pat->fields.at(key) == e.id) score = 100;
      std::string name = squash(e.attributes.value("name", ""));
      std::string id = squash(e.attributes.value("id", ""));
      std::string text = squash(e.text);
      std::string ph = squash(e.attributes.value("placeholder", ""));
      if (name == k || id == k) score = std::max(score, 90);
      if (e.type == "radio" && name == k) score = std::max(score, 85);  // a radio group by its name
      if (text == k) score = std::max(score, 80);
      if (e.role == k) score = std::max(score, 70);
      if (!k.empty() && (text.find(k) != std::string::npos || (!text.empty() && k.find(text) != std::string::npos))) {
        score = std::max(score, 50);
      }
      if (!k.empty() && (name.find(k) != std::string::npos || ph.find(k) != std::string::npos)) score = std::max(score, 40);
      if (score > best_score) {
        best = &e;
        best_score = score;
      }
    }
    if (!best) {
      skipped.push_back(quote(key) + ": no matching field found");
      continue;
    }
    int target = best->id;
    if (best->type == "radio") {
      // The option of the group whose label or value is the value.
      std::string want = squash(valueText(*it));
      std::string group = best->attributes.value("name", "");
      int option = 0;
      for (const auto& e : run.page.elements) {
        if (e.type != "radio" || e.attributes.value("name", "") != group) continue;
        used.insert(e.id);
        if (squash(e.text) == want || squash(e.attributes.value("value", "")) == want) option = e.id;
      }
      if (!option) {
        skipped.push_back(quote(key) + ": no option " + quote(valueText(*it)));
        continue;
      }
      target = option;
    }
    used.insert(target);
    plan.push_back({key, *it, target});
  }

  // 2. Fill in page order, as a person would (later fields may depend on earlier ones).
  auto order = [&](int id) {
    for (size_t i = 0; i < run.page.elements.size(); ++i) {
      if (run.page.elements[i].id == id) return i;
    }
    return run.page.elements.size();
  };
  std::stable_sort(plan.begin(), plan.end(), [&](const Assignment& a, const Assignment& b2) { return order(a.id) < order(b2.id); });
  int filled = 0;
  for (const auto& a : plan) {
    const Element* found = run.page.byId(a.id);
    if (!found) {
      skipped.push_back(quote(a.key) + ": the field went away while filling");
      continue;
    }
    const Element el = *found;  // a copy: the rescan below replaces the page
    std::string shown;
    if (el.type == "radio") {
      auto r = setChecked(run.ctx, **b, el, true);
      if (!r) return r.status();
      shown = "checked";
    } else if (el.type == "checkbox") {
      const json& v = a.value;
      bool want = v.is_boolean() ? v.get<bool>() : truthy(v) && v != "false" && v != "no" && v != "off";
      auto r = setChecked(run.ctx, **b, el, want);
      if (!r) return r.status();
      shown = want ? "checked" : "unchecked";
    } else if (el.type == "select") {
      auto r = selectIn(run.ctx, el, a.value.is_string() || a.value.is_number_integer() ? a.value : json(a.value.dump()));
      if (!r) return r.status();
      shown = quote(*r);
    } else {
      std::string text = valueText(a.value);
      bool secret = el.isSensitive() || isSensitiveName(a.key);
      if (secret) rememberSecret(text);
      auto r = typeInto(run.ctx, **b, el, text, true);
      if (!r) return r.status();
      shown = quote(secret ? std::string(kMask) : text);
    }
    ++filled;
    run.add("filled", "[" + std::to_string(el.id) + "] " + elementLabel(el) + " ← " + shown);
    run.reported.insert(el.id);
    // Filling may show or hide fields (dependent inputs): look again before the next one.
    settle(run.ctx);
    LSCOPE_RETURN_IF_ERROR(rescan(run));
  }
  for (const auto& s2 : skipped) run.add("skipped", s2);
  run.summary = std::to_string(filled) + " field" + (filled == 1 ? "" : "s");
  if (!skipped.empty() && !partial) {
    run.partial = filled > 0;
    run.message = std::to_string(filled) + " of " + std::to_string(filled + skipped.size()) + " fields filled";
    return Status(codes::kTargetNotFound, run.message, "check the field names with observe, or pass --partial");
  }
  return Status::ok();
}

Status Session::builtinFillForm(IntentRun& run) {
  json data = run.vars.value("data", json::object());
  if (!data.is_object() || data.empty()) {
    return Status(codes::kParameterInvalid, "data must be an object of field -> value",
                  "fill_form {\"email\": \"a@b.c\", \"country\": \"France\"}");
  }
  return fillForm(run, data, run.vars.value("pattern", ""), run.vars.value("partial", false));
}

Status Session::builtinSubmitForm(IntentRun& run) {
  std::string pattern = run.vars.value("pattern", "");
  long long wait_ms = durationArg(run.vars.value("wait", json("10s")), 10000);
  auto b = backend(run.ctx);
  if (!b) return b.status();
  PageScan& p = run.page;
  const Element* submit = nullptr;
  if (!pattern.empty()) {
    const Pattern* pat = p.pattern(pattern);
    if (!pat) return Status(codes::kTargetNotFound, "no " + pattern + " on this page", "observe lists the patterns");
    if (pat->fields.count("submit")) submit = p.byId(pat->fields.at("submit"));
  }
  if (!submit) submit = firstWhere(p, [](const Element& e) { return e.role == "submit" && e.enabled; });
  if (!submit) submit = firstWhere(p, [](const Element& e) { return e.role == "submit"; });
  if (!submit) {
    submit = firstWhere(p, [](const Element& e) {
      return e.type == "button" && textHas(e, {"submit", "send", "save", "continue", "create", "sign up", "register", "next"});
    });
  }
  PageScan before = p;
  auto t0 = Clock::now();
  int submit_id = submit ? submit->id : 0;
  if (submit) {
    auto c = clickOn(run.ctx, **b, *submit, {});
    if (!c) return c.status();
    run.log("click " + label(*submit) + *c);
  } else {
    // No button: ask the form itself (requestSubmit runs validation like a click would).
    auto r = scannerCall(run.ctx, {{"cmd", "submit"}});
    if (!r) return Status(codes::kTargetNotFound, "no form to submit", "focus a field of the form first, or observe");
    run.log("submit form");
  }
  run.ctx.form_action = true;
  Deadline until = run.deadline.capped(Millis(wait_ms));
  for (;;) {
    settle(run.ctx);
    LSCOPE_RETURN_IF_ERROR(rescan(run));
    auto errors = newErrors(before, p);
    bool moved = docOf(p) != docOf(before) || p.url != before.url;
    bool submit_gone = submit_id && !p.byId(submit_id);
    if (!errors.empty()) {
      for (const auto& e : errors) run.result.push_back("Form error: " + quote(e));
      return Status(codes::kVerificationFailed, "the form reports errors", "fix the fields named in # result and submit again");
    }
    // A confirmation shown in place ("Thanks!", "Saved.", "Logged in.") is an outcome too.
    std::set<std::string> old_keys;
    for (const auto& m : before.messages) old_keys.insert(m.key);
    std::string said;
    for (const auto& m : p.messages) {
      if (m.kind != "error" && !old_keys.count(m.key) && normalizeText(m.text).find("…") == std::string::npos &&
          normalizeText(m.text).find("...") == std::string::npos) {
        said = m.text;
      }
    }
    if (!said.empty() && !moved) {
      run.log("wait confirmation (" + std::to_string(std::chrono::duration_cast<Millis>(Clock::now() - t0).count()) + "ms)");
      run.result.push_back("Page says: " + quote(said));
      return Status::ok();
    }
    if (moved || submit_gone) {
      run.log("wait " + std::string(moved ? "navigation" : "form gone") + " (" +
              std::to_string(std::chrono::duration_cast<Millis>(Clock::now() - t0).count()) + "ms)");
      if (moved) run.result.push_back("now at: " + shortUrl(p.url));
      return Status::ok();
    }
    // Constraint validation (required fields, formats) blocks submission without a message
    // element: the browser marks fields invalid; the scanner reports them as messages too.
    if (until.expired()) {
      return Status(codes::kVerificationFailed, "nothing happened after submitting",
                    "required fields may be empty (observe shows {required}); fill_form them and retry");
    }
    waitForChange(run, until);
  }
}

Status Session::builtinScrollTo(IntentRun& run) {
  auto target = parseTarget(run.vars.value("target", ""));
  if (!target) return target.status();
  auto res = resolveTarget(*target, run.page, hooksFor(run.ctx, run.page), config_.strict_mode);
  if (!res) return res.status();
  const Element el = *res->element;  // a copy: the rescan below replaces the page
  auto r = scannerCall(run.ctx, {{"cmd", "scroll"}, {"element", el.scanner_id}}, el.frame);
  if (!r) return r.status();
  run.log("scroll " + label(el));
  LSCOPE_RETURN_IF_ERROR(rescan(run));
  const Element* now = run.page.byId(el.id);
  if (!now || !now->in_viewport) {
    return Status(codes::kVerificationFailed, label(el) + " is still out of view",
                  "it may sit in a scrolling container: scroll --within <css>");
  }
  run.summary = label(el);
  run.no_changes = true;
  return Status::ok();
}

}  // namespace lscope
