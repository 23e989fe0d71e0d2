// Finding a Chromium binary: shared by the backends that launch one (CDP, chromedriver).
#pragma once

#include <string>
#include <vector>

#include "engine/status.h"

namespace lscope {

// The names searched on PATH when no --browser is given, in order.
const std::vector<std::string>& browserCandidates();

// Resolves --browser / PATH to an executable, or a BROWSER_NOT_FOUND Status naming what was
// searched and how to install Chromium.
Result<std::string> findBrowser(const std::string& requested);

}  // namespace lscope
