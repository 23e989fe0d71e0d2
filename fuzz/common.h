// Shared by the libFuzzer targets: a backend factory that never starts a browser (a tool call
// fails at once, as with a dead browser), and quiet logging.
#pragma once

#include <memory>

#include <spdlog/spdlog.h>

#include "engine/backend.h"

namespace lscope::fuzz {

class NoBrowser final : public BackendFactory {
 public:
  Result<std::unique_ptr<Backend>> create(Deadline) override {
    return Status(codes::kBrowserError, "no browser in the fuzzer");
  }
  void shutdown() override {}
};

inline void quiet() { spdlog::set_level(spdlog::level::off); }

}  // namespace lscope::fuzz
