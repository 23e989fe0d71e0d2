// lscope: the composition root. Parses the command line, picks the backend (the only place
// that names one), and runs the chosen front end: MCP over stdio, OIL scripts, REPL, catalog.
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>
#include <tuple>

#include <CLI/CLI.hpp>
#include <spdlog/sinks/base_sink.h>
#include <spdlog/spdlog.h>

#include "cli/doctor.h"
#include "cli/trace_view.h"
#include "cli/scanner_shell.h"
#include "engine/packs.h"
#include "engine/response.h"
#include "engine/session.h"
#include "engine/secrets.h"
#include "net/http.h"
#include "server/http_server.h"
#include "server/secret_portal.h"
#include "server/mcp_session.h"
#include "server/stdio_server.h"
#include "server/tools.h"
#include "transports/cdp/cdp_backend.h"
#include "transports/common/child_process.h"
#include "transports/extension/ext_backend.h"
#include "transports/webdriver/wd_backend.h"

namespace {

// stderr, with every secret a session has seen masked, whoever logged the line (§13.1).
class RedactingStderrSink final : public spdlog::sinks::base_sink<std::mutex> {
 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    spdlog::memory_buf_t buf;
    formatter_->format(msg, buf);
    std::string line = lscope::scrubLog(std::string(buf.data(), buf.size()));
    std::fwrite(line.data(), 1, line.size(), stderr);
  }
  void flush_() override { std::fflush(stderr); }
};

using lscope::BackendFactory;

struct Options {
  std::string backend = "cdp";
  std::string browser;
  std::string cdp_endpoint;
  std::string cdp_url;
  std::string webdriver_binary;
  std::string webdriver_url;
  std::string webdriver_caps;
  bool headed = false;
  std::string log_level = "warn";
  bool strict = false;
  double timeout_s = 30;
  int settle_quiet_ms = 20;  // --settle-quiet
  std::string tools = "default";  // --tools profile
  std::string secrets_file;       // --secrets
  std::vector<std::string> intent_dirs;  // --intents DIR
  std::vector<std::string> pack_dirs;    // --packs DIR
  std::vector<std::string> browser_args; // --browser-arg ARG
  std::string pack_new_domain;           // pack new <domain>
  std::string pack_new_dir;              // pack new --dir DIR
  std::string config_file;        // --config
  int extension_port = 9217;       // --extension-port
  std::string trace_dir;           // --trace
  long long trace_max_kb = 20480;  // --trace-max-kb
  bool trace_screenshots = false;  // --trace-screenshots
  std::string trace_view_file, trace_view_out;  // trace view FILE --out
  std::string record_file;         // --record
  std::string learn;               // --learn on|off|auto (or LSCOPE_LEARN); the config's otherwise
  std::string learner_db;          // --learner-db
  std::string extension_id;        // --extension-id
  bool extension_launch = false;   // --extension-launch
  bool pair_new = false;           // pair --new
  std::string script;  // run FILE|-
  std::string http;    // serve --http HOST:PORT
  std::string auth_token;
  std::vector<std::string> allowed_origins;
  bool keep_going = false;
  bool allow_file_access = false;       // --allow-file-access
  std::vector<std::string> nav_allowed; // --allowed-origins
  std::vector<std::string> nav_blocked; // --blocked-origins
};

// argv[0] of lscope-h / lscope-e / lscope-r presets the backend (seed naming); options given
// on the command line still win.
void presetFromProgramName(const std::string& argv0, Options& o) {
  std::string base = argv0.substr(argv0.find_last_of('/') + 1);
  if (base == "lscope-e") {
    o.backend = "webdriver";
    o.browser = "wpe";
  } else if (base == "lscope-r") {
    o.backend = "extension";
  }
}

std::string shippedDir(const std::string& installed_rel, const std::string& source_rel);
// The extension's files: installed (share/lemmascope/extension), else build/extension of the
// build this binary came from (transports/extension/chrome plus the scanner files it injects).
std::string extensionDir() {
  std::string dir = shippedDir("extension", "");
  return dir == std::string(LSCOPE_SOURCE_DIR) + "/" ? std::string(LSCOPE_BINARY_DIR) + "/extension" : dir;
}
std::string homeDir();

