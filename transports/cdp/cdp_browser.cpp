// The CDP BackendFactory: finds and launches Chromium (or attaches to a running one) on the
// first create(), and gives each engine session a fresh browser context.
#include <unistd.h>

#include <filesystem>
#include <mutex>

#include <spdlog/spdlog.h>

#include "transports/cdp/cdp_backend.h"
#include "transports/cdp/cdp_connection.h"
#include "transports/cdp/cdp_page.h"
#include "engine/json_bounded.h"
#include "net/http.h"
#include "transports/common/child_process.h"

namespace lscope::cdp {
namespace {

namespace fs = std::filesystem;

constexpr Millis kLaunchTimeout(30000);

class CdpBrowser final : public BackendFactory {
 public:
  explicit CdpBrowser(CdpOptions options)
      : options_(std::move(options)), gate_(std::make_shared<PolicyGate>(options_.policy)) {}
  ~CdpBrowser() override { shutdown(); }

  Result<std::unique_ptr<Backend>> create(Deadline deadline) override {
    std::shared_ptr<CdpConnection> conn;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (shut_down_) return Status(codes::kBrowserError, "the server is shutting down");
      if (!conn_ || !conn_->connected()) {
        auto st = start(deadline);
        if (!st) return st;
      }
      conn = conn_;
    }
    CdpPageOptions page;
    page.viewport_width = options_.viewport_width;
    page.viewport_height = options_.viewport_height;
    page.downloads_dir = downloads_dir_;
    page.description = description_;
    if (gate_->active()) page.gate = gate_;
    auto ctx = conn->send("Target.createBrowserContext", {{"disposeOnDetach", true}}, "", deadline);
    if (!ctx) return ctx.status();
    page.browser_context_id = (*ctx)["browserContextId"].get<std::string>();
    conn->send("Browser.setDownloadBehavior",
               {{"behavior", "allowAndName"},
                {"browserContextId", page.browser_context_id},
                {"downloadPath", downloads_dir_},
                {"eventsEnabled", true}},
               "", deadline);
    auto opened = CdpPage::open(conn, page, deadline);
    if (!opened) return opened.status();
    return std::unique_ptr<Backend>(std::move(opened.value()));
  }

  void shutdown() override {
    std::lock_guard<std::mutex> lock(mu_);
    if (shut_down_) return;
    shut_down_ = true;
    stop();
  }

 private:
  // REQUIRES: mu_ held.
  Status start(Deadline deadline) {
    stop();  // a previous browser that died: clean up before starting again
    std::string ws_url;
    if (!options_.endpoint.empty()) {
      ws_url = options_.endpoint;
      description_ = "cdp " + ws_url;
    } else if (!options_.http_url.empty()) {
      auto discovered = discoverEndpoint(options_.http_url, deadline);
      if (!discovered) return discovered.status();
      ws_url = *discovered;
      description_ = "cdp " + options_.http_url;
    } else {
      auto launched = launch(deadline);
      if (!launched) return launched.status();
      ws_url = *launched;
    }
    if (downloads_dir_.empty()) {
      downloads_dir_ = options_.downloads_dir.empty() ? makeTempDir("lemmascope-downloads-")
                                                      : options_.downloads_dir;
      owns_downloads_dir_ = options_.downloads_dir.empty();
    }
    auto conn = CdpConnection::connect(ws_url, deadline);
    if (!conn) return conn.status().wrap(attached() ? "attaching to " + ws_url : "launched Chromium");
    conn_ = std::shared_ptr<CdpConnection>(std::move(conn.value()));
    conn_->send("Target.setDiscoverTargets", {{"discover", true}}, "", deadline);
    if (Status gated = gate_->start(conn_, deadline); !gated) {
      stop();
      return gated;  // never run without the policy that was asked for
    }
    spdlog::info("browser ready: {}", description_);
    return Status::ok();
  }

