// The intent loader: YAML (yaml-cpp) -> JSON with source marks -> checked IntentDef. Each
// rule mirrors schemas/intent-v1.json; tests/schemas/invalid/ holds one file per rule and the
// unit tests check this loader rejects each at the pointer the file declares.
#include "engine/intent_loader.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include <re2/re2.h>
#include <yaml-cpp/yaml.h>

#include "engine/files.h"

namespace lscope {

const ParamDef* IntentDef::param(const std::string& n) const {
  for (const auto& p : params) {
    if (p.name == n) return &p;
  }
  return nullptr;
}

namespace {

void collectCheckpoints(const std::vector<StepDef>& steps, std::vector<std::string>& out) {
  for (const auto& s : steps) {
    if (s.kind == StepDef::Kind::kCheckpoint) out.push_back(s.checkpoint);
    collectCheckpoints(s.then_steps, out);
    collectCheckpoints(s.else_steps, out);
    collectCheckpoints(s.body, out);
    collectCheckpoints(s.catch_steps, out);
  }
}

}  // namespace

std::vector<std::string> IntentDef::checkpoints() const {
  std::vector<std::string> out;
  collectCheckpoints(steps, out);
  return out;
}

std::string TargetDef::describe() const {
  std::string v = value.is_string() ? value.get<std::string>() : value.dump();
  switch (kind) {
    case Kind::kPattern: return "pattern " + v;
    case Kind::kRole: return "role " + v;
    case Kind::kText: return "text \"" + v + "\"";
    case Kind::kTextContains: return "text containing " + v;
    case Kind::kSelector: return "css(" + v + ")";
    case Kind::kXpath: return "xpath(" + v + ")";
    case Kind::kId: return "[" + v + "]";
    case Kind::kVar: return v;
  }
  return v;
}

namespace {

namespace fs = std::filesystem;

const std::regex kName("^[a-z][a-z0-9_]*$");
const std::regex kParamRef("^\\$[a-z][a-z0-9_]*(?:\\.[a-z0-9_]+)*$");
const std::regex kVersion("^\\d+(?:\\.\\d+)*$");
const std::regex kPatternRef("^[a-z][a-z0-9_]*(?:\\.[a-z][a-z0-9_]*)?$");
const std::regex kDomain("^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$");
const std::regex kKey(
    "^(?:(?:Control|Shift|Alt|Meta)\\+)*(?:Enter|Tab|Escape|Space|Backspace|Delete|Insert|ArrowUp|ArrowDown|"
    "ArrowLeft|ArrowRight|Home|End|PageUp|PageDown|F[1-9]|F1[0-2]|Control|Shift|Alt|Meta|\\S)$");

const std::set<std::string> kErrorCodes = {
    "element_not_found", "element_stale", "element_not_visible", "element_disabled",
    "element_not_interactable", "selector_invalid", "timeout", "navigation_error", "script_error",
    "target_not_found", "target_ambiguous", "step_failed", "verification_failed", "intent_unavailable"};

constexpr long long kMaxTimeoutMs = 300000;  // §13.2 "reasonable timeouts"
constexpr int kMaxLoop = 1000;               // §13.2 "bounded loops"

using Marks = std::map<std::string, YAML::Mark>;

std::string escapePointer(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

std::string quoteJs(const json& v) {
  return v.is_string() ? "\"" + v.get<std::string>() + "\"" : v.dump(-1, ' ', false, json::error_handler_t::replace);
}

// --- YAML -> JSON, keeping where each value was written ---------------------------------------

struct Converted {
  json value;
  Status status;
};

// YAML 1.2 core schema for plain scalars; quoted scalars are always strings.
json scalarValue(const YAML::Node& n) {
  const std::string& s = n.Scalar();
  if (n.Tag() == "!") return s;  // quoted
  if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") return nullptr;
  if (s == "true" || s == "True" || s == "TRUE") return true;
  if (s == "false" || s == "False" || s == "FALSE") return false;
  static const std::regex kInt("^[-+]?[0-9]+$");
  static const std::regex kFloat("^[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?$");
  if (std::regex_match(s, kInt)) {
    try {
      return std::stoll(s);
    } catch (...) {
    }
  }
  if (std::regex_match(s, kFloat)) {
    try {
      return std::stod(s);
    } catch (...) {
    }
  }
  return s;
}

class Converter {
 public:
  // An alias inside its own anchor (`&a {x: *a}`) is a cycle, and aliases of aliases expand
  // exponentially ("billion laughs"): both end at these bounds with an error, never a stack
  // overflow or a runaway expansion (found by fuzzing). Real definitions nest a dozen levels
  // and hold a few thousand values.
  static constexpr int kMaxDepth = 64;
  static constexpr long kMaxValues = 100000;

  explicit Converter(Marks& marks) : marks_(marks) {}

  bool convert(const YAML::Node& n, const std::string& path, json& out, int depth = 0) {
    marks_[path] = n.Mark();
    if (depth > kMaxDepth || ++values_ > kMaxValues) {
      error = (path.empty() ? "/" : path) + ": " +
              (depth > kMaxDepth ? "nested more than " + std::to_string(kMaxDepth) + " levels deep"
                                 : "more than " + std::to_string(kMaxValues) + " values") +
              " (an alias used inside its own anchor, or aliases that multiply?)";
      error_mark = n.Mark();
      error_hint = "flatten the structure; an anchor may not refer to itself";
      return false;
    }
    switch (n.Type()) {
      case YAML::NodeType::Null:
      case YAML::NodeType::Undefined:
        out = nullptr;
        return true;
      case YAML::NodeType::Scalar:
        out = scalarValue(n);
        return true;
      case YAML::NodeType::Sequence: {
        out = json::array();
        size_t i = 0;
        for (const auto& item : n) {
          json v;
          if (!convert(item, path + "/" + std::to_string(i++), v, depth + 1)) return false;
          out.push_back(std::move(v));
        }
        return true;
      }
      case YAML::NodeType::Map: {
        out = json::object();
        for (auto it = n.begin(); it != n.end(); ++it) {
          std::string key = it->first.IsScalar() ? it->first.Scalar() : "?";
          std::string child = path + "/" + escapePointer(key);
          if (out.contains(key)) {
            marks_[child] = it->first.Mark();
            error = child + ": duplicate key \"" + key + "\"; YAML mapping keys are unique";
            error_mark = it->first.Mark();
            error_hint = "remove the repeated key";
            return false;
          }
          json v;
          if (!convert(it->second, child, v, depth + 1)) return false;
          marks_[child] = it->first.Mark();  // point at the key, where people look
          out[key] = std::move(v);
        }
        return true;
      }
    }
    return true;
  }

  std::string error;
  std::string error_hint;
  YAML::Mark error_mark;

 private:
  Marks& marks_;
  long values_ = 0;
};

// --- checked building of the definition -------------------------------------------------------

class Builder {
 public:
  Builder(const std::string& file, const Marks& marks, const LoadOptions& options)
      : file_(file), marks_(marks), options_(options) {}

  Status status;  // the first error
  // Pack files report PACK_LOAD_FAILED and point at their own schema.
  const char* error_code = codes::kDefinitionInvalid;
  std::string schema_hint = "see schemas/intent-v1.json and schemas/README.md";
  // Hook steps (§12.3) may carry `condition`: the step runs only when it holds.
  bool hook_steps = false;

  bool fail(const std::string& path, const std::string& message) {
    if (!status) return false;
    YAML::Mark m;
    std::string p = path;
    for (;;) {
      auto it = marks_.find(p);
      if (it != marks_.end()) {
        m = it->second;
        break;
      }
      auto slash = p.rfind('/');
      if (slash == std::string::npos || p.empty()) break;
      p = p.substr(0, slash);
    }
    status = Status(error_code,
                    file_ + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1) + ": " +
                        (path.empty() ? "/" : path) + ": " + message,
                    schema_hint);
    return false;
  }

  // Only `allowed` keys; the first other one is an error at its own path.
  bool onlyKeys(const json& obj, const std::string& path, std::initializer_list<const char*> allowed,
                const std::string& what) {
    for (auto it = obj.begin(); it != obj.end(); ++it) {
      bool ok = std::any_of(allowed.begin(), allowed.end(), [&](const char* a) { return it.key() == a; });
      if (!ok) return fail(path + "/" + escapePointer(it.key()), "unknown " + what + " \"" + it.key() + "\"");
    }
    return true;
  }

  static bool isRef(const json& v) { return v.is_string() && std::regex_match(v.get<std::string>(), kParamRef); }

  bool name(const json& v, const std::string& path, std::string& out, const std::string& what) {
    if (!v.is_string() || !std::regex_match(v.get<std::string>(), kName)) {
      return fail(path, what + " " + quoteJs(v) + " is not lower_snake_case (^[a-z][a-z0-9_]*$)");
    }
    out = v.get<std::string>();
    return true;
  }

  // The document's /version: a dotted numeric version ("1.2.0"); YAML may read 1 or 1.2 as numbers.
  bool version(const json& doc, std::string& out) {
    if (!doc.contains("version")) return fail("/version", "no version");
    const json& ver = doc["version"];
    if (ver.is_number() && ver.get<double>() >= 0) {
      out = ver.is_number_integer() ? std::to_string(ver.get<long long>()) : ver.dump();
    } else if (ver.is_string() && std::regex_match(ver.get<std::string>(), kVersion)) {
      out = ver.get<std::string>();
    } else {
      return fail("/version", quoteJs(ver) + " is not a dotted numeric version");
    }
    return true;
  }

  bool boolean(const json& v, const std::string& path, const std::string& what) {
    if (v.is_boolean() || isRef(v)) return true;
    return fail(path, what + " is " + quoteJs(v) + ", not a boolean or \"$param\"");
  }

  bool text(const json& v, const std::string& path, const std::string& what) {
    if ((v.is_string() && !v.get<std::string>().empty()) || v.is_number()) return true;
    return fail(path, what + " must be a non-empty text or a number");
  }

  bool textList(const json& v, const std::string& path, const std::string& what) {
    if (v.is_array()) {
      if (v.empty()) return fail(path, "empty list of texts");
      for (size_t i = 0; i < v.size(); ++i) {
        if (!text(v[i], path + "/" + std::to_string(i), what)) return false;
      }
      return true;
    }
    return text(v, path, what);
  }

  bool regex(const json& v, const std::string& path) {
    if (!v.is_string() || v.get<std::string>().empty()) return fail(path, "a regular expression must be a non-empty string");
    RE2 re(v.get<std::string>(), RE2::Quiet);
    if (!re.ok()) return fail(path, "invalid regular expression: " + re.error());
    return true;
  }

  // Durations: integer milliseconds, or "<n>ms" / "<n>s" / "<n>m"; no fractions, no hours.
  bool duration(const json& v, const std::string& path, bool is_timeout, long long& out) {
    long long ms = -1;
    if (v.is_number_integer()) {
      ms = v.get<long long>();
    } else if (v.is_string()) {
      static const std::regex kDur("^([0-9]+)(ms|s|m)$");
      std::smatch m;
      std::string s = v.get<std::string>();
      if (s.find('.') != std::string::npos && std::regex_match(s, std::regex("^[0-9]*\\.[0-9]+(ms|s|m)$"))) {
        return fail(path, quoteJs(v) + " has a fraction (write it in ms)");
      }
      if (!std::regex_match(s, m, kDur)) {
        if (std::regex_match(s, std::regex("^[0-9]+h$"))) {
          return fail(path, (is_timeout ? "timeout " : "duration ") + s + " is above the limit of 300s (§13.2)");
        }
        return fail(path, quoteJs(v) + " is not a duration (integer ms, or \"<n>ms\", \"<n>s\", \"<n>m\")");
      }
      // Nine digits of minutes still fit a long long; more is above the limit anyway (found by fuzz_yaml).
      long long n = m[1].length() > 9 ? kMaxTimeoutMs + 1 : std::stoll(m[1]);
      ms = m[2] == "ms" ? n : m[2] == "s" ? n * 1000 : n * 60000;
    } else {
      return fail(path, quoteJs(v) + " is not a duration (integer ms, or \"<n>ms\", \"<n>s\", \"<n>m\")");
    }
    if (ms > kMaxTimeoutMs) {
      return fail(path, (is_timeout ? "timeout " : "duration ") +
                            (v.is_string() ? v.get<std::string>() : std::to_string(ms)) +
                            " is above the limit of 300s (§13.2)");
    }
    if (ms < 0 || (is_timeout && ms == 0)) {
      return fail(path, std::string(is_timeout ? "timeout " : "duration ") + quoteJs(v) + " (a timeout is above 0)");
    }
    out = ms;
    return true;
  }

  bool onError(const json& v, const std::string& path, std::map<std::string, ErrorHandler>& out) {
    if (!v.is_object() || v.empty()) return fail(path, "on_error is an object of error code: {action}");
    for (auto it = v.begin(); it != v.end(); ++it) {
      std::string p = path + "/" + escapePointer(it.key());
      if (it.key() != "default" && !kErrorCodes.count(it.key())) {
        return fail(p, "\"" + it.key() + "\" is not an error code");
      }
      if (!it->is_object()) return fail(p, "an error handler is {action, timeout}");
      if (!onlyKeys(*it, p, {"action", "timeout"}, "error handler key")) return false;
      ErrorHandler h;
      if (!it->contains("action")) return fail(p + "/action", "error handler without action");
      const json& a = (*it)["action"];
      static const std::set<std::string> kActions = {"rescan_and_retry", "wait", "fail", "skip"};
      if (!a.is_string() || !kActions.count(a.get<std::string>())) {
        return fail(p + "/action", "on_error action " + quoteJs(a) + " (rescan_and_retry, wait, fail or skip)");
      }
      h.action = a.get<std::string>();
      if (it->contains("timeout") && !duration((*it)["timeout"], p + "/timeout", true, h.timeout_ms)) return false;
      out[it.key()] = h;
    }
    return true;
  }

  // §3.3 targets.
  std::shared_ptr<TargetDef> target(const json& v, const std::string& path) {
    auto t = std::make_shared<TargetDef>();
    t->path = path;
    if (v.is_string()) {
      if (isRef(v)) {
        t->kind = TargetDef::Kind::kVar;
        t->value = v;
        return t;
      }
      fail(path, "a target is an object or a \"$var\" reference, not a bare text");
      return nullptr;
    }
    if (!v.is_object()) {
      fail(path, "a target is an object");
      return nullptr;
    }
    if (!onlyKeys(v, path, {"pattern", "role", "text", "match", "text_contains", "selector", "xpath", "id",
                            "near", "inside", "after", "before", "fallback"},
                  "target key")) {
      return nullptr;
    }
    std::vector<std::string> locators;
    for (const char* k : {"pattern", "role", "text", "text_contains", "selector", "xpath", "id"}) {
      if (v.contains(k)) locators.push_back(k);
    }
    if (locators.empty()) {
      fail(path, "target without any locator (pattern, role, text, text_contains, selector, xpath or id)");
      return nullptr;
    }
    if (locators.size() > 1) {
      fail(path, "two locators in one target (" + locators[0] + " and " + locators[1] + "); chain them with fallback");
      return nullptr;
    }
    const std::string& loc = locators[0];
    const json& value = v[loc];
    std::string lp = path + "/" + loc;
    t->value = value;
    if (loc == "pattern") {
      t->kind = TargetDef::Kind::kPattern;
      if (!isRef(value) && !(value.is_string() && std::regex_match(value.get<std::string>(), kPatternRef))) {
        fail(lp, "pattern reference " + quoteJs(value) + " is not name or name.field");
        return nullptr;
      }
    } else if (loc == "role") {
      t->kind = TargetDef::Kind::kRole;
      if (!isRef(value) && !(value.is_string() && std::regex_match(value.get<std::string>(), kName))) {
        fail(lp, "role " + quoteJs(value) + " is not a role name");
        return nullptr;
      }
    } else if (loc == "text") {
      t->kind = TargetDef::Kind::kText;
      if (!text(value, lp, "text")) return nullptr;
    } else if (loc == "text_contains") {
      t->kind = TargetDef::Kind::kTextContains;
      if (!textList(value, lp, "text_contains")) return nullptr;
    } else if (loc == "selector" || loc == "xpath") {
      t->kind = loc == "selector" ? TargetDef::Kind::kSelector : TargetDef::Kind::kXpath;
      if (!value.is_string() || value.get<std::string>().empty()) {
        fail(lp, loc + " must be a non-empty string");
        return nullptr;
      }
    } else {
      t->kind = TargetDef::Kind::kId;
      if (!isRef(value) && !(value.is_number_integer() && value.get<long long>() >= 1)) {
        fail(lp, "id must be a positive integer or \"$param\"");
        return nullptr;
      }
    }
    if (v.contains("match")) {
      if (t->kind != TargetDef::Kind::kText) {
        fail(path + "/match", "match without text (it qualifies text only)");
        return nullptr;
      }
      const json& m = v["match"];
      std::string ms = m.is_string() ? m.get<std::string>() : "";
      if (ms != "exact" && ms != "contains" && ms != "regex") {
        fail(path + "/match", "match " + quoteJs(m) + " (exact, contains or regex)");
        return nullptr;
      }
      t->match = ms == "exact" ? TextMatch::kExact : ms == "contains" ? TextMatch::kContains : TextMatch::kRegex;
      if (t->match == TextMatch::kRegex && !regex(value, path + "/text")) return nullptr;
    }
    std::vector<std::string> relations;
    for (const char* k : {"near", "inside", "after", "before"}) {
      if (v.contains(k)) relations.push_back(k);
    }
    if (relations.size() > 1) {
      fail(path, "two relations (" + relations[0] + " and " + relations[1] + ") in one target; nest them instead");
      return nullptr;
    }
    if (!relations.empty()) {
      t->relation = relations[0];
      t->anchor = target(v[relations[0]], path + "/" + relations[0]);
      if (!t->anchor) return nullptr;
    }
    if (v.contains("fallback")) {
      t->fallback = target(v["fallback"], path + "/fallback");
      if (!t->fallback) return nullptr;
    }
    return t;
  }

  // §3.4 conditions.
  std::shared_ptr<ConditionDef> condition(const json& v, const std::string& path) {
    auto c = std::make_shared<ConditionDef>();
    c->path = path;
    if (v.is_string()) {
      if (isRef(v)) {
        c->kind = ConditionDef::Kind::kRef;
        c->value = v;
        return c;
      }
      fail(path, quoteJs(v) + " is neither a condition nor a \"$param\" reference");
      return nullptr;
    }
    if (!v.is_object() || v.empty()) {
      fail(path, "a condition is an object with one kind, or a \"$param\"");
      return nullptr;
    }
    if (!onlyKeys(v, path, {"pattern_exists", "visible", "hidden", "url_contains", "url_matches", "text_contains",
                            "within", "count", "expression", "all", "any", "not", "custom"},
                  "condition key")) {
      return nullptr;
    }
    if (v.contains("within") && !v.contains("text_contains")) {
      fail(path + "/within", "within without text_contains (it scopes text_contains only)");
      return nullptr;
    }
    std::vector<std::string> kinds;
    for (auto it = v.begin(); it != v.end(); ++it) {
      if (it.key() != "within") kinds.push_back(it.key());
    }
    if (kinds.size() != 1) {
      fail(path, "two kinds of condition in one object (" + kinds[0] + " and " + kinds[1] + "); combine them with all");
      return nullptr;
    }
    const std::string& k = kinds[0];
    const json& value = v[k];
    std::string kp = path + "/" + k;
    c->value = value;
    if (k == "pattern_exists") {
      c->kind = ConditionDef::Kind::kPatternExists;
      if (!isRef(value) && !(value.is_string() && std::regex_match(value.get<std::string>(), kPatternRef))) {
        fail(kp, "pattern " + quoteJs(value) + " is not a pattern name");
        return nullptr;
      }
    } else if (k == "visible" || k == "hidden") {
      c->kind = k == "visible" ? ConditionDef::Kind::kVisible : ConditionDef::Kind::kHidden;
      c->target = target(value, kp);
      if (!c->target) return nullptr;
    } else if (k == "url_contains") {
      c->kind = ConditionDef::Kind::kUrlContains;
      bool ok = value.is_string() ? !value.get<std::string>().empty() : value.is_array() && !value.empty();
      if (ok && value.is_array()) {
        for (const auto& s : value) ok = ok && s.is_string() && !s.get<std::string>().empty();
      }
      if (!ok) {
        fail(kp, "url_contains is a text or a non-empty list of texts");
        return nullptr;
      }
    } else if (k == "url_matches") {
      c->kind = ConditionDef::Kind::kUrlMatches;
      if (!regex(value, kp)) return nullptr;
    } else if (k == "text_contains") {
      c->kind = ConditionDef::Kind::kTextContains;
      if (!textList(value, kp, "text_contains")) return nullptr;
      if (v.contains("within")) {
        c->target = target(v["within"], path + "/within");
        if (!c->target) return nullptr;
      }
    } else if (k == "count") {
      c->kind = ConditionDef::Kind::kCount;
      if (!value.is_object()) {
        fail(kp, "count is {selector, min, max}");
        return nullptr;
      }
      if (!onlyKeys(value, kp, {"selector", "min", "max"}, "count key")) return nullptr;
      if (!value.contains("selector") || !value["selector"].is_string() || value["selector"].get<std::string>().empty()) {
        fail(kp + "/selector", "count without selector");
        return nullptr;
      }
      c->count_selector = value["selector"].get<std::string>();
      for (const char* b : {"min", "max"}) {
        if (!value.contains(b)) continue;
        if (!value[b].is_number_integer() || value[b].get<long long>() < 0) {
          fail(kp + "/" + b, std::string(b) + " must be an integer >= 0");
          return nullptr;
        }
        (std::string(b) == "min" ? c->count_min : c->count_max) = value[b].get<long long>();
      }
      if (c->count_min && c->count_max && *c->count_max < *c->count_min) {
        fail(kp + "/max", "count max " + std::to_string(*c->count_max) + " is below min " + std::to_string(*c->count_min));
        return nullptr;
      }
    } else if (k == "expression") {
      c->kind = ConditionDef::Kind::kExpression;
      if (!value.is_string() || value.get<std::string>().empty()) {
        fail(kp, "expression must be a non-empty string");
        return nullptr;
      }
    } else if (k == "custom") {
      // §12.2: a custom condition of the intent's own pack.
      c->kind = ConditionDef::Kind::kCustom;
      std::string n;
      if (!name(value, kp, n, "custom condition")) return nullptr;
      if (!options_.pack) {
        fail(kp, "custom conditions belong to a site pack (custom_conditions in its pack.yaml)");
        return nullptr;
      }
      if (!options_.pack->conditions.count(n)) {
        fail(kp, "pack " + options_.pack->name + " has no custom condition \"" + n + "\"");
        return nullptr;
      }
    } else if (k == "all" || k == "any") {
      c->kind = k == "all" ? ConditionDef::Kind::kAll : ConditionDef::Kind::kAny;
      if (!value.is_array() || value.empty()) {
        fail(kp, k + " with no conditions");
        return nullptr;
      }
      for (size_t i = 0; i < value.size(); ++i) {
        auto child = condition(value[i], kp + "/" + std::to_string(i));
        if (!child) return nullptr;
        c->children.push_back(*child);
      }
    } else {  // not
      c->kind = ConditionDef::Kind::kNot;
      auto child = condition(value, kp);
      if (!child) return nullptr;
      c->children.push_back(*child);
    }
    return c;
  }

  bool steps(const json& v, const std::string& path, std::vector<StepDef>& out) {
    if (!v.is_array()) return fail(path, "steps is a list of steps");
    if (v.empty()) return fail(path, "steps is empty (at least one step)");
    for (size_t i = 0; i < v.size(); ++i) {
      StepDef s;
      if (!step(v[i], path + "/" + std::to_string(i), s)) return false;
      out.push_back(std::move(s));
    }
    return true;
  }

  bool step(const json& v, const std::string& path, StepDef& s) {
    s.path = path;
    bool guard_allowed = hook_steps;  // a hook's own steps only, not those nested in them
    hook_steps = false;
    if (!v.is_object()) return fail(path, "a step is an object (OIL shorthand is not YAML step syntax)");
    if (guard_allowed && v.contains("action") && v.contains("condition") && v["action"] != "wait") {
      // A hook step's condition guards it: a branch holding the step alone.
      json inner = v;
      inner.erase("condition");
      s.kind = StepDef::Kind::kBranch;
      s.condition = condition(v["condition"], path + "/condition");
      if (!s.condition) return false;
      StepDef body;
      if (!actionStep(inner, path, body)) return false;
      s.then_steps.push_back(std::move(body));
      return true;
    }
    if (v.contains("action")) return actionStep(v, path, s);
    if (v.contains("branch")) {
      s.kind = StepDef::Kind::kBranch;
      if (!onlyKeys(v, path, {"branch"}, "step key")) return false;
      const json& b = v["branch"];
      std::string bp = path + "/branch";
      if (!b.is_object()) return fail(bp, "branch is {if, then, else}");
      if (!onlyKeys(b, bp, {"if", "then", "else"}, "branch key")) return false;
      if (!b.contains("if")) return fail(bp + "/if", "branch without if");
      if (!b.contains("then")) return fail(bp + "/then", "branch without then");
      s.condition = condition(b["if"], bp + "/if");
      if (!s.condition) return false;
      if (!steps(b["then"], bp + "/then", s.then_steps)) return false;
      if (b.contains("else") && !steps(b["else"], bp + "/else", s.else_steps)) return false;
      return true;
    }
    if (v.contains("loop")) {
      s.kind = StepDef::Kind::kLoop;
      if (!onlyKeys(v, path, {"loop"}, "step key")) return false;
      const json& l = v["loop"];
      std::string lp = path + "/loop";
      if (!l.is_object()) return fail(lp, "loop is {over, as, steps, max}");
      if (!onlyKeys(l, lp, {"over", "as", "steps", "max"}, "loop key")) return false;
      if (!l.contains("max")) return fail(lp + "/max", "loop without max is unbounded (§13.2)");
      const json& mx = l["max"];
      if (mx.is_string() && isRef(mx)) {
        return fail(lp + "/max", "loop max is a \"$param\" reference; limits must be literal so the bound is known at load time");
      }
      if (!mx.is_number_integer()) return fail(lp + "/max", "loop max must be an integer 1..1000");
      if (mx.get<long long>() > kMaxLoop) {
        return fail(lp + "/max", "loop max " + std::to_string(mx.get<long long>()) + " is above the limit of 1000");
      }
      if (mx.get<long long>() < 1) return fail(lp + "/max", "loop max " + std::to_string(mx.get<long long>()) + " (at least 1)");
      s.loop_max = static_cast<int>(mx.get<long long>());
      if (!l.contains("over")) return fail(lp + "/over", "loop without over");
      const json& over = l["over"];
      if (over.is_string()) {
        if (!isRef(over)) {
          return fail(lp + "/over", quoteJs(over) + " is neither a \"$param\" reference, a list nor a target");
        }
        s.loop_over = over;
      } else if (over.is_array()) {
        s.loop_over = over;
      } else if (over.is_object()) {
        s.loop_target = target(over, lp + "/over");
        if (!s.loop_target) return false;
      } else {
        return fail(lp + "/over", "loop over a \"$param\", a list or a target");
      }
      if (!l.contains("as")) return fail(lp + "/as", "loop without as");
      if (!name(l["as"], lp + "/as", s.loop_as, "loop variable")) return false;
      if (!l.contains("steps")) return fail(lp + "/steps", "loop without steps");
      return steps(l["steps"], lp + "/steps", s.body);
    }
    if (v.contains("try")) {
      s.kind = StepDef::Kind::kTry;
      if (!onlyKeys(v, path, {"try"}, "step key")) return false;
      const json& t = v["try"];
      std::string tp = path + "/try";
      if (!t.is_object()) return fail(tp, "try is {steps, catch}");
      if (!onlyKeys(t, tp, {"steps", "catch"}, "try key")) return false;
      if (!t.contains("steps")) return fail(tp + "/steps", "try without steps");
      if (!steps(t["steps"], tp + "/steps", s.body)) return false;
      if (t.contains("catch")) {
        s.has_catch = true;
        if (!steps(t["catch"], tp + "/catch", s.catch_steps)) return false;
      }
      return true;
    }
    if (v.contains("checkpoint")) {
      s.kind = StepDef::Kind::kCheckpoint;
      if (!onlyKeys(v, path, {"checkpoint"}, "step key")) return false;
      return name(v["checkpoint"], path + "/checkpoint", s.checkpoint, "checkpoint name");
    }
    return fail(path + "/action", "a step that is neither an action nor a control step (branch, loop, try, checkpoint)");
  }

  bool actionStep(const json& v, const std::string& path, StepDef& s) {
    s.kind = StepDef::Kind::kAction;
    const json& a = v["action"];
    static const std::map<std::string, std::vector<const char*>> kKeys = {
        {"click", {"target", "options"}},        {"type", {"target", "text", "options"}},
        {"select", {"target", "value"}},         {"check", {"target"}},
        {"uncheck", {"target"}},                 {"clear", {"target"}},
        {"scroll", {"target", "direction", "amount"}}, {"wait", {"condition"}},
        {"fill_form", {"target", "data"}},       {"intent", {"name", "params"}},
        {"execute", {"script", "args"}},         {"press", {"key", "target"}},
        {"goto", {"url"}},                       {"observe", {}},
        {"screenshot", {"output"}},
    };
    std::string act = a.is_string() ? a.get<std::string>() : "";
    auto spec = kKeys.find(act);
    if (spec == kKeys.end()) return namedActionStep(v, path, s, act);
    s.action = act;
    for (auto it = v.begin(); it != v.end(); ++it) {
      const std::string& k = it.key();
      bool known = k == "action" || k == "timeout" || k == "optional" || k == "on_error" ||
                   std::any_of(spec->second.begin(), spec->second.end(), [&](const char* x) { return k == x; });
      if (!known) return fail(path + "/" + escapePointer(k), "unknown key on a " + act + " step");
    }
    auto need = [&](const char* key) {
      if (v.contains(key)) return true;
      return fail(path + "/" + key, act + " step without " + key);
    };
    if (v.contains("timeout") && !duration(v["timeout"], path + "/timeout", true, s.timeout_ms)) return false;
    if (v.contains("optional")) {
      if (!boolean(v["optional"], path + "/optional", "optional")) return false;
      s.optional = v["optional"];
    }
    if (v.contains("on_error") && !onError(v["on_error"], path + "/on_error", s.on_error)) return false;

    bool needs_target = act == "click" || act == "type" || act == "select" || act == "check" || act == "uncheck" ||
                        act == "clear";
    if (needs_target && !need("target")) return false;
    if (v.contains("target")) {
      if (act == "scroll" && v["target"] == "viewport") {
        s.viewport = true;
      } else {
        s.target = target(v["target"], path + "/target");
        if (!s.target) return false;
      }
    }
    if (act == "click" && v.contains("options")) {
      const json& o = v["options"];
      std::string op = path + "/options";
      if (!o.is_object()) return fail(op, "click options is an object");
      if (!onlyKeys(o, op, {"button", "count", "force"}, "click option")) return false;
      if (o.contains("button") && o["button"] != "left" && o["button"] != "right" && o["button"] != "middle") {
        return fail(op + "/button", "mouse button " + quoteJs(o["button"]) + " (left, right or middle)");
      }
      if (o.contains("count") && !(o["count"].is_number_integer() && o["count"] >= 1 && o["count"] <= 3)) {
        return fail(op + "/count", "click count " + o["count"].dump() + " (1 to 3)");
      }
      if (o.contains("force") && !boolean(o["force"], op + "/force", "force")) return false;
      s.args["options"] = o;
    }
    if (act == "type") {
      if (!need("text") || !text(v["text"], path + "/text", "text")) return false;
      s.args["text"] = v["text"];
      if (v.contains("options")) {
        const json& o = v["options"];
        std::string op = path + "/options";
        if (!o.is_object()) return fail(op, "type options is an object");
        if (!onlyKeys(o, op, {"clear", "delay", "enter"}, "type option")) return false;
        if (o.contains("clear") && !boolean(o["clear"], op + "/clear", "clear")) return false;
        if (o.contains("enter") && !boolean(o["enter"], op + "/enter", "enter")) return false;
        long long delay;
        if (o.contains("delay") && !duration(o["delay"], op + "/delay", false, delay)) return false;
        s.args["options"] = o;
      }
    }
    if (act == "select") {
      if (!need("value")) return false;
      if (!v["value"].is_string() && !v["value"].is_number()) return fail(path + "/value", "value is a text or an index");
      s.args["value"] = v["value"];
    }
    if (act == "scroll") {
      if (v.contains("direction")) {
        const json& d = v["direction"];
        if (d != "up" && d != "down" && d != "left" && d != "right") {
          return fail(path + "/direction", "scroll direction " + quoteJs(d) + " (up, down, left or right)");
        }
        s.args["direction"] = d;
      }
      if (v.contains("amount")) {
        const json& am = v["amount"];
        if (!(am == "page" || (am.is_number_integer() && am.get<long long>() >= 1))) {
          return fail(path + "/amount", "scroll amount " + quoteJs(am) + " (pixels or \"page\")");
        }
        s.args["amount"] = am;
      }
    }
    if (act == "wait") {
      if (!need("condition")) return false;
      s.condition = condition(v["condition"], path + "/condition");
      if (!s.condition) return false;
    }
    if (act == "fill_form") {
      if (!need("data")) return false;
      const json& d = v["data"];
      if (!(isRef(d) || (d.is_object() && !d.empty()))) return fail(path + "/data", "data is an object or a \"$param\"");
      s.args["data"] = d;
    }
    if (act == "intent") {
      if (!need("name")) return false;
      std::string n;
      if (!name(v["name"], path + "/name", n, "intent name")) return false;
      s.args["name"] = n;
      if (v.contains("params")) {
        if (!v["params"].is_object()) return fail(path + "/params", "params is an object");
        for (auto it = v["params"].begin(); it != v["params"].end(); ++it) {
          std::string pn;
          if (!name(json(it.key()), path + "/params/" + escapePointer(it.key()), pn, "parameter name")) return false;
        }
        s.args["params"] = v["params"];
      }
    }
    if (act == "execute") {
      if (!need("script")) return false;
      if (!v["script"].is_string() || v["script"].get<std::string>().empty()) return fail(path + "/script", "script is a non-empty text");
      if (!options_.trusted && !options_.pack) {
        return fail(path + "/action", "execute steps run arbitrary JavaScript and need a trusted source (§13.2)");
      }
      s.args["script"] = v["script"];
      if (v.contains("args")) {
        if (!v["args"].is_array()) return fail(path + "/args", "args is a list");
        s.args["args"] = v["args"];
      }
    }
    if (act == "press") {
      if (!need("key")) return false;
      const json& k = v["key"];
      if (!isRef(k) && !(k.is_string() && std::regex_match(k.get<std::string>(), kKey))) {
        return fail(path + "/key", quoteJs(k) + " is not a key name (Enter, Tab, Escape, ArrowDown, Control+A ...)");
      }
      s.args["key"] = k;
    }
    if (act == "screenshot" && v.contains("output")) {
      if (!v["output"].is_string() || v["output"].get<std::string>().empty()) {
        return fail(path + "/output", "output is a non-empty file path");
      }
      s.args["output"] = v["output"];
    }
    if (act == "goto") {
      if (!need("url")) return false;
      if (!v["url"].is_string() || v["url"].get<std::string>().empty()) return fail(path + "/url", "url is a non-empty text");
      s.args["url"] = v["url"];
    }
    return true;
  }

  // An action that is not a built-in step action: a custom action of the intent's pack
  // (§12.1), or a built-in intent called by name (`action: dismiss_popups`, as §12.3 writes it).
  bool namedActionStep(const json& v, const std::string& path, StepDef& s, const std::string& act) {
    static const std::set<std::string> kIntentActions = {"login", "logout", "search", "accept_cookies",
                                                         "dismiss_popups", "scroll_to", "submit_form"};
    bool custom = options_.pack && options_.pack->actions.count(act);
    if (!custom && !kIntentActions.count(act)) {
      std::string why = options_.pack ? " (not a step action, a built-in intent or a custom action of pack " +
                                            options_.pack->name + ")"
                                      : "";
      return fail(path + "/action", "unknown action " + quoteJs(v["action"]) + why);
    }
    if (!onlyKeys(v, path, {"action", "params", "timeout", "optional", "on_error"}, "key on a " + act + " step")) {
      return false;
    }
    if (v.contains("timeout") && !duration(v["timeout"], path + "/timeout", true, s.timeout_ms)) return false;
    if (v.contains("optional")) {
      if (!boolean(v["optional"], path + "/optional", "optional")) return false;
      s.optional = v["optional"];
    }
    if (v.contains("on_error") && !onError(v["on_error"], path + "/on_error", s.on_error)) return false;
    json params = v.value("params", json::object());
    if (!params.is_object()) return fail(path + "/params", "params is an object");
    if (custom) {
      const CustomActionDef& ca = options_.pack->actions.at(act);
      for (auto it = params.begin(); it != params.end(); ++it) {
        bool known = std::any_of(ca.params.begin(), ca.params.end(), [&](const ParamDef& p) { return p.name == it.key(); });
        if (!known) return fail(path + "/params/" + escapePointer(it.key()), "custom action " + act + " has no parameter \"" + it.key() + "\"");
      }
      for (const auto& p : ca.params) {
        if (p.required && !params.contains(p.name)) return fail(path + "/params/" + p.name, act + " needs " + p.name);
      }
      s.action = "custom";
    } else {
      s.action = "intent";
    }
    s.kind = StepDef::Kind::kAction;
    s.named_action = true;
    s.args["name"] = act;
    s.args["params"] = params;
    return true;
  }

  bool parameter(const json& v, const std::string& path, ParamDef& p) {
    if (!v.is_object()) return fail(path, "a parameter is {name, type, ...}");
    if (!onlyKeys(v, path, {"name", "type", "required", "default", "description", "sensitive", "enum"}, "parameter key")) {
      return false;
    }
    if (!v.contains("name")) return fail(path + "/name", "parameter without name");
    if (!name(v["name"], path + "/name", p.name, "parameter name")) return false;
    if (!v.contains("type")) return fail(path + "/type", "parameter without type");
    static const std::set<std::string> kTypes = {"string", "number", "boolean", "object", "array"};
    const json& t = v["type"];
    if (!t.is_string() || !kTypes.count(t.get<std::string>())) {
      return fail(path + "/type", "parameter type " + quoteJs(t) + " (string, number, boolean, object or array)");
    }
    p.type = t.get<std::string>();
    if (v.contains("required")) {
      if (!v["required"].is_boolean()) return fail(path + "/required", "required is true or false");
      p.required = v["required"].get<bool>();
    }
    if (v.contains("sensitive")) {
      if (!v["sensitive"].is_boolean()) return fail(path + "/sensitive", "sensitive is " + quoteJs(v["sensitive"]) + ", not a boolean");
      p.sensitive = v["sensitive"].get<bool>();
    }
    if (v.contains("description")) {
      if (!v["description"].is_string()) return fail(path + "/description", "description is a text");
      p.description = v["description"].get<std::string>();
    }
    auto typeOk = [&](const json& x) {
      if (p.type == "string") return x.is_string();
      if (p.type == "number") return x.is_number();
      if (p.type == "boolean") return x.is_boolean();
      if (p.type == "object") return x.is_object();
      return x.is_array();
    };
    if (v.contains("enum")) {
      const json& e = v["enum"];
      if (p.type != "string" && p.type != "number") {
        return fail(path + "/enum", "enum on a " + p.type + " parameter (string and number only)");
      }
      if (!e.is_array() || e.empty()) return fail(path + "/enum", "enum is a non-empty list");
      for (size_t i = 0; i < e.size(); ++i) {
        if (!typeOk(e[i])) return fail(path + "/enum/" + std::to_string(i), "enum value of the wrong type");
        for (size_t j = 0; j < i; ++j) {
          if (e[j] == e[i]) return fail(path + "/enum/" + std::to_string(i), "duplicate enum value");
        }
      }
      p.enum_values = e;
    }
    if (v.contains("default")) {
      const json& d = v["default"];
      if (!typeOk(d)) {
        return fail(path + "/default", "default " + quoteJs(d) + " of a " + p.type + " parameter is not a " + p.type);
      }
      if (p.enum_values.is_array() &&
          std::find(p.enum_values.begin(), p.enum_values.end(), d) == p.enum_values.end()) {
        return fail(path + "/default", "default " + quoteJs(d) + " is not one of the enum values");
      }
      p.default_value = d;
    }
    return true;
  }

  bool stringArray(const json& v, const std::string& path, std::vector<std::string>& out, bool names) {
    if (!v.is_array() || v.empty()) return fail(path, "a non-empty list");
    for (size_t i = 0; i < v.size(); ++i) {
      std::string p = path + "/" + std::to_string(i);
      if (!v[i].is_string() || v[i].get<std::string>().empty()) return fail(p, "a non-empty text");
      if (names && !std::regex_match(v[i].get<std::string>(), kName)) return fail(p, "not a pattern name");
      if (std::find(out.begin(), out.end(), v[i].get<std::string>()) != out.end()) return fail(p, "duplicate");
      out.push_back(v[i].get<std::string>());
    }
    return true;
  }

  bool conditionList(const json& v, const std::string& path, std::vector<ConditionDef>& out) {
    if (!v.is_array() || v.empty()) return fail(path, "conditions is a non-empty list");
    for (size_t i = 0; i < v.size(); ++i) {
      auto c = condition(v[i], path + "/" + std::to_string(i));
      if (!c) return false;
      out.push_back(*c);
    }
    return true;
  }

  bool build(const json& doc, IntentDef& def) {
    if (!doc.is_object()) return fail("", "an intent definition is a mapping (intent, version, steps ...)");
    if (!onlyKeys(doc, "", {"intent", "version", "description", "author", "tags", "phrases", "pack", "triggers", "parameters",
                            "steps", "success", "failure", "options"},
                  "top-level key")) {
      return false;
    }
    if (!doc.contains("intent")) return fail("/intent", "no intent name");
    if (!name(doc["intent"], "/intent", def.name, "intent name")) return false;
    if (!version(doc, def.version)) return false;
    if (!doc.contains("steps")) return fail("/steps", "no steps (intent, version and steps are required)");
    for (const char* k : {"description", "author"}) {
      if (doc.contains(k) && !doc[k].is_string()) return fail(std::string("/") + k, std::string(k) + " is a text");
    }
    def.description = doc.value("description", "");
    def.author = doc.value("author", "");
    if (doc.contains("pack")) {
      if (!doc["pack"].is_string() || !std::regex_match(doc["pack"].get<std::string>(), kDomain)) {
        return fail("/pack", "pack name " + quoteJs(doc["pack"]) + " is not a domain");
      }
      def.pack = doc["pack"].get<std::string>();
    }
    if (doc.contains("tags") && !stringArray(doc["tags"], "/tags", def.tags, false)) return false;
    // How a person asks for it, for `do` (issue 19): "sign in", "log me in".
    if (doc.contains("phrases") && !stringArray(doc["phrases"], "/phrases", def.phrases, false)) return false;
    if (doc.contains("triggers")) {
      const json& t = doc["triggers"];
      if (!t.is_object()) return fail("/triggers", "triggers is {patterns, keywords, urls}");
      if (!onlyKeys(t, "/triggers", {"patterns", "keywords", "urls"}, "trigger key")) return false;
      if (t.contains("patterns") && !stringArray(t["patterns"], "/triggers/patterns", def.trigger_patterns, true)) return false;
      if (t.contains("keywords") && !stringArray(t["keywords"], "/triggers/keywords", def.trigger_keywords, false)) return false;
      if (t.contains("urls") && !stringArray(t["urls"], "/triggers/urls", def.trigger_urls, false)) return false;
    }
    if (doc.contains("parameters")) {
      const json& ps = doc["parameters"];
      if (!ps.is_array()) return fail("/parameters", "parameters is a list");
      for (size_t i = 0; i < ps.size(); ++i) {
        ParamDef p;
        std::string pp = "/parameters/" + std::to_string(i);
        if (!parameter(ps[i], pp, p)) return false;
        if (def.param(p.name)) return fail(pp + "/name", "duplicate parameter name \"" + p.name + "\"");
        def.params.push_back(std::move(p));
      }
    }
    if (!steps(doc["steps"], "/steps", def.steps)) return false;
    if (doc.contains("success")) {
      const json& s = doc["success"];
      if (!s.is_object()) return fail("/success", "success is {conditions, extract}, not a " + std::string(s.is_array() ? "list" : "value"));
      if (s.empty()) return fail("/success", "success is empty");
      if (!onlyKeys(s, "/success", {"conditions", "extract"}, "success key")) return false;
      if (s.contains("conditions") && !conditionList(s["conditions"], "/success/conditions", def.success)) return false;
      if (s.contains("extract")) {
        const json& ex = s["extract"];
        if (!ex.is_object() || ex.empty()) return fail("/success/extract", "extract is a non-empty object");
        for (auto it = ex.begin(); it != ex.end(); ++it) {
          std::string ep = "/success/extract/" + escapePointer(it.key());
          std::string n;
          if (!name(json(it.key()), ep, n, "extract name")) return false;
          if (!it->is_object()) return fail(ep, "an extract is {from, target, pattern}");
          if (!onlyKeys(*it, ep, {"from", "target", "pattern"}, "extract key")) return false;
          ExtractDef e;
          const json& from = it->value("from", json());
          if (from != "url" && from != "title" && from != "text") {
            return fail(ep + "/from", "extract from " + quoteJs(from) + " (url, title or text)");
          }
          e.from = from.get<std::string>();
          if (it->contains("target")) {
            if (e.from != "text") return fail(ep + "/target", "a target only applies to from: text");
            e.target = target((*it)["target"], ep + "/target");
            if (!e.target) return false;
          }
          if (it->contains("pattern")) {
            if (!regex((*it)["pattern"], ep + "/pattern")) return false;
            e.pattern = (*it)["pattern"].get<std::string>();
          }
          def.extract[it.key()] = e;
        }
      }
    }
    if (doc.contains("failure")) {
      const json& f = doc["failure"];
      if (!f.is_object() || f.empty()) return fail("/failure", "failure is {conditions, recovery}");
      if (!onlyKeys(f, "/failure", {"conditions", "recovery"}, "failure key")) return false;
      if (f.contains("conditions") && !conditionList(f["conditions"], "/failure/conditions", def.failure)) return false;
      if (f.contains("recovery") && !steps(f["recovery"], "/failure/recovery", def.recovery)) return false;
    }
    if (doc.contains("options")) {
      const json& o = doc["options"];
      if (!o.is_object()) return fail("/options", "options is an object");
      for (auto it = o.begin(); it != o.end(); ++it) {
        if (it.key() != "timeout" && it.key() != "retry" && it.key() != "on_error" && it.key() != "checkpoint") {
          return fail("/options/" + escapePointer(it.key()), "unknown option \"" + it.key() + "\"");
        }
      }
      if (o.contains("timeout")) {
        long long ms = 0;
        const json& t = o["timeout"];
        if (t.is_string() && std::regex_match(t.get<std::string>(), std::regex("^[0-9]+m$")) &&
            (t.get<std::string>().size() > 10 || std::stoll(t.get<std::string>()) > 5)) {
          return fail("/options/timeout", "intent timeout " + t.get<std::string>() + " is above the limit of 300s (§13.2)");
        }
        if (!duration(t, "/options/timeout", true, ms)) return false;
        def.timeout_ms = ms;
      }
      if (o.contains("retry")) {
        const json& r = o["retry"];
        if (!r.is_object()) return fail("/options/retry", "retry is {max_attempts, delay, on}");
        if (!onlyKeys(r, "/options/retry", {"max_attempts", "delay", "on"}, "retry key")) return false;
        if (r.contains("max_attempts")) {
          const json& m = r["max_attempts"];
          if (!m.is_number_integer() || m.get<long long>() < 1 || m.get<long long>() > 10) {
            return fail("/options/retry/max_attempts", "max_attempts " + m.dump() + " (1 to 10)");
          }
          def.retry.max_attempts = static_cast<int>(m.get<long long>());
        }
        if (r.contains("delay") && !duration(r["delay"], "/options/retry/delay", false, def.retry.delay_ms)) return false;
        if (r.contains("on")) {
          const json& on = r["on"];
          if (!on.is_array() || on.empty()) return fail("/options/retry/on", "on is a non-empty list of error codes");
          for (size_t i = 0; i < on.size(); ++i) {
            if (!on[i].is_string() || !kErrorCodes.count(on[i].get<std::string>())) {
              return fail("/options/retry/on/" + std::to_string(i), quoteJs(on[i]) + " is not a lower_snake error code");
            }
            def.retry.on.push_back(on[i].get<std::string>());
          }
        }
      }
      if (o.contains("on_error") && !onError(o["on_error"], "/options/on_error", def.on_error)) return false;
      if (o.contains("checkpoint")) {
        if (!o["checkpoint"].is_boolean()) return fail("/options/checkpoint", "checkpoint is true or false");
        def.checkpoint = o["checkpoint"].get<bool>();
      }
    }
    return semantic(def);
  }

  // Rules a schema cannot express: references resolve, checkpoints are unique, no recursion.
  bool semantic(const IntentDef& def) {
    std::set<std::string> checkpoints;
    std::vector<std::string> scope;  // loop variables in scope
    std::function<bool(const json&, const std::string&)> refs = [&](const json& v, const std::string& path) {
      if (isRef(v)) {
        std::string root = v.get<std::string>().substr(1);
        root = root.substr(0, root.find('.'));
        // $result: what the last execute or custom action step returned (null before).
        if (root != "result" && !def.param(root) && std::find(scope.begin(), scope.end(), root) == scope.end()) {
          return fail(path, quoteJs(v) + " references no parameter or loop variable in scope");
        }
        return true;
      }
      if (v.is_object()) {
        for (auto it = v.begin(); it != v.end(); ++it) {
          if (!refs(*it, path + "/" + escapePointer(it.key()))) return false;
        }
      } else if (v.is_array()) {
        for (size_t i = 0; i < v.size(); ++i) {
          if (!refs(v[i], path + "/" + std::to_string(i))) return false;
        }
      }
      return true;
    };
    std::function<bool(const TargetDef*)> targetRefs = [&](const TargetDef* t) {
      if (!t) return true;
      std::string field = t->kind == TargetDef::Kind::kVar ? "" : "/" + std::string([&] {
        switch (t->kind) {
          case TargetDef::Kind::kPattern: return "pattern";
          case TargetDef::Kind::kRole: return "role";
          case TargetDef::Kind::kText: return "text";
          case TargetDef::Kind::kTextContains: return "text_contains";
          case TargetDef::Kind::kSelector: return "selector";
          case TargetDef::Kind::kXpath: return "xpath";
          case TargetDef::Kind::kId: return "id";
          default: return "";
        }
      }());
      return refs(t->value, t->path + field) && targetRefs(t->anchor.get()) && targetRefs(t->fallback.get());
    };
    std::function<bool(const ConditionDef*)> conditionRefs = [&](const ConditionDef* c) {
      if (!c) return true;
      if (c->kind == ConditionDef::Kind::kRef || c->kind == ConditionDef::Kind::kPatternExists) {
        if (!refs(c->value, c->path + (c->kind == ConditionDef::Kind::kRef ? "" : "/pattern_exists"))) return false;
      }
      if (!targetRefs(c->target.get())) return false;
      for (const auto& ch : c->children) {
        if (!conditionRefs(&ch)) return false;
      }
      return true;
    };
    std::function<bool(const std::vector<StepDef>&)> walk = [&](const std::vector<StepDef>& ss) {
      for (const auto& s : ss) {
        switch (s.kind) {
          case StepDef::Kind::kCheckpoint:
            if (!checkpoints.insert(s.checkpoint).second) {
              return fail(s.path + "/checkpoint", "duplicate checkpoint name \"" + s.checkpoint + "\"");
            }
            break;
          case StepDef::Kind::kAction:
            if (s.action == "intent" && s.args.value("name", "") == def.name) {
              return fail(s.path + (s.named_action ? "/action" : "/name"), "the intent runs itself (unbounded recursion, §13.2)");
            }
            if (!refs(s.args, s.path) || !refs(s.optional, s.path + "/optional")) return false;
            if (!targetRefs(s.target.get()) || !conditionRefs(s.condition.get())) return false;
            break;
          case StepDef::Kind::kBranch:
            if (!conditionRefs(s.condition.get()) || !walk(s.then_steps) || !walk(s.else_steps)) return false;
            break;
          case StepDef::Kind::kLoop: {
            if (!refs(s.loop_over, s.path + "/loop/over") || !targetRefs(s.loop_target.get())) return false;
            scope.push_back(s.loop_as);
            bool ok = walk(s.body);
            scope.pop_back();
            if (!ok) return false;
            break;
          }
          case StepDef::Kind::kTry:
            if (!walk(s.body) || !walk(s.catch_steps)) return false;
            break;
        }
      }
      return true;
    };
    if (!walk(def.steps) || !walk(def.recovery)) return false;
    for (const auto& c : def.success) {
      if (!conditionRefs(&c)) return false;
    }
    for (const auto& c : def.failure) {
      if (!conditionRefs(&c)) return false;
    }
    return true;
  }

  // --- pack.yaml (§9.2, §12) and patterns.yaml (§9.3) -------------------------------------------

  bool relativePaths(const json& v, const std::string& path, std::vector<std::string>& out) {
    if (!v.is_array() || v.empty()) return fail(path, "a non-empty list of paths relative to the pack folder");
    for (size_t i = 0; i < v.size(); ++i) {
      std::string p = path + "/" + std::to_string(i);
      if (!v[i].is_string() || v[i].get<std::string>().empty()) return fail(p, "a non-empty path");
      std::string f = v[i].get<std::string>();
      if (f[0] == '/' || f.find('\\') != std::string::npos || f == ".." || f.rfind("../", 0) == 0 ||
          f.find("/../") != std::string::npos || (f.size() >= 3 && f.compare(f.size() - 3, 3, "/..") == 0)) {
        return fail(p, quoteJs(v[i]) + " leaves the pack folder (relative paths only, no \"..\")");
      }
      out.push_back(f);
    }
    return true;
  }

  bool code(const json& impl, const std::string& path, std::string& out) {
    if (!impl.contains("code") || !impl["code"].is_string() || impl["code"].get<std::string>().find_first_not_of(" \t\r\n") == std::string::npos) {
      return fail(path + "/code", "a javascript implementation needs code (a function)");
    }
    out = impl["code"].get<std::string>();
    return true;
  }

  bool buildPack(const json& doc, PackSpec& out) {
    static const std::regex kDomainGlob(
        "^(?:\\*|(?:\\*\\.)?[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*)$");
    static const std::regex kRequires(
        "^(?:>=|<=|>|<|=|\\^|~)?\\d+(?:\\.\\d+){0,2}(?: +(?:>=|<=|>|<|=|\\^|~)?\\d+(?:\\.\\d+){0,2})*$");
    static const std::set<std::string> kReserved = {"click", "type", "select", "check", "uncheck", "clear", "scroll",
                                                    "wait", "fill_form", "intent", "execute", "press", "goto",
                                                    "observe", "screenshot"};
    if (!doc.is_object()) return fail("", "pack.yaml is a mapping (pack, version, domains ...)");
    if (!onlyKeys(doc, "", {"pack", "version", "description", "author", "license", "domains", "requires", "patterns",
                            "intents", "auto_load", "trust", "custom_actions", "custom_conditions", "hooks"},
                  "pack.yaml key")) {
      return false;
    }
    if (!doc.contains("pack")) return fail("/pack", "no pack name");
    if (!doc["pack"].is_string() || !std::regex_match(doc["pack"].get<std::string>(), kDomain)) {
      return fail("/pack", "pack name " + quoteJs(doc["pack"]) + " is not a domain-like name (github.com)");
    }
    out.name = doc["pack"].get<std::string>();
    if (!version(doc, out.version)) return false;
    for (const char* k : {"description", "author", "license"}) {
      if (doc.contains(k) && !doc[k].is_string()) return fail(std::string("/") + k, std::string(k) + " is a text");
    }
    out.description = doc.value("description", "");
    if (doc.contains("domains")) {
      const json& d = doc["domains"];
      if (!d.is_array() || d.empty()) return fail("/domains", "domains is a non-empty list of host names");
      for (size_t i = 0; i < d.size(); ++i) {
        std::string p = "/domains/" + std::to_string(i);
        if (!d[i].is_string() || !std::regex_match(d[i].get<std::string>(), kDomainGlob)) {
          return fail(p, quoteJs(d[i]) + " is not a host name, \"*.host\" or \"*\"");
        }
        if (std::find(out.domains.begin(), out.domains.end(), d[i].get<std::string>()) != out.domains.end()) {
          return fail(p, "duplicate domain");
        }
        out.domains.push_back(d[i].get<std::string>());
      }
    }
    if (doc.contains("requires")) {
      const json& r = doc["requires"];
      if (!r.is_object()) return fail("/requires", "requires is {lemmascope: \">=1.0.0\"}");
      if (!onlyKeys(r, "/requires", {"lemmascope"}, "requires key")) return false;
      if (r.contains("lemmascope")) {
        if (!r["lemmascope"].is_string() || !std::regex_match(r["lemmascope"].get<std::string>(), kRequires)) {
          return fail("/requires/lemmascope", quoteJs(r["lemmascope"]) + " is not a version range (\">=1.0.0\")");
        }
        out.requires_lemmascope = r["lemmascope"].get<std::string>();
      }
    }
    if (doc.contains("patterns") && !relativePaths(doc["patterns"], "/patterns", out.pattern_files)) return false;
    if (doc.contains("intents") && !relativePaths(doc["intents"], "/intents", out.intent_files)) return false;
    if (doc.contains("auto_load")) {
      const json& a = doc["auto_load"];
      if (!a.is_array() || a.empty()) return fail("/auto_load", "auto_load is a non-empty list of URL globs");
      for (size_t i = 0; i < a.size(); ++i) {
        if (!a[i].is_string() || a[i].get<std::string>().empty()) {
          return fail("/auto_load/" + std::to_string(i), "a URL glob (\"https://github.com/*\")");
        }
        out.auto_load.push_back(a[i].get<std::string>());
      }
    }
    if (doc.contains("trust")) {
      if (doc["trust"] != "community" && doc["trust"] != "trusted") {
        return fail("/trust", "trust " + quoteJs(doc["trust"]) + " (community or trusted)");
      }
      out.trust = doc["trust"].get<std::string>();
    }
    PackRuntime& rt = out.runtime;
    rt.name = out.name;
    rt.version = out.version;
    rt.domains = out.domains;
    if (doc.contains("custom_actions")) {
      const json& ca = doc["custom_actions"];
      if (!ca.is_object() || ca.empty()) return fail("/custom_actions", "custom_actions is a map of action names");
      for (auto it = ca.begin(); it != ca.end(); ++it) {
        std::string p = "/custom_actions/" + escapePointer(it.key());
        CustomActionDef a;
        if (!name(json(it.key()), p, a.name, "custom action name")) return false;
        if (kReserved.count(a.name)) return fail(p, "\"" + a.name + "\" is a built-in action; name the custom action otherwise");
        if (!it->is_object()) return fail(p, "a custom action is {description, parameters, implementation}");
        if (!onlyKeys(*it, p, {"description", "parameters", "implementation"}, "custom action key")) return false;
        a.description = it->value("description", "");
        if (it->contains("parameters")) {
          const json& ps = (*it)["parameters"];
          if (!ps.is_array()) return fail(p + "/parameters", "parameters is a list");
          for (size_t i = 0; i < ps.size(); ++i) {
            ParamDef pd;
            if (!parameter(ps[i], p + "/parameters/" + std::to_string(i), pd)) return false;
            a.params.push_back(std::move(pd));
          }
        }
        if (!it->contains("implementation") || !(*it)["implementation"].is_object()) {
          return fail(p + "/implementation", "implementation is {type: javascript, code}");
        }
        const json& impl = (*it)["implementation"];
        if (!onlyKeys(impl, p + "/implementation", {"type", "code"}, "implementation key")) return false;
        if (impl.value("type", json()) != "javascript") {
          return fail(p + "/implementation/type", "custom action implementation type " + quoteJs(impl.value("type", json())) + " (javascript)");
        }
        if (!code(impl, p + "/implementation", a.code)) return false;
        rt.actions[a.name] = std::move(a);
      }
    }
    if (doc.contains("custom_conditions")) {
      const json& cc = doc["custom_conditions"];
      if (!cc.is_object() || cc.empty()) return fail("/custom_conditions", "custom_conditions is a map of condition names");
      for (auto it = cc.begin(); it != cc.end(); ++it) {
        std::string p = "/custom_conditions/" + escapePointer(it.key());
        CustomConditionDef c;
        if (!name(json(it.key()), p, c.name, "custom condition name")) return false;
        if (!it->is_object()) return fail(p, "a custom condition is {description, implementation}");
        if (!onlyKeys(*it, p, {"description", "implementation"}, "custom condition key")) return false;
        c.description = it->value("description", "");
        if (!it->contains("implementation") || !(*it)["implementation"].is_object()) {
          return fail(p + "/implementation", "implementation is {type: pattern_check, patterns} or {type: javascript, code}");
        }
        const json& impl = (*it)["implementation"];
        std::string ip = p + "/implementation";
        c.type = impl.value("type", "");
        if (c.type == "pattern_check") {
          if (!onlyKeys(impl, ip, {"type", "patterns"}, "implementation key")) return false;
          if (!impl.contains("patterns") || !impl["patterns"].is_array() || impl["patterns"].empty()) {
            return fail(ip + "/patterns", "pattern_check needs a non-empty list of pattern names");
          }
          if (!stringArray(impl["patterns"], ip + "/patterns", c.patterns, true)) return false;
        } else if (c.type == "javascript") {
          if (!onlyKeys(impl, ip, {"type", "code"}, "implementation key")) return false;
          if (!code(impl, ip, c.code)) return false;
        } else {
          return fail(ip + "/type", "custom condition type " + quoteJs(impl.value("type", json())) + " (pattern_check or javascript)");
        }
        rt.conditions[c.name] = std::move(c);
      }
    }
    if (doc.contains("hooks")) {
      const json& h = doc["hooks"];
      if (!h.is_object() || h.empty()) return fail("/hooks", "hooks is {before_intent, after_navigate, on_error}");
      if (!onlyKeys(h, "/hooks", {"before_intent", "after_navigate", "on_error"}, "hook")) return false;
      for (auto it = h.begin(); it != h.end(); ++it) {
        std::string hp = "/hooks/" + escapePointer(it.key());
        if (!it->is_array() || it->empty()) return fail(hp, "a hook is a non-empty list of steps");
        std::vector<StepDef> st;
        for (size_t i = 0; i < it->size(); ++i) {
          StepDef one;
          hook_steps = true;  // this step may carry a guard `condition`
          if (!step((*it)[i], hp + "/" + std::to_string(i), one)) return false;
          st.push_back(std::move(one));
        }
        rt.hooks[it.key()] = std::move(st);
      }
    }
    return true;
  }

  bool buildPatterns(const json& doc, json& rules) {
    static const std::set<std::string> kProvides = {"login_form", "search_form", "pagination", "modal_dialog",
                                                    "cookie_banner", "overlay", "notification_toast", "promo_popup"};
    if (!doc.is_object() || !doc.contains("patterns")) return fail("/patterns", "patterns.yaml holds patterns: {name: {detection, elements}}");
    if (!onlyKeys(doc, "", {"patterns"}, "top-level key")) return false;
    const json& ps = doc["patterns"];
    if (!ps.is_object() || ps.empty()) return fail("/patterns", "patterns is a non-empty map of pattern names");
    for (auto it = ps.begin(); it != ps.end(); ++it) {
      std::string p = "/patterns/" + escapePointer(it.key());
      std::string n;
      if (!name(json(it.key()), p, n, "pattern name")) return false;
      const json& pat = *it;
      if (!pat.is_object()) return fail(p, "a pattern is {detection, elements}");
      if (!onlyKeys(pat, p, {"description", "provides", "vendor", "detection", "elements"}, "pattern key")) return false;
      if (pat.contains("provides") && !(pat["provides"].is_string() && kProvides.count(pat["provides"].get<std::string>()))) {
        return fail(p + "/provides", quoteJs(pat["provides"]) + " is not a scanner pattern (login_form, search_form, cookie_banner ...)");
      }
      if (pat.contains("vendor") && (!pat["vendor"].is_string() || pat["vendor"].get<std::string>().empty())) {
        return fail(p + "/vendor", "vendor is a non-empty text");
      }
      if (!pat.contains("detection")) return fail(p + "/detection", "a pattern without detection");
      const json& d = pat["detection"];
      std::string dp = p + "/detection";
      if (!d.is_object() || d.empty()) return fail(dp, "detection is {container, frame, url_contains, url_matches, text_contains}");
      if (!onlyKeys(d, dp, {"container", "frame", "url_contains", "url_matches", "text_contains"}, "detection key")) return false;
      for (const char* k : {"container", "frame"}) {
        if (d.contains(k) && (!d[k].is_string() || d[k].get<std::string>().empty())) return fail(dp + "/" + k, "a CSS selector");
      }
      if (d.contains("frame") && !d.contains("container")) return fail(dp, "a frame without the container to look for inside it");
      if (d.contains("url_contains") && !textList(d["url_contains"], dp + "/url_contains", "url_contains")) return false;
      if (d.contains("url_matches") && !regex(d["url_matches"], dp + "/url_matches")) return false;
      if (d.contains("text_contains") && !textList(d["text_contains"], dp + "/text_contains", "text_contains")) return false;
      if (!pat.contains("elements")) return fail(p + "/elements", "a pattern without elements");
      const json& els = pat["elements"];
      if (!els.is_object() || els.empty()) return fail(p + "/elements", "elements is a non-empty map of element names");
      for (auto e = els.begin(); e != els.end(); ++e) {
        std::string ep = p + "/elements/" + escapePointer(e.key());
        std::string en;
        if (!name(json(e.key()), ep, en, "element name")) return false;
        if (!e->is_object()) return fail(ep, "an element is {selector, xpath, text, text_contains, role}");
        if (!onlyKeys(*e, ep, {"selector", "xpath", "text", "text_contains", "role"}, "element key")) return false;
        for (const char* k : {"selector", "xpath", "role"}) {
          if (e->contains(k) && (!(*e)[k].is_string() || (*e)[k].get<std::string>().empty())) return fail(ep + "/" + k, "a non-empty text");
        }
        for (const char* k : {"text", "text_contains"}) {
          if (e->contains(k) && !textList((*e)[k], ep + "/" + k, k)) return false;
        }
        if (!e->contains("selector") && !e->contains("xpath") && !e->contains("text") && !e->contains("text_contains")) {
          return fail(ep, "an element needs a selector, an xpath or a text to be found by");
        }
      }
      json rule = pat;
      rule["name"] = n;
      rule.erase("description");
      rules.push_back(std::move(rule));
    }
    return true;
  }

 private:
  const std::string& file_;
  const Marks& marks_;
  const LoadOptions& options_;
};

}  // namespace

namespace {

// YAML text -> JSON with marks; errors carry `code`.
// Where `text` stops being UTF-8 (a JSON document holds only UTF-8 text), or npos.
size_t invalidUtf8At(const std::string& text) {
  auto at = [&](size_t i) { return i < text.size() ? static_cast<unsigned char>(text[i]) : 0u; };
  auto cont = [](unsigned c, unsigned lo = 0x80, unsigned hi = 0xbf) { return c >= lo && c <= hi; };
  for (size_t i = 0; i < text.size();) {
    unsigned c = at(i);
    size_t n = 0;
    bool ok = true;
    if (c < 0x80) {
      n = 1;
    } else if (c >= 0xc2 && c <= 0xdf) {
      ok = cont(at(i + 1)), n = 2;
    } else if (c >= 0xe0 && c <= 0xef) {
      // no overlongs (E0 A0..), no surrogates (ED ..9F)
      ok = cont(at(i + 1), c == 0xe0 ? 0xa0 : 0x80, c == 0xed ? 0x9f : 0xbf) && cont(at(i + 2)), n = 3;
    } else if (c >= 0xf0 && c <= 0xf4) {
      ok = cont(at(i + 1), c == 0xf0 ? 0x90 : 0x80, c == 0xf4 ? 0x8f : 0xbf) && cont(at(i + 2)) && cont(at(i + 3)), n = 4;
    } else {
      ok = false;
    }
    if (!ok) return i;
    i += n;
  }
  return std::string::npos;
}

bool convertYaml(const std::string& text, const std::string& file, const char* code, Marks& marks, json& doc,
                 Status& error) {
  if (size_t bad = invalidUtf8At(text); bad != std::string::npos) {
    size_t line = 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + static_cast<long>(bad), '\n'));
    error = Status(code, file + ":" + std::to_string(line) + ": not UTF-8 text (byte " + std::to_string(bad) + ")",
                   "save the file as UTF-8");
    return false;
  }
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    error = Status(code,
                   file + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) +
                       ": not valid YAML: " + e.msg,
                   "check the indentation and quotes around that place");
    return false;
  }
  Converter conv(marks);
  if (!conv.convert(root, "", doc)) {
    error = Status(code,
                   file + ":" + std::to_string(conv.error_mark.line + 1) + ":" +
                       std::to_string(conv.error_mark.column + 1) + ": " + conv.error,
                   conv.error_hint);
    return false;
  }
  return true;
}

}  // namespace

