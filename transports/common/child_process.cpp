// ChildProcess: fork/exec in a dedicated owner thread that waits for the child, so the
// child's parent-death signal fires only when our whole process dies.
#include "transports/common/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <future>
#include <mutex>
#include <sstream>
#include <thread>
#include <utility>

#include <spdlog/spdlog.h>

namespace lscope {

struct ChildProcess::State {
  mutable std::mutex mu;
  int watchdog_fd = -1;  // write end of the watchdog's pipe (-1: none)
  bool watchdog_done = true;  // no watchdog, or it has ended
  std::condition_variable cv;
  pid_t pid = -1;
  bool exited = false;
  int wait_status = 0;
  bool output_closed = false;
  bool terminated = false;
  std::deque<std::string> lines;  // recent output (bounded)
  size_t lines_seen = 0;          // total lines ever, to find lines newer than a mark
  std::string log_name;
};

namespace {

constexpr size_t kKeepLines = 400;

void readOutput(std::shared_ptr<ChildProcess::State> st, int fd) {
  std::string partial;
  char buf[4096];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    partial.append(buf, static_cast<size_t>(n));
    size_t pos;
    while ((pos = partial.find('\n')) != std::string::npos) {
      std::string line = partial.substr(0, pos);
      partial.erase(0, pos + 1);
      spdlog::debug("[{}] {}", st->log_name, line);
      std::lock_guard<std::mutex> lock(st->mu);
      st->lines.push_back(std::move(line));
      if (st->lines.size() > kKeepLines) st->lines.pop_front();
      ++st->lines_seen;
      st->cv.notify_all();
    }
  }
  ::close(fd);
  std::lock_guard<std::mutex> lock(st->mu);
  st->output_closed = true;
  st->cv.notify_all();
}

// The watchdog (issue 16: processes we start die with us, even when we are SIGKILLed, which no
// handler of ours sees). PR_SET_PDEATHSIG reaches only the direct child; what it starts (the
// browser chromedriver launches, cog under WPEWebDriver) would be left running. A small shell in
// a session of its own holds the read end of a pipe only we write to: when we die the kernel
// closes our end, the read sees EOF, and the shell kills the child's whole process group, then
// removes the directories we told it about (profiles) once their writers are gone.
constexpr const char* kWatchdogScript =
    "set -f\n"
    "list=''\n"
    "while IFS= read -r line; do if [ -z \"$line\" ]; then list=''; else list=\"$list$line\n\"; fi; done\n"
    "kill -KILL \"-$1\" 2>/dev/null\n"
    // Removed once the group's last process is gone (no writer left), not after a fixed wait;
    // at most 2 s (an unreaped zombie still counts as a member).
    "n=0; while [ -n \"$list\" ] && [ $n -lt 40 ] && kill -0 \"-$1\" 2>/dev/null; do sleep 0.05; n=$((n+1)); done\n"
    "[ -n \"$list\" ] || exit 0\n"
    "printf '%s' \"$list\" | while IFS= read -r d; do [ -n \"$d\" ] && rm -rf -- \"$d\"; done\n";

// Forks the watchdog for the group `pgid`; returns its pid and the pipe's write end (CLOEXEC),
// or -1s when it could not start (the child then runs without one).
std::pair<pid_t, int> startWatchdog(pid_t pgid) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return {-1, -1};
  std::string group = std::to_string(pgid);
  const char* argv[] = {"/bin/sh", "-c", kWatchdogScript, "lscope-watchdog", group.c_str(), nullptr};
  pid_t pid = ::fork();
  if (pid == 0) {
    ::setsid();  // out of our process group: a signal to it (Ctrl-C, a harness) spares the watchdog
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    ::signal(SIGINT, SIG_IGN);
    ::signal(SIGHUP, SIG_IGN);
    ::signal(SIGTERM, SIG_IGN);
    ::dup2(fds[0], 0);  // dup2 clears CLOEXEC on the copy
    int devnull = ::open("/dev/null", O_WRONLY);
    if (devnull >= 0) {
      ::dup2(devnull, 1);
      ::dup2(devnull, 2);
    }
    ::syscall(SYS_close_range, 3U, ~0U, 0U);
    ::execv(argv[0], const_cast<char* const*>(argv));
    ::_exit(127);
  }
  ::close(fds[0]);
  if (pid < 0) {
    ::close(fds[1]);
    return {-1, -1};
  }
  return {pid, fds[1]};
}

}  // namespace

