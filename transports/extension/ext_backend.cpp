// The extension BackendFactory: listens for the extension at construction (so it can connect
// before the first command), and gives each engine session a "browser context" of the
// extension's: a tab group of its own, driven by CdpPage through the relay.
#include "transports/extension/ext_backend.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <mutex>
#include <random>

#include <spdlog/spdlog.h>

#include "engine/files.h"
#include "transports/cdp/cdp_page.h"
#include "transports/common/child_process.h"
#include "transports/common/find_browser.h"
#include "transports/extension/ext_relay.h"

namespace lscope::ext {
namespace {

namespace fs = std::filesystem;

class ExtensionFactory final : public BackendFactory {
 public:
  explicit ExtensionFactory(ExtensionOptions options) : options_(std::move(options)) {
    std::lock_guard<std::mutex> lock(mu_);
    auto st = listen();
    if (!st && options_.announce) options_.announce(st.message() + " (" + st.hint() + ")");
  }
  ~ExtensionFactory() override { shutdown(); }

  Result<std::unique_ptr<Backend>> create(Deadline deadline) override {
    std::shared_ptr<ExtensionRelay> relay;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (shut_down_) return Status(codes::kBrowserError, "the server is shutting down");
      LSCOPE_RETURN_IF_ERROR(listen());
      if (options_.launch && !browserRunning()) LSCOPE_RETURN_IF_ERROR(launch());
      relay = relay_;
    }
    if (!relay->waitConnected(deadline.capped(options_.wait_for_extension))) {
      return Status(codes::kBrowserError,
                    "no Lemmascope extension is connected to 127.0.0.1:" + std::to_string(relay->port()),
                    "open Chromium with the Lemmascope extension installed and paired: run `lscope pair` for the "
                    "pairing code and paste it into the extension's popup (README: The extension backend)");
    }
    auto ctx = relay->send("Target.createBrowserContext", json::object(), "", deadline);
    if (!ctx) return ctx.status();
    cdp::CdpPageOptions page;
    page.browser_context_id = (*ctx)["browserContextId"].get<std::string>();
    page.dispose_context = true;  // the agent's tabs close with its session
    page.fit_viewport = options_.launch;  // never resize a window of the user's
    page.viewport_width = options_.viewport_width;
    page.viewport_height = options_.viewport_height;
    page.description = "extension: " + relay->peer();
    page.extension = true;
    auto opened = cdp::CdpPage::open(relay, page, deadline);
    if (!opened) return opened.status();
    return std::unique_ptr<Backend>(std::move(opened.value()));
  }

  void shutdown() override {
    std::lock_guard<std::mutex> lock(mu_);
    if (shut_down_) return;
    shut_down_ = true;
    if (relay_) relay_->close();
    std::lock_guard<std::mutex> plock(process_mu_);
    if (process_) {
      process_->terminate(Millis(2000));
      process_.reset();
    }
    std::error_code ec;
    if (!profile_dir_.empty()) fs::remove_all(profile_dir_, ec);
  }

 private:
  bool browserRunning() {
    std::lock_guard<std::mutex> lock(process_mu_);
    return process_ && process_->running();
  }

  // REQUIRES: mu_ held.
  Status listen() {
    if (relay_) return Status::ok();
    if (id_.empty()) {
      if (!options_.extension_id.empty()) {
        id_ = options_.extension_id;
      } else {
        auto id = extensionIdOf(options_.extension_dir);
        if (!id) return id.status();
        id_ = *id;
      }
    }
    if (token_.empty()) {
      if (options_.launch) {
        token_ = randomToken();  // a browser of our own: a pairing that lives as long as we do
      } else {
        auto token = loadOrCreateToken(options_.token_file, false);
        if (!token) return token.status();
        token_ = *token;
      }
    }
    RelayOptions r;
    r.port = options_.port;
    r.token = token_;
    r.extension_id = id_;
    r.announce = options_.announce;
    if (options_.launch) {
      r.browser_gone = [this] {
        std::lock_guard<std::mutex> lock(process_mu_);
        return process_ && !process_->running();
      };
    }
    auto relay = ExtensionRelay::listen(r);
    if (!relay) return relay.status();
    relay_ = *relay;
    // The one line a launcher (or a person) reads to learn where we listen and how to pair.
    std::string line = "waiting for the Lemmascope extension (chrome-extension://" + id_ + ") on 127.0.0.1:" +
                       std::to_string(relay_->port());
    if (!options_.launch) line += "; pair it once with the code `lscope pair` prints";
    if (options_.announce) options_.announce(line);
    spdlog::info("{}", line);
    return Status::ok();
  }

