// The WebDriver BackendFactory: one WebDriver session per engine session. chromedriver serves
// many sessions from one process (started lazily, restarted when it died); WPEWebDriver serves
// one, so each session gets a driver process of its own. With --webdriver-url nothing is
// started: the remote end (a Selenium Grid, a cloud grid) owns its browsers.
#include "transports/webdriver/wd_backend.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <mutex>
#include <vector>

#include <spdlog/spdlog.h>

#include "transports/common/child_process.h"
#include "transports/common/find_browser.h"
#include "transports/webdriver/wd_page.h"

namespace lscope::wd {
namespace {

namespace fs = std::filesystem;

constexpr Millis kDriverStartTimeout(20000);
// A script that never calls back (a page that broke the driver's own helpers) holds the session
// this long; scanner waits that need longer raise it for their call.
constexpr long long kScriptTimeoutMs = 60000;
constexpr long long kPageLoadTimeoutMs = 300000;  // the engine's own deadlines end commands sooner

// A loopback port nobody listens on (the driver binds it right after).
int freePort() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return 0;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  int port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
    port = ntohs(addr.sin_port);
  }
  ::close(fd);
  return port;
}

struct Driver {
  std::shared_ptr<ChildProcess> process;
  std::shared_ptr<WdClient> client;
};

// Starts a driver binary on a free loopback port and waits until its /status answers.
Result<Driver> startDriver(const std::string& binary, Deadline deadline) {
  std::string path = findExecutable(binary);
  if (path.empty()) {
    bool wpe = binary.find("WPE") != std::string::npos;
    return Status(codes::kBrowserNotFound, "no WebDriver binary found: " + binary + " is not on PATH",
                  wpe ? "install it (Debian/Ubuntu: sudo apt install wpewebkit-driver cog) or pass --webdriver-binary PATH"
                      : "install it (Debian/Ubuntu: sudo apt install chromium-driver) or pass --webdriver-binary PATH");
  }
  // A port taken between our probe and the driver's bind makes it exit: try another.
  Status last = Status::ok();
  for (int attempt = 0; attempt < 3; ++attempt) {
    int port = freePort();
    SpawnOptions spawn;
    spawn.program = path;
    spawn.log_name = fs::path(path).filename().string();
    spawn.args = {"--port=" + std::to_string(port)};
    auto child = ChildProcess::spawn(spawn);
    if (!child) return child.status();
    std::shared_ptr<ChildProcess> process(std::move(child.value()));
    auto client = std::make_shared<WdClient>("http://127.0.0.1:" + std::to_string(port));
    Deadline until = deadline.capped(kDriverStartTimeout);
    // The driver announces nothing when ready (WPEWebDriver prints nothing at all), and a port
    // nobody listens on refuses at once: ask its /status (§8.3) until it answers, waiting
    // between tries on the driver's exit, so a driver that dies is noticed at once.
    for (;;) {
      auto status = client->call("GET", "/status", json(), until.capped(Millis(1000)));
      if (status) return Driver{process, client};
      if (process->waitExit(until.capped(Millis(20)))) break;
      if (until.expired()) {
        process->terminate(Millis(1000));
        return Status(codes::kBrowserError, path + " did not answer on port " + std::to_string(port) + " in time",
                      "run it by hand with --port=N to see why");
      }
    }
    last = Status(codes::kBrowserError, path + " exited at start (" + process->exitDescription() + ")" +
                                            (process->recentOutput(6).empty() ? "" : ":\n" + process->recentOutput(6)),
                  "run it by hand with --port=N to see why");
  }
  return last;
}

class WdFactory final : public BackendFactory {
 public:
  explicit WdFactory(WdOptions options) : options_(std::move(options)), engine_(engineFor(options_)) {}
  ~WdFactory() override { shutdown(); }

