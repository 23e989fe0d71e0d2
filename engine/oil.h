// The OIL parser (intent-language.md): forgiving command syntax in, Command values out.
// Pure: no browser, no I/O. Errors name the column and suggest the nearest valid form.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/commands.h"
#include "engine/status.h"

namespace lscope {

using json = nlohmann::json;

// How a text target matches an element's text (intent-engine.md §3.3 `match`).
enum class TextMatch { kAuto, kExact, kContains, kRegex };

// An element target (intent-language.md "Target Resolution").
struct TargetSpec {
  enum class Kind { kId, kText, kRole, kCss, kXpath, kWord };
  Kind kind = Kind::kText;
  int id = 0;
  std::string value;  // text, role name, selector, or bare word(s)
  TextMatch match = TextMatch::kAuto;
  std::string relation;                 // near, inside, after, before
  std::shared_ptr<TargetSpec> anchor;   // the target of the relation
  // Unquoted words that happen to contain a relation word ("Warn before leaving") may be plain
  // text: the whole phrase, tried as text before the relation.
  std::string as_text;

  // The target as an agent would write it: 5, "Sign in", email, css(.btn), "Edit" near "Row 1".
  std::string toString() const;
};

struct Command {
  std::string name;                   // canonical command name from the table
  std::optional<TargetSpec> target;   // the command's `target` parameter, parsed
  json args = json::object();         // every other parameter by name (typed)
  std::string source;                 // the original text, for logs (never with secrets)
};

struct ParseError {
  size_t column = 0;       // 1-based
  std::string message;
  std::string suggestion;  // a valid form close to the input, or empty
};

// Parses one OIL line. Blank lines and comments (# ...) yield nullopt with no error.
// Returns a Status (SYNTAX_ERROR) whose message names the column and whose hint suggests
// the nearest valid form.
// `lookup` finds commands beyond the table (intents); null: the table only.
Result<std::optional<Command>> parseLine(const std::string& line, const CommandLookup& lookup = nullptr);

// Parses a target written in OIL syntax ("5", "\"Sign in\"", "Sign in", "email",
// "css(.btn)", "\"Edit\" near \"Row 1\""). Unquoted words that are not a role or id are text.
Result<TargetSpec> parseTarget(const std::string& text);

// Builds a Command from named arguments (the MCP path): validates types against the command
// table, parses the target string, applies the same rules as the OIL parser.
Result<Command> commandFromArgs(const std::string& name, const json& args, const CommandLookup& lookup = nullptr);

// Reserved role words (intent-language.md "Reserved Words").
bool isRoleWord(const std::string& word);

}  // namespace lscope
