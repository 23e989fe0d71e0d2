// The built-in intents (intent-engine.md §2.1, §4, Appendix A): one registry. Each built-in
// lives in its own file (engine/builtins/<name>.cpp) with its definition, its steps and its
// readiness rule; this table lists them. To add one: write the file, add its row to kTable in
// builtins.cpp.
#pragma once

#include <string>
#include <vector>

#include "engine/intent_model.h"
#include "engine/page_model.h"
#include "engine/status.h"

namespace lscope {

struct IntentRun;

struct BuiltinIntent {
  IntentDef def;                       // name, description, parameters (the tool's schema)
  Status (*run)(IntentRun& run);       // the steps, in C++
  bool (*ready)(const PageScan& page);  // §6.1: the page offers what it needs
};

// Every built-in, in catalog order.
const std::vector<BuiltinIntent>& builtinTable();
// nullptr when `name` is no built-in.
const BuiltinIntent* findBuiltin(const std::string& name);
// The definitions, for the intent registry (tier "builtin").
std::vector<IntentDef> builtinIntents();

// One entry per built-in file.
BuiltinIntent loginIntent();
BuiltinIntent logoutIntent();
BuiltinIntent searchIntent();
BuiltinIntent acceptCookiesIntent();
BuiltinIntent dismissPopupsIntent();
BuiltinIntent fillFormIntent();
BuiltinIntent submitFormIntent();
BuiltinIntent scrollToIntent();

}  // namespace lscope
