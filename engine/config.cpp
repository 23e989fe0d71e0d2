// EngineConfig: YAML file, dotted keys, defaults.
#include "engine/config.h"

#include <filesystem>
#include <cstdlib>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "engine/commands.h"
#include "engine/intents.h"

namespace lscope {

EngineConfig::EngineConfig() : tier_priority(defaultTierPriority()) {}

std::vector<std::string> EngineConfig::keys() {
  return {"resolution.tier_priority",      "resolution.strict_mode",        "resolution.do_threshold",
          "execution.default_timeout",
          "execution.step_timeout",        "execution.max_retries",         "execution.retry_delay",
          "verification.verify_success",   "verification.verify_failure",   "verification.rescan_after_action",
          "logging.redact_sensitive"};
}

nlohmann::json EngineConfig::toJson() const {
  auto secs = [](long long ms) { return ms % 1000 == 0 ? std::to_string(ms / 1000) + "s" : std::to_string(ms) + "ms"; };
  return {{"intent_engine",
           {{"resolution", {{"tier_priority", tier_priority}, {"strict_mode", strict_mode}, {"do_threshold", do_threshold}}},
            {"execution",
             {{"default_timeout", secs(default_timeout_ms)},
              {"step_timeout", secs(step_timeout_ms)},
              {"max_retries", max_retries},
              {"retry_delay", secs(retry_delay_ms)}}},
            {"verification",
             {{"verify_success", verify_success},
              {"verify_failure", verify_failure},
              {"rescan_after_action", rescan_after_action}}},
            {"logging", {{"redact_sensitive", redact_sensitive}}}}}};
}

namespace {

Result<bool> parseBool(const std::string& v) {
  if (v == "true" || v == "yes" || v == "on") return true;
  if (v == "false" || v == "no" || v == "off") return false;
  return Status(codes::kParameterInvalid, "\"" + v + "\" is not true or false");
}

Result<long long> parseMs(const std::string& v) {
  auto ms = parseDurationMs(v);
  if (!ms || *ms <= 0 || *ms > 300000) {
    return Status(codes::kParameterInvalid, "\"" + v + "\" is not a duration up to 300s (e.g. 30s, 500ms)");
  }
  return *ms;
}

std::string strip(std::string key) {
  if (key.rfind("intent_engine.", 0) == 0) key = key.substr(14);
  return key;
}

}  // namespace

Status EngineConfig::set(const std::string& raw_key, const std::string& value) {
  std::string key = strip(raw_key);
  auto bad = [&](const Status& s) { return Status(s.code(), key + ": " + s.message(), s.hint()); };
  if (key == "resolution.tier_priority") {
    std::string v = value;
    for (char& c : v) {
      if (c == '[' || c == ']' || c == ',') c = ' ';
    }
    std::stringstream ss(v);
    std::vector<std::string> tiers;
    for (std::string t; ss >> t;) {
      if (std::find(defaultTierPriority().begin(), defaultTierPriority().end(), t) == defaultTierPriority().end()) {
        return Status(codes::kParameterInvalid, key + ": unknown tier \"" + t + "\"",
                      "tiers: session, discovered, user, pack, core, builtin");
      }
      tiers.push_back(t);
    }
    if (tiers.empty()) return Status(codes::kParameterInvalid, key + ": give at least one tier");
    tier_priority = tiers;
  } else if (key == "resolution.strict_mode") {
    auto b = parseBool(value);
    if (!b) return bad(b.status());
    strict_mode = *b;
  } else if (key == "resolution.do_threshold") {
    char* end = nullptr;
    double v = value.size() <= 10 ? std::strtod(value.c_str(), &end) : -1;
    if (value.empty() || !end || *end != '\0' || !(v >= 0 && v <= 1)) {
      return Status(codes::kParameterInvalid, key + ": \"" + value + "\" is not a number from 0 to 1");
    }
    do_threshold = v;
  } else if (key == "execution.default_timeout" || key == "execution.step_timeout" || key == "execution.retry_delay") {
    auto ms = parseMs(value);
    if (!ms) return bad(ms.status());
    (key == "execution.default_timeout" ? default_timeout_ms : key == "execution.step_timeout" ? step_timeout_ms : retry_delay_ms) = *ms;
  } else if (key == "execution.max_retries") {
    int n = -1;
    try {
      n = std::stoi(value);
    } catch (...) {
    }
    if (n < 0 || n > 10) return Status(codes::kParameterInvalid, key + ": \"" + value + "\" is not 0..10");
    max_retries = n;
  } else if (key == "verification.verify_success" || key == "verification.verify_failure") {
    auto b = parseBool(value);
    if (!b) return bad(b.status());
    (key == "verification.verify_success" ? verify_success : verify_failure) = *b;
  } else if (key == "verification.rescan_after_action") {
    if (value != "auto" && value != "always" && value != "never") {
      return Status(codes::kParameterInvalid, key + ": auto, always or never");
    }
    rescan_after_action = value;
  } else if (key == "logging.redact_sensitive") {
    auto b = parseBool(value);
    if (!b) return bad(b.status());
    if (!*b) {
      return Status(codes::kParameterInvalid, "logging.redact_sensitive cannot be turned off",
                    "secrets are masked in every response, log and trace (§13.1)");
    }
  } else {
    std::string all;
    for (const auto& k : keys()) all += (all.empty() ? "" : ", ") + k;
    return Status(codes::kParameterInvalid, "unknown setting \"" + raw_key + "\"", "settings: " + all);
  }
  return Status::ok();
}

Status EngineConfig::reset(const std::string& raw_key) {
  std::string key = strip(raw_key);
  EngineConfig d;
  if (key.empty() || key == "intent_engine") {
    // File-only settings (where traces go, what the learner may record) stay as the file said.
    d.trace_dir = trace_dir;
    d.learner = learner;
    *this = d;
    return Status::ok();
  }
  bool any = false;
  nlohmann::json defaults = d.toJson()["intent_engine"];
  for (const auto& k : keys()) {
    if (k != key && k.rfind(key + ".", 0) != 0) continue;
    any = true;
    auto dot = k.find('.');
    const nlohmann::json& v = defaults[k.substr(0, dot)][k.substr(dot + 1)];
    std::string text = v.is_string() ? v.get<std::string>() : v.dump();
    Status s = set(k, text);
    if (!s) return s;
  }
  if (!any) return Status(codes::kParameterInvalid, "unknown setting or section \"" + raw_key + "\"");
  return Status::ok();
}

namespace {

// A setting's value as `set` takes it: a scalar as written, a list as its items separated by
// spaces. The node is a copy: the iterator's `it->second` is a member of a temporary that a
// loop over it would outlive (ASan's stack-use-after-scope).
std::string settingText(const YAML::Node node) {
  if (node.IsScalar()) return node.Scalar();
  std::string value;
  if (node.IsSequence()) {
    for (const auto& v : node) value += (value.empty() ? "" : " ") + v.Scalar();
  }
  return value;
}

}  // namespace

Result<EngineConfig> loadConfigFile(const std::string& path) {
  EngineConfig c;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return c;
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::Exception& e) {
    return Status(codes::kParameterInvalid,
                  path + ":" + std::to_string(e.mark.line + 1) + ": not valid YAML: " + e.msg);
  }
  if (YAML::Node learner = root["intent_learner"]; learner && learner.IsMap()) {
    for (auto it = learner.begin(); it != learner.end(); ++it) {
      Status s = c.learner.set(it->first.Scalar(), settingText(it->second));
      if (!s) {
        return Status(s.code(), path + ":" + std::to_string(it->first.Mark().line + 1) + ": " + s.message(), s.hint());
      }
    }
  }
  YAML::Node engine = root["intent_engine"];
  if (!engine) return c;
  for (auto section = engine.begin(); section != engine.end(); ++section) {
    std::string sname = section->first.Scalar();
    if (!section->second.IsMap()) continue;
    for (auto it = section->second.begin(); it != section->second.end(); ++it) {
      std::string key = sname + "." + it->first.Scalar();
      std::string value = settingText(it->second);
      // Where traces go (issue 20): from the file only, never `config set` (a client could
      // aim lscope's writes anywhere); --trace wins over it.
      if (key == "logging.trace_dir") {
        c.trace_dir = value;
        continue;
      }
      // Sections this engine does not have (learning, packs) are other components' settings.
      bool known = false;
      for (const auto& k : EngineConfig::keys()) known = known || k == key;
      if (!known) continue;
      Status s = c.set(key, value);
      if (!s) {
        return Status(s.code(), path + ":" + std::to_string(it->first.Mark().line + 1) + ": " + s.message(), s.hint());
      }
    }
  }
  return c;
}

}  // namespace lscope
