// The intent executor (intent-engine.md §5): parse -> resolve -> plan -> execute -> verify ->
// respond. Steps, control flow, targets with fallbacks, conditions, retries, checkpoints.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

#include <re2/re2.h>
#include <spdlog/spdlog.h>

#include "engine/commands.h"
#include "engine/expression.h"
#include "engine/observation.h"
#include "engine/intent_run.h"

namespace lscope {

namespace {

std::string lowerCode(const std::string& code) {
  std::string out = code;
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string str(const json& v) { return v.is_string() ? v.get<std::string>() : v.is_null() ? "" : v.dump(); }

std::string elapsed(Clock::time_point since) {
  auto ms = std::chrono::duration_cast<Millis>(Clock::now() - since).count();
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1fs", ms / 1000.0);
  return buf;
}

std::string label(const Element& e) {
  std::string s = "[" + std::to_string(e.id) + "]";
  if (!e.text.empty()) s += " " + quote(e.text.size() > 50 ? e.text.substr(0, 50) + "…" : e.text);
  return s;
}

std::string conditionText(const ConditionDef& c) {
  switch (c.kind) {
    case ConditionDef::Kind::kRef: return str(c.value);
    case ConditionDef::Kind::kPatternExists: return "pattern " + str(c.value);
    case ConditionDef::Kind::kVisible: return "visible " + c.target->describe();
    case ConditionDef::Kind::kHidden: return "hidden " + c.target->describe();
    case ConditionDef::Kind::kUrlContains: return "url contains " + str(c.value);
    case ConditionDef::Kind::kUrlMatches: return "url matches " + str(c.value);
    case ConditionDef::Kind::kTextContains: return "text " + str(c.value);
    case ConditionDef::Kind::kCount: return "count " + c.count_selector;
    case ConditionDef::Kind::kExpression: return str(c.value);
    case ConditionDef::Kind::kAll:
    case ConditionDef::Kind::kAny: {
      std::string s = c.kind == ConditionDef::Kind::kAll ? "all(" : "any(";
      for (size_t i = 0; i < c.children.size(); ++i) s += (i ? ", " : "") + conditionText(c.children[i]);
      return s + ")";
    }
    case ConditionDef::Kind::kNot: return "not " + conditionText(c.children[0]);
  }
  return "";
}

// The list form of text/url values: one text or several.
std::vector<std::string> texts(const json& v) {
  std::vector<std::string> out;
  if (v.is_array()) {
    for (const auto& x : v) out.push_back(str(x));
  } else {
    out.push_back(str(v));
  }
  return out;
}

bool containsCi(const std::string& hay, const std::string& needle) {
  return normalizeText(hay).find(normalizeText(needle)) != std::string::npos;
}

}  // namespace

// --- values -------------------------------------------------------------------------------------

json Session::bind(const json& v, const IntentRun& run) const {
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    if (s.size() > 1 && s[0] == '$') return lookupReference(s, run.vars);
    return v;
  }
  if (v.is_object()) {
    json out = json::object();
    for (auto it = v.begin(); it != v.end(); ++it) out[it.key()] = bind(*it, run);
    return out;
  }
  if (v.is_array()) {
    json out = json::array();
    for (const auto& x : v) out.push_back(bind(x, run));
    return out;
  }
  return v;
}

Status Session::rescan(IntentRun& run) {
  auto page = scan(run.ctx);
  if (!page) return page.status();
  run.page = std::move(page.value());
  return Status::ok();
}

void Session::waitForChange(IntentRun& run, Deadline until) {
  // Event-driven: the scanner resolves on the next DOM mutation (or when time is up); a
  // navigation ends the wait too. Slices of at most a second keep cancellation prompt.
  long long ms = std::min<long long>(until.remaining().count(), 1000);
  if (ms <= 0) return;
  auto r = scannerCall(run.ctx, {{"cmd", "wait_change"}, {"timeout", ms}});
  if (!r && backend_) backend_->waitForLoad(until.capped(Millis(3000)));
}

// --- targets ------------------------------------------------------------------------------------

Result<std::vector<const Element*>> Session::findElements(const TargetDef& t, IntentRun& run) {
  std::vector<const Element*> out;
  const PageScan& page = run.page;
  auto byId = [&](int id) -> const Element* { return page.byId(id); };
  switch (t.kind) {
    case TargetDef::Kind::kVar: {
      std::string name = str(t.value).substr(1);
      auto it = run.element_vars.find(name.substr(0, name.find('.')));
      if (it != run.element_vars.end()) {
        if (const Element* e = byId(it->second)) out.push_back(e);
        else return Status(codes::kElementStale, "the element bound to $" + it->first + " is gone", "");
        return out;
      }
      // A value variable used as a target names the element by its text.
      json v = bind(t.value, run);
      if (v.is_null()) return Status(codes::kParameterMissing, str(t.value) + " has no value");
      TargetDef as_text;
      as_text.kind = TargetDef::Kind::kText;
      as_text.value = str(v);
      return findElements(as_text, run);
    }
    case TargetDef::Kind::kPattern: {
      std::string ref = str(bind(t.value, run));
      std::string pname = ref.substr(0, ref.find('.'));
      std::string field = ref.find('.') == std::string::npos ? "" : ref.substr(ref.find('.') + 1);
      for (const auto& p : page.patterns) {
        if (p.name != pname) continue;
        if (!field.empty()) {
          auto f = p.fields.find(field);
          if (f != p.fields.end() && byId(f->second)) out.push_back(byId(f->second));
          auto l = p.lists.find(field);
          if (l != p.lists.end()) {
            for (int id : l->second) {
              if (byId(id)) out.push_back(byId(id));
            }
          }
        } else {
          for (const auto& [n, id] : p.fields) {
            if (byId(id)) out.push_back(byId(id));
          }
        }
        if (!out.empty()) break;
      }
      break;
    }
    case TargetDef::Kind::kTextContains: {
      for (const auto& want : texts(bind(t.value, run))) {
        TargetSpec spec;
        spec.kind = TargetSpec::Kind::kText;
        spec.match = TextMatch::kContains;
        spec.value = want;
        auto c = findCandidates(spec, page, hooksFor(run.ctx, page));
        if (!c) return c.status();
        for (const Element* e : *c) {
          if (std::find(out.begin(), out.end(), e) == out.end()) out.push_back(e);
        }
      }
      break;
    }
    default: {
      TargetSpec spec;
      json v = bind(t.value, run);
      switch (t.kind) {
        case TargetDef::Kind::kRole: spec.kind = TargetSpec::Kind::kRole; break;
        case TargetDef::Kind::kText: spec.kind = TargetSpec::Kind::kText; break;
        case TargetDef::Kind::kSelector: spec.kind = TargetSpec::Kind::kCss; break;
        case TargetDef::Kind::kXpath: spec.kind = TargetSpec::Kind::kXpath; break;
        default: spec.kind = TargetSpec::Kind::kId; break;
      }
      spec.match = t.match;
      spec.value = str(v);
      if (spec.kind == TargetSpec::Kind::kId) spec.id = v.is_number() ? v.get<int>() : std::atoi(spec.value.c_str());
      auto c = findCandidates(spec, page, hooksFor(run.ctx, page));
      if (!c) return c.status();
      out = *c;
    }
  }
  // Relations: the anchor is resolved first, then candidates are filtered and ordered by it.
  // Inside a selector (a form, a dialog: containers, not interactive elements) asks the page.
  if (t.anchor && !out.empty() && t.relation == "inside" && t.anchor->kind == TargetDef::Kind::kSelector) {
    auto inside = hooksFor(run.ctx, page).select(":is(" + str(bind(t.anchor->value, run)) + ") *", false);
    if (!inside) return inside.status();
    std::vector<const Element*> kept;
    for (const Element* e : out) {
      if (std::find(inside->begin(), inside->end(), e->id) != inside->end()) kept.push_back(e);
    }
    out = kept;
  } else if (t.anchor && !out.empty()) {
    auto anchor = findElement(*t.anchor, run);
    if (!anchor) return anchor.status();
    const Element* a = *anchor;
    auto order = [&](const Element* e) { return static_cast<size_t>(e - page.elements.data()); };
    std::vector<std::pair<double, const Element*>> kept;
    for (const Element* e : out) {
      if (e == a) continue;
      if (t.relation == "after" && order(e) <= order(a)) continue;
      if (t.relation == "before" && order(e) >= order(a)) continue;
      if (t.relation == "inside") {
        const Rect& o = a->rect;
        const Rect& r = e->rect;
        if (!(r.x >= o.x && r.y >= o.y && r.x + r.width <= o.x + o.width && r.y + r.height <= o.y + o.height)) continue;
      }
      kept.push_back({std::hypot(e->rect.cx() - a->rect.cx(), e->rect.cy() - a->rect.cy()), e});
    }
    std::stable_sort(kept.begin(), kept.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    out.clear();
    for (auto& [d, e] : kept) out.push_back(e);
  }
  if (out.empty() && t.fallback) return findElements(*t.fallback, run);
  return out;
}

Result<const Element*> Session::findElement(const TargetDef& t, IntentRun& run) {
  auto all = findElements(t, run);
  if (!all) return all.status();
  if (all->empty()) {
    std::string what = t.describe();
    for (const TargetDef* f = t.fallback.get(); f; f = f->fallback.get()) what += " or " + f->describe();
    return Status(codes::kTargetNotFound, "no element for " + what, "observe to see what the page offers");
  }
  // Prefer what a person could use: visible and enabled first (stable order otherwise).
  std::vector<const Element*> c = *all;
  std::stable_sort(c.begin(), c.end(), [](const Element* a, const Element* b) {
    return (a->visible && a->enabled) > (b->visible && b->enabled);
  });
  return c.front();
}

// --- conditions ---------------------------------------------------------------------------------

Result<bool> Session::evalCondition(const ConditionDef& c, IntentRun& run) {
  switch (c.kind) {
    case ConditionDef::Kind::kRef:
      return truthy(lookupReference(str(c.value), run.vars));
    case ConditionDef::Kind::kExpression: {
      auto v = evaluateExpression(str(c.value), run.vars);
      if (!v) return v.status();
      return truthy(*v);
    }
    case ConditionDef::Kind::kAll:
    case ConditionDef::Kind::kAny: {
      bool all = c.kind == ConditionDef::Kind::kAll;
      for (const auto& ch : c.children) {
        auto r = evalCondition(ch, run);
        if (!r) return r;
        if (*r != all) return !all;
      }
      return all;
    }
    case ConditionDef::Kind::kNot: {
      auto r = evalCondition(c.children[0], run);
      if (!r) return r;
      return !*r;
    }
    default:
      break;
  }
  // Page conditions look at the page as it is now.
  LSCOPE_RETURN_IF_ERROR(rescan(run));
  switch (c.kind) {
    case ConditionDef::Kind::kPatternExists: {
      std::string ref = str(bind(c.value, run));
      std::string name = ref.substr(0, ref.find('.'));
      const Pattern* p = run.page.pattern(name);
      if (!p) return false;
      if (ref.find('.') == std::string::npos) return true;
      std::string field = ref.substr(ref.find('.') + 1);
      return p->fields.count(field) > 0 || p->lists.count(field) > 0;
    }
    case ConditionDef::Kind::kVisible:
    case ConditionDef::Kind::kHidden: {
      const TargetDef& t = *c.target;
      if ((t.kind == TargetDef::Kind::kSelector) && !t.anchor && !t.fallback) {
        // A selector may name a container (a dialog), not an interactive element: ask the page.
        auto r = scannerCall(run.ctx, {{"cmd", "exists"}, {"selector", str(bind(t.value, run))}});
        if (!r) return r.status();
        bool visible = r->value("exists", false) && r->value("visible", true);
        return c.kind == ConditionDef::Kind::kVisible ? visible : !visible;
      }
      auto els = findElements(*c.target, run);
      if (!els) {
        if (els.status().code() == codes::kElementStale) return c.kind == ConditionDef::Kind::kHidden;
        return els.status();
      }
      bool any_visible = std::any_of(els->begin(), els->end(), [](const Element* e) { return e->visible; });
      return c.kind == ConditionDef::Kind::kVisible ? any_visible : !any_visible;
    }
    case ConditionDef::Kind::kUrlContains: {
      for (const auto& part : texts(bind(c.value, run))) {
        if (containsCi(run.page.url, part)) return true;
      }
      return false;
    }
    case ConditionDef::Kind::kUrlMatches: {
      RE2 re(str(c.value), RE2::Quiet);
      return re.ok() && RE2::PartialMatch(run.page.url, re);
    }
    case ConditionDef::Kind::kTextContains: {
      std::string selector = "body";
      if (c.target) {
        auto within = findElement(*c.target, run);
        if (!within) return false;
        selector = (*within)->selector;
      }
      auto r = scannerCall(run.ctx, {{"cmd", "get_text"}, {"selector", selector}});
      if (!r) return r.status();
      std::string text = r->value("text", std::string());
      for (const auto& want : texts(bind(c.value, run))) {
        if (containsCi(text, want)) return true;
      }
      return false;
    }
    case ConditionDef::Kind::kCount: {
      std::string selector = str(bind(json(c.count_selector), run));
      auto r = scannerCall(run.ctx, {{"cmd", "exists"}, {"selector", selector}});
      if (!r) return r.status();
      long long n = r->value("count", 0LL);
      return (!c.count_min || n >= *c.count_min) && (!c.count_max || n <= *c.count_max);
    }
    default:
      return Status(codes::kInternal, "unhandled condition");
  }
}

Status Session::waitCondition(const ConditionDef& c, IntentRun& run, Deadline until) {
  for (;;) {
    if (run.ctx.call.cancelled()) return Status(codes::kCancelled, "cancelled");
    auto r = evalCondition(c, run);
    if (!r) return r.status();
    if (*r) return Status::ok();
    if (until.expired()) {
      return Status(codes::kTimeout, "waited for " + conditionText(c) + " in vain",
                    "the page did not reach that state; observe to see where it is");
    }
    waitForChange(run, until);
  }
}

// --- steps --------------------------------------------------------------------------------------

Status Session::runSteps(const std::vector<StepDef>& steps, IntentRun& run) {
  for (const auto& s : steps) {
    if (run.ctx.call.cancelled()) return Status(codes::kCancelled, "cancelled");
    if (run.deadline.expired()) {
      return Status(codes::kTimeout, run.def.name + " ran out of time", "raise --timeout, or resume from a checkpoint");
    }
    LSCOPE_RETURN_IF_ERROR(runStep(s, run));
  }
  return Status::ok();
}

Status Session::runStep(const StepDef& s, IntentRun& run) {
  switch (s.kind) {
    case StepDef::Kind::kCheckpoint:
      if (run.resuming && s.checkpoint == run.resume_from) run.resuming = false;
      if (!run.resuming) {
        run.checkpoint = s.checkpoint;
        run.log("checkpoint " + s.checkpoint);
      }
      return Status::ok();
    case StepDef::Kind::kAction:
      if (run.resuming) return Status::ok();  // before the checkpoint we resume from
      return runAction(s, run);
    case StepDef::Kind::kBranch: {
      if (run.resuming) return Status::ok();
      auto cond = evalCondition(*s.condition, run);
      if (!cond) return cond.status();
      return runSteps(*cond ? s.then_steps : s.else_steps, run);
    }
    case StepDef::Kind::kLoop: {
      if (run.resuming) return Status::ok();
      std::vector<json> values;
      std::vector<int> elements;
      if (s.loop_target) {
        auto els = findElements(*s.loop_target, run);
        if (!els) return els.status();
        for (const Element* e : *els) elements.push_back(e->id);
      } else {
        json over = bind(s.loop_over, run);
        if (over.is_array()) {
          for (const auto& v : over) values.push_back(v);
        } else if (!over.is_null()) {
          return Status(codes::kParameterInvalid, str(s.loop_over) + " is not a list", "");
        }
      }
      size_t n = s.loop_target ? elements.size() : values.size();
      if (n > static_cast<size_t>(s.loop_max)) {
        run.log("loop limited to " + std::to_string(s.loop_max) + " of " + std::to_string(n));
        n = static_cast<size_t>(s.loop_max);
      }
      for (size_t i = 0; i < n; ++i) {
        if (s.loop_target) {
          run.element_vars[s.loop_as] = elements[i];
        } else {
          run.vars[s.loop_as] = values[i];
        }
        Status st = runSteps(s.body, run);
        run.element_vars.erase(s.loop_as);
        run.vars.erase(s.loop_as);
        LSCOPE_RETURN_IF_ERROR(st);
      }
      return Status::ok();
    }
    case StepDef::Kind::kTry: {
      if (run.resuming) return Status::ok();
      Status st = runSteps(s.body, run);
      if (st || st.code() == codes::kCancelled) return st;
      run.log("try failed: " + st.message() + (s.has_catch ? "; catch" : "; ignored"));
      LSCOPE_RETURN_IF_ERROR(rescan(run));
      return s.has_catch ? runSteps(s.catch_steps, run) : Status::ok();
    }
  }
  return Status::ok();
}

Status Session::runAction(const StepDef& s, IntentRun& run) {
  json opt = bind(s.optional, run);
  bool optional = truthy(opt);
  Deadline step_deadline = run.deadline.capped(Millis(s.timeout_ms > 0 ? s.timeout_ms : config_.step_timeout_ms));
  auto handlerFor = [&](const std::string& code) -> const ErrorHandler* {
    for (const auto* m : {&s.on_error, &run.def.on_error}) {
      auto it = m->find(code);
      if (it != m->end()) return &it->second;
      it = m->find("default");
      if (it != m->end()) return &it->second;
    }
    return nullptr;
  };
  Status st = runActionOnce(s, run);
  int retries = 0;
  while (!st && st.code() != codes::kCancelled && retries < 5 && !step_deadline.expired()) {
    std::string code = lowerCode(st.code());
    const ErrorHandler* h = handlerFor(code);
    std::string how = h ? h->action : "";
    // §5.3 defaults where no handler says otherwise.
    if (how.empty()) {
      if (code == "element_stale") how = "rescan_and_retry";
      else if (code == "element_disabled") how = "wait";
      else break;  // target not found, timeout ...: fail
    }
    if (how == "fail") break;
    if (how == "skip") {
      run.log(s.action + " skipped: " + st.message());
      return Status::ok();
    }
    Deadline until = h && h->timeout_ms > 0 ? step_deadline.capped(Millis(h->timeout_ms)) : step_deadline;
    if (how == "wait" || how == "rescan_and_retry") waitForChange(run, until);
    LSCOPE_RETURN_IF_ERROR(rescan(run));
    ++retries;
    st = runActionOnce(s, run);
  }
  if (!st && optional && st.code() != codes::kCancelled) {
    run.log(s.action + " skipped (optional): " + st.message());
    return Status::ok();
  }
  if (!st && st.code() != codes::kCancelled) {
    return Status(st.code(), "step " + s.path.substr(s.path.rfind('/') + 1) + " (" + s.action + "): " + st.message(),
                  st.hint());
  }
  return st;
}

Status Session::runActionOnce(const StepDef& s, IntentRun& run) {
  Ctx& ctx = run.ctx;
  auto b = backend(ctx);
  if (!b) return b.status();
  Backend& be = **b;
  const std::string& a = s.action;
  auto after = [&]() -> Status {
    // The page may have changed: settle, then scan so later steps see it as it is.
    settle(ctx);
    if (config_.rescan_after_action == "never") return Status::ok();
    return rescan(run);
  };
  const Element* el = nullptr;
  if (s.target && a != "fill_form") {
    auto found = findElement(*s.target, run);
    if (!found) return found.status();
    el = *found;
  }
  if (a == "click") {
    json o = bind(s.args.value("options", json::object()), run);
    ClickOptions co;
    std::string button = o.value("button", "left");
    co.button = button == "right" ? MouseButton::kRight : button == "middle" ? MouseButton::kMiddle : MouseButton::kLeft;
    co.count = o.value("count", 1);
    co.force = truthy(o.value("force", json(false)));
    auto note = clickOn(ctx, be, *el, co);
    if (!note && note.status().code() == codes::kElementNotInteractable && !co.force) {
      co.force = true;  // §5.3: an intercepted click is forced
      note = clickOn(ctx, be, *el, co);
    }
    if (!note) return note.status();
    run.log("click " + label(*el) + *note);
    return after();
  }
  if (a == "type") {
    json text = bind(s.args["text"], run);
    std::string t = str(text);
    json o = bind(s.args.value("options", json::object()), run);
    bool clear = truthy(o.value("clear", json(true)));
    bool enter = truthy(o.value("enter", json(false)));
    // A value from a sensitive parameter is a secret wherever it is typed.
    std::string ref = str(s.args["text"]);
    if (ref.size() > 1 && ref[0] == '$') {
      const ParamDef* p = run.def.param(ref.substr(1, ref.find('.') == std::string::npos ? std::string::npos : ref.find('.') - 1));
      if (p && p->sensitive) rememberSecret(t);
    }
    auto note = typeInto(ctx, be, *el, t, clear);
    if (!note) return note.status();
    bool secret = el->isSensitive() || std::find(secrets_.begin(), secrets_.end(), t) != secrets_.end();
    run.log("type " + label(*el).substr(0, label(*el).find(' ')) + " " + quote(secret ? std::string(kMask) : t) + *note);
    if (enter) {
      LSCOPE_RETURN_IF_ERROR(pressCombo(ctx, be, "Enter"));
      run.log("press Enter");
    }
    return after();
  }
  if (a == "select") {
    json value = bind(s.args["value"], run);
    auto chosen = selectIn(ctx, *el, value);
    if (!chosen) return chosen.status();
    run.log("select " + label(*el) + " " + quote(*chosen));
    return after();
  }
  if (a == "check" || a == "uncheck") {
    auto note = setChecked(ctx, be, *el, a == "check");
    if (!note) return note.status();
    run.log(a + " " + label(*el) + *note);
    return after();
  }
  if (a == "clear") {
    auto r = scannerCall(ctx, {{"cmd", "clear"}, {"id", el->scanner_id}}, el->frame);
    if (!r) return r.status();
    run.log("clear " + label(*el));
    return after();
  }
  if (a == "scroll") {
    json cmd = {{"cmd", "scroll"}};
    if (el) {
      cmd["element"] = el->scanner_id;
    } else {
      cmd["direction"] = s.args.value("direction", "down");
      if (s.args.contains("amount")) cmd["amount"] = s.args["amount"];
    }
    auto r = scannerCall(ctx, cmd, el ? el->frame : "");
    if (!r) return r.status();
    run.log("scroll " + (el ? label(*el) : str(cmd["direction"])));
    return after();
  }
  if (a == "wait") {
    auto t0 = Clock::now();
    Deadline until = run.deadline.capped(Millis(s.timeout_ms > 0 ? s.timeout_ms : config_.step_timeout_ms));
    LSCOPE_RETURN_IF_ERROR(waitCondition(*s.condition, run, until));
    run.log("wait " + conditionText(*s.condition) + " (" + elapsed(t0) + ")");
    return Status::ok();
  }
  if (a == "fill_form") {
    json data = bind(s.args["data"], run);
    if (!data.is_object()) return Status(codes::kParameterInvalid, "fill_form data is not an object");
    std::string pattern;
    if (s.target && s.target->kind == TargetDef::Kind::kPattern) pattern = str(bind(s.target->value, run));
    return fillForm(run, data, pattern, false);
  }
  if (a == "intent") {
    std::string name = s.args.value("name", "");
    if (run.depth >= 8) return Status(codes::kStepFailed, "intents nested more than 8 deep", "");
    auto entry = findIntent(name);
    if (!entry) return Status(codes::kIntentNotFound, "no intent named \"" + name + "\"", "intents lists them");
    auto cmd = commandFromArgs(name, bind(s.args.value("params", json::object()), run), lookup());
    if (!cmd) return cmd.status();
    Ctx inner{run.deadline, ctx.call};
    Response r = runIntent(*cmd, inner, *entry, run.depth + 1);
    run.log("intent " + name + (r.ok() ? "" : " failed"));
    for (const auto& [title, lines] : r.sections) {
      if (title != "actions") continue;
      for (const auto& l : lines) run.log("  " + l);
    }
    if (!r.ok()) return Status(r.code.empty() ? codes::kStepFailed : r.code, name + ": " + r.summary, r.hint);
    return rescan(run);
  }
  if (a == "execute") {
    auto r = scannerCall(ctx, {{"cmd", "execute"}, {"script", s.args["script"]}, {"args", bind(s.args.value("args", json::array()), run)}});
    if (!r) return r.status();
    run.vars["result"] = r->value("value", json());
    run.log("execute");
    return after();
  }
  if (a == "press") {
    std::string key = str(bind(s.args["key"], run));
    if (el) {
      auto f = scannerCall(ctx, {{"cmd", "focus"}, {"id", el->scanner_id}}, el->frame);
      if (!f) return f.status();
    }
    LSCOPE_RETURN_IF_ERROR(pressCombo(ctx, be, key));
    run.log("press " + key + (el ? " on " + label(*el) : ""));
    return after();
  }
  if (a == "goto") {
    std::string url = str(bind(s.args["url"], run));
    if (!url.empty() && (url[0] == '/' || url[0] == '?' || url[0] == '#')) url = resolveUrl(run.page.url, url);
    url = normalizeUrl(url);
    Status nav = be.navigate(url, run.deadline);
    if (!nav && nav.code() != codes::kTimeout) return nav;
    run.log("goto " + shortUrl(url));
    return rescan(run);
  }
  if (a == "observe") {
    run.log("observe");
    return rescan(run);
  }
  return Status(codes::kUnknownCommand, "unknown action " + a);
}

// --- one intent, start to response ---------------------------------------------------------------

Response Session::runIntent(const Command& c, Ctx& ctx, const IntentEntry& entry, int depth) {
  const IntentDef& def = *entry.def;
  long long timeout_ms = c.args.contains("timeout") ? c.args["timeout"].get<long long>()
                         : def.timeout_ms > 0      ? def.timeout_ms
                                                   : config_.default_timeout_ms;
  IntentRun run(ctx, def, depth == 0 ? Deadline::inMs(timeout_ms) : ctx.deadline);
  if (depth == 0) ctx.deadline = Deadline::inMs(timeout_ms + 3000);
  run.depth = depth;
  run.verify = !c.args.value("no_verify", false);

  // Bind parameters: given values, then defaults; required ones must be there (§3.5).
  for (const auto& p : def.params) {
    if (c.args.contains(p.name)) {
      run.vars[p.name] = c.args[p.name];
    } else if (!p.default_value.is_null()) {
      run.vars[p.name] = p.default_value;
    } else if (p.required) {
      return errorResponse(def.name, Status(codes::kParameterMissing, def.name + " needs <" + p.name + ">", entry.spec.usage));
    }
    if (p.sensitive && run.vars.contains(p.name)) rememberSecret(str(run.vars[p.name]));
  }
  for (const char* opt : {"timeout", "retry", "no_verify", "resume"}) {
    if (c.args.contains(opt) && !def.param(opt)) run.vars["_" + std::string(opt)] = c.args[opt];
  }
  if (c.args.contains("resume")) {
    run.resume_from = c.args.value("resume", "");
    bool top_level = false;
    for (const auto& s : def.steps) top_level = top_level || (s.kind == StepDef::Kind::kCheckpoint && s.checkpoint == run.resume_from);
    if (!top_level) {
      std::string known;
      for (const auto& cp : def.checkpoints()) known += (known.empty() ? "" : ", ") + cp;
      return errorResponse(def.name, Status(codes::kCheckpointInvalid, "no checkpoint \"" + run.resume_from + "\" to resume from",
                                            known.empty() ? def.name + " has no checkpoints" : "checkpoints: " + known));
    }
    run.resuming = true;
  }
  int attempts = c.args.contains("retry") ? 1 + std::min<int>(c.args["retry"].get<int>(), config_.max_retries)
                                          : std::max(1, def.retry.max_attempts);
  ctx.call.report(0, 0, def.name);

  auto before = scan(ctx);
  if (!before) return errorResponse(def.name, before.status());
  run.page = *before;
  Status st;
  for (int attempt = 1; attempt <= attempts; ++attempt) {
    if (def.tier == "builtin") {
      const std::string& n = def.name;
      st = n == "login" ? builtinLogin(run)
           : n == "logout" ? builtinLogout(run)
           : n == "search" ? builtinSearch(run)
           : n == "accept_cookies" ? builtinAcceptCookies(run)
           : n == "dismiss_popups" ? builtinDismissPopups(run)
           : n == "fill_form" ? builtinFillForm(run)
           : n == "submit_form" ? builtinSubmitForm(run)
           : builtinScrollTo(run);
    } else {
      st = runSteps(def.steps, run);
    }
    if (st || st.code() == codes::kCancelled || attempt == attempts) break;
    std::string code = lowerCode(st.code());
    if (!def.retry.on.empty() && std::find(def.retry.on.begin(), def.retry.on.end(), code) == def.retry.on.end()) break;
    run.log("retry " + std::to_string(attempt + 1) + "/" + std::to_string(attempts) + " after: " + st.message());
    // Back off until the page changes or the retry delay passes, then go again (from the
    // last checkpoint reached, if any).
    waitForChange(run, Deadline::inMs(def.retry.delay_ms > 0 ? def.retry.delay_ms : config_.retry_delay_ms));
    if (!run.checkpoint.empty()) {
      run.resume_from = run.checkpoint;
      run.resuming = true;
    }
    Status rs = rescan(run);
    if (!rs) {
      st = rs;
      break;
    }
  }

  // Verify (§5.1 step 5): failure conditions first, then success conditions.
  if (st && run.verify && def.tier != "builtin") {
    if (config_.verify_failure) {
      for (const auto& fc : def.failure) {
        auto hit = evalCondition(fc, run);
        if (hit && *hit) {
          st = Status(codes::kVerificationFailed, "failure condition met: " + conditionText(fc), "");
          if (!def.recovery.empty()) {
            Status rec = runSteps(def.recovery, run);
            run.log(std::string("recovery ") + (rec ? "done" : "failed: " + rec.message()));
          }
          break;
        }
      }
    }
    if (st && config_.verify_success && !def.success.empty()) {
      ConditionDef all;
      all.kind = ConditionDef::Kind::kAll;
      all.children = def.success;
      Deadline until = run.deadline.capped(Millis(config_.step_timeout_ms));
      Status v = waitCondition(all, run, until);
      if (!v) {
        st = v.code() == codes::kTimeout
                 ? Status(codes::kVerificationFailed, "success conditions not met: " + conditionText(all),
                          "observe to see the page; --no_verify skips the check")
                 : v;
      } else {
        run.log("verified success conditions");
      }
    }
  }
  // Extract results (§3.1 success.extract).
  if (st) {
    for (const auto& [name, ex] : def.extract) {
      std::string value;
      if (ex.from == "url") {
        value = run.page.url;
      } else if (ex.from == "title") {
        value = run.page.title;
      } else {
        std::string selector = "body";
        if (ex.target) {
          auto t = findElement(*ex.target, run);
          if (t) selector = (*t)->selector;
        }
        auto r = scannerCall(ctx, {{"cmd", "get_text"}, {"selector", selector}});
        if (r) value = r->value("text", std::string());
      }
      if (!ex.pattern.empty()) {
        RE2 re(ex.pattern, RE2::Quiet);
        std::string group;
        if (re.ok() && re.NumberOfCapturingGroups() > 0 && RE2::PartialMatch(value, re, &group)) {
          value = group;
        } else if (re.ok() && RE2::PartialMatch(value, re)) {
          // no group: keep the whole value
        } else {
          value.clear();
        }
      }
      if (value.size() > 200) value = value.substr(0, 200) + "…";
      run.result.push_back(name + ": " + value);
    }
  }

  // Respond (§10).
  Response r;
  r.command = def.name;
  if (!st) {
    r.kind = run.partial ? Response::Kind::kPartial : Response::Kind::kError;
    r.summary = run.message.empty() ? st.message() : run.message;
    r.code = st.code();
    r.hint = !run.hint.empty() ? run.hint : st.hint();
    if (!run.checkpoint.empty()) {
      r.hint += std::string(r.hint.empty() ? "" : "\n") + "Retry from the checkpoint: " + def.name + " --resume " + run.checkpoint;
    }
  } else {
    r.kind = run.partial ? Response::Kind::kPartial : Response::Kind::kOk;
    r.summary = run.partial ? (run.message.empty() ? "done in part" : run.message) : run.summary;
  }
  for (const auto& a : run.actions) r.add("actions", a);
  for (auto& [title, lines] : run.sections) {
    for (auto& l : lines) r.add(title, l);
  }
  if (!st && !run.checkpoint.empty()) r.add("checkpoint", run.checkpoint);
  if (depth == 0) {
    settle(ctx);
    auto after = scan(ctx);
    if (after && !run.no_changes) {
      std::string doc_before = before->document.empty() ? before->url.substr(0, before->url.find('#')) : before->document;
      std::string doc_after = after->document.empty() ? after->url.substr(0, after->url.find('#')) : after->document;
      DiffContext dc;
      dc.new_document = doc_before != doc_after;
      dc.form_action = ctx.form_action;
      ChangeReport report = diffScans(*before, *after, dc);
      if (!report.noop()) {
        for (auto& l : report.lines) {
          // An error the result already quotes is not repeated among the changes.
          bool quoted = l.rfind("! error: ", 0) == 0 &&
                        std::any_of(run.result.begin(), run.result.end(),
                                    [&](const std::string& x) { return x.find(l.substr(9)) != std::string::npos; });
          // A change a section already reports ([2] ... ← "John" in # filled) is not repeated.
          bool reported = false;
          for (int id : run.reported) reported = reported || l.rfind("~ [" + std::to_string(id) + "] ", 0) == 0;
          if (!quoted && !reported) r.add("changes", l);
        }
      }
      r.data["changes"] = report.toJson();
      r.data["url"] = after->url;
      if (!st && run.result.empty()) {
        for (const auto& m : after->messages) {
          if (m.kind == "error") r.add("context", "Page says: " + quote(m.text));
        }
      }
    }
    reportEvents(ctx, r);
  }
  for (const auto& l : run.result) r.add("result", l);
  r.data["ok"] = r.kind == Response::Kind::kOk;
  if (!st) r.data["code"] = st.code();
  if (!run.checkpoint.empty()) r.data["checkpoint"] = run.checkpoint;
  if (!run.result.empty()) r.data["result"] = run.result;
  return r;
}

}  // namespace lscope