  Result<std::unique_ptr<Backend>> create(Deadline deadline) override {
    std::shared_ptr<WdClient> client;
    std::shared_ptr<ChildProcess> own_driver;
    std::string binary, where;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (shut_down_) return Status(codes::kBrowserError, "the server is shutting down");
      if (engine_ == Engine::kChromium && options_.remote_url.empty()) {
        auto found = findBrowser(options_.browser);
        if (!found) return found.status();
        binary = *found;
      } else if (engine_ == Engine::kChromium) {
        binary = options_.browser;  // a path on the remote machine, if given
      }
      if (!options_.remote_url.empty()) {
        client = std::make_shared<WdClient>(options_.remote_url);
        where = options_.remote_url;
      } else if (engine_ == Engine::kChromium) {
        if (!shared_ || !shared_->process->running()) {
          if (shared_) spdlog::warn("chromedriver ended ({}); starting it again", shared_->process->exitDescription());
          auto started = startDriver(driverBinary(), deadline);
          if (!started) return started.status();
          shared_ = std::make_unique<Driver>(std::move(started.value()));
        }
        client = shared_->client;
        where = driverBinary() + " (pid " + std::to_string(shared_->process->pid()) + ")";
      }
      if (downloads_root_.empty() && (options_.remote_url.empty() || !options_.downloads_dir.empty())) {
        downloads_root_ = options_.downloads_dir.empty() ? makeTempDir("lemmascope-downloads-") : options_.downloads_dir;
        owns_downloads_ = options_.downloads_dir.empty();
      }
    }
    if (!client) {
      // One session per WPEWebDriver process: this session gets its own.
      auto started = startDriver(driverBinary(), deadline);
      if (!started) return started.status();
      own_driver = started->process;
      client = started->client;
      where = driverBinary() + " (pid " + std::to_string(own_driver->pid()) + ")";
      std::lock_guard<std::mutex> lock(mu_);
      if (shut_down_) return Status(codes::kBrowserError, "the server is shutting down");
      own_drivers_.push_back(own_driver);
    }
    WdPageOptions page;
    page.keepalive = own_driver;
    page.registry = sessions_;
    page.synthesize_dblclick = engine_ == Engine::kWpe;
    page.viewport_width = options_.viewport_width;
    page.viewport_height = options_.viewport_height;
    if (!downloads_root_.empty() && engine_ == Engine::kChromium) {
      // Each session downloads into a folder of its own, so one never reports another's files.
      page.downloads_dir = options_.remote_url.empty() ? makeTempDir(downloads_root_ + "/session-") : downloads_root_;
    }
    std::string profile;
    if (engine_ == Engine::kChromium && options_.remote_url.empty()) {
      // A fresh profile we make and remove ourselves: chromedriver leaves its own behind.
      profile = makeTempDir("lemmascope-profile-");
      if (profile.empty()) return Status(codes::kInternal, "cannot create a temporary profile");
      page.owned_dirs.push_back(profile);
      std::shared_ptr<ChildProcess> driver = own_driver;
      if (!driver) {
        std::lock_guard<std::mutex> lock(mu_);
        if (shared_) driver = shared_->process;
      }
      if (driver) driver->removeOnDeath(profile);
    }
    json caps = sessionCapabilities(engine_, options_, binary, page.downloads_dir, profile);
    auto opened = WdPage::open(client, caps, page, deadline);
    if (!opened) return opened.status();
    const json& got = (*opened)->capabilities();
    std::string desc = "webdriver " + got.value("browserName", std::string("browser")) + " " +
                       got.value("browserVersion", std::string()) + " via " + where;
    (*opened)->setDescription(desc);
    spdlog::info("webdriver session ready: {}", desc);
    return std::unique_ptr<Backend>(std::move(opened.value()));
  }

  void shutdown() override {
    std::lock_guard<std::mutex> lock(mu_);
    if (shut_down_) return;
    shut_down_ = true;
    // Sessions still open (a signal ends us before their MCP sessions end): delete them, so the
    // remote ends close their browsers and remove their profiles. Then stop the drivers; their
    // whole process groups go, browsers included.
    sessions_->deleteAll(Millis(3000));
    if (shared_) shared_->process->terminate(Millis(2000));
    for (auto& weak : own_drivers_) {
      if (auto p = weak.lock()) p->terminate(Millis(2000));
    }
    std::error_code ec;
    if (owns_downloads_ && !downloads_root_.empty()) {
      for (const auto& e : fs::directory_iterator(downloads_root_, ec)) {
        if (fs::is_directory(e.path(), ec) && fs::is_empty(e.path(), ec)) fs::remove(e.path(), ec);
      }
      if (fs::is_empty(downloads_root_, ec)) fs::remove(downloads_root_, ec);
    }
  }

 private:
  std::string driverBinary() const {
    if (!options_.driver_binary.empty()) return options_.driver_binary;
    return engine_ == Engine::kWpe ? "WPEWebDriver" : "chromedriver";
  }

  WdOptions options_;
  Engine engine_;
  std::mutex mu_;
  bool shut_down_ = false;
  std::shared_ptr<WdSessionRegistry> sessions_ = std::make_shared<WdSessionRegistry>();
  std::unique_ptr<Driver> shared_;                          // chromedriver
  std::vector<std::weak_ptr<ChildProcess>> own_drivers_;    // WPEWebDriver, one per session
  std::string downloads_root_;
  bool owns_downloads_ = false;
};

}  // namespace

Engine engineFor(const WdOptions& options) {
  if (options.browser == "wpe" || options.browser == "webkit") return Engine::kWpe;
  std::string driver = fs::path(options.driver_binary).filename().string();
  if (driver.find("WPEWebDriver") != std::string::npos) return Engine::kWpe;
  return Engine::kChromium;
}

json sessionCapabilities(Engine engine, const WdOptions& options, const std::string& browser_binary,
                         const std::string& downloads_dir, const std::string& profile_dir) {
  json always = {
      {"pageLoadStrategy", "normal"},
      // Prompts wait for us: the backend accepts and reports them (the CDP dialog policy).
      {"unhandledPromptBehavior", "ignore"},
      {"timeouts", {{"script", kScriptTimeoutMs}, {"pageLoad", kPageLoadTimeoutMs}, {"implicit", 0}}},
  };
  if (engine == Engine::kWpe) {
    json args = {"--automation"};
    if (!options.headed) args.push_back("--platform=headless");
    always["wpe:browserOptions"] = {{"binary", "cog"}, {"args", args}};
  } else {
    json args = chromiumSwitches();
    args.push_back("--window-size=" + std::to_string(options.viewport_width) + "," +
                   std::to_string(options.viewport_height));
    if (!profile_dir.empty()) args.push_back("--user-data-dir=" + profile_dir);
    for (const auto& a : launchSwitches(!options.headed, options.extra_args)) args.push_back(a);
    json chrome = {{"args", args}};
    if (!browser_binary.empty()) chrome["binary"] = browser_binary;
    if (!downloads_dir.empty()) {
      chrome["prefs"] = {{"download.default_directory", downloads_dir},
                         {"download.prompt_for_download", false},
                         {"download.directory_upgrade", true}};
    }
    always["browserName"] = "chrome";
    always["goog:chromeOptions"] = chrome;
  }
  if (options.extra_capabilities.is_object()) always.merge_patch(options.extra_capabilities);
  return {{"alwaysMatch", always}, {"firstMatch", json::array({json::object()})}};
}

std::unique_ptr<BackendFactory> makeWebDriverBackendFactory(WdOptions options) {
  return std::make_unique<WdFactory>(std::move(options));
}

}  // namespace lscope::wd
