// Finding a Chromium binary and the switches it starts with: shared by the backends that launch
// one (CDP, chromedriver, the extension's --extension-launch).
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

// The switches every Chromium lscope starts gets (headless, the profile and the window size
// aside): no sandbox (containers lack user namespaces), no GPU, none of the browser's own
// background traffic or UI, and, as Playwright and Puppeteer do, no throttling of timers or
// lowered priority for a renderer the browser deems in the background or occluded (a tab behind
// the one a popup opened, a cross-origin frame's process under load), and no hang monitor.
const std::vector<std::string>& chromiumSwitches();

// The switches after those: `headless` adds --headless and the input devices a desktop has
// (--blink-settings pointer and hover: a headless Chromium has none, so `(pointer: fine)` and
// `(hover: hover)` were false and pages drew their touch UI, MUI X its mobile pickers; Playwright
// tells headless Chromium the same); then `extra` (--browser-arg), whose own --blink-settings
// keys win over these (Chromium reads one such switch: they are merged).
std::vector<std::string> launchSwitches(bool headless, const std::vector<std::string>& extra);

}  // namespace lscope
