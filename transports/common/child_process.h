// Child processes a backend starts (Chromium, chromedriver): own process group, stdout and
// stderr captured (never our stdout), killed with the whole group when we stop or die.
#pragma once

#include <sys/types.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/deadline.h"
#include "engine/files.h"  // makeTempDir, for the backends
#include "engine/status.h"

namespace lscope {

struct SpawnOptions {
  std::string program;             // absolute path or a name found on PATH
  std::vector<std::string> args;   // without argv[0]
  std::string log_name = "child";  // prefix of its output lines in our log (debug level)
};

// Thread-safety: all methods may be called from any thread.
class ChildProcess {
 public:
  // Starts the program in a new process group. The child gets SIGKILL if this process dies
  // (PR_SET_PDEATHSIG), and a watchdog kills its whole group then (what the child started too),
  // so even a SIGKILL of ours never leaves anything running.
  static Result<std::unique_ptr<ChildProcess>> spawn(const SpawnOptions& options);
  // Terminates the group (see terminate()) if still running.
  ~ChildProcess();
  // Has the watchdog remove `dir` (a browser profile) if this process dies without doing so.
  void removeOnDeath(const std::string& dir);

  pid_t pid() const;
  bool running() const;
  // Blocks until an output line (stdout or stderr) satisfies `match`, and returns it. Lines
  // printed before the call count too. Fails when the process exits or at the deadline.
  Result<std::string> waitForLine(const std::function<bool(const std::string&)>& match,
                                  Deadline deadline);
  // Blocks until the process exits or the deadline passes; true if it exited.
  bool waitExit(Deadline deadline);
  // SIGTERM to the group, up to `grace` for it to exit, then SIGKILL to the group (at once when
  // `grace` is 0). Idempotent.
  void terminate(Millis grace);
  // The last lines of output, for error messages.
  std::string recentOutput(size_t max_lines = 10) const;
  // How it exited, e.g. "exit code 1" or "signal 9"; empty while running.
  std::string exitDescription() const;

  struct State;

 private:
  explicit ChildProcess(std::shared_ptr<State> state) : state_(std::move(state)) {}
  std::shared_ptr<State> state_;
};


// Finds an executable: a path containing '/' is checked as is; a bare name is searched on PATH.
// Returns the empty string when not found.
std::string findExecutable(const std::string& name);

// Blocks SIGINT/SIGTERM/SIGHUP for the calling thread and the threads it starts, so a
// dedicated thread can sigwait() for them; children get a clean mask before exec.
void blockTerminationSignals();

}  // namespace lscope
