// The Chromium DevTools Protocol backend: launches headless Chromium (or attaches to a
// running one) and gives each engine session its own browser context.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/backend.h"
#include "engine/nav_policy.h"
#include "transports/common/find_browser.h"

namespace lscope::cdp {

struct CdpOptions {
  std::string browser;                // --browser: path or name; empty = search PATH
  std::string endpoint;               // --cdp-endpoint ws://...: attach, do not launch
  std::string http_url;               // --cdp-url http://host:port: attach via /json/version
  bool headed = false;                // --headed
  std::vector<std::string> extra_args;
  std::string downloads_dir;          // where downloads are saved (default: a temp dir)
  int viewport_width = 1280;
  int viewport_height = 800;
  // Origin lists are enforced at the browser (every document request); null: none.
  std::shared_ptr<const NavigationPolicy> policy;
};

std::unique_ptr<BackendFactory> makeCdpBackendFactory(CdpOptions options);

}  // namespace lscope::cdp
