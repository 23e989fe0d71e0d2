// The intent executor (intent-engine.md §5): parse -> resolve -> plan -> execute -> verify ->
// respond. Steps, control flow, targets with fallbacks, conditions, retries, checkpoints. Steps
// are a thin front end: targets go through resolver.cpp, actions through the Page's action layer,
// waits through the one wait engine (waits.h).
#include <cmath>
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>

#include <re2/re2.h>
#include <spdlog/spdlog.h>

#include "engine/builtins/builtins.h"
#include "engine/commands.h"
#include "engine/expression.h"
#include "engine/files.h"
#include "engine/intent_run.h"
#include "engine/observation.h"
#include "engine/packs.h"

namespace lscope {

namespace {

std::string lowerCode(const std::string& code) {
  std::string out = code;
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string str(const json& v) {
  // A whole number given to a number parameter is 3, not 3.0, wherever it is text (a target).
  if (v.is_number_float()) {
    double d = v.get<double>();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 1e15) return std::to_string(static_cast<long long>(d));
  }
  return v.is_string() ? v.get<std::string>() : v.is_null() ? "" : v.dump();
}

std::string seconds(Clock::time_point since) {
  auto ms = std::chrono::duration_cast<Millis>(Clock::now() - since).count();
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1fs", ms / 1000.0);
  return buf;
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
    case ConditionDef::Kind::kCustom: return "custom " + str(c.value);
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

json bindValue(const json& v, const IntentRun& run) {
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    if (s.size() > 1 && s[0] == '$') return lookupReference(s, run.vars);
    return v;
  }
  if (v.is_object()) {
    json out = json::object();
    for (auto it = v.begin(); it != v.end(); ++it) out[it.key()] = bindValue(*it, run);
    return out;
  }
  if (v.is_array()) {
    json out = json::array();
    for (const auto& x : v) out.push_back(bindValue(x, run));
    return out;
  }
  return v;
}

// A definition's target (§3.3) as a resolver target, its parameters bound.
Result<TargetSpec> toSpec(const TargetDef& t, const IntentRun& run) {
  TargetSpec spec;
  spec.match = t.match;
  json v = bindValue(t.value, run);
  switch (t.kind) {
    case TargetDef::Kind::kVar: {
      std::string name = str(t.value).substr(1);
      auto it = run.element_vars.find(name.substr(0, name.find('.')));
      if (it != run.element_vars.end()) {
        spec.kind = TargetSpec::Kind::kId;
        spec.id = it->second;
        spec.value = std::to_string(it->second);
        break;
      }
      // A value variable used as a target names the element by its text.
      if (v.is_null()) return Status(codes::kParameterMissing, str(t.value) + " has no value");
      spec.kind = TargetSpec::Kind::kText;
      spec.value = str(v);
      break;
    }
    case TargetDef::Kind::kPattern: spec.kind = TargetSpec::Kind::kPattern; spec.value = str(v); break;
    case TargetDef::Kind::kRole: spec.kind = TargetSpec::Kind::kRole; spec.value = str(v); break;
    case TargetDef::Kind::kText: spec.kind = TargetSpec::Kind::kText; spec.value = str(v); break;
    case TargetDef::Kind::kTextContains: {
      auto all = texts(v);
      spec.kind = TargetSpec::Kind::kText;
      spec.match = TextMatch::kContains;
      spec.value = all.empty() ? "" : all.front();
      spec.alternatives.assign(all.size() > 1 ? all.begin() + 1 : all.end(), all.end());
      break;
    }
    case TargetDef::Kind::kSelector: spec.kind = TargetSpec::Kind::kCss; spec.value = str(v); break;
    case TargetDef::Kind::kXpath: spec.kind = TargetSpec::Kind::kXpath; spec.value = str(v); break;
    case TargetDef::Kind::kId:
      spec.kind = TargetSpec::Kind::kId;
      spec.id = v.is_number() ? v.get<int>() : std::atoi(str(v).c_str());
      spec.value = std::to_string(spec.id);
      break;
  }
  if (t.anchor) {
    auto anchor = toSpec(*t.anchor, run);
    if (!anchor) return anchor.status();
    spec.relation = t.relation;
    spec.anchor = std::make_shared<TargetSpec>(std::move(anchor.value()));
  }
  if (t.fallback) {
    auto fb = toSpec(*t.fallback, run);
    if (!fb) return fb.status();
    spec.fallback = std::make_shared<TargetSpec>(std::move(fb.value()));
  }
  return spec;
}

std::string targetText(const TargetDef& t) {
  std::string what = t.describe();
  for (const TargetDef* f = t.fallback.get(); f; f = f->fallback.get()) what += " or " + f->describe();
  return what;
}

// --- the executor -----------------------------------------------------------------------------


// A community pack's step the sandbox refuses (§13.3), with why and how to allow it.
Status refused(const IntentDef& def, const std::string& what) {
  const PackRuntime& p = *def.pack_runtime;
  return Status(codes::kPackNotTrusted,
                what + ": pack " + p.name + " is a community pack, and community packs may not do that (§13.3)",
                "if you trust the pack's author, install it trusted: pack install <folder|archive> --trusted --force");
}

bool sandboxed(const IntentDef& def) { return def.pack_runtime && !def.pack_runtime->trusted; }

// The page-side call of a pack's JavaScript (§12.1, §12.2): `fn` gets the arguments of
// `call` and a context {url, host, patterns, cookie(name)}; the script's arguments[0] is the
// names of the patterns on the page, arguments[1] a custom action's params.
std::string packScript(const std::string& code, const std::string& call) {
  return "const fn = (" + code + ");\n"
         "const context = {url: location.href, host: location.hostname, patterns: arguments[0],\n"
         "  cookie(n) { const m = document.cookie.split('; ').find((c) => c.startsWith(n + '='));\n"
         "    return m ? decodeURIComponent(m.slice(n.length + 1)) : null; }};\n"
         "return " + call + ";";
}

json patternNames(const PageScan& scan) {
  json names = json::array();
  for (const auto& p : scan.patterns) names.push_back(p.name);
  return names;
}

class Executor {
 public:
  explicit Executor(IntentRun& run) : run_(run) {}

