// The define shorthand (engine/define_shorthand.h; intent-engine.md §7.2 "Step Syntax Shortcuts").
#include "engine/define_shorthand.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <vector>

#include "engine/commands.h"
#include "engine/intent_loader.h"
#include "engine/oil.h"

namespace lscope {
namespace {

using json = nlohmann::json;

const std::regex kHeader(R"(^\s*(?:define\s+)?([a-z][a-z0-9_]*)\s*:\s*$)");

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r");
  if (a == std::string::npos) return "";
  size_t b = s.find_last_not_of(" \t\r");
  return s.substr(a, b - a + 1);
}

// Where a step line was written, for errors.
struct StepLine {
  int line = 0;    // 1-based
  int column = 0;  // 1-based column of the step text
};

Status invalid(const std::string& file, const StepLine& at, int step, int col_in_step, const std::string& what,
               const std::string& hint) {
  return Status(codes::kDefinitionInvalid,
                file + ":" + std::to_string(at.line) + ":" + std::to_string(at.column + std::max(0, col_in_step - 1)) +
                    ": step " + std::to_string(step) + ": " + what,
                hint);
}

// A target of OIL as a target object of the definition format (§3.3).
json targetObject(const TargetSpec& t) {
  using K = TargetSpec::Kind;
  json o;
  switch (t.kind) {
    case K::kId: o["id"] = t.id; break;
    case K::kText:
      o["text"] = t.alternatives.empty() ? json(t.value) : json::array();
      if (!t.alternatives.empty()) {
        o["text"].push_back(t.value);
        for (const auto& a : t.alternatives) o["text"].push_back(a);
      }
      if (t.match == TextMatch::kExact) o["match"] = "exact";
      if (t.match == TextMatch::kRegex) o["match"] = "regex";
      break;
    case K::kRole: o["role"] = t.value; break;
    case K::kWord:
      if (isRoleWord(t.value) && t.value.find('/') == std::string::npos) o["role"] = t.value;
      else o["text"] = t.value;
      break;
    case K::kCss: o["selector"] = t.value; break;
    case K::kXpath: o["xpath"] = t.value; break;
    case K::kPattern: o["pattern"] = t.value; break;
  }
  if (t.anchor && !t.relation.empty()) o[t.relation] = targetObject(*t.anchor);
  if (t.fallback) o["fallback"] = targetObject(*t.fallback);
  return o;
}

// `alternatives` of one step line: "click "A" or click "B"", "click "A" or "B"" (the same command).
std::vector<std::pair<std::string, int>> splitAlternatives(const std::string& s) {
  std::vector<std::pair<std::string, int>> out;  // text, 1-based column in s
  size_t start = 0;
  char quote = 0;
  int depth = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (quote) {
      if (c == '\\') ++i;
      else if (c == quote) quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') quote = c;
    else if (c == '(' || c == '{' || c == '[') ++depth;
    else if (c == ')' || c == '}' || c == ']') --depth;
    else if (depth == 0 && s.compare(i, 4, " or ") == 0) {
      size_t next = s.find_first_not_of(' ', i + 4);
      if (next == std::string::npos) continue;
      std::string word = s.substr(next, s.find(' ', next) - next);
      bool command = s[next] == '"' || s[next] == '\'' || findCommand(word) || word == "fill";
      if (!command) continue;
      out.push_back({trim(s.substr(start, i - start)), static_cast<int>(start) + 1});
      start = next;
      i = next - 1;
    }
  }
  out.push_back({trim(s.substr(start)), static_cast<int>(start) + 1});
  // "click "A" or "B"": the second alternative takes the first one's command.
  for (size_t k = 1; k < out.size(); ++k) {
    char c = out[k].first.empty() ? 0 : out[k].first[0];
    if (c == '"' || c == '\'') {
      std::string first = out[0].first;
      out[k].first = first.substr(0, first.find(' ')) + " " + out[k].first;
    }
  }
  return out;
}

const std::map<std::string, std::string>& waitConditions() {
  static const std::map<std::string, std::string> k = {
      {"visible", "visible"}, {"exists", "visible"}, {"hidden", "hidden"}, {"gone", "hidden"}};
  return k;
}

// One OIL line as a step of the definition format; `col` is the 1-based column of an error in it.
Result<json> oneStep(const std::string& line, int& col) {
  col = 1;
  static const std::regex kFill(R"(^fill\s+(.*)$)");
  static const std::regex kWaitObject(R"(^wait\s+([a-z]+)\s+(\{.*\})\s*$)");
  std::smatch m;
  if (std::regex_match(line, m, kFill) && m[1].str().find('=') != std::string::npos) {
    // Combined fill: fill name="John" email=$email (§7.2).
    auto c = parseLine("intent fill_form " + m[1].str());
    if (!c || !*c || !(*c)->args.contains("params") || !(*c)->args["params"].is_object()) {
      return Status(codes::kSyntaxError, "fill takes field=value pairs", "fill name=\"John\" email=$email");
    }
    return json{{"action", "fill_form"}, {"data", (*c)->args["params"]}};
  }
  if (std::regex_match(line, m, kWaitObject)) {
    // wait visible { text_contains: [added, saved] }: a condition (or a target) written out.
    auto obj = parseYamlDocument(m[2].str(), "step");
    if (!obj || !obj->is_object()) return Status(codes::kSyntaxError, "the { … } after wait is not a YAML object");
    static const std::set<std::string> kConditionKeys = {"text_contains", "url_contains", "url_matches", "pattern_exists",
                                                         "visible", "hidden", "count", "expression", "all", "any", "not"};
    bool condition = !obj->empty() && kConditionKeys.count(obj->begin().key());
    auto cond = waitConditions().find(m[1].str());
    if (condition) return json{{"action", "wait"}, {"condition", *obj}};
    if (cond == waitConditions().end()) return Status(codes::kSyntaxError, "wait " + m[1].str() + " takes no target object");
    return json{{"action", "wait"}, {"condition", {{cond->second, *obj}}}};
  }
  auto parsed = parseLine(line);
  if (!parsed) {
    std::smatch cm;
    static const std::regex kColumn(R"(column (\d+))");
    std::string msg = parsed.status().message();
    if (std::regex_search(msg, cm, kColumn)) col = std::stoi(cm[1].str());
    return parsed.status();
  }
  if (!*parsed) return Status(codes::kSyntaxError, "an empty step");
  const Command& c = **parsed;
  const std::string& n = c.name;
  json step = {{"action", n}};
  auto target = [&]() { return targetObject(*c.target); };
  if (c.args.contains("timeout") && c.args["timeout"].is_number()) step["timeout"] = std::to_string(c.args["timeout"].get<long long>()) + "ms";
  if (n == "click") {
    step["target"] = target();
    if (c.args.value("double", false)) step["options"]["count"] = 2;
    if (c.args.value("right", false)) step["options"]["button"] = "right";
    if (c.args.value("middle", false)) step["options"]["button"] = "middle";
    if (c.args.value("force", false)) step["options"]["force"] = true;
  } else if (n == "type") {
    step["target"] = target();
    step["text"] = c.args.value("text", "");
    if (c.args.value("enter", false)) step["options"]["enter"] = true;
    if (c.args.value("append", false)) step["options"]["clear"] = false;
  } else if (n == "select") {
    step["target"] = target();
    if (c.args.contains("index")) step["value"] = c.args["index"];
    else step["value"] = c.args.value("option", "");
  } else if (n == "check" || n == "uncheck" || n == "clear") {
    step["target"] = target();
  } else if (n == "press") {
    step["key"] = c.args.value("key", "");
  } else if (n == "goto") {
    step["url"] = c.args.value("url", "");
  } else if (n == "observe") {
  } else if (n == "scroll") {
    std::string dir = c.args.value("direction", "");
    if (!dir.empty() && dir != "top" && dir != "bottom") step["direction"] = dir;
    if (c.args.contains("amount")) {
      std::string a = c.args["amount"].get<std::string>();
      if (a == "page") step["amount"] = "page";
      // Past 15 digits the text stays a string, and the loader names it as no amount.
      else if (!a.empty() && a.size() <= 15 && std::all_of(a.begin(), a.end(), [](unsigned char ch) { return std::isdigit(ch) != 0; })) step["amount"] = std::stoll(a);
      else step["amount"] = a;
    }
  } else if (n == "wait") {
    std::string cond = c.args.value("condition", "");
    auto kind = waitConditions().find(cond);
    if ((cond == "url" || cond == "navigation") && c.target) {
      step["condition"] = {{"url_contains", c.target->value}};
    } else if (kind != waitConditions().end() && c.target) {
      step["condition"] = {{kind->second, target()}};
    } else {
      return Status(codes::kSyntaxError, "a wait step waits for visible, hidden, exists, gone or url <target>",
                    "wait visible \"Saved\"");
    }
  } else if (n == "intent") {
    step = {{"action", "intent"}, {"name", c.args.value("name", "")}};
    if (c.args.contains("params")) step["params"] = c.args["params"];
  } else {
    return Status(codes::kSyntaxError, "'" + n + "' is not a step",
                  "steps: click, type, select, check, uncheck, clear, press, goto, scroll, wait, fill, observe, intent <name>");
  }
  return step;
}

// A step line: alternatives become try/catch, tried in order (§7.2 "Multiple target fallbacks").
Result<json> stepOf(const std::string& text, int index, const StepLine& at, const std::string& file) {
  auto alts = splitAlternatives(text);
  std::vector<json> steps;
  for (const auto& [alt, offset] : alts) {
    int col = 1;
    auto s = oneStep(alt, col);
    if (!s) {
      std::string msg = s.status().message();
      return invalid(file, at, index, offset + col - 1, msg, s.status().hint().empty() ? "click \"Add\" or click \"Save\"" : s.status().hint());
    }
    steps.push_back(*s);
  }
  json out = steps.back();
  for (size_t k = steps.size() - 1; k-- > 0;) {
    out = {{"try", {{"steps", json::array({steps[k]})}, {"catch", json::array({out})}}}};
  }
  return out;
}

// `- rating: number, required, default 3` (§7.3) as a parameter object.
Result<json> parameterOf(const json& item) {
  if (item.is_object() && item.contains("name")) return item;
  if (!item.is_object() || item.size() != 1) {
    return Status(codes::kDefinitionInvalid, "a parameter is `- name: type[, required][, default value]`",
                  "parameters:\n  - rating: number, required");
  }
  json p = {{"name", item.begin().key()}, {"type", "string"}};
  const json& spec = item.begin().value();
  if (spec.is_object()) {
    for (auto it = spec.begin(); it != spec.end(); ++it) p[it.key()] = it.value();
    return p;
  }
  std::stringstream parts(spec.is_string() ? spec.get<std::string>() : "");
  for (std::string part; std::getline(parts, part, ',');) {
    part = trim(part);
    if (part.empty()) continue;
    if (part == "required") p["required"] = true;
    else if (part == "sensitive") p["sensitive"] = true;
    else if (part.rfind("default", 0) == 0) {
      std::string v = trim(part.substr(7));
      if (!v.empty() && v[0] == ':') v = trim(v.substr(1));
      auto parsed = parseYamlDocument(v, "default");
      p["default"] = parsed ? *parsed : json(v);
    } else {
      p["type"] = part;
    }
  }
  if (p.contains("default") && p["type"] == "string" && !p["default"].is_string()) {
    p["default"] = p["default"].is_null() ? "" : p["default"].dump();
  }
  return p;
}

}  // namespace

