// The `expression` condition of intent definitions (§3.4): a small, safe language over the
// bound parameters, e.g. "$items.length > 0", "$plan == 'pro' && $quantity >= 2".
// No code runs: values, comparisons, && || !, parentheses, .length and .field access.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "engine/status.h"

namespace lscope {

// Evaluates `expr` with `$name` bound from `vars` (objects and arrays navigable with .field,
// .0 and .length). Returns the value (booleans for comparisons); errors name the position.
Result<nlohmann::json> evaluateExpression(const std::string& expr, const nlohmann::json& vars);

// JavaScript-like truthiness: false, 0, "", null, [] and {} are false.
bool truthy(const nlohmann::json& v);

// Looks up "$a.b.c" (or "a.b.c") in vars: .length of arrays, objects and strings, numeric
// indexes of arrays. Null when absent.
nlohmann::json lookupReference(const std::string& ref, const nlohmann::json& vars);

}  // namespace lscope
