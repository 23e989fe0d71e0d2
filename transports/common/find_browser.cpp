// Finding a Chromium binary on PATH.
#include "transports/common/find_browser.h"

#include <cstdlib>

#include "transports/common/child_process.h"

namespace lscope {

const std::vector<std::string>& browserCandidates() {
  static const std::vector<std::string> kNames = {"chromium", "chromium-browser", "google-chrome",
                                                  "google-chrome-stable"};
  return kNames;
}

Result<std::string> findBrowser(const std::string& requested) {
  if (!requested.empty()) {
    std::string path = findExecutable(requested);
    if (path.empty()) {
      return Status(codes::kBrowserNotFound, "--browser " + requested + " is not an executable file",
                    "pass the path of a Chromium or Chrome binary");
    }
    return path;
  }
  for (const auto& name : browserCandidates()) {
    std::string path = findExecutable(name);
    if (!path.empty()) return path;
  }
  std::string searched;
  for (const auto& name : browserCandidates()) searched += (searched.empty() ? "" : ", ") + name;
  const char* env_path = std::getenv("PATH");
  return Status(codes::kBrowserNotFound,
                "no Chromium found: searched " + searched + " on PATH (" +
                    std::string(env_path ? env_path : "") + ")",
                "install it (Debian/Ubuntu: sudo apt install chromium) or pass --browser PATH");
}

const std::vector<std::string>& chromiumSwitches() {
  static const std::vector<std::string> kSwitches = {
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--no-default-browser-check",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
      "--disable-features=Translate,MediaRouter,OptimizationHints",
      "--disable-background-timer-throttling",
      "--disable-backgrounding-occluded-windows",
      "--disable-renderer-backgrounding",
      "--disable-hang-monitor",
      "--mute-audio",
      "--hide-scrollbars",
  };
  return kSwitches;
}

std::vector<std::string> launchSwitches(bool headless, const std::vector<std::string>& extra) {
  static const std::string kBlink = "--blink-settings=";
  std::string blink = headless ? "primaryPointerType=4,availablePointerTypes=4,primaryHoverType=2,availableHoverTypes=2" : "";
  std::vector<std::string> out;
  if (headless) out.push_back("--headless");
  for (const auto& a : extra) {
    if (a.rfind(kBlink, 0) == 0) {
      blink += (blink.empty() ? "" : ",") + a.substr(kBlink.size());  // later keys win
    } else {
      out.push_back(a);
    }
  }
  if (!blink.empty()) out.insert(out.begin() + (headless ? 1 : 0), kBlink + blink);
  return out;
}

}  // namespace lscope