bool isShorthandDefinition(const std::string& text) {
  std::stringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    std::smatch m;
    if (!std::regex_match(line, m, kHeader)) return false;
    // A full definition may open with a key that has no value on its line (`steps:`).
    static const std::set<std::string> kFullKeys = {"intent", "version", "description", "author", "tags", "triggers",
                                                    "parameters", "steps", "success", "failure", "recovery",
                                                    "options", "extract", "pack", "timeout", "retry", "on_error"};
    return !kFullKeys.count(m[1].str());
  }
  return false;
}

Result<json> expandShorthand(const std::string& text, const std::string& file) {
  // 1. Step lines become quoted YAML strings (they hold ": " and "{ }" that YAML would read
  //    as structure); where each was written is kept for errors.
  std::vector<std::string> lines;
  {
    std::stringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
  }
  std::vector<StepLine> where;
  int steps_indent = -1;
  static const std::regex kKey(R"(^(\s*)([a-z_]+)\s*:(.*)$)");
  static const std::regex kItem(R"(^(\s*)-\s+(.*)$)");
  static const std::regex kStructured(R"(^(\{|action\s*:|try\s*:|branch\s*:|loop\s*:|checkpoint\s*:))");
  bool header_seen = false;
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string& line = lines[i];
    std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    if (!header_seen) {
      std::smatch h;
      if (std::regex_match(line, h, kHeader)) line = h[1].str() + ":";
      header_seen = true;
      continue;
    }
    int indent = static_cast<int>(line.find_first_not_of(' '));
    std::smatch m;
    if (steps_indent >= 0 && indent <= steps_indent && !(indent == steps_indent && t[0] == '-')) steps_indent = -1;
    if (std::regex_match(line, m, kKey) && (m[2] == "steps" || m[2] == "recovery") && trim(m[3].str()).empty()) {
      steps_indent = indent;
      continue;
    }
    if (steps_indent >= 0 && std::regex_match(line, m, kItem)) {
      std::string body = m[2].str();
      if (std::regex_search(body, kStructured)) continue;
      std::string quoted = "\"";
      for (char c : body) {
        if (c == '"' || c == '\\') quoted += '\\';
        quoted += c;
      }
      quoted += "\"";
      where.push_back({static_cast<int>(i) + 1, static_cast<int>(m[1].length()) + 3});
      line = m[1].str() + "- " + quoted;
    }
  }
  std::string yaml;
  for (const auto& l : lines) yaml += l + "\n";
  auto doc = parseYamlDocument(yaml, file);
  if (!doc) return Status(codes::kDefinitionInvalid, doc.status().message(), doc.status().hint());
  if (!doc->is_object() || doc->size() != 1 || !(doc->begin().value().is_object() || doc->begin().value().is_null())) {
    return Status(codes::kDefinitionInvalid, file + ":1:1: a shorthand definition is `name:` with its keys indented below",
                  "add_to_cart:\n  steps:\n    - click \"Add to cart\"");
  }
  std::string name = doc->begin().key();
  json body = doc->begin().value().is_null() ? json::object() : doc->begin().value();
  // 2. The full format.
  json out = {{"intent", name}, {"version", "1"}};
  size_t next_line = 0;
  for (auto it = body.begin(); it != body.end(); ++it) {
    const std::string& key = it.key();
    if (key == "parameters") {
      if (!it->is_array()) return Status(codes::kDefinitionInvalid, file + ": parameters is a list", "parameters:\n  - rating: number, required");
      out["parameters"] = json::array();
      for (const auto& item : *it) {
        auto p = parameterOf(item);
        if (!p) return Status(codes::kDefinitionInvalid, file + ": " + p.status().message(), p.status().hint());
        out["parameters"].push_back(*p);
      }
    } else if (key == "steps" || key == "recovery") {
      if (!it->is_array()) return Status(codes::kDefinitionInvalid, file + ": " + key + " is a list of steps", "steps:\n  - click \"Add\"");
      json steps = json::array();
      int index = 0;
      for (const auto& item : *it) {
        ++index;
        if (!item.is_string()) {
          steps.push_back(item);
          continue;
        }
        StepLine at = next_line < where.size() ? where[next_line++] : StepLine{};
        auto s = stepOf(item.get<std::string>(), index, at, file);
        if (!s) return s.status();
        steps.push_back(*s);
      }
      out[key] = steps;
    } else if (key == "success") {
      out[key] = it->is_array() ? json{{"conditions", *it}} : *it;
    } else {
      out[key] = *it;
    }
  }
  return out;
}

}  // namespace lscope