  Status runSteps(const std::vector<StepDef>& steps);
  Result<bool> evalCondition(const ConditionDef& c);
  Status waitCondition(const ConditionDef& c, Deadline until);
  Result<std::vector<const Element*>> findAll(const TargetDef& t);
  Result<Element> findOne(const TargetDef& t);

 private:
  Status runStep(const StepDef& step);
  Status runAction(const StepDef& step);
  Status runActionOnce(const StepDef& step);
  // The sandbox of a community pack (§13.3): scripts, files, other sites. OK otherwise.
  Status sandboxCheck(const StepDef& step);
  Status runCustomAction(const StepDef& step);
  Result<bool> customCondition(const ConditionDef& c);
  Status after();

  IntentRun& run_;
};

Result<std::vector<const Element*>> Executor::findAll(const TargetDef& t) {
  auto spec = toSpec(t, run_);
  if (!spec) return spec.status();
  return findCandidates(*spec, run_.scan, run_.page.hooks(run_.scan));
}

Result<Element> Executor::findOne(const TargetDef& t) {
  auto spec = toSpec(t, run_);
  if (!spec) return spec.status();
  auto res = run_.page.resolve(*spec, run_.scan);
  if (!res) {
    if (res.status().code() == codes::kTargetNotFound) {
      return Status(codes::kTargetNotFound, "no element for " + targetText(t), "observe to see what the page offers");
    }
    return res.status();
  }
  return *res->element;
}

Status Executor::after() {
  // The page may have changed: settle, then scan so later steps see it as it is.
  run_.page.settle();
  if (run_.config().rescan_after_action == "never") return Status::ok();
  return run_.rescan();
}

Result<bool> Executor::evalCondition(const ConditionDef& c) {
  switch (c.kind) {
    case ConditionDef::Kind::kRef:
      return truthy(lookupReference(str(c.value), run_.vars));
    case ConditionDef::Kind::kExpression: {
      auto v = evaluateExpression(str(c.value), run_.vars);
      if (!v) return v.status();
      return truthy(*v);
    }
    case ConditionDef::Kind::kAll:
    case ConditionDef::Kind::kAny: {
      bool all = c.kind == ConditionDef::Kind::kAll;
      for (const auto& ch : c.children) {
        auto r = evalCondition(ch);
        if (!r) return r;
        if (*r != all) return !all;
      }
      return all;
    }
    case ConditionDef::Kind::kNot: {
      auto r = evalCondition(c.children[0]);
      if (!r) return r;
      return !*r;
    }
    case ConditionDef::Kind::kCustom:
      return customCondition(c);
    default:
      break;
  }
  // Page conditions look at the page as it is now.
  LSCOPE_RETURN_IF_ERROR(run_.rescan());
  const ScannerClient& sc = run_.page.scanner();
  switch (c.kind) {
    case ConditionDef::Kind::kPatternExists: {
      std::string ref = str(bindValue(c.value, run_));
      std::string name = ref.substr(0, ref.find('.'));
      const Pattern* p = run_.scan.pattern(name);
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
        auto r = sc.exists(str(bindValue(t.value, run_)));
        if (!r) return r.status();
        bool visible = r->value("exists", false) && r->value("visible", true);
        return c.kind == ConditionDef::Kind::kVisible ? visible : !visible;
      }
      auto els = findAll(*c.target);
      if (!els) {
        if (els.status().code() == codes::kElementStale) return c.kind == ConditionDef::Kind::kHidden;
        return els.status();
      }
      bool any_visible = std::any_of(els->begin(), els->end(), [](const Element* e) { return e->visible; });
      return c.kind == ConditionDef::Kind::kVisible ? any_visible : !any_visible;
    }
    case ConditionDef::Kind::kUrlContains: {
      for (const auto& part : texts(bindValue(c.value, run_))) {
        if (containsCi(run_.scan.url, part)) return true;
      }
      return false;
    }
    case ConditionDef::Kind::kUrlMatches: {
      RE2 re(str(c.value), RE2::Quiet);
      return re.ok() && RE2::PartialMatch(run_.scan.url, re);
    }
    case ConditionDef::Kind::kTextContains: {
      Result<std::string> text = std::string();
      if (c.target) {
        auto within = findOne(*c.target);
        if (!within) return false;
        if (sandboxed(run_.def) && within->isSensitive()) {
          return refused(run_.def, "reading " + logLabel(*within) + " (a sensitive field)");
        }
        text = sc.textOfElement(within->scanner_id, within->frame);
      } else {
        text = sc.textOf("body");
      }
      if (!text) return text.status();
      for (const auto& want : texts(bindValue(c.value, run_))) {
        if (containsCi(*text, want)) return true;
      }
      return false;
    }
    case ConditionDef::Kind::kCount: {
      std::string selector = str(bindValue(json(c.count_selector), run_));
      auto r = sc.exists(selector);
      if (!r) return r.status();
      long long n = r->value("count", 0LL);
      return (!c.count_min || n >= *c.count_min) && (!c.count_max || n <= *c.count_max);
    }
    default:
      return Status(codes::kInternal, "unhandled condition");
  }
}

Status Executor::waitCondition(const ConditionDef& c, Deadline until) {
  // evalCondition rescans for page conditions: the wait engine only needs to wake it up.
  Status s = waitUntil(run_.page, [&]() -> Result<bool> { return evalCondition(c); }, until);
  if (s.code() == codes::kTimeout) {
    return Status(codes::kTimeout, "waited for " + conditionText(c) + " in vain",
                  "the page did not reach that state; observe to see where it is");
  }
  return s;
}

Status Executor::runSteps(const std::vector<StepDef>& steps) {
  for (const auto& s : steps) {
    if (run_.page.call.cancelled()) return Status(codes::kCancelled, "cancelled");
    if (run_.deadline.expired()) {
      return Status(codes::kTimeout, run_.def.name + " ran out of time", "raise --timeout, or resume from a checkpoint");
    }
    LSCOPE_RETURN_IF_ERROR(runStep(s));
  }
  return Status::ok();
}

Status Executor::runStep(const StepDef& s) {
  switch (s.kind) {
    case StepDef::Kind::kCheckpoint:
      if (run_.resuming && s.checkpoint == run_.resume_from) run_.resuming = false;
      if (!run_.resuming) {
        run_.checkpoint = s.checkpoint;
        run_.log("checkpoint " + s.checkpoint);
      }
      return Status::ok();
    case StepDef::Kind::kAction:
      if (run_.resuming) return Status::ok();  // before the checkpoint we resume from
      return runAction(s);
    case StepDef::Kind::kBranch: {
      if (run_.resuming) return Status::ok();
      auto cond = evalCondition(*s.condition);
      if (!cond) return cond.status();
      return runSteps(*cond ? s.then_steps : s.else_steps);
    }
    case StepDef::Kind::kLoop: {
      if (run_.resuming) return Status::ok();
      std::vector<json> values;
      std::vector<int> elements;
      if (s.loop_target) {
        auto els = findAll(*s.loop_target);
        if (!els) return els.status();
        for (const Element* e : *els) elements.push_back(e->id);
      } else {
        json over = bindValue(s.loop_over, run_);
        if (over.is_array()) {
          for (const auto& v : over) values.push_back(v);
        } else if (!over.is_null()) {
          return Status(codes::kParameterInvalid, str(s.loop_over) + " is not a list", "");
        }
      }
      size_t n = s.loop_target ? elements.size() : values.size();
      if (n > static_cast<size_t>(s.loop_max)) {
        run_.log("loop limited to " + std::to_string(s.loop_max) + " of " + std::to_string(n));
        n = static_cast<size_t>(s.loop_max);
      }
      for (size_t i = 0; i < n; ++i) {
        if (s.loop_target) {
          run_.element_vars[s.loop_as] = elements[i];
        } else {
          run_.vars[s.loop_as] = values[i];
        }
        Status st = runSteps(s.body);
        run_.element_vars.erase(s.loop_as);
        run_.vars.erase(s.loop_as);
        LSCOPE_RETURN_IF_ERROR(st);
      }
      return Status::ok();
    }
    case StepDef::Kind::kTry: {
      if (run_.resuming) return Status::ok();
      Status st = runSteps(s.body);
      if (st || st.code() == codes::kCancelled) return st;
      run_.log("try failed: " + st.message() + (s.has_catch ? "; catch" : "; ignored"));
      LSCOPE_RETURN_IF_ERROR(run_.rescan());
      return s.has_catch ? runSteps(s.catch_steps) : Status::ok();
    }
  }
  return Status::ok();
}

Status Executor::sandboxCheck(const StepDef& s) {
  if (!sandboxed(run_.def)) return Status::ok();
  if (s.action == "execute") return refused(run_.def, "execute runs a script");
  if (s.action == "custom") return refused(run_.def, "custom action " + s.args.value("name", "") + " runs a script");
  if (s.action == "screenshot" && s.args.contains("output")) return refused(run_.def, "screenshot --output writes a file");
  if (s.action == "goto") {
    std::string url = str(bindValue(s.args["url"], run_));
    if (!url.empty() && (url[0] == '/' || url[0] == '?' || url[0] == '#')) return Status::ok();  // same site
    std::string host = urlHost(normalizeUrl(url));
    bool ours = std::any_of(run_.def.pack_runtime->domains.begin(), run_.def.pack_runtime->domains.end(),
                            [&](const std::string& d) { return hostMatches(d, host); });
    if (!ours) return refused(run_.def, "goto " + (host.empty() ? url : host) + " leaves the pack's domains");
  }
  return Status::ok();
}

// §12.1: a custom action's JavaScript, called as fn(params, context) in the page.
Status Executor::runCustomAction(const StepDef& s) {
  std::string name = s.args.value("name", "");
  const auto& actions = run_.def.pack_runtime->actions;
  auto it = actions.find(name);
  if (it == actions.end()) return Status(codes::kStepFailed, "no custom action " + name);
  json params = bindValue(s.args.value("params", json::object()), run_);
  auto r = run_.page.scanner().execute(packScript(it->second.code, "fn(arguments[1], context)"),
                                       json::array({patternNames(run_.scan), params}));
  if (!r) return r.status();
  run_.vars["result"] = *r;
  run_.log(name + (r->is_null() ? "" : " → " + (r->is_string() ? r->get<std::string>().substr(0, 80) : r->dump().substr(0, 80))));
  return after();
}

// §12.2: pattern_check (every pattern present) or JavaScript fn(context).
Result<bool> Executor::customCondition(const ConditionDef& c) {
  if (!run_.def.pack_runtime) return Status(codes::kStepFailed, "custom conditions belong to a pack");
  std::string name = str(c.value);
  const auto& conds = run_.def.pack_runtime->conditions;
  auto it = conds.find(name);
  if (it == conds.end()) return Status(codes::kStepFailed, "no custom condition " + name);
  LSCOPE_RETURN_IF_ERROR(run_.rescan());
  if (it->second.type == "pattern_check") {
    for (const auto& p : it->second.patterns) {
      if (!run_.scan.pattern(p)) return false;
    }
    return true;
  }
  if (sandboxed(run_.def)) return refused(run_.def, "custom condition " + name + " runs a script");
  auto r = run_.page.scanner().execute(packScript(it->second.code, "!!fn(context)"), json::array({patternNames(run_.scan)}));
  if (!r) return r.status();
  return r->is_boolean() && r->get<bool>();
}

Status Executor::runAction(const StepDef& s) {
  Status allowed = sandboxCheck(s);
  if (!allowed) {
    return Status(allowed.code(), "step " + s.path.substr(s.path.rfind('/') + 1) + " (" + s.action + ") refused: " +
                                      allowed.message(), allowed.hint());
  }
  bool optional = truthy(bindValue(s.optional, run_));
  const EngineConfig& cfg = run_.config();
  Deadline step_deadline = run_.deadline.capped(Millis(s.timeout_ms > 0 ? s.timeout_ms : cfg.step_timeout_ms));
  auto handlerFor = [&](const std::string& code) -> const ErrorHandler* {
    for (const auto* m : {&s.on_error, &run_.def.on_error}) {
      auto it = m->find(code);
      if (it != m->end()) return &it->second;
      it = m->find("default");
      if (it != m->end()) return &it->second;
    }
    return nullptr;
  };
  Status st = runActionOnce(s);
  int retries = 0;
  while (!st && st.code() != codes::kCancelled && retries < 5 && !step_deadline.expired()) {
    std::string code = lowerCode(st.code());
    const ErrorHandler* h = handlerFor(code);
    std::string how = h ? h->action : "";
    // §5.3 defaults where no handler says otherwise (auto-wait already waited for the element to
    // appear and become actionable).
    if (how.empty()) {
      if (code == "element_stale") how = "rescan_and_retry";
      else break;
    }
    if (how == "fail") break;
    if (how == "skip") {
      run_.log(s.action + " skipped: " + st.message());
      return Status::ok();
    }
    Deadline until = h && h->timeout_ms > 0 ? step_deadline.capped(Millis(h->timeout_ms)) : step_deadline;
    if (how == "wait" || how == "rescan_and_retry") run_.page.waitForChange(until);
    LSCOPE_RETURN_IF_ERROR(run_.rescan());
    ++retries;
    st = runActionOnce(s);
  }
  if (!st && optional && st.code() != codes::kCancelled) {
    run_.log(s.action + " skipped (optional): " + st.message());
    return Status::ok();
  }
  if (!st && st.code() != codes::kCancelled) {
    return Status(st.code(), "step " + s.path.substr(s.path.rfind('/') + 1) + " (" + s.action + "): " + st.message(),
                  st.hint());
  }
  return st;
}

Status Executor::runActionOnce(const StepDef& s) {
  Page& page = run_.page;
  const std::string& a = s.action;
  // Auto-wait for the step's target: its own timeout, else 5 s (issue 12 item 2).
  long long step_ms = s.timeout_ms > 0 ? s.timeout_ms : 5000;
  // Steps with a target act through the action layer: it waits for the target (§5.3 "element
  // not visible: scroll, retry"; "disabled: wait"), and clears a popup in front of it.
  std::optional<TargetSpec> target;
  if (s.target && a != "fill_form") {
    auto spec = toSpec(*s.target, run_);
    if (!spec) return spec.status();
    target = std::move(spec.value());
  }
  auto act = [&](const Page::ActFn& fn) -> Result<Acted> {
    auto done = run_.act(*target, fn, step_ms);
    if (!done && done.status().code() == codes::kTargetNotFound) {
      const std::string& m = done.status().message();
      auto waited = m.rfind(" (waited ");
      return Status(codes::kTargetNotFound,
                    "no element for " + targetText(*s.target) + (waited == std::string::npos ? "" : m.substr(waited)),
                    "observe to see what the page offers");
    }
    return done;
  };
  if (a == "click") {
    json o = bindValue(s.args.value("options", json::object()), run_);
    ClickOptions co;
    std::string button = o.value("button", "left");
    co.button = button == "right" ? MouseButton::kRight : button == "middle" ? MouseButton::kMiddle : MouseButton::kLeft;
    co.count = o.value("count", 1);
    co.force = truthy(o.value("force", json(false)));
    auto done = act([&](const Element& el) { return page.click(el, co); });
    if (!done && done.status().code() == codes::kElementNotInteractable && !co.force) {
      co.force = true;  // §5.3: an intercepted click is forced
      done = act([&](const Element& el) { return page.click(el, co); });
    }
    if (!done) return done.status();
    run_.log("click " + logLabel(done->element) + done->detail);
    return after();
  }
  if (a == "type") {
    std::string t = str(bindValue(s.args["text"], run_));
    json o = bindValue(s.args.value("options", json::object()), run_);
    bool clear = truthy(o.value("clear", json(true)));
    bool enter = truthy(o.value("enter", json(false)));
    // A value from a sensitive parameter is a secret wherever it is typed.
    std::string ref = str(s.args["text"]);
    if (ref.size() > 1 && ref[0] == '$') {
      const ParamDef* p = run_.def.param(ref.substr(1, ref.find('.') == std::string::npos ? std::string::npos : ref.find('.') - 1));
      if (p && p->sensitive) page.rememberSecret(t);
    }
    auto done = act([&](const Element& el) { return page.type(el, t, clear); });
    if (!done) return done.status();
    run_.typedInto(done->element);
    bool secret = done->element.isSensitive() || page.isSecret(t);
    run_.log("type [" + std::to_string(done->element.id) + "] " + quote(secret ? std::string(kMask) : t) + done->detail);
    if (enter) {
      LSCOPE_RETURN_IF_ERROR(run_.beforeKeys());
      LSCOPE_RETURN_IF_ERROR(page.press("Enter"));
      run_.log("press Enter");
    }
    return after();
  }
  if (a == "select") {
    json value = bindValue(s.args["value"], run_);
    auto done = act([&](const Element& el) -> Result<std::string> {
      auto chosen = page.select(el, value);
      if (!chosen) return chosen.status();
      return " " + quote(*chosen);
    });
    if (!done) return done.status();
    run_.log("select " + logLabel(done->element) + done->detail);
    return after();
  }
  if (a == "check" || a == "uncheck") {
    auto done = act([&](const Element& el) { return page.setChecked(el, a == "check"); });
    if (!done) return done.status();
    run_.log(a + " " + logLabel(done->element) + done->detail);
    return after();
  }
  if (a == "clear") {
    auto done = act([&](const Element& el) { return page.clear(el); });
    if (!done) return done.status();
    run_.log("clear " + logLabel(done->element));
    return after();
  }
  if (a == "scroll") {
    json params = json::object();
    std::string what;
    if (target) {
      auto done = act([&](const Element& el) -> Result<std::string> {
        auto r = page.scroll(params, &el);
        if (!r) return r.status();
        return std::string();
      });
      if (!done) return done.status();
      what = logLabel(done->element);
    } else {
      params["direction"] = s.args.value("direction", "down");
      if (s.args.contains("amount")) params["amount"] = s.args["amount"];
      auto r = page.scroll(params);
      if (!r) return r.status();
      what = str(params["direction"]);
    }
    run_.log("scroll " + what);
    return after();
  }
  if (a == "wait") {
    auto t0 = Clock::now();
    Deadline until = run_.deadline.capped(Millis(s.timeout_ms > 0 ? s.timeout_ms : run_.config().step_timeout_ms));
    LSCOPE_RETURN_IF_ERROR(waitCondition(*s.condition, until));
    run_.log("wait " + conditionText(*s.condition) + " (" + seconds(t0) + ")");
    return Status::ok();
  }
  if (a == "fill_form") {
    json data = bindValue(s.args["data"], run_);
    if (!data.is_object()) return Status(codes::kParameterInvalid, "fill_form data is not an object");
    json params = {{"data", data}};
    if (s.target && s.target->kind == TargetDef::Kind::kPattern) params["pattern"] = str(bindValue(s.target->value, run_));
    Response r = run_.runNested("fill_form", params);
    if (!r.ok()) return Status(r.code.empty() ? codes::kStepFailed : r.code, "fill_form: " + r.summary, r.hint);
    return run_.rescan();
  }
  if (a == "intent") {
    std::string name = s.args.value("name", "");
    if (run_.depth >= 8) return Status(codes::kStepFailed, "intents nested more than 8 deep", "");
    Response r = run_.runNested(name, bindValue(s.args.value("params", json::object()), run_));
    if (!r.ok()) return Status(r.code.empty() ? codes::kStepFailed : r.code, name + ": " + r.summary, r.hint);
    return run_.rescan();
  }
  if (a == "custom") return runCustomAction(s);
  if (a == "screenshot") {
    auto b = page.backend();
    if (!b) return b.status();
    auto png = (*b)->screenshot(run_.deadline);
    if (!png) return png.status();
    std::string out = s.args.value("output", "");
    if (out.empty()) {
      run_.log("screenshot");
      return Status::ok();
    }
    auto stamp = std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(
                                    std::chrono::system_clock::now().time_since_epoch()).count());
    for (auto pos = out.find("{timestamp}"); pos != std::string::npos; pos = out.find("{timestamp}")) {
      out.replace(pos, 11, stamp);
    }
    if (!writeFile(out, base64Decode(*png))) return Status(codes::kStepFailed, "cannot write " + out);
    run_.log("screenshot → " + out);
    return Status::ok();
  }
  if (a == "execute") {
    auto r = page.scanner().execute(str(s.args["script"]), bindValue(s.args.value("args", json::array()), run_));
    if (!r) return r.status();
    run_.vars["result"] = *r;
    run_.log("execute");
    return after();
  }
  if (a == "press") {
    std::string key = str(bindValue(s.args["key"], run_));
    std::optional<Element> on;
    if (target) {
      auto done = act([&](const Element& el) -> Result<std::string> {
        LSCOPE_RETURN_IF_ERROR(page.press(key, &el));
        return std::string();
      });
      if (!done) return done.status();
      on = done->element;
    } else {
      LSCOPE_RETURN_IF_ERROR(run_.beforeKeys());
      LSCOPE_RETURN_IF_ERROR(page.press(key));
    }
    run_.log("press " + key + (on ? " on " + logLabel(*on) : ""));
    return after();
  }
  if (a == "goto") {
    std::string url = str(bindValue(s.args["url"], run_));
    if (!url.empty() && (url[0] == '/' || url[0] == '?' || url[0] == '#')) url = resolveUrl(run_.scan.url, url);
    url = normalizeUrl(url);
    Status nav = page.navigate(url);
    if (!nav && nav.code() != codes::kTimeout) return nav;
    run_.log("goto " + shortUrl(url));
    return run_.rescan();
  }
  if (a == "observe") {
    run_.log("observe");
    return run_.rescan();
  }
  return Status(codes::kUnknownCommand, "unknown action " + a);
}

}  // namespace

