// submit_form (intent-engine.md §4.6): submits the form the agent last typed into; failing that,
// the form with the most filled fields; failing that, the main content's primary form — never an
// unrelated one (issue 12 item 4). Reports navigation, a confirmation, or the form's errors.
#include "engine/builtins/choices.h"
#include "engine/builtins/common.h"

#include <map>
#include <optional>

#include "engine/observation.h"
#include "engine/resolver.h"

namespace lscope {
namespace {

using namespace builtin;

Status run(IntentRun& run) {
  std::string pattern = run.vars.value("pattern", "");
  long long wait_ms = durationArg(run.vars.value("wait", json("10s")), 10000);
  Page& page = run.page;
  const PageScan& p = run.scan;
  const Element* submit = nullptr;
  std::string why;
  if (!pattern.empty()) {
    const Pattern* pat = p.pattern(pattern);
    if (!pat) return Status(codes::kTargetNotFound, "no " + pattern + " on this page", "observe lists the patterns");
    if (pat->fields.count("submit")) submit = p.byId(pat->fields.at("submit"));
    why = "the " + pattern;
  }
  FormChoice form;
  std::optional<int> through;  // the field to submit the form through when it has no button
  if (std::string target = run.vars.value("target", ""); !submit && !target.empty()) {
    // submit <target>: the target's own form (its button, when the target is one).
    auto spec = parseTarget(target);
    if (!spec) return spec.status();
    auto res = page.resolve(*spec, run.scan);
    if (!res) return res.status();
    const Element& el = *res->element;
    if (el.role == "submit" || isSubmitButton(el)) submit = &el;
    form = {formGroupOf(el), "the form holding " + logLabel(el)};
    if (el.form.empty() && !submit) {
      return Status(codes::kTargetNotFound, logLabel(el) + " is in no form",
                    "submit a field of the form, or click its button");
    }
    if (isField(el)) through = el.scanner_id;
    why = form.why;
  }
  if (!submit) {
    if (form.group.empty()) form = chooseFormToSubmit(run.scan, page.state().typed, page.state().last_document);
    why = form.why;
    if (!form.group.empty()) {
      // Its submit button: an enabled one first.
      submit = firstWhere(p, [&](const Element& e) { return formGroupOf(e) == form.group && e.role == "submit" && e.enabled; });
      if (!submit) submit = firstWhere(p, [&](const Element& e) { return formGroupOf(e) == form.group && isSubmitButton(e); });
    } else {
      submit = firstWhere(p, [](const Element& e) { return e.role == "submit" && e.enabled; });
      if (!submit) submit = firstWhere(p, [](const Element& e) { return e.role == "submit"; });
      if (!submit) submit = firstWhere(p, isSubmitButton);
      why = "the page's only submit button";
    }
  }
  PageScan before = p;
  auto t0 = Clock::now();
  int submit_id = submit ? submit->id : 0;
  if (submit) {
    auto c = run.click(*submit);
    if (!c) return c.status();
  } else {
    // No button: ask the form itself (requestSubmit runs validation like a click would), through
    // the field last typed into when there is one.
    std::optional<int> field = through;
    const auto& typed = page.state().typed;
    for (const auto& e : p.elements) {
      if (!field && !typed.key.empty() && e.key == typed.key) field = e.scanner_id;
    }
    Status s = page.scanner().submit(field);
    if (!s) {
      if (s.code() == codes::kVerificationFailed) return s;
      return Status(codes::kTargetNotFound, "no form to submit", "focus a field of the form first, or observe");
    }
    run.log("submit form");
  }
  if (!why.empty() && !form.group.empty()) run.add("chosen", why);
  page.form_action = true;
  Deadline until = run.deadline.capped(Millis(wait_ms));
  for (;;) {
    page.settle();
    LSCOPE_RETURN_IF_ERROR(run.rescan());
    const PageScan& now = run.scan;
    auto errors = newErrors(before, now);
    bool moved = documentOf(now) != documentOf(before) || now.url != before.url;
    bool submit_gone = submit_id && !now.byId(submit_id);
    if (!errors.empty()) {
      for (const auto& e : errors) run.result.push_back("Form error: " + quote(e));
      return Status(codes::kVerificationFailed, "the form reports errors", "fix the fields named in # result and submit again");
    }
    // A confirmation shown in place ("Thanks!", "Saved.", "Logged in.") is an outcome too.
    std::set<std::string> old_keys;
    for (const auto& m : before.messages) old_keys.insert(m.key);
    std::string said;
    for (const auto& m : now.messages) {
      if (m.kind != "error" && !old_keys.count(m.key) && normalizeText(m.text).find("…") == std::string::npos &&
          normalizeText(m.text).find("...") == std::string::npos) {
        said = m.text;
      }
    }
    if (!said.empty() && !moved) {
      run.log("wait confirmation (" + elapsedSince(t0) + ")");
      run.result.push_back("Page says: " + quote(said));
      return Status::ok();
    }
    // The page took the form (its submit event fired) and shows nothing new: said as such once
    // a moment has passed without another sign.
    bool received = now.submits > before.submits && documentOf(now) == documentOf(before);
    if (received && !moved && Clock::now() - t0 >= Millis(1500)) {
      run.log("wait submit (" + elapsedSince(t0) + ")");
      run.result.push_back("submitted: the page received the form" +
                           (now.last_submit.empty() ? std::string() : " (" + now.last_submit + ")") +
                           " and shows no change");
      return Status::ok();
    }
    if (moved || submit_gone) {
      run.log("wait " + std::string(moved ? "navigation" : "form gone") + " (" + elapsedSince(t0) + ")");
      if (moved) run.result.push_back("now at: " + shortUrl(now.url));
      return Status::ok();
    }
    // Constraint validation (required fields, formats) blocks submission without a message
    // element: the browser marks fields invalid; the scanner reports them as messages too.
    if (until.expired()) {
      return Status(codes::kVerificationFailed, "nothing happened after submitting",
                    "required fields may be empty (observe shows {required}); fill_form them and retry");
    }
    page.waitForChange(received ? until.capped(Millis(500)) : until);
  }
}

bool ready(const PageScan& page) {
  for (const auto& e : page.elements) {
    if (e.role == "submit") return true;
  }
  return false;
}

}  // namespace

bool isSubmitButton(const Element& e) {
  using builtin::textHas;
  return (e.type == "button" || e.type == "generic" || e.type == "link") &&
         (e.role == "submit" ||
          textHas(e, {"submit", "send", "save", "continue", "create", "sign up", "register", "next", "checkout",
                      "place order", "pay", "subscribe", "apply", "confirm", "book"}));
}

namespace {

bool filled(const Element& e) {
  using builtin::isField;
  if (e.type == "checkbox" || e.type == "radio") return e.checked && *e.checked;
  return isField(e) && e.value && !e.value->empty();
}

}  // namespace

// The group a control belongs to: its form, else (formless pages) its landmark.
std::string formGroupOf(const Element& e) { return !e.form.empty() ? "form " + e.form : "landmark " + e.landmark; }

FormChoice chooseFormToSubmit(const PageScan& p, const BrowserState::Typed& typed, const std::string& document) {
  using namespace builtin;
  // 1. The form the agent last typed into (on this document).
  if (!typed.key.empty() && typed.document == document) {
    for (const auto& e : p.elements) {
      if (e.key == typed.key) return {formGroupOf(e), "the form last typed into"};
    }
    if (!typed.form.empty()) return {"form " + typed.form, "the form last typed into"};
  }
  // 2. The form with the most filled fields.
  std::map<std::string, int> counts;
  for (const auto& e : p.elements) {
    if (filled(e) && !e.form.empty()) ++counts["form " + e.form];
  }
  std::string best;
  int most = 0;
  for (const auto& [g, n] : counts) {
    if (n > most) {
      best = g;
      most = n;
    }
  }
  if (!best.empty()) return {best, "the form with the most filled fields"};
  // 3. The main content's primary form: a form in `main` with a submit button, else the first form
  //    with one outside navigation and sidebars.
  for (const char* lm : {"main", ""}) {
    for (const auto& e : p.elements) {
      if (isSubmitButton(e) && !e.form.empty() && e.visible && (std::string(lm).empty() || e.landmark == lm) &&
          e.landmark != "nav" && e.landmark != "aside") {
        return {formGroupOf(e), "the main content's form"};
      }
    }
  }
  return {"", ""};
}

BuiltinIntent submitFormIntent() {
  return {define("submit_form", "Submit the form last filled (or the main one) and report the outcome.",
                 {param("pattern", "string", false, nullptr, ""),
                  param("wait", "string", false, "10s", ""),
                  param("target", "string", false, nullptr, "a field or button of the form to submit")},
                 {"submit the form", "send the form", "submit"}),
          run, ready};
}

}  // namespace lscope
