// Helpers shared by the built-in intents.
#include "engine/builtins/common.h"

#include <algorithm>
#include <cctype>

#include "engine/commands.h"
#include "engine/resolver.h"

namespace lscope::builtin {

ParamDef param(const char* name, const char* type, bool required, json def, const char* description,
               bool sensitive, json enum_values) {
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

IntentDef define(const char* name, const char* description, std::vector<ParamDef> params,
                 std::vector<std::string> phrases) {
  IntentDef d;
  d.phrases = std::move(phrases);
  d.name = name;
  d.version = "1.0.0";
  d.description = description;
  d.params = std::move(params);
  d.tier = "builtin";
  d.trusted = true;
  return d;
}

ParamDef appearParam() { return param("appear", "string", false, "3s", "wait this long for it to appear"); }

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

long long durationArg(const json& v, long long fallback) {
  if (v.is_number()) return v.get<long long>();
  if (v.is_string()) {
    auto ms = parseDurationMs(v.get<std::string>());
    if (ms) return *ms;
  }
  return fallback;
}

std::vector<std::string> newErrors(const PageScan& before, const PageScan& now) {
  std::set<std::string> old;
  for (const auto& m : before.messages) {
    if (m.kind == "error") old.insert(m.key);
  }
  std::vector<std::string> out;
  for (const auto& m : now.messages) {
    if (m.kind == "error" && !old.count(m.key)) out.push_back(m.text);
  }
  return out;
}

bool isField(const Element& e) {
  return e.type == "input" || e.type == "select" || e.type == "textarea" || e.type == "checkbox" ||
         e.type == "radio" || e.type == "slider" || (e.type == "generic" && e.tag != "a" && e.value.has_value());
}

Status waitForPattern(IntentRun& run, const std::function<bool(const PageScan&)>& found, long long ms,
                      const std::string& what) {
  if (found(run.scan)) return Status::ok();
  auto t0 = Clock::now();
  Status s = run.waitFor([&]() -> Result<bool> { return found(run.scan); }, ms);
  if (s) run.log("wait " + what + " (" + elapsedSince(t0) + ")");
  return s;
}

}  // namespace lscope::builtin
