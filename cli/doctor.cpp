#include "cli/doctor.h"

#include "engine/learner.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <filesystem>
#include <regex>

#include "transports/common/child_process.h"
#include "transports/common/find_browser.h"

namespace lscope {
namespace {

namespace fs = std::filesystem;

// The first line of `program args` that holds a version number ("Chromium 120.0.6099.224").
std::string versionOf(const std::string& program, const std::vector<std::string>& args) {
  SpawnOptions o;
  o.program = program;
  o.args = args;
  o.log_name = "doctor";
  auto child = ChildProcess::spawn(o);
  if (!child) return "";
  static const std::regex kVersion(R"(\d+\.\d+)");
  auto line = (*child)->waitForLine([](const std::string& l) { return std::regex_search(l, kVersion); },
                                    Deadline::in(Millis(15000)));
  (*child)->terminate(Millis(2000));
  if (!line) return "";
  std::string v = *line;
  while (!v.empty() && std::isspace(static_cast<unsigned char>(v.back()))) v.pop_back();
  return v;
}

std::string major(const std::string& version) {
  std::smatch m;
  static const std::regex kMajor(R"((\d+)\.\d+)");
  return std::regex_search(version, m, kMajor) ? m[1].str() : "";
}

// Does the browser start headless here, with the switches lscope gives it, and render a page?
std::string startsHeadless(const std::string& browser) {
  std::string profile = makeTempDir("lscope-doctor-");
  if (profile.empty()) return "no temporary directory for its profile";
  SpawnOptions o;
  o.program = browser;
  o.args = chromiumSwitches();
  o.args.insert(o.args.end(), {"--headless", "--user-data-dir=" + profile, "--dump-dom", "data:text/html,<p>lscope doctor</p>"});
  o.log_name = "doctor";
  std::string why;
  auto child = ChildProcess::spawn(o);
  if (!child) {
    why = child.status().message();
  } else {
    auto line = (*child)->waitForLine([](const std::string& l) { return l.find("lscope doctor") != std::string::npos; },
                                      Deadline::in(Millis(30000)));
    if (!line) why = "it did not render a page in 30 s: " + (*child)->recentOutput(3);
    (*child)->terminate(Millis(2000));
  }
  std::error_code ec;
  fs::remove_all(profile, ec);
  return why;
}

bool portFree(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return false;
  int one = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bool ok = ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  ::close(fd);
  return ok;
}

bool writable(const std::string& dir) { return !dir.empty() && ::access(dir.c_str(), W_OK | X_OK) == 0; }

struct Report {
  std::ostream& out;
  void line(const std::string& what, const std::string& state, const std::string& detail) {
    std::string w = what;
    w.resize(std::max<size_t>(w.size(), 18), ' ');
    std::string s = state;
    s.resize(std::max<size_t>(s.size(), 8), ' ');
    out << w << s << detail << "\n";
  }
};

}  // namespace

int runDoctor(const DoctorOptions& o, std::ostream& out) {
  Report r{out};
  out << "lscope doctor: what each backend needs here\n\n";
  // CDP, the default: a Chromium that starts headless.
  bool cdp_ok = false;
  std::string chromium_version;
  auto browser = findBrowser(o.browser);
  if (!browser) {
    r.line("cdp (default)", "missing", browser.status().message() + "; " + browser.status().hint());
  } else {
    chromium_version = versionOf(*browser, {"--version"});
    std::string why = startsHeadless(*browser);
    cdp_ok = why.empty();
    r.line("cdp (default)", cdp_ok ? "ok" : "problem",
           (chromium_version.empty() ? *browser : chromium_version + " at " + *browser) +
               (cdp_ok ? ", starts headless" : ": " + why));
  }
  // WebDriver: chromedriver of the same major version as the browser.
  std::string driver = findExecutable("chromedriver");
  if (driver.empty()) {
    r.line("webdriver", "missing", "no chromedriver on PATH: sudo apt install chromium-driver (or pass --webdriver-url)");
  } else {
    std::string v = versionOf(driver, {"--version"});
    bool same = major(v).empty() || major(chromium_version).empty() || major(v) == major(chromium_version);
    r.line("webdriver", same ? "ok" : "problem",
           (v.empty() ? driver : v.substr(0, v.find(" (")) + " at " + driver) +
               (same ? "" : ": its major version is not the browser's (" + major(chromium_version) +
                                "); install the matching chromium-driver"));
  }
  // WPE WebKit through WebDriver (--browser wpe).
  std::string wpe = findExecutable("WPEWebDriver");
  std::string cog = findExecutable("cog");
  if (wpe.empty() || cog.empty()) {
    std::string lacks = wpe.empty() && cog.empty() ? "WPEWebDriver and cog" : wpe.empty() ? "WPEWebDriver" : "cog";
    r.line("wpe", "missing", "no " + lacks + " on PATH: sudo apt install wpewebkit-driver cog (only for --browser wpe)");
  } else {
    r.line("wpe", "ok", wpe + ", " + cog);
  }
  // The extension (lscope-r): its files, its loopback port, the pairing.
  std::error_code ec;
  bool files = fs::exists(fs::path(o.extension_dir) / "manifest.json", ec);
  bool port = o.extension_port == 0 || portFree(o.extension_port);
  bool paired = !o.token_file.empty() && fs::exists(o.token_file, ec);
  std::string ext = files ? "files in " + o.extension_dir : "no extension files at " + o.extension_dir + " (reinstall lscope)";
  ext += port ? ", port " + std::to_string(o.extension_port) + " free"
              : ", port " + std::to_string(o.extension_port) + " in use (another lscope-r? or --extension-port)";
  ext += paired ? ", a pairing code exists (lscope pair shows it)" : ", not paired yet: lscope pair";
  r.line("extension", files && port ? "ok" : "problem", ext);
  // Where lscope writes: ~/.lemmascope (intents, packs, the pairing token) and the temp dir.
  std::string dot = o.home.empty() ? "" : o.home + "/.lemmascope";
  bool home_ok = !dot.empty() && (fs::exists(dot, ec) ? writable(dot) : writable(o.home));
  const char* tmp_env = std::getenv("TMPDIR");
  std::string tmp = tmp_env && *tmp_env ? tmp_env : "/tmp";
  bool tmp_ok = writable(tmp);
  r.line("files", home_ok && tmp_ok ? "ok" : "problem",
         std::string(dot.empty() ? "no home directory (set HOME)" : dot + (home_ok ? " writable" : " not writable")) +
             ", " + tmp + (tmp_ok ? " writable" : " not writable (set TMPDIR)"));
  // The intent learner's store (issue 18): where, what it holds, whether it can be written.
  if (o.learner_mode == "off") {
    r.line("learner", "off", "turned off (--learn, LSCOPE_LEARN or intent_learner.enabled)");
  } else if (o.learner_db.empty()) {
    r.line("learner", "problem", "no place for its store (no home directory): set intent_learner.store");
  } else {
    std::string when = o.learner_mode == "on" ? "on" : "on for stdio, off over HTTP";
    fs::path db(o.learner_db);
    if (!fs::exists(db, ec)) {
      fs::path dir = db.parent_path();
      while (!dir.empty() && !fs::exists(dir, ec)) dir = dir.parent_path();
      bool can = writable(dir.string());
      r.line("learner", can ? "ok" : "problem", when + "; " + o.learner_db + (can ? " is made at the first command" : ": " + dir.string() + " not writable"));
    } else {
      auto held = LearnerStore::inspect(o.learner_db);
      if (!held) {
        r.line("learner", "problem", held.status().message());
      } else {
        const json& h = *held;
        r.line("learner", writable(db.parent_path().string()) ? "ok" : "problem",
               when + "; " + o.learner_db + ": " + std::to_string(h["commands"].get<long long>()) + " commands on " +
                   std::to_string(h["domains"].get<long long>()) + (h["domains"].get<long long>() == 1 ? " site, " : " sites, ") +
                   std::to_string(h["proposed"].get<long long>()) + " proposed, " + std::to_string(h["saved"].get<long long>()) +
                   " saved (forget <site> deletes)");
      }
    }
  }
  out << "\n" << (cdp_ok ? "The default backend works." : "The default backend does not work yet: see the cdp line.") << "\n";
  return cdp_ok ? 0 : 1;
}

}  // namespace lscope
