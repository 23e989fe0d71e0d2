// The define shorthand of intent-engine.md §7.1–7.3: `name:` with `steps:` written as OIL lines
// ("click "Add" or click "♡"", "wait visible toast", "type email $email", "fill name=$name"),
// `parameters:` as `- rating: number, required` and `success:` as a list of conditions. It is
// translated to the full definition format (schemas/intent-v1.json) before loading, so a
// shorthand definition and its export are one definition.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "engine/status.h"

namespace lscope {

// True when `text` is written in the shorthand (its first line is `name:` or `define name:`).
bool isShorthandDefinition(const std::string& text);

// The full definition (as JSON) of a shorthand one. Errors are DEFINITION_INVALID, one line:
// "definition:LINE:COL: step N: what is wrong", with a hint.
Result<nlohmann::json> expandShorthand(const std::string& text, const std::string& file = "definition");

}  // namespace lscope