// The extension's pairing secret: ~/.lemmascope/extension-token (0600).
std::string extensionTokenFile() {
  return (homeDir().empty() ? std::string(".") : homeDir()) + "/.lemmascope/extension-token";
}

// The navigation policy of every session (issue 16), from --allow-file-access and the origin lists.
std::shared_ptr<const lscope::NavigationPolicy> g_policy = std::make_shared<const lscope::NavigationPolicy>();

lscope::Result<std::shared_ptr<const lscope::NavigationPolicy>> policyFrom(const Options& o) {
  auto policy = std::make_shared<lscope::NavigationPolicy>();
  policy->allow_file = o.allow_file_access;
  for (const auto& [flag, lists, into] : {std::tuple{"--allowed-origins", &o.nav_allowed, &policy->allowed},
                                          std::tuple{"--blocked-origins", &o.nav_blocked, &policy->blocked}}) {
    for (const auto& list : *lists) {
      auto parsed = lscope::NavigationPolicy::parseList(list);
      if (!parsed) return parsed.status().wrap(flag);
      into->insert(into->end(), parsed->begin(), parsed->end());
    }
  }
  return std::shared_ptr<const lscope::NavigationPolicy>(policy);
}

lscope::Result<std::unique_ptr<BackendFactory>> makeFactory(const Options& o) {
  if (o.backend == "cdp") {
    lscope::cdp::CdpOptions cdp;
    cdp.browser = o.browser;
    cdp.endpoint = o.cdp_endpoint;
    cdp.http_url = o.cdp_url;
    cdp.headed = o.headed;
    cdp.extra_args = o.browser_args;
    cdp.policy = g_policy;
    return lscope::cdp::makeCdpBackendFactory(cdp);
  }
  if (o.backend == "webdriver") {
    lscope::wd::WdOptions wd;
    wd.browser = o.browser;
    wd.driver_binary = o.webdriver_binary;
    wd.remote_url = o.webdriver_url;
    wd.headed = o.headed;
    wd.extra_args = o.browser_args;
    if (!o.webdriver_caps.empty()) {
      wd.extra_capabilities = nlohmann::json::parse(o.webdriver_caps, nullptr, false);
      if (!wd.extra_capabilities.is_object()) {
        return lscope::Status(lscope::codes::kParameterInvalid, "--webdriver-capabilities is not a JSON object",
                              "e.g. --webdriver-capabilities '{\"browserVersion\": \"120\"}'");
      }
    }
    if (!o.webdriver_url.empty()) {
      auto url = lscope::net::parseUrl(o.webdriver_url);
      if (!url) {
        return lscope::Status(lscope::codes::kParameterInvalid, "--webdriver-url " + o.webdriver_url + " is not an http URL",
                              "e.g. --webdriver-url http://127.0.0.1:4444");
      }
    }
    return lscope::wd::makeWebDriverBackendFactory(wd);
  }
  lscope::ext::ExtensionOptions ext;
  ext.port = o.extension_port;
  ext.token_file = extensionTokenFile();
  ext.extension_dir = extensionDir();
  ext.extension_id = o.extension_id;
  ext.launch = o.extension_launch;
  ext.browser = o.browser;
  ext.headed = o.headed;
  ext.extra_args = o.browser_args;
  ext.announce = [](const std::string& line) { std::cerr << "lscope: " << line << std::endl; };
  return lscope::ext::makeExtensionBackendFactory(ext);
}

std::shared_ptr<lscope::SecretStore> g_secrets = std::make_shared<lscope::SecretStore>();
lscope::mcp::SecretPortal* g_portal = nullptr;
std::shared_ptr<lscope::IntentRegistry> g_registry;
lscope::EngineConfig g_config;
std::shared_ptr<lscope::LearnerStore> g_learner;  // null: not learning

std::string homeDir() {
  const char* h = std::getenv("HOME");
  return h ? h : "";
}

std::shared_ptr<lscope::PackManager> g_packs;