// --- IntentRun ----------------------------------------------------------------------------------

std::string logLabel(const Element& e) {
  std::string s = "[" + std::to_string(e.id) + "]";
  if (!e.text.empty()) s += " " + quote(e.text.size() > 50 ? e.text.substr(0, 50) + "…" : e.text);
  return s;
}

void IntentRun::add(const std::string& section, std::string line) {
  for (auto& [name, lines] : sections) {
    if (name == section) {
      lines.push_back(std::move(line));
      return;
    }
  }
  sections.push_back({section, {std::move(line)}});
}

Status IntentRun::rescan() {
  auto p = page.scan();
  if (!p) return p.status();
  scan = std::move(p.value());
  return Status::ok();
}

Status IntentRun::waitFor(const std::function<Result<bool>()>& probe, long long ms) {
  return waitUntil(page, [&]() -> Result<bool> {
    LSCOPE_RETURN_IF_ERROR(rescan());
    return probe();
  }, deadline.capped(Millis(ms)));
}

Status IntentRun::waitForChange(long long ms) {
  page.waitForChange(deadline.capped(Millis(ms)));
  return rescan();
}

void IntentRun::logCleared(const Acted& a) {
  for (const auto& c : a.cleared) log(c);
}

Result<Acted> IntentRun::act(const TargetSpec& target, const Page::ActFn& fn, long long timeout_ms) {
  ActOptions o;
  long long ms = timeout_ms > 0 ? timeout_ms : 5000;
  o.timeout = std::min(Millis(ms), deadline.remaining());
  if (timeout_ms > 0) o.seek = o.timeout;  // a step's own timeout bounds its scrolling too
  // A popup in front of the target: the intent clears it and retries once (issue 12 item 2).
  // The clearers themselves do not recurse.
  if (def.name != "dismiss_popups" && def.name != "accept_cookies" && depth < 4) {
    o.clear_cover = [this](const std::string& kind) -> Result<std::string> {
      std::string clearer = kind == "cookie_banner" ? "accept_cookies" : "dismiss_popups";
      Response r = runNested(clearer, json::object());
      if (!r.ok()) return Status(r.code.empty() ? codes::kStepFailed : r.code, r.summary, r.hint);
      std::string what = clearer;
      for (const auto& [title, lines] : r.sections) {
        if (title == "dismissed" && !lines.empty()) what += ": " + lines.front();
      }
      return what + " (a " + kind + " covered the target)";
    };
  }
  clear_cover_ = o.clear_cover;
  // The popups up before this action (for beforeKeys, when it types); another action since a
  // typing ends that typing's watch (its own target is checked for covers).
  covers_before_act_.clear();
  for (const auto& p : scan.patterns) covers_before_act_.insert(p.name + " " + p.container);
  typed_.reset();
  auto done = page.perform(target, fn, o);
  if (done) {
    logCleared(*done);
    rescan();
  }
  return done;
}

