// The wait engine: probe, then block on the page's next change, until done or out of time.
#include "engine/waits.h"

#include <cstdio>

namespace lscope {

Status waitUntil(Page& page, const std::function<Result<bool>()>& probe, Deadline until, WakeOn wake,
                 Millis slice) {
  for (;;) {
    if (page.call.cancelled()) return Status(codes::kCancelled, "cancelled");
    auto held = probe();
    if (!held) return held.status();
    if (*held) return Status::ok();
    if (until.expired()) return Status(codes::kTimeout, "timed out");
    if (wake == WakeOn::kNavigation) {
      auto b = page.backend();
      if (!b) return b.status();
      uint64_t count = (*b)->navigationCount();
      (*b)->waitForNavigation(count, until.capped(slice));  // a timeout here only means: look again
    } else {
      page.waitForChange(until, slice);
    }
  }
}

namespace {

// Repeats a backend wait over slices until it succeeds, fails for another reason, or time is up.
Status sliced(Page& page, Deadline until, const std::function<Status(Deadline)>& step) {
  constexpr Millis kSlice(1000);
  for (;;) {
    if (page.call.cancelled()) return Status(codes::kCancelled, "cancelled");
    Status s = step(until.capped(kSlice));
    if (s || s.code() != codes::kTimeout || until.expired()) return s;
  }
}

}  // namespace

Status waitLoad(Page& page, Deadline until) {
  auto b = page.backend();
  if (!b) return b.status();
  return sliced(page, until, [&](Deadline d) { return (*b)->waitForLoad(d); });
}

Status waitIdle(Page& page, Millis quiet, Deadline until) {
  auto b = page.backend();
  if (!b) return b.status();
  return sliced(page, until, [&](Deadline d) { return (*b)->waitForNetworkIdle(quiet, d); });
}

std::string elapsedSince(Clock::time_point since) {
  auto ms = std::chrono::duration_cast<Millis>(Clock::now() - since).count();
  if (ms < 1000) return std::to_string(ms) + "ms";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1fs", ms / 1000.0);
  return buf;
}

}  // namespace lscope
