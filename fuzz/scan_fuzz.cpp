// The scanner's answers are data from a page we do not trust (a hostile page can shape what the
// scanner returns): any JSON parses into a PageScan or fails with a Status.
#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/page_model.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto j = nlohmann::json::parse(data, data + size, nullptr, false);
  if (j.is_discarded()) return 0;
  (void)lscope::parseScan(j);
  (void)lscope::parseScan(j, "frame-1");
  lscope::Element e;
  (void)lscope::parseElement(j, "", e);
  return 0;
}
