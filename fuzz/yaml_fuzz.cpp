// Intent and pack files (YAML or JSON): load or fail with file:line, never crash. The first byte
// picks the loader, the rest is the file.
#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/intent_loader.h"
#include "fuzz/common.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  lscope::fuzz::quiet();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 4) {
    case 0: {
      lscope::LoadOptions o;
      (void)lscope::parseIntent(text, "fuzz.yaml", o);
      break;
    }
    case 1: {
      lscope::LoadOptions o;
      o.trusted = true;
      o.tier = "pack";
      (void)lscope::parseIntent(text, "fuzz.yaml", o);
      break;
    }
    case 2:
      (void)lscope::parsePack(text, "pack.yaml");
      break;
    default:
      (void)lscope::parsePatterns(text, "patterns.yaml");
      break;
  }
  return 0;
}
