// Helpers the built-in intents share: definitions, element tests, durations, page messages.
#pragma once

#include <functional>
#include <initializer_list>
#include <set>
#include <string>
#include <vector>

#include "engine/builtins/builtins.h"
#include "engine/intent_run.h"

namespace lscope::builtin {

ParamDef param(const char* name, const char* type, bool required, json def, const char* description,
               bool sensitive = false, json enum_values = nullptr);
// `phrases`: how a person asks for it, for `do` (issue 19).
IntentDef define(const char* name, const char* description, std::vector<ParamDef> params,
                 std::vector<std::string> phrases = {});

std::string low(std::string s);
// The element's text, aria-label, value and title contain one of `words` (normalized).
bool textHas(const Element& e, std::initializer_list<const char*> words);
// Its name, id, autocomplete or placeholder attribute contains one of `words`.
bool attrHas(const Element& e, std::initializer_list<const char*> words);
// The first visible element satisfying `f`, else the first hidden one; nullptr when none.
const Element* firstWhere(const PageScan& p, const std::function<bool(const Element&)>& f);
// The element of a pattern's first field present, of the first such pattern.
const Element* patternField(const PageScan& p, const char* pattern, std::initializer_list<const char*> fields);
// A duration option ("2s", 1500) in ms, or `fallback`.
long long durationArg(const json& v, long long fallback);
// Error messages on the page that were not in `before`.
std::vector<std::string> newErrors(const PageScan& before, const PageScan& now);
// A field a person fills: inputs, selects, text areas, checkboxes, radios, editable widgets.
bool isField(const Element& e);
// Waits up to the intent's `appear` time for `found` to hold (the pattern a built-in needs is not
// there yet: a late banner, a form rendered after load). Logs the wait when it waited.
Status waitForPattern(IntentRun& run, const std::function<bool(const PageScan&)>& found, long long ms,
                      const std::string& what);
// The common "how long to wait for the pattern to appear" option (issue 12: default 3 s).
ParamDef appearParam();

}  // namespace lscope::builtin