Result<json> parseYamlDocument(const std::string& text, const std::string& file, const char* code) {
  Marks marks;
  json doc;
  Status error;
  if (!convertYaml(text, file, code, marks, doc, error)) return error;
  return doc;
}


Result<PackSpec> parsePack(const std::string& text, const std::string& file) {
  Marks marks;
  json doc;
  Status error;
  if (!convertYaml(text, file, codes::kPackLoadFailed, marks, doc, error)) return error;
  PackSpec spec;
  LoadOptions o;
  o.tier = "pack";
  o.pack = &spec.runtime;  // hooks may call the pack's own custom actions (declared first)
  Builder b(file, marks, o);
  b.error_code = codes::kPackLoadFailed;
  b.schema_hint = "see schemas/pack-v1.json and packs/README.md";
  try {
    if (!b.buildPack(doc, spec)) return b.status;
  } catch (const json::exception& e) {
    return Status(codes::kPackLoadFailed, file + ": cannot be read: " + e.what(), b.schema_hint);
  }
  spec.document = std::move(doc);
  return spec;
}

Result<json> parsePatterns(const std::string& text, const std::string& file) {
  Marks marks;
  json doc;
  Status error;
  if (!convertYaml(text, file, codes::kPackLoadFailed, marks, doc, error)) return error;
  LoadOptions o;
  Builder b(file, marks, o);
  b.error_code = codes::kPackLoadFailed;
  b.schema_hint = "see schemas/patterns-v1.json and packs/README.md";
  json rules = json::array();
  try {
    if (!b.buildPatterns(doc, rules)) return b.status;
  } catch (const json::exception& e) {
    return Status(codes::kPackLoadFailed, file + ": cannot be read: " + e.what(), b.schema_hint);
  }
  return rules;
}