  // Launches Chromium headless with a fresh profile; returns its browser WebSocket URL.
  Result<std::string> launch(Deadline deadline) {
    auto path = findBrowser(options_.browser);
    if (!path) return path.status();
    profile_dir_ = makeTempDir("lemmascope-profile-");
    if (profile_dir_.empty()) return Status(codes::kInternal, "cannot create a temporary profile");
    SpawnOptions spawn;
    spawn.program = *path;
    spawn.log_name = "chromium";
    spawn.args = {"--remote-debugging-port=0", "--user-data-dir=" + profile_dir_};
    spawn.args.insert(spawn.args.end(), chromiumSwitches().begin(), chromiumSwitches().end());
    spawn.args.push_back("--window-size=" + std::to_string(options_.viewport_width) + "," +
                         std::to_string(options_.viewport_height));
    for (auto& a : launchSwitches(!options_.headed, options_.extra_args)) spawn.args.push_back(std::move(a));
    spawn.args.push_back("about:blank");
    auto child = ChildProcess::spawn(spawn);
    if (!child) return child.status();
    process_ = std::move(child.value());
    process_->removeOnDeath(profile_dir_);
    auto line = process_->waitForLine(
        [](const std::string& l) { return l.rfind("DevTools listening on ", 0) == 0; },
        deadline.capped(kLaunchTimeout));
    if (!line) {
      std::string why = line.status().message();
      std::string output = process_->recentOutput(8);
      stop();
      return Status(codes::kBrowserError, "Chromium (" + *path + ") did not start: " + why +
                                              (output.empty() ? "" : "\n" + output),
                    "run it by hand with --headless to see why, or pass --browser PATH");
    }
    description_ = "cdp " + *path + " (pid " + std::to_string(process_->pid()) + ")";
    return line->substr(std::string("DevTools listening on ").size());
  }

  bool attached() const { return !options_.endpoint.empty() || !options_.http_url.empty(); }

  // --cdp-url: asks the browser's HTTP endpoint for its WebSocket URL (GET /json/version).
  static Result<std::string> discoverEndpoint(const std::string& http_url, Deadline deadline) {
    std::string base = http_url;
    while (!base.empty() && base.back() == '/') base.pop_back();
    auto res = net::send({"GET", base + "/json/version", "", "", {}}, deadline.capped(Millis(10000)));
    if (!res) return res.status().wrap("--cdp-url " + http_url);
    json info = parseJsonBounded(res->body, nullptr, kMaxBrowserJsonNesting);
    if (res->status != 200 || info.is_discarded() || !info.contains("webSocketDebuggerUrl")) {
      return Status(codes::kConnectionError,
                    http_url + "/json/version did not name a DevTools WebSocket (HTTP " +
                        std::to_string(res->status) + ")",
                    "start Chromium with --remote-debugging-port=PORT and pass http://host:PORT");
    }
    // The browser names itself as it sees itself (often 127.0.0.1); reach it where we found it.
    std::string ws = info["webSocketDebuggerUrl"].get<std::string>();
    auto url = net::parseUrl(base);
    auto path_start = ws.find('/', ws.find("://") + 3);
    if (url && path_start != std::string::npos) {
      ws = "ws://" + url->host + ":" + std::to_string(url->port) + ws.substr(path_start);
    }
    return ws;
  }

  // REQUIRES: mu_ held. Closes the browser we launched (politely, then by force) and removes
  // its profile; for an attached browser only the connection is closed.
  void stop() {
    if (conn_) conn_->close();
    conn_.reset();
    if (process_) {
      // The profile is ours and thrown away next: nothing of Chromium's orderly shutdown (about
      // a second of flushing state to it) is worth waiting for. The whole group goes at once.
      process_->terminate(Millis(0));
      process_.reset();
    }
    std::error_code ec;
    if (!profile_dir_.empty()) fs::remove_all(profile_dir_, ec);
    profile_dir_.clear();
    if (shut_down_ && owns_downloads_dir_ && !downloads_dir_.empty() && fs::is_empty(downloads_dir_, ec)) {
      fs::remove(downloads_dir_, ec);
    }
  }

  CdpOptions options_;
  std::shared_ptr<PolicyGate> gate_;
  std::mutex mu_;
  bool shut_down_ = false;
  std::shared_ptr<CdpConnection> conn_;
  std::unique_ptr<ChildProcess> process_;
  std::string profile_dir_;
  std::string downloads_dir_;
  bool owns_downloads_dir_ = false;
  std::string description_;
};

}  // namespace

std::unique_ptr<BackendFactory> makeCdpBackendFactory(CdpOptions options) {
  return std::make_unique<CdpBrowser>(std::move(options));
}

}  // namespace lscope::cdp
