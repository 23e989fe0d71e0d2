// OIL (intent-language.md): any line, as typed by an agent, parses or fails with a Status;
// targets the same.
#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/oil.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  (void)lscope::parseLine(text);
  (void)lscope::parseTarget(text);
  return 0;
}