Result<IntentDef> parseIntent(const std::string& text, const std::string& file, const LoadOptions& options) {
  Marks marks;
  json doc;
  Status error;
  if (!convertYaml(text, file, codes::kDefinitionInvalid, marks, doc, error)) return error;
  IntentDef def;
  Builder b(file, marks, options);
  try {
    if (!b.build(doc, def)) return b.status;
  } catch (const json::exception& e) {
    return Status(codes::kDefinitionInvalid, file + ": cannot be read: " + e.what(), "see schemas/intent-v1.json");
  }
  def.tier = options.tier;
  def.file = file;
  def.trusted = options.trusted;
  def.document = std::move(doc);
  return def;
}

namespace {

// A string that a plain YAML scalar would not read back as itself (null, a boolean, a number).
bool needsQuotes(const std::string& s) {
  YAML::Node probe(s);
  json back = scalarValue(probe);
  return s.empty() || !back.is_string() || back.get<std::string>() != s;
}

void emitJson(YAML::Emitter& out, const json& v) {
  if (v.is_object()) {
    out << YAML::BeginMap;
    for (auto it = v.begin(); it != v.end(); ++it) {
      out << YAML::Key;
      if (needsQuotes(it.key())) out << YAML::DoubleQuoted;
      out << it.key() << YAML::Value;
      emitJson(out, *it);
    }
    out << YAML::EndMap;
  } else if (v.is_array()) {
    out << YAML::BeginSeq;
    for (const auto& x : v) emitJson(out, x);
    out << YAML::EndSeq;
  } else if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    if (needsQuotes(s)) out << YAML::DoubleQuoted;
    out << s;
  } else if (v.is_boolean()) {
    out << (v.get<bool>() ? "true" : "false");
  } else if (v.is_number_integer()) {
    out << v.get<long long>();
  } else if (v.is_number()) {
    out << v.dump();
  } else {
    out << YAML::Null;
  }
}

}  // namespace

std::string definitionYaml(const json& document) {
  YAML::Emitter out;
  out.SetIndent(2);
  emitJson(out, document);
  return std::string(out.c_str()) + "\n";
}

Result<IntentDef> loadIntentFile(const std::string& path, const LoadOptions& options) {
  auto text = readTextFile(path, codes::kDefinitionInvalid);
  if (!text) return text.status();
  return parseIntent(*text, path, options);
}

DirectoryLoad loadIntentDirectory(const std::string& dir, const LoadOptions& options) {
  DirectoryLoad out;
  std::error_code ec;
  if (dir.empty() || !fs::is_directory(dir, ec)) return out;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    auto ext = entry.path().extension().string();
    if (entry.is_regular_file() && (ext == ".yaml" || ext == ".yml" || ext == ".json")) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    auto def = loadIntentFile(f.string(), options);
    if (def) {
      out.intents.push_back(std::move(def.value()));
    } else {
      out.errors.push_back(def.status());
    }
  }
  return out;
}

}  // namespace lscope