// Shipped data (intents, packs): beside the installed binary (share/lemmascope/<rel>), else the
// source tree this binary was built from.
std::string shippedDir(const std::string& installed_rel, const std::string& source_rel) {
  char buf[4096];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n > 0) {
    buf[n] = 0;
    std::filesystem::path installed = std::filesystem::path(buf).parent_path() / ".." / "share" / "lemmascope" / installed_rel;
    std::error_code ec;
    if (std::filesystem::is_directory(installed, ec)) return installed.lexically_normal().string();
  }
  return std::string(LSCOPE_SOURCE_DIR) + "/" + source_rel;
}

// Shipped intents: beside the installed binary (share/lemmascope/intents/core), else the
// source tree this binary was built from.
std::string coreIntentsDir() {
  char buf[4096];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n > 0) {
    buf[n] = 0;
    std::filesystem::path installed = std::filesystem::path(buf).parent_path() / ".." / "share" / "lemmascope" / "intents" / "core";
    std::error_code ec;
    if (std::filesystem::is_directory(installed, ec)) return installed.lexically_normal().string();
  }
  return std::string(LSCOPE_SOURCE_DIR) + "/intents/core";
}

// The intent learner's mode: --learn, else LSCOPE_LEARN, else config.yaml (on, off or auto).
std::string learnMode(const Options& o) {
  if (!o.learn.empty()) return o.learn;
  const char* env = std::getenv("LSCOPE_LEARN");
  if (env && *env) return env;
  return g_config.learner.enabled == "true" ? "on" : g_config.learner.enabled == "false" ? "off" : "auto";
}

// Its store: --learner-db, else intent_learner.store, else the user's data directory.
std::string learnerDb(const Options& o) {
  if (!o.learner_db.empty()) return o.learner_db;
  return !g_config.learner.store.empty() ? g_config.learner.store : lscope::LearnerConfig::defaultStore();
}

lscope::SessionOptions engineOptions(const Options& o) {
  lscope::SessionOptions s;
  s.secrets = g_secrets;
  s.registry = g_registry;
  s.config = g_config;
  s.packs = g_packs;
  s.policy = g_policy;
  s.strict = o.strict;
  s.command_timeout = lscope::Millis(static_cast<long long>(o.timeout_s * 1000));
  s.settle_quiet = lscope::Millis(o.settle_quiet_ms);
  s.trace.dir = o.trace_dir.empty() ? g_config.trace_dir : o.trace_dir;
  s.trace.max_bytes = static_cast<uint64_t>(std::max(1LL, o.trace_max_kb)) * 1024;
  s.trace.screenshots = o.trace_screenshots;
  s.record_file = o.record_file;
  s.learner = g_learner;
  return s;
}

// SIGINT/SIGTERM/SIGHUP: stop the browser (no orphans, no stale profile), then exit.
void startSignalThread(BackendFactory* factory) {
  std::thread([factory] {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    int sig = 0;
    if (sigwait(&set, &sig) != 0) return;
    spdlog::info("signal {}: shutting down", sig);
    factory->shutdown();
    std::fflush(stdout);
    ::_exit(128 + sig);
  }).detach();
}

