// The W3C WebDriver backend: starts a driver itself (chromedriver, WPEWebDriver) or attaches
// to any remote end (a Selenium Grid, WebKitWebDriver, a cloud grid); one WebDriver session per
// engine session.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/backend.h"

namespace lscope::wd {

// The browser engines we know how to ask for.
enum class Engine { kChromium, kWpe };

struct WdOptions {
  std::string browser;         // --browser: "wpe", or a Chromium binary (default: found on PATH)
  std::string driver_binary;   // --webdriver-binary (default: chromedriver, or WPEWebDriver for wpe)
  std::string remote_url;      // --webdriver-url: attach to this remote end, start nothing
  nlohmann::json extra_capabilities = nlohmann::json::object();  // merged into alwaysMatch
  bool headed = false;
  std::vector<std::string> extra_args;  // --browser-arg: more Chromium switches
  int viewport_width = 1280;
  int viewport_height = 800;
  std::string downloads_dir;   // where downloads land (default: a temp dir per session)
};

// Which engine the options ask for: --browser wpe, or a WPE/WebKit driver binary.
Engine engineFor(const WdOptions& options);

// The capabilities of New Session for `engine` (§7.2 "Capabilities"), exposed for a unit test.
// `browser_binary` is the Chromium path to pass (empty: let the remote end choose);
// `profile_dir` a fresh --user-data-dir (empty: the driver makes one).
nlohmann::json sessionCapabilities(Engine engine, const WdOptions& options, const std::string& browser_binary,
                                   const std::string& downloads_dir, const std::string& profile_dir = "");

std::unique_ptr<BackendFactory> makeWebDriverBackendFactory(WdOptions options);

}  // namespace lscope::wd