std::string findExecutable(const std::string& name) {
  if (name.empty()) return {};
  if (name.find('/') != std::string::npos) return ::access(name.c_str(), X_OK) == 0 ? name : "";
  const char* path = std::getenv("PATH");
  std::stringstream ss(path ? path : "/usr/local/bin:/usr/bin:/bin");
  std::string dir;
  while (std::getline(ss, dir, ':')) {
    if (dir.empty()) continue;
    std::string candidate = dir + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return {};
}

void blockTerminationSignals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

Result<std::unique_ptr<ChildProcess>> ChildProcess::spawn(const SpawnOptions& options) {
  std::string program = findExecutable(options.program);
  if (program.empty()) {
    return Status(codes::kBrowserNotFound, "executable not found: " + options.program);
  }
  auto st = std::make_shared<State>();
  st->log_name = options.log_name;

  // Everything the child needs is prepared before fork(): only async-signal-safe calls after.
  std::vector<std::string> argv_store;
  argv_store.push_back(program);
  argv_store.insert(argv_store.end(), options.args.begin(), options.args.end());

  std::promise<Status> started;
  auto started_future = started.get_future();
  std::thread owner([st, argv_store, &started]() mutable {
    std::vector<char*> argv;
    for (auto& a : argv_store) argv.push_back(a.data());
    argv.push_back(nullptr);
    int out[2];
    if (::pipe2(out, O_CLOEXEC) != 0) {
      started.set_value(Status(codes::kInternal, std::string("pipe: ") + std::strerror(errno)));
      return;
    }
    int devnull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    pid_t parent = ::getpid();
    pid_t pid = ::fork();
    if (pid == 0) {
      ::setpgid(0, 0);
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (::getppid() != parent) ::_exit(127);
      sigset_t none;
      sigemptyset(&none);
      ::sigprocmask(SIG_SETMASK, &none, nullptr);
      ::signal(SIGPIPE, SIG_DFL);
      ::dup2(devnull, 0);
      ::dup2(out[1], 1);
      ::dup2(out[1], 2);
      ::syscall(SYS_close_range, 3U, ~0U, 0U);
      ::execv(argv[0], argv.data());
      ::_exit(127);  // findExecutable() checked the path; the exit code tells the rest
    }
    ::close(out[1]);
    if (devnull >= 0) ::close(devnull);
    if (pid < 0) {
      ::close(out[0]);
      started.set_value(Status(codes::kInternal, std::string("fork: ") + std::strerror(errno)));
      return;
    }
    ::setpgid(pid, pid);  // also here: the group exists before the watchdog may signal it
    auto [watchdog, watchdog_fd] = startWatchdog(pid);
    {
      std::lock_guard<std::mutex> lock(st->mu);
      st->pid = pid;
      st->watchdog_fd = watchdog_fd;
      st->watchdog_done = watchdog <= 0;
    }
    std::thread(readOutput, st, out[0]).detach();
    started.set_value(Status::ok());
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    {
      std::lock_guard<std::mutex> lock(st->mu);
      st->exited = true;
      st->wait_status = status;
      // The child is gone: the watchdog kills what is left of its group, then ends.
      if (st->watchdog_fd >= 0) ::close(st->watchdog_fd);
      st->watchdog_fd = -1;
      st->cv.notify_all();
    }
    if (watchdog > 0) {
      while (::waitpid(watchdog, &status, 0) < 0 && errno == EINTR) {
      }
      std::lock_guard<std::mutex> lock(st->mu);
      st->watchdog_done = true;
      st->cv.notify_all();
    }
  });
  owner.detach();
  Status s = started_future.get();
  if (!s) return s;
  return std::unique_ptr<ChildProcess>(new ChildProcess(st));
}

ChildProcess::~ChildProcess() { terminate(Millis(3000)); }

void ChildProcess::removeOnDeath(const std::string& dir) {
  std::lock_guard<std::mutex> lock(state_->mu);
  if (state_->watchdog_fd < 0 || dir.empty() || dir.find('\n') != std::string::npos) return;
  std::string line = dir + "\n";
  // A pipe takes PIPE_BUF (4096) bytes at once; the watchdog reads as we write.
  if (::write(state_->watchdog_fd, line.data(), line.size()) < 0) {
    spdlog::debug("{}: the watchdog did not take {}", state_->log_name, dir);
  }
}

pid_t ChildProcess::pid() const {
  std::lock_guard<std::mutex> lock(state_->mu);
  return state_->pid;
}

bool ChildProcess::running() const {
  std::lock_guard<std::mutex> lock(state_->mu);
  return !state_->exited;
}

Result<std::string> ChildProcess::waitForLine(const std::function<bool(const std::string&)>& match,
                                             Deadline deadline) {
  std::unique_lock<std::mutex> lock(state_->mu);
  size_t checked_upto = state_->lines_seen - state_->lines.size();  // first line still kept
  for (;;) {
    size_t first_kept = state_->lines_seen - state_->lines.size();
    for (size_t i = std::max(checked_upto, first_kept); i < state_->lines_seen; ++i) {
      const std::string& line = state_->lines[i - first_kept];
      if (match(line)) return line;
    }
    checked_upto = state_->lines_seen;
    if (state_->exited && state_->output_closed) {
      return Status(codes::kBrowserError, state_->log_name + " exited before it was ready");
    }
    if (state_->cv.wait_until(lock, deadline.at()) == std::cv_status::timeout &&
        state_->lines_seen == checked_upto) {
      return Status(codes::kTimeout, state_->log_name + " did not become ready in time");
    }
  }
}

bool ChildProcess::waitExit(Deadline deadline) {
  std::unique_lock<std::mutex> lock(state_->mu);
  return state_->cv.wait_until(lock, deadline.at(), [&] { return state_->exited; });
}

namespace {

// The live processes of group `pgid` (zombies do not count: nothing runs in them).
std::vector<pid_t> groupMembers(pid_t pgid) {
  std::vector<pid_t> out;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    // read(2), not a stream: a process that exits between open and read makes read fail with
    // ESRCH, which libstdc++'s filebuf throws (uncaught, it ended lscope mid-run).
    std::string stat;
    int fd = ::open((entry.path() / "stat").c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    char buf[1024];
    ssize_t n = ::read(fd, buf, sizeof buf);
    ::close(fd);
    if (n <= 0) continue;
    stat.assign(buf, static_cast<size_t>(n));
    auto close = stat.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(stat.substr(close + 2));
    char state = 0;
    long ppid = 0, pgrp = 0;
    rest >> state >> ppid >> pgrp;
    if (pgrp == pgid && state != 'Z' && state != 'X') out.push_back(static_cast<pid_t>(std::stol(name)));
  }
  return out;
}

// Blocks until every process of group `pgid` has exited, or the deadline. Each exit is an
// event (a pidfd turns readable), not something polled for.
void waitGroupGone(pid_t pgid, Deadline deadline) {
  for (;;) {
    std::vector<pollfd> fds;
    for (pid_t pid : groupMembers(pgid)) {
      int fd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
      if (fd >= 0) fds.push_back({fd, POLLIN, 0});
    }
    if (fds.empty() || deadline.expired()) {
      for (auto& f : fds) ::close(f.fd);
      return;
    }
    ::poll(fds.data(), fds.size(), static_cast<int>(std::max<long long>(1, deadline.remaining().count())));
    for (auto& f : fds) ::close(f.fd);
  }
}

}  // namespace

void ChildProcess::terminate(Millis grace) {
  pid_t pid;
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    if (state_->terminated) return;
    state_->terminated = true;
    pid = state_->pid;
  }
  if (pid <= 0) return;
  {
    // We end it ourselves and clean up after it: the watchdog forgets its directories (an empty
    // line), so it does not remove them a second time.
    std::lock_guard<std::mutex> lock(state_->mu);
    if (state_->watchdog_fd >= 0 && ::write(state_->watchdog_fd, "\n", 1) < 0) {
      spdlog::debug("{}: the watchdog is gone", state_->log_name);
    }
  }
  // The group outlives its leader when helpers linger; signal the group either way.
  if (running() && grace.count() > 0) {
    ::kill(-pid, SIGTERM);
    if (!waitExit(Deadline::in(grace))) spdlog::warn("{} ignored SIGTERM; killing", state_->log_name);
  }
  ::kill(-pid, SIGKILL);
  waitExit(Deadline::in(Millis(2000)));
  // Helpers of the child (a browser's network process) die with the group; wait until they
  // have, so nothing of ours outlives this call.
  waitGroupGone(pid, Deadline::in(Millis(2000)));
  // Its watchdog ends as soon as it sees the group gone: nothing of ours outlives this call.
  std::unique_lock<std::mutex> lock(state_->mu);
  state_->cv.wait_until(lock, Deadline::in(Millis(2000)).at(), [&] { return state_->watchdog_done; });
}

std::string ChildProcess::recentOutput(size_t max_lines) const {
  std::lock_guard<std::mutex> lock(state_->mu);
  std::string out;
  size_t start = state_->lines.size() > max_lines ? state_->lines.size() - max_lines : 0;
  for (size_t i = start; i < state_->lines.size(); ++i) out += state_->lines[i] + "\n";
  return out;
}

std::string ChildProcess::exitDescription() const {
  std::lock_guard<std::mutex> lock(state_->mu);
  if (!state_->exited) return {};
  if (WIFEXITED(state_->wait_status)) return "exit code " + std::to_string(WEXITSTATUS(state_->wait_status));
  if (WIFSIGNALED(state_->wait_status)) return "signal " + std::to_string(WTERMSIG(state_->wait_status));
  return "exited";
}

}  // namespace lscope
