// OIL (intent-language.md): any line, as typed by an agent, parses or fails with a Status;
// targets the same. The same text as a `do` sentence (issue 19) against the built-in intents:
// a reading or none, never a throw.
#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/builtins/builtins.h"
#include "engine/do_parser.h"
#include "engine/oil.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::vector<lscope::IntentDef> defs = lscope::builtinIntents();
  static const std::vector<lscope::DoIntent> intents = [] {
    std::vector<lscope::DoIntent> v;
    for (const auto& d : defs) v.push_back({&d, d.name == "login"});
    return v;
  }();
  std::string text(reinterpret_cast<const char*>(data), size);
  (void)lscope::parseLine(text);
  (void)lscope::parseTarget(text);
  if (size <= 8000) (void)lscope::parseDo(text, intents, 3);
  return 0;
}
