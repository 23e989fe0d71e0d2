// The one wait engine: a condition re-checked whenever the page changes (DOM mutation,
// transition end, load: the scanner's wait_change; or a navigation), until it holds or the
// deadline passes. OIL `wait`, intent `wait` steps and conditions, auto-wait before actions and
// the built-ins' waits for their patterns all wait through it. Never sleeps on an interval.
#pragma once

#include <functional>
#include <string>

#include "engine/page.h"

namespace lscope {

enum class WakeOn {
  kPageChange,  // DOM mutations, transitions, loads (scanner wait_change), navigations
  kNavigation,  // main-frame navigations only (URL waits: history.pushState mutates nothing)
};

// Runs `probe` now and after every change of the page until it returns true (OK), fails (its
// Status), the call is cancelled (CANCELLED) or `until` passes (TIMEOUT, message "timed out").
// Slices of at most `slice` between re-checks keep cancellation prompt and catch changes no event
// announces (a CSS animation moving an element).
Status waitUntil(Page& page, const std::function<Result<bool>()>& probe, Deadline until,
                 WakeOn wake = WakeOn::kPageChange, Millis slice = Millis(1000));

// The document's load event; network quiet for `quiet`. Sliced for cancellation.
Status waitLoad(Page& page, Deadline until);
Status waitIdle(Page& page, Millis quiet, Deadline until);

// "1.2s" style duration since `since`, for action logs.
std::string elapsedSince(Clock::time_point since);

}  // namespace lscope
