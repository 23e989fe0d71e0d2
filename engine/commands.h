// The atomic commands of the intent language (intent-language.md "Command Categories"):
// one table read by the OIL parser (positional arguments, options), by the engine (dispatch)
// and by the MCP layer (tool name, schema, annotations). One source of truth per surface.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lscope {

using json = nlohmann::json;

enum class ParamType {
  kString,
  kInteger,
  kNumber,
  kBoolean,   // an option without a value: --enter
  kTarget,    // an OIL target: 5, "Sign in", email, css(...), xpath(...), "Edit" near "Row 1"
  kDuration,  // "10s", "500ms", "2m" or a number of milliseconds
  kObject,    // JSON object (fill_form data)
  kArray,     // JSON array (or comma-separated words in OIL)
};

struct ParamSpec {
  std::string name;
  ParamType type = ParamType::kString;
  bool required = false;
  bool positional = false;  // OIL: given in order without --name
  std::string description;  // short; becomes the JSON Schema description
  std::vector<std::string> choices{};  // allowed values (enum), if any
  bool rest = false;        // positional string that takes all remaining words
  bool sensitive = false;   // never echoed or logged (intent-engine.md §13.1)
  bool secret_ref = false;  // accepts "secret:NAME", resolved from the secret store
  std::string lead{};       // OIL: a word that may stand before this positional (extract links within …)
  bool list_ok = false;     // a string, or a list of strings (select's options of a multiple select)
};

struct CommandSpec {
  std::string name;       // snake_case, the spec's name
  std::string title;      // human title for MCP
  std::string category;   // navigation, observation, action, wait, tabs, intent
  std::string summary;    // one line, for tool descriptions and help
  std::string usage;      // OIL usage: "type <target> <text> [--enter]"
  std::vector<ParamSpec> params;
  std::vector<std::string> aliases;  // other spellings accepted by the parser ("reload")
  // MCP tool annotations, chosen honestly per command.
  bool read_only = false;
  bool destructive = false;
  bool idempotent = false;
  bool open_world = true;  // touches the web

  const ParamSpec* param(const std::string& name) const;
};

// Every command, in catalog order.
const std::vector<CommandSpec>& commandTable();
// Looks a command up by name or alias (case-insensitive); nullptr when unknown.
const CommandSpec* findCommand(const std::string& name);

// Finds commands beyond the table (intents). The parser asks it after the table.
using CommandLookup = std::function<const CommandSpec*(const std::string& name)>;
// Command names (and aliases) closest to `word`, best first (for "did you mean").
std::vector<std::string> nearestCommands(const std::string& word, size_t max = 3);
// Edit distance, case-insensitive; two adjacent letters swapped count as one edit.
size_t editDistance(const std::string& a, const std::string& b);

// Parses "10s", "1.5s", "500ms", "2m", or a bare number of milliseconds, up to a day.
std::optional<long long> parseDurationMs(const std::string& text);

}  // namespace lscope
