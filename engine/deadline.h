// Deadlines for blocking calls, and the per-call context (cancellation, progress).
// Every call that can block takes a Deadline; nothing in Lemmascope waits without one.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "engine/status.h"

namespace lscope {

using Clock = std::chrono::steady_clock;
using Millis = std::chrono::milliseconds;

class Deadline {
 public:
  explicit Deadline(Clock::time_point at) : at_(at) {}
  static Deadline in(Millis d) { return Deadline(Clock::now() + d); }
  static Deadline inMs(long long ms) { return in(Millis(ms)); }

  Clock::time_point at() const { return at_; }
  bool expired() const { return Clock::now() >= at_; }
  Millis remaining() const {
    auto r = std::chrono::duration_cast<Millis>(at_ - Clock::now());
    return std::max(r, Millis(0));
  }
  // The earlier of this deadline and now + d.
  Deadline capped(Millis d) const { return Deadline(std::min(at_, Clock::now() + d)); }

 private:
  Clock::time_point at_;
};

// Shared cancellation flag: set by the MCP layer (notifications/cancelled), read by the
// engine between backend calls. Thread-safe.
class CancelFlag {
 public:
  void cancel() { flag_.store(true); }
  bool cancelled() const { return flag_.load(); }

 private:
  std::atomic<bool> flag_{false};
};

// What the engine needs from whoever called it. All members optional.
struct CallContext {
  std::shared_ptr<CancelFlag> cancel;
  // Reports progress of multi-step work; message names the current step.
  std::function<void(double progress, double total, const std::string& message)> progress;
  // Tells the client something worth knowing (MCP notifications/message). Never secrets.
  std::function<void(const std::string& level, const std::string& message)> log;
  // Asks the user for a secret the stores lack (MCP URL-mode elicitation); returns its value
  // or why not. Unset when the client cannot be asked.
  std::function<Result<std::string>(const std::string& name)> elicit_secret;
  // Asks the client's model (MCP sampling) to answer a prompt; returns its text. Unset when the
  // client offers no sampling. Never given page text marked sensitive or secrets.
  std::function<Result<std::string>(const std::string& system, const std::string& prompt)> sample;

  bool cancelled() const { return cancel && cancel->cancelled(); }
  void report(double progress_value, double total, const std::string& message) const {
    if (progress) progress(progress_value, total, message);
  }
  void note(const std::string& level, const std::string& message) const {
    if (log) log(level, message);
  }
};

}  // namespace lscope
