// Loads intent definitions from YAML or JSON into IntentDef, enforcing the rules of
// schemas/intent-v1.json and §13.2 (bounded loops, timeouts within limits, no execute unless
// trusted) plus the semantic rules a schema cannot express. Pure: text in, value out.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/intent_model.h"
#include "engine/status.h"

namespace lscope {

struct LoadOptions {
  std::string tier = "user";
  bool trusted = false;  // execute steps allowed
  // A site pack's intent (or hook): the pack's custom actions and conditions may be named, and
  // execute steps load whatever the pack's trust; the executor refuses them at run time unless
  // the pack is trusted, saying why (intent-engine.md §13.3).
  const PackRuntime* pack = nullptr;
};

// A site pack's pack.yaml (intent-engine.md §9.2, §12; schemas/pack-v1.json), checked: errors
// are PACK_LOAD_FAILED with "file:line:column: /json/pointer: what is wrong".
struct PackSpec {
  std::string name, version, description, trust = "community";  // trust: what the pack asks for
  std::vector<std::string> domains, auto_load, pattern_files, intent_files;
  std::string requires_lemmascope;
  PackRuntime runtime;  // custom actions, conditions and hooks (name, domains filled in too)
  nlohmann::json document;
};
Result<PackSpec> parsePack(const std::string& text, const std::string& file);
// A patterns.yaml (§9.3; schemas/patterns-v1.json) as the scanner's pattern_rules: one object
// per pattern with its "name". Errors as parsePack's.
Result<nlohmann::json> parsePatterns(const std::string& text, const std::string& file);


// A YAML (or JSON) document as JSON; errors are `code` (PACK_LOAD_FAILED unless told) with
// "file:line:column: why".
Result<nlohmann::json> parseYamlDocument(const std::string& text, const std::string& file,
                                         const char* code = codes::kPackLoadFailed);

// Errors are DEFINITION_INVALID with "file:line:column: /json/pointer: what is wrong".
Result<IntentDef> parseIntent(const std::string& text, const std::string& file, const LoadOptions& options);
Result<IntentDef> loadIntentFile(const std::string& path, const LoadOptions& options);
// A definition's document (IntentDef::document) as YAML that parseIntent reads back to the same
// document (export, intent-engine.md §7.5): strings a plain scalar would misread are quoted.
std::string definitionYaml(const nlohmann::json& document);

// Every *.yaml, *.yml and *.json file in a directory (sorted); a missing directory is empty.
// Files that fail to load are returned as errors beside the intents that loaded.
struct DirectoryLoad {
  std::vector<IntentDef> intents;
  std::vector<Status> errors;
};
DirectoryLoad loadIntentDirectory(const std::string& dir, const LoadOptions& options);

}  // namespace lscope
