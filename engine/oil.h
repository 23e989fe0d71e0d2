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
  // kPattern: a detected pattern's element ("login_form.email"; intent definitions, §3.3).
  enum class Kind { kId, kText, kRole, kCss, kXpath, kWord, kPattern };
  Kind kind = Kind::kText;
  int id = 0;
  std::string value;  // text, role name, selector, pattern reference, or bare word(s)
  // kText: any of these texts matches too (a definition's text_contains list).
  std::vector<std::string> alternatives;
  TextMatch match = TextMatch::kAuto;
  // The n-th match in page order (1-based; -1: the last): `2nd "Edit"`, `last "Delete"`.
  int nth = 0;
  std::string relation;                 // near, inside, after, before
  std::shared_ptr<TargetSpec> anchor;   // the target of the relation
  std::shared_ptr<TargetSpec> fallback; // tried when this one matches nothing (definitions)
  // Unquoted words that happen to contain a relation word ("Warn before leaving") may be plain
  // text: the whole phrase, tried as text before the relation.
  std::string as_text;
  // kId written as a string of digits ("18" from an MCP client): an element whose text is those
  // digits (a calendar's day, a page number) makes it ambiguous.
  bool id_or_text = false;

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

// Role words: the reserved roles (intent-language.md "Reserved Words"), every type word an
// observation prints (input, select, option, ...), their type/role forms (input/date) and the
// ARIA role names (textbox, combobox, ...).
bool isRoleWord(const std::string& word);
// "2nd", "third", "last" -> 2, 3, -1; 0 when `word` is no ordinal.
int parseOrdinal(const std::string& word);
// 2 -> "2nd", -1 -> "last".
std::string ordinalWord(int n);

}  // namespace lscope