Result<Acted> IntentRun::act(const Element& el, const Page::ActFn& fn, long long timeout_ms) {
  TargetSpec t;
  t.kind = TargetSpec::Kind::kId;
  t.id = el.id;
  t.value = std::to_string(el.id);
  return act(t, fn, timeout_ms);
}

Result<Acted> IntentRun::click(const Element& el, const ClickOptions& o) {
  auto done = act(el, [&](const Element& e) { return page.click(e, o); });
  if (done) log("click " + logLabel(done->element) + done->detail);
  return done;
}

Result<Acted> IntentRun::type(const Element& el, const std::string& text, bool clear) {
  auto done = act(el, [&](const Element& e) { return page.type(e, text, clear); });
  if (!done) return done;
  typedInto(done->element);
  bool secret = done->element.isSensitive() || page.isSecret(text);
  log("type [" + std::to_string(done->element.id) + "] " + quote(secret ? std::string(kMask) : text) + done->detail);
  return done;
}

void IntentRun::typedInto(const Element& el) { typed_ = Typed{el.id, std::move(covers_before_act_)}; }

Status IntentRun::beforeKeys() {
  // The text brought up a popup over the field (a product tour that starts at the first key
  // typed, drawn as the page's reaction to the text): it went in whole, but a person closes the
  // popup before pressing a key into the field. A step with a target finds it covered by
  // itself; a key has none. The page's reaction is waited for first.
  if (!typed_ || !clear_cover_) return Status::ok();
  Typed typed = std::move(*typed_);
  typed_.reset();
  page.settle();
  LSCOPE_RETURN_IF_ERROR(rescan());
  const Element* field = scan.byId(typed.id);
  const Pattern* popup = field ? page.coveringPopup(scan, field) : nullptr;
  if (!popup || typed.covers_before.count(popup->name + " " + popup->container)) return Status::ok();
  const std::string kind = popup->name;  // (clearing rescans: `popup` points into the old scan)
  auto cleared = clear_cover_(kind);
  if (!cleared) return cleared.status();
  log(*cleared);
  return rescan();
}