int runScript(BackendFactory* factory, const Options& o) {
  std::string text;
  if (o.script == "-") {
    std::stringstream ss;
    ss << std::cin.rdbuf();
    text = ss.str();
  } else {
    std::ifstream in(o.script);
    if (!in) {
      std::cerr << "lscope run: cannot read " << o.script << "\n";
      return 2;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    text = ss.str();
  }
  lscope::Session session(factory, engineOptions(o));
  bool failed = false;
  bool first = true;
  session.runScript(text, lscope::CallContext{}, !o.keep_going,
                    [&](const std::string&, const lscope::Response& r) {
                      std::cout << (first ? "" : "\n") << lscope::formatResponse(r) << std::flush;
                      first = false;
                      failed = failed || !r.ok();
                    });
  return failed ? 1 : 0;
}

int runRepl(BackendFactory* factory, const Options& o) {
  lscope::Session session(factory, engineOptions(o));
  bool tty = ::isatty(STDIN_FILENO);
  std::string line;
  for (;;) {
    if (tty) std::cerr << "lscope> " << std::flush;
    if (!std::getline(std::cin, line)) break;
    if (line == "exit" || line == "quit") break;
    session.runScript(line, lscope::CallContext{}, false,
                      [](const std::string&, const lscope::Response& r) {
                        std::cout << lscope::formatResponse(r) << std::endl;
                      });
  }
  return 0;
}

int serveHttp(BackendFactory* factory, const Options& o) {
  lscope::mcp::ServerConfig config;
  config.version = LSCOPE_VERSION;
  config.engine = engineOptions(o);
  config.tools_profile = o.tools;
  config.portal = g_portal;
  lscope::mcp::HttpOptions http;
  auto colon = o.http.rfind(':');
  if (colon == std::string::npos) {
    std::cerr << "lscope serve: --http takes HOST:PORT, e.g. 127.0.0.1:8931\n";
    return 2;
  }
  http.host = o.http.substr(0, colon);
  if (http.host.size() > 2 && http.host.front() == '[') http.host = http.host.substr(1, http.host.size() - 2);
  try {
    http.port = std::stoi(o.http.substr(colon + 1));
  } catch (...) {
    std::cerr << "lscope serve: bad port in --http " << o.http << "\n";
    return 2;
  }
  http.auth_token = o.auth_token;
  http.allowed_origins = o.allowed_origins;
  lscope::mcp::McpHttpServer server(config, factory, http);
  auto port = server.start();
  if (!port) {
    std::cerr << "lscope serve: " << port.status().message() << "\n" << port.status().hint() << "\n";
    return 2;
  }
  // The one line a launcher reads to learn where we listen (the port may have been 0).
  std::cerr << "lscope: MCP Streamable HTTP on http://" << (http.host.find(':') != std::string::npos ? "[" + http.host + "]" : http.host)
            << ":" << *port << "/mcp" << std::endl;
  server.run();
  return 0;
}

// lscope pair: the code to paste into the extension's popup, and the link that does it.
int printPairing(const Options& o) {
  auto token = lscope::ext::loadOrCreateToken(extensionTokenFile(), o.pair_new);
  if (!token) {
    std::cerr << "lscope: " << token.status().message() << "\n";
    return 2;
  }
  std::string dir = extensionDir();
  std::string id = o.extension_id;
  if (id.empty()) {
    auto found = lscope::ext::extensionIdOf(dir);
    if (found) id = *found;
  }
  std::string code = lscope::ext::pairingCode(o.extension_port, *token);
  std::cout << code << "\n";
  std::cerr << "Paste this code into the Lemmascope extension's popup (its toolbar button), or open\n"
            << "  chrome-extension://" << (id.empty() ? "<extension id>" : id) << "/pair.html#" << code << "\n"
            << "in the browser where the extension is installed (unpacked from " << dir << ").\n"
            << (o.pair_new ? "Extensions paired before can no longer connect.\n" : "")
            << "Then start lscope-r (or lscope --backend extension) as your MCP server.\n";
  return 0;
}

int printTools(const Options& o) {
  std::vector<std::shared_ptr<const lscope::IntentEntry>> intents;
  if (g_registry) {
    lscope::Session probe(nullptr, engineOptions(o));
    intents = probe.intents();
  }
  auto catalog = lscope::mcp::ToolCatalog::build(o.tools, intents);
  if (!catalog) {
    std::cerr << "lscope: " << catalog.status().message() << "\n";
    return 2;
  }
  nlohmann::json tools = nlohmann::json::array();
  std::string latest = lscope::mcp::supportedProtocolVersions().front();
  for (const auto& t : (*catalog)->listed()) tools.push_back(lscope::mcp::toolJson(t, latest));
  std::cout << nlohmann::json{{"tools", tools}}.dump(2) << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // Blocked before any thread starts, so only the signal thread receives them.
  lscope::blockTerminationSignals();
  ::signal(SIGPIPE, SIG_IGN);

  Options o;
  presetFromProgramName(argv[0], o);
  CLI::App app{"Lemmascope: an MCP server that drives real browsers at the level of intent.\n"
               "With no subcommand it serves MCP on stdio.",
               "lscope"};
  app.set_version_flag("--version", LSCOPE_VERSION);
  app.fallthrough();  // backend options work before or after the subcommand
  app.add_option("--backend", o.backend, "browser backend")->check(CLI::IsMember({"cdp", "webdriver", "extension"}));
  app.add_option("--browser", o.browser, "Chromium binary (default: chromium, chromium-browser, google-chrome on PATH); with --backend webdriver also 'wpe' (WPE WebKit)");
  app.add_option("--cdp-endpoint", o.cdp_endpoint, "attach to a running Chromium: ws://host:port/devtools/browser/<id>");
  app.add_option("--cdp-url", o.cdp_url, "attach to a running Chromium by its HTTP endpoint: http://host:port");
  app.add_option("--webdriver-binary", o.webdriver_binary, "WebDriver server to start (default: chromedriver, or WPEWebDriver with --browser wpe)");
  app.add_option("--webdriver-url", o.webdriver_url, "attach to a WebDriver remote end (Selenium Grid, WPEWebDriver, a cloud grid): http://host:port[/path]");
  app.add_option("--webdriver-capabilities", o.webdriver_caps, "JSON merged into the capabilities of each new WebDriver session");
  app.add_flag("--headed", o.headed, "show the browser window");
  app.add_option("--timeout", o.timeout_s, "seconds per command (default 30)");
  app.add_option("--settle-quiet", o.settle_quiet_ms,
                 "ms the page must stay still (no DOM change, no request) after an action before lscope answers, and at least two animation frames (default 20); after an action that started work lscope cannot follow to its end (requests, intervals, loops), the DOM still at least this long and at least 80 ms")
      ->check(CLI::Range(1, 10000));
  app.add_flag("--strict", o.strict, "fail on ambiguous targets instead of choosing");
  app.add_option("--secrets", o.secrets_file, "name=value lines; tools take \"secret:name\" instead of a value");
  app.add_option("--intents", o.intent_dirs, "also load intent definitions from DIR (repeatable)");
  app.add_option("--config", o.config_file, "engine settings (default ~/.lemmascope/config.yaml)");
  app.add_option("--packs", o.pack_dirs, "also load site packs from DIR (repeatable; community trust)");
  app.add_option("--browser-arg", o.browser_args, "an extra Chromium command-line switch (repeatable)");
  app.add_flag("--allow-file-access", o.allow_file_access, "let goto open file: URLs (local stdio use; refused by default)");
  app.add_option("--allowed-origins", o.nav_allowed, "pages may open only these origins: host, *.host, scheme://host:port, separated by ';' (repeatable)");
  app.add_option("--blocked-origins", o.nav_blocked, "pages may never open these origins (same forms; wins over --allowed-origins)");
  app.add_option("--tools", o.tools, "tools listed to MCP clients: default, all, or a comma-separated list");
  app.add_option("--extension-port", o.extension_port, "extension backend: the loopback port the extension connects to (default 9217; 0: any)");
  app.add_option("--extension-id", o.extension_id, "extension backend: the id of your build of the extension (default: the shipped one's)");
  app.add_flag("--extension-launch", o.extension_launch, "extension backend: start a fresh Chromium with the extension loaded and paired (demos, tests)");
  app.add_option("--trace", o.trace_dir, "write one JSONL trace per session into DIR (masked like responses)");
  app.add_option("--trace-max-kb", o.trace_max_kb, "a trace file rotates past this size (default 20480)")->check(CLI::Range(1LL, 10LL << 20));
  app.add_flag("--trace-screenshots", o.trace_screenshots, "a screenshot after each command that acts, referenced by its trace line");
  app.add_option("--learn", o.learn, "the intent learner: on, off, or auto (on for local stdio only; default)")
      ->check(CLI::IsMember({"on", "off", "auto"}));
  app.add_option("--learner-db", o.learner_db, "the learner's SQLite store (default ~/.local/share/lemmascope/learner.db)");
  app.add_option("--record", o.record_file, "write the session's actions to FILE as an intent (typed values become parameters)");
  app.add_option("--log-level", o.log_level, "stderr log level")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}));

  auto* serve = app.add_subcommand("serve", "serve MCP on stdio, or over Streamable HTTP with --http");
  serve->add_option("--http", o.http, "serve Streamable HTTP on HOST:PORT (endpoint /mcp), e.g. 127.0.0.1:8931");
  serve->add_option("--auth-token", o.auth_token, "require Authorization: Bearer TOKEN (needed off loopback)");
  serve->add_option("--allow-origin", o.allowed_origins, "an Origin allowed besides localhost (repeatable)");
  auto* run = app.add_subcommand("run", "run OIL lines from FILE (or - for stdin), print each response");
  run->add_option("file", o.script, "script file, or - for stdin")->required();
  run->add_flag("--keep-going", o.keep_going, "continue after a failed command");
  auto* repl = app.add_subcommand("repl", "interactive OIL prompt");
  auto* tools = app.add_subcommand("tools", "print the MCP tool catalog as JSON");
  auto* scanner = app.add_subcommand("scanner", "raw scanner protocol over a real browser: JSON lines in and out");
  auto* pack = app.add_subcommand("pack", "site pack tools: pack new <domain> writes a pack to start from");
  auto* pack_new = pack->add_subcommand("new", "write a new site pack folder for DOMAIN");
  pack_new->add_option("domain", o.pack_new_domain, "the site's domain, e.g. example.com")->required();
  pack_new->add_option("--dir", o.pack_new_dir, "parent folder (default ~/.lemmascope/packs)");
  pack->require_subcommand(1);
  auto* doctor = app.add_subcommand("doctor", "check what each backend needs on this machine and say what to install");
  auto* trace = app.add_subcommand("trace", "trace tools: trace view FILE writes a self-contained HTML report");
  auto* trace_view = trace->add_subcommand("view", "write FILE's report (a --trace .jsonl) as one HTML file");
  trace_view->add_option("file", o.trace_view_file, "the trace (.jsonl)")->required();
  trace_view->add_option("--out", o.trace_view_out, "the report (default: the trace's name with .html)");
  trace->require_subcommand(1);
  auto* pair = app.add_subcommand("pair", "print the code that pairs the Lemmascope extension (lscope-r) with this computer");
  pair->add_flag("--new", o.pair_new, "make a new code: extensions paired before can no longer connect");
  for (auto* sub : {serve, run, repl, tools, scanner, pack, pair, doctor, trace}) sub->fallthrough();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);  // help and errors go to the right streams
  }

  // WebDriver options, or --browser wpe, say which backend is meant.
  if (app.count("--backend") == 0 &&
      (!o.webdriver_url.empty() || !o.webdriver_binary.empty() || o.browser == "wpe")) {
    o.backend = "webdriver";
  }

  auto sink = std::make_shared<RedactingStderrSink>();
  auto logger = std::make_shared<spdlog::logger>("lscope", sink);
  logger->set_level(spdlog::level::from_str(o.log_level));
  spdlog::set_default_logger(logger);

  // Intents: built-ins, the shipped core set, the user's, and --intents directories.
  {
    auto cfg = lscope::loadConfigFile(o.config_file.empty() ? homeDir() + "/.lemmascope/config.yaml" : o.config_file);
    if (!cfg) {
      std::cerr << "lscope: " << cfg.status().message() << "\n" << cfg.status().hint() << "\n";
      return 2;
    }
    g_config = *cfg;
    lscope::IntentRegistry::Sources sources;
    sources.core_dir = coreIntentsDir();
    sources.user_dir = homeDir().empty() ? "" : homeDir() + "/.lemmascope/intents";
    sources.extra_dirs = o.intent_dirs;
    g_registry = std::make_shared<lscope::IntentRegistry>(sources, lscope::builtinIntents());
    g_registry->setPriority(g_config.tier_priority);
    for (const auto& e : g_registry->errors()) spdlog::warn("intent not loaded: {}", e.message());
    // Packs (§9): shipped (trusted), the user's (where pack install writes), then --packs.
    std::string user_packs = homeDir().empty() ? "" : homeDir() + "/.lemmascope/packs";
    std::vector<lscope::PackManager::Dir> dirs = {{shippedDir("packs", "packs"), "shipped", true},
                                                  {user_packs, "user", false}};
    for (const auto& d : o.pack_dirs) dirs.push_back({d, d, false});
    g_packs = std::make_shared<lscope::PackManager>(dirs, user_packs);
    g_packs->setFetch([](const std::string& url) -> lscope::Result<std::string> {
      lscope::net::HttpRequest req;
      req.url = url;
      auto res = lscope::net::send(req, lscope::Deadline::in(lscope::Millis(30000)));
      if (!res) return res.status();
      if (res->status != 200) {
        return lscope::Status(lscope::codes::kConnectionError, url + " answered HTTP " + std::to_string(res->status));
      }
      return res->body;
    });
    for (const auto& e : g_packs->problems()) spdlog::warn("pack not loaded: {}", e.error.message());
  }
  if (pack_new->parsed()) {
    std::string parent = o.pack_new_dir.empty() ? (homeDir().empty() ? "." : homeDir() + "/.lemmascope/packs") : o.pack_new_dir;
    auto dir = lscope::writePackTemplate(o.pack_new_domain, parent);
    if (!dir) {
      std::cerr << "lscope: " << dir.status().message() << "\n";
      return 2;
    }
    std::cerr << "lscope: a new pack in " << *dir << " (pack.yaml, patterns.yaml, intents/search_site.yaml)\n"
              << "Edit it, then: lscope --packs " << parent << " run -  (packs lists it)\n";
    return 0;
  }
  if (tools->parsed()) return printTools(o);
  if (pair->parsed()) return printPairing(o);
  if (trace_view->parsed()) return lscope::writeTraceReport(o.trace_view_file, o.trace_view_out);
  if (doctor->parsed()) {
    lscope::DoctorOptions d;
    d.browser = o.browser == "wpe" ? "" : o.browser;
    d.extension_dir = extensionDir();
    d.token_file = extensionTokenFile();
    d.home = homeDir();
    d.extension_port = o.extension_port;
    d.learner_mode = learnMode(o);
    d.learner_db = learnerDb(o);
    return lscope::runDoctor(d, std::cout);
  }
  auto catalog = lscope::mcp::ToolCatalog::build(o.tools);
  if (!catalog) {
    std::cerr << "lscope: " << catalog.status().message() << "\n" << catalog.status().hint() << "\n";
    return 2;
  }

  if (!o.secrets_file.empty()) {
    lscope::Status st = g_secrets->loadFile(o.secrets_file);
    if (!st) {
      std::cerr << "lscope: " << st.message() << "\n" << st.hint() << "\n";
      return 2;
    }
  }
  lscope::mcp::SecretPortal portal;
  g_portal = &portal;

  auto policy = policyFrom(o);
  if (!policy) {
    std::cerr << "lscope: " << policy.status().message() << "\n" << policy.status().hint() << "\n";
    return 2;
  }
  g_policy = *policy;

  auto factory = makeFactory(o);
  if (!factory) {
    std::cerr << "lscope: " << factory.status().message() << "\n" << factory.status().hint() << "\n";
    return 2;
  }
  startSignalThread(factory->get());

  // The intent learner (§8.5, issue 18): on by default only where one local user drives it
  // (stdio, run, repl); over HTTP only when config.yaml or --learn says so.
  {
    std::string mode = learnMode(o);
    bool learning = mode == "on" || (mode == "auto" && o.http.empty());
    if (learning && !scanner->parsed()) {
      std::string db = learnerDb(o);
      auto store = lscope::LearnerStore::open(db);
      if (store) {
        g_learner = *store;
        spdlog::info("learner: {}", db);
      } else {
        spdlog::warn("learner off: {}", store.status().message());
      }
    }
  }

  int code;
  if (run->parsed()) {
    code = runScript(factory->get(), o);
  } else if (scanner->parsed()) {
    code = lscope::runScannerShell(factory->get(), std::cin, std::cout);
  } else if (repl->parsed()) {
    code = runRepl(factory->get(), o);
  } else if (!o.http.empty()) {
    code = serveHttp(factory->get(), o);
  } else {
    lscope::mcp::ServerConfig config;
    config.version = LSCOPE_VERSION;
    config.engine = engineOptions(o);
    config.tools_profile = o.tools;
    config.portal = g_portal;
    code = lscope::mcp::serveStdio(config, factory->get(), std::cin, std::cout);
  }
  (*factory)->shutdown();
  return code;
}
