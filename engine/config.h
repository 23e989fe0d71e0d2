// Engine configuration (intent-engine.md §11.1): ~/.lemmascope/config.yaml or --config, and
// `config show|set|reset` at run time (per session).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/learner.h"
#include "engine/status.h"

namespace lscope {

struct EngineConfig {
  // resolution
  std::vector<std::string> tier_priority;  // default: session, discovered, user, pack, core, builtin
  bool strict_mode = false;
  double do_threshold = 0.6;  // `do` runs its best reading at or above this confidence (0..1)
  // execution
  long long default_timeout_ms = 30000;  // a whole intent
  long long step_timeout_ms = 10000;     // one step
  int max_retries = 3;                   // ceiling for --retry and options.retry
  long long retry_delay_ms = 1000;
  // verification
  bool verify_success = true;
  bool verify_failure = true;
  std::string rescan_after_action = "auto";  // auto | always | never
  // logging: secrets are always masked; redact_sensitive cannot be turned off.
  bool redact_sensitive = true;
  std::string trace_dir;  // logging.trace_dir in the config file only (issue 20); --trace wins
  // intent_learner: (§8.5), from the config file only: a client cannot aim the store elsewhere.
  LearnerConfig learner;

  EngineConfig();
  // The configuration as nested JSON (intent_engine: {resolution, execution, ...}).
  nlohmann::json toJson() const;
  // Sets "intent_engine.execution.default_timeout" (the "intent_engine." prefix is optional)
  // from text as typed in OIL ("60s", "true", "[user, core]").
  Status set(const std::string& key, const std::string& value);
  // Back to the default: one key, a section ("execution"), or everything ("").
  Status reset(const std::string& key);
  // Every settable key, dotted, without the prefix.
  static std::vector<std::string> keys();
};

// Reads a config.yaml. A missing file is the defaults; errors name file:line.
Result<EngineConfig> loadConfigFile(const std::string& path);

}  // namespace lscope
