// Pattern packs (intent-engine.md §9): the site-independent packs' patterns (packs/<name>/
// pack.yaml with domains ["*"], its patterns.yaml files) as the scanner's pattern_rules, which
// every scan evaluates (scanner/README.md). Site packs (auto-loaded per domain) build on this.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/status.h"

namespace lscope {

struct PackLoad {
  nlohmann::json rules = nlohmann::json::array();  // [{name, provides, vendor, detection, elements}]
  std::vector<std::string> packs;                  // names of the packs loaded
  std::vector<Status> errors;                      // packs or files that failed (file:line: why)
};

// Loads every pack directory under each of `dirs` (missing directories are empty). A pack that
// fails is left out and reported; the others load.
PackLoad loadPatternPacks(const std::vector<std::string>& dirs);

}  // namespace lscope