Status IntentRun::press(const std::string& combo, const Element* on) {
  LSCOPE_RETURN_IF_ERROR(beforeKeys());
  LSCOPE_RETURN_IF_ERROR(page.press(combo, on));
  log("press " + combo + (on ? " on " + logLabel(*on) : ""));
  return Status::ok();
}

Response IntentRun::runNested(const std::string& name, const json& params) {
  auto entry = host.findIntent(name);
  if (!entry) {
    return errorResponse(name, Status(codes::kIntentNotFound, "no intent named \"" + name + "\"", "intents lists them"));
  }
  auto cmd = commandFromArgs(name, params, host.lookup());
  if (!cmd) return errorResponse(name, cmd.status());
  Deadline saved = page.deadline;
  page.deadline = deadline;
  Response r = runIntent(host, *cmd, page, *entry, depth + 1);
  page.deadline = saved;
  log("intent " + name + (r.ok() ? "" : " failed"));
  for (const auto& [title, lines] : r.sections) {
    if (title != "actions") continue;
    for (const auto& l : lines) log("  " + l);
  }
  rescan();
  return r;
}

// --- one intent, start to response ---------------------------------------------------------------

Response runIntent(IntentHost& host, const Command& c, Page& page, const IntentEntry& entry, int depth) {
  const IntentDef& def = *entry.def;
  const EngineConfig& cfg = host.config();
  long long timeout_ms = c.args.contains("timeout") ? c.args["timeout"].get<long long>()
                         : def.timeout_ms > 0      ? def.timeout_ms
                                                   : cfg.default_timeout_ms;
  IntentRun run(page, host, def, depth == 0 ? Deadline::inMs(timeout_ms) : page.deadline);
  if (depth == 0) page.deadline = Deadline::inMs(timeout_ms + 3000);
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
    if (p.sensitive && run.vars.contains(p.name)) page.rememberSecret(str(run.vars[p.name]));
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
  int attempts = c.args.contains("retry") ? 1 + std::min<int>(c.args["retry"].get<int>(), cfg.max_retries)
                                          : std::max(1, def.retry.max_attempts);
  page.call.report(0, 0, def.name);

  auto before = page.scan();
  if (!before) return errorResponse(def.name, before.status());
  PageScan before_page = *before;
  run.scan = *before;
  const BuiltinIntent* builtin = def.tier == "builtin" ? findBuiltin(def.name) : nullptr;
  Executor exec(run);
  Status st;
  // §12.3 pack hooks around the pack's own intents.
  const PackRuntime* pack = depth == 0 ? def.pack_runtime.get() : nullptr;
  auto hook = [&](const char* name) -> Status {
    if (!pack) return Status::ok();
    auto h = pack->hooks.find(name);
    if (h == pack->hooks.end()) return Status::ok();
    run.log(std::string(name) + " hook (" + pack->name + ")");
    Status hs = exec.runSteps(h->second);
    if (!hs) return Status(hs.code(), std::string(name) + " hook: " + hs.message(), hs.hint());
    return hs;
  };
  st = hook("before_intent");
  for (int attempt = 1; st && attempt <= attempts; ++attempt) {
    st = builtin ? builtin->run(run) : exec.runSteps(def.steps);
    if (st || st.code() == codes::kCancelled || attempt == attempts) break;
    std::string code = lowerCode(st.code());
    if (!def.retry.on.empty() && std::find(def.retry.on.begin(), def.retry.on.end(), code) == def.retry.on.end()) break;
    run.log("retry " + std::to_string(attempt + 1) + "/" + std::to_string(attempts) + " after: " + st.message());
    // Back off until the page changes or the retry delay passes, then go again (from the
    // last checkpoint reached, if any).
    page.waitForChange(Deadline::inMs(def.retry.delay_ms > 0 ? def.retry.delay_ms : cfg.retry_delay_ms));
    if (!run.checkpoint.empty()) {
      run.resume_from = run.checkpoint;
      run.resuming = true;
    }
    Status rs = run.rescan();
    if (!rs) {
      st = rs;
      break;
    }
  }

  // Verify (§5.1 step 5): failure conditions first, then success conditions. Built-ins verify
  // their own outcome from the page.
  bool verified = false;
  if (st && run.verify && !builtin) {
    if (cfg.verify_failure) {
      for (const auto& fc : def.failure) {
        auto hit = exec.evalCondition(fc);
        if (hit && *hit) {
          st = Status(codes::kVerificationFailed, "failure condition met: " + conditionText(fc), "");
          if (!def.recovery.empty()) {
            Status rec = exec.runSteps(def.recovery);
            run.log(std::string("recovery ") + (rec ? "done" : "failed: " + rec.message()));
          }
          break;
        }
      }
    }
    if (st && cfg.verify_success && !def.success.empty()) {
      ConditionDef all;
      all.kind = ConditionDef::Kind::kAll;
      all.children = def.success;
      Deadline until = run.deadline.capped(Millis(cfg.step_timeout_ms));
      Status v = exec.waitCondition(all, until);
      if (!v) {
        st = v.code() == codes::kTimeout
                 ? Status(codes::kVerificationFailed, "success conditions not met: " + conditionText(all),
                          "observe to see the page; --no_verify skips the check")
                 : v;
      } else {
        verified = true;
        run.log("verified success conditions");
      }
    }
  }
  (void)verified;
  // Extract results (§3.1 success.extract).
  if (st) {
    for (const auto& [name, ex] : def.extract) {
      std::string value;
      if (ex.from == "url") {
        value = run.scan.url;
      } else if (ex.from == "title") {
        value = run.scan.title;
      } else {
        Result<std::string> t = std::string();
        if (ex.target) {
          auto el = exec.findOne(*ex.target);
          if (el && sandboxed(def) && el->isSensitive()) {
            st = refused(def, "extract " + name + " reads " + logLabel(*el) + " (a sensitive field)");
            break;
          }
          t = el ? page.scanner().textOfElement(el->scanner_id, el->frame) : page.scanner().textOf("body");
        } else {
          t = page.scanner().textOf("body");
        }
        if (t) value = *t;
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

  if (!st && st.code() != codes::kCancelled) {
    Status he = hook("on_error");
    if (!he) run.log(he.message());
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
    // The last step's own settle already saw the page still: waiting again finds nothing new.
    if (!page.settled()) page.settle();
    auto after = page.scan();
    if (after && !run.no_changes) {
      DiffContext dc;
      dc.new_document = documentOf(before_page) != documentOf(*after);
      dc.form_action = page.form_action;
      ChangeReport report = diffScans(before_page, *after, dc);
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
    page.reportEvents(r);
  }
  for (const auto& l : run.result) r.add("result", l);
  r.data["ok"] = r.kind == Response::Kind::kOk;
  if (!st) r.data["code"] = st.code();
  if (!run.checkpoint.empty()) r.data["checkpoint"] = run.checkpoint;
  if (!run.result.empty()) r.data["result"] = run.result;
  return r;
}

Response runPackHook(IntentHost& host, Page& page, const std::shared_ptr<const PackRuntime>& pack,
                     const std::string& hook) {
  Response r = okResponse(hook);
  auto h = pack->hooks.find(hook);
  if (h == pack->hooks.end()) return r;
  IntentDef def;
  def.name = hook;
  def.tier = "pack";
  def.pack = pack->name;
  def.pack_runtime = pack;
  def.trusted = pack->trusted;
  IntentRun run(page, host, def, page.deadline);
  auto scan = page.scan();
  if (!scan) return errorResponse(hook, scan.status());
  run.scan = *scan;
  Executor exec(run);
  Status st = exec.runSteps(h->second);
  for (const auto& a : run.actions) r.add("hooks", hook + " (" + pack->name + "): " + a);
  if (!st) {
    r.kind = Response::Kind::kError;
    r.code = st.code();
    r.summary = hook + " hook of " + pack->name + ": " + st.message();
    r.hint = st.hint();
  }
  return r;
}

}  // namespace lscope
