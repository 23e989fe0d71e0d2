// Intent definitions (intent-engine.md §3, Appendix B; schemas/intent-v1.json): the typed
// form the loader builds from YAML/JSON and the executor runs. Values that may be a literal or
// a "$param" reference stay JSON until bound at run time.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/oil.h"

namespace lscope {

using json = nlohmann::json;

// §3.3. Exactly one locator; at most one relation; an optional fallback.
struct TargetDef {
  enum class Kind { kPattern, kRole, kText, kTextContains, kSelector, kXpath, kId, kVar };
  Kind kind = Kind::kText;
  json value;  // pattern "name.field", role, text, list of texts, selector, id, or "$var"
  TextMatch match = TextMatch::kAuto;
  std::string relation;                 // near, inside, after, before
  std::shared_ptr<TargetDef> anchor;    // the relation's target
  std::shared_ptr<TargetDef> fallback;  // tried when this one finds nothing
  std::string path;                     // JSON pointer in the definition, for messages

  std::string describe() const;  // for action logs: pattern login_form.email, text "Sign in" ...
};

// §3.4. One kind per object; all/any/not combine.
struct ConditionDef {
  enum class Kind {
    kRef, kPatternExists, kVisible, kHidden, kUrlContains, kUrlMatches, kTextContains,
    kCount, kExpression, kAll, kAny, kNot, kCustom
  };
  Kind kind = Kind::kRef;
  json value;                          // "$ref", pattern name, url part(s), regex, text(s), expression,
                                       // a custom condition's name (§12.2)
  std::shared_ptr<TargetDef> target;   // visible, hidden; within for text_contains
  std::vector<ConditionDef> children;  // all, any, not (one child)
  std::string count_selector;
  std::optional<long long> count_min, count_max;
  std::string path;
};

// options.on_error entries and step on_error (§5.3).
struct ErrorHandler {
  std::string action;  // rescan_and_retry, wait, fail, skip
  long long timeout_ms = 0;
};

struct StepDef {
  enum class Kind { kAction, kBranch, kLoop, kTry, kCheckpoint };
  Kind kind = Kind::kAction;
  std::string action;                    // click, type, select, ... (kAction)
  std::shared_ptr<TargetDef> target;     // action target; null for none
  bool viewport = false;                 // scroll target: viewport
  json args = json::object();            // text, value, key, url, script, args, data, name,
                                         // params, direction, amount, options
  std::shared_ptr<ConditionDef> condition;  // wait condition, branch if
  long long timeout_ms = 0;              // 0: the engine's step timeout
  json optional = false;                 // boolean or "$param"
  std::map<std::string, ErrorHandler> on_error;
  std::vector<StepDef> then_steps, else_steps;  // branch
  std::vector<StepDef> body;                    // loop steps, try steps
  std::vector<StepDef> catch_steps;             // try catch
  bool has_catch = false;
  json loop_over;                        // "$param" or a literal list (kLoop)
  std::shared_ptr<TargetDef> loop_target;  // or every element a target matches
  std::string loop_as;
  int loop_max = 0;
  std::string checkpoint;                // kCheckpoint
  bool named_action = false;             // written `action: <intent or custom action>` (§12)
  std::string path;
};

struct ParamDef {
  std::string name;
  std::string type;  // string, number, boolean, object, array
  bool required = false;
  json default_value;  // null when absent
  std::string description;
  bool sensitive = false;
  json enum_values;  // null when absent
};

struct ExtractDef {
  std::string from;  // url, title, text
  std::shared_ptr<TargetDef> target;
  std::string pattern;  // regex, first capture group
};

struct RetryDef {
  int max_attempts = 1;
  long long delay_ms = 0;
  std::vector<std::string> on;  // lower_snake error codes; empty: any error
};

// What a site pack adds to its intents (intent-engine.md §12, §13.3): custom actions and
// conditions, pack-level hooks, and whether the pack is trusted.
struct CustomActionDef {
  std::string name;
  std::string description;
  std::vector<ParamDef> params;
  std::string code;  // implementation.type javascript: an (async) function(params, context)
};

struct CustomConditionDef {
  std::string name;
  std::string description;
  std::string type;                   // pattern_check or javascript
  std::vector<std::string> patterns;  // pattern_check: every one present
  std::string code;                   // javascript: a function(context) returning a boolean
};

struct PackRuntime {
  std::string name;
  std::string version;
  bool trusted = false;              // shipped, or installed with --trusted (§13.3)
  std::string trust;                 // builtin, trusted or community: what the user granted
  std::vector<std::string> domains;  // hosts the pack serves ("*" every site)
  std::map<std::string, CustomActionDef> actions;
  std::map<std::string, CustomConditionDef> conditions;
  // before_intent, after_navigate, on_error (§12.3)
  std::map<std::string, std::vector<StepDef>> hooks;
};

struct IntentDef {
  std::string name;
  std::string version;
  std::string description;
  std::string author;
  std::string pack;
  std::vector<std::string> tags;
  std::vector<std::string> trigger_patterns, trigger_keywords, trigger_urls;
  std::vector<std::string> phrases;  // how a person asks for it ("sign in", "log me in"): `do`
  std::vector<ParamDef> params;
  std::vector<StepDef> steps;
  std::vector<ConditionDef> success;
  std::map<std::string, ExtractDef> extract;
  std::vector<ConditionDef> failure;
  std::vector<StepDef> recovery;
  long long timeout_ms = 0;
  RetryDef retry;
  std::map<std::string, ErrorHandler> on_error;
  bool checkpoint = false;

  // Where it came from.
  std::string tier;  // builtin, core, pack, user, session
  std::string file;  // "" for built-ins and session intents
  bool trusted = false;  // may run execute steps (§13.2, §13.3)
  json document;  // the definition as written (YAML or JSON, as JSON); null for built-ins (export)
  std::shared_ptr<const PackRuntime> pack_runtime;  // a site pack's intent: its pack; else null

  const ParamDef* param(const std::string& n) const;
  // Names of every checkpoint, in order (for --resume).
  std::vector<std::string> checkpoints() const;
};

}  // namespace lscope