  // REQUIRES: mu_ held. A fresh Chromium with the extension loaded and paired with us.
  Status launch() {
    {
      std::lock_guard<std::mutex> lock(process_mu_);
      process_.reset();
    }
    auto path = findBrowser(options_.browser);
    if (!path) return path.status();
    std::error_code ec;
    if (!profile_dir_.empty()) fs::remove_all(profile_dir_, ec);
    profile_dir_ = makeTempDir("lemmascope-extprofile-");
    if (profile_dir_.empty()) return Status(codes::kInternal, "cannot create a temporary profile");
    // A copy of the extension that carries our pairing code in pairing.json, which the relay
    // takes when it is not paired yet: what a user does by pasting the code into the popup.
    // (A browser refuses chrome-extension:// URLs given on its command line.)
    std::string ext_dir = profile_dir_ + "/extension";
    fs::create_directories(ext_dir, ec);
    fs::copy(options_.extension_dir, ext_dir, fs::copy_options::recursive, ec);
    if (ec || !writeFile(ext_dir + "/pairing.json", json{{"code", pairingCode(relay_->port(), token_)}}.dump())) {
      return Status(codes::kInternal, "cannot prepare the extension in " + ext_dir);
    }
    // Other extensions asked for with --browser-arg=--load-extension=DIR[,DIR] load beside ours
    // (a user's password manager, say): Chromium takes one such switch, so they are merged.
    std::string load = ext_dir;
    std::vector<std::string> extra;
    for (const auto& a : options_.extra_args) {
      if (a.rfind("--load-extension=", 0) == 0) load += "," + a.substr(17);
      else extra.push_back(a);
    }
    SpawnOptions spawn;
    spawn.program = *path;
    spawn.log_name = "chromium";
    spawn.args = {"--user-data-dir=" + profile_dir_};
    spawn.args.insert(spawn.args.end(), chromiumSwitches().begin(), chromiumSwitches().end());
    spawn.args.insert(spawn.args.end(), {
                  // No "started debugging this browser" bar: this browser is lscope's own, and
                  // the bar would shrink the viewport at a moment of its choosing.
                  "--silent-debugger-extension-api",
                  "--load-extension=" + load,
                  "--disable-extensions-except=" + load,
                  // Room for the browser's own UI (the tab strip shows even headless): the
                  // page then shrinks the window to the viewport asked for.
                  "--window-size=" + std::to_string(options_.viewport_width) + "," +
                      std::to_string(options_.viewport_height + 300)});
    // A headless screen as big as that window (else resizing is refused as off-screen).
    if (!options_.headed) {
      spawn.args.push_back("--screen-info={" + std::to_string(options_.viewport_width + 400) + "x" +
                           std::to_string(options_.viewport_height + 600) + "}");
    }
    for (auto& a : launchSwitches(!options_.headed, extra)) spawn.args.push_back(std::move(a));
    spawn.args.push_back("about:blank");
    auto child = ChildProcess::spawn(spawn);
    if (!child) return child.status();
    spdlog::info("launched Chromium (pid {}) with the extension", (*child)->pid());
    (*child)->removeOnDeath(profile_dir_);
    std::lock_guard<std::mutex> lock(process_mu_);
    process_ = std::move(child.value());
    return Status::ok();
  }

  ExtensionOptions options_;
  std::mutex mu_;
  bool shut_down_ = false;
  std::string id_;
  std::string token_;
  std::shared_ptr<ExtensionRelay> relay_;
  std::mutex process_mu_;  // guards process_ (the relay asks from other threads)
  std::unique_ptr<ChildProcess> process_;
  std::string profile_dir_;
};

}  // namespace

std::string pairingCode(int port, const std::string& token) {
  return "lsx1:" + std::to_string(port) + ":" + token;
}

std::string randomToken() {
  std::random_device rd;  // /dev/urandom
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (int i = 0; i < 32; ++i) out.push_back(hex[rd() & 15]);
  return out;
}

Result<std::string> loadOrCreateToken(const std::string& path, bool rotate) {
  if (!rotate) {
    auto text = readTextFile(path, codes::kInternal);
    if (text) {
      std::string t = *text;
      while (!t.empty() && (t.back() == '\n' || t.back() == '\r' || t.back() == ' ')) t.pop_back();
      if (t.size() >= 32 && t.find_first_not_of("0123456789abcdef") == std::string::npos) return t;
      spdlog::warn("{} does not hold a pairing token; writing a new one", path);
    }
  }
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  std::string token = randomToken() + "\n";
  // Created private (0600) from the start: no moment where another user could read it.
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return Status(codes::kInternal, "cannot write the pairing token to " + path);
  ::fchmod(fd, 0600);
  bool ok = ::write(fd, token.data(), token.size()) == static_cast<ssize_t>(token.size());
  ::close(fd);
  if (!ok) return Status(codes::kInternal, "cannot write the pairing token to " + path);
  token.pop_back();
  return token;
}

Result<std::string> extensionIdOf(const std::string& extension_dir) {
  std::string manifest = extension_dir + "/manifest.json";
  auto text = readTextFile(manifest, codes::kBrowserError);
  if (!text) {
    return Status(codes::kBrowserError, "cannot read the extension's manifest " + manifest,
                  "pass --extension-id ID for an extension installed elsewhere");
  }
  json m = json::parse(*text, nullptr, false);
  if (m.is_discarded() || !m.contains("key") || !m["key"].is_string()) {
    return Status(codes::kBrowserError, manifest + " has no \"key\", so the extension's id is not fixed",
                  "pass --extension-id ID (chrome://extensions shows it)");
  }
  return extensionIdFromKey(m["key"].get<std::string>());
}

std::unique_ptr<BackendFactory> makeExtensionBackendFactory(ExtensionOptions options) {
  return std::make_unique<ExtensionFactory>(std::move(options));
}

}  // namespace lscope::ext
