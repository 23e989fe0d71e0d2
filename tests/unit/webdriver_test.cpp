// The WebDriver backend's pure parts: the one error translation (W3C WebDriver §6.6), key
// values for the Actions API (§17.4.2) and the New Session capabilities per engine.
#include <doctest/doctest.h>

#include <chrono>
#include <future>
#include <thread>

#include "transports/common/find_browser.h"
#include "transports/webdriver/wd_backend.h"
#include "transports/webdriver/wd_client.h"
#include "transports/webdriver/wd_page.h"
#include "net/http.h"

using lscope::wd::json;

namespace {

lscope::Status translate(int http, const std::string& error, const std::string& message = "details") {
  return lscope::wd::translateWdError(http, {{"value", {{"error", error}, {"message", message}}}}, "POST /x");
}

}  // namespace

TEST_CASE("every W3C WebDriver error code maps to an engine code with its message") {
  struct Row {
    int http;
    const char* error;
    const char* code;
  };
  const Row rows[] = {
      {404, "no such element", "ELEMENT_NOT_FOUND"},
      {404, "stale element reference", "ELEMENT_STALE"},
      {404, "detached shadow root", "ELEMENT_STALE"},
      {400, "element not interactable", "ELEMENT_NOT_INTERACTABLE"},
      {400, "element click intercepted", "ELEMENT_NOT_INTERACTABLE"},
      {400, "invalid selector", "SELECTOR_INVALID"},
      {500, "timeout", "TIMEOUT"},
      {500, "script timeout", "TIMEOUT"},
      {500, "javascript error", "SCRIPT_ERROR"},
      {404, "no such window", "NO_SUCH_WINDOW"},
      {404, "no such frame", "ELEMENT_STALE"},
      {404, "invalid session id", "CONNECTION_ERROR"},
      {500, "session not created", "BROWSER_ERROR"},
      {500, "unexpected alert open", "ALERT_OPEN"},
      {404, "no such alert", "NO_ALERT"},
      {404, "unknown command", "UNSUPPORTED"},
      {500, "unsupported operation", "UNSUPPORTED"},
      {405, "unknown method", "UNSUPPORTED"},
      {400, "insecure certificate", "NAVIGATION_ERROR"},
      {400, "invalid argument", "INTERNAL_ERROR"},
      {500, "unknown error", "BROWSER_ERROR"},
      {500, "move target out of bounds", "BROWSER_ERROR"},
  };
  for (const auto& row : rows) {
    auto st = translate(row.http, row.error, "the remote end's words");
    INFO(row.error);
    CHECK(st.code() == row.code);
    CHECK(st.message().find("POST /x: ") == 0);
    CHECK(st.message().find("the remote end's words") != std::string::npos);
  }
}

TEST_CASE("a session that ended says the next command starts a new one") {
  auto st = translate(404, "invalid session id");
  CHECK(st.hint().find("next command starts a new one") != std::string::npos);
}

TEST_CASE("Chromium's network errors are navigation errors") {
  auto st = translate(500, "unknown error", "unknown error: net::ERR_NAME_NOT_RESOLVED");
  CHECK(st.code() == "NAVIGATION_ERROR");
}

TEST_CASE("a body that is not a WebDriver error still gives a clear error") {
  auto st = lscope::wd::translateWdError(502, json::object(), "GET /status");
  CHECK(st.code() == "BROWSER_ERROR");
  CHECK(st.message() == "GET /status: HTTP 502");
  auto long_message = translate(500, "javascript error", std::string(1000, 'x'));
  CHECK(long_message.message().size() < 400);
}

TEST_CASE("key names become W3C key values") {
  CHECK(lscope::wd::keyValue("Enter") == "\xEE\x80\x87");    // U+E007
  CHECK(lscope::wd::keyValue("enter") == "\xEE\x80\x87");
  CHECK(lscope::wd::keyValue("Return") == "\xEE\x80\x87");
  CHECK(lscope::wd::keyValue("Tab") == "\xEE\x80\x84");      // U+E004
  CHECK(lscope::wd::keyValue("Escape") == "\xEE\x80\x8C");   // U+E00C
  CHECK(lscope::wd::keyValue("ArrowDown") == "\xEE\x80\x95");  // U+E015
  CHECK(lscope::wd::keyValue("Meta") == "\xEE\x80\xBD");     // U+E03D
  CHECK(lscope::wd::keyValue("F1") == "\xEE\x80\xB1");       // U+E031
  CHECK(lscope::wd::keyValue("F12") == "\xEE\x80\xBC");      // U+E03C
  CHECK(lscope::wd::keyValue("Space") == " ");
  CHECK(lscope::wd::keyValue("a") == "a");
  CHECK(lscope::wd::keyValue("é") == "é");
  CHECK(lscope::wd::keyValue("F13").empty());
  CHECK(lscope::wd::keyValue("Hyper").empty());
  CHECK(lscope::wd::keyValue("").empty());
}

TEST_CASE("capabilities: headless Chromium for chromedriver, cog for WPE, user capabilities merged") {
  lscope::wd::WdOptions o;
  auto chrome = lscope::wd::sessionCapabilities(lscope::wd::Engine::kChromium, o, "/usr/bin/chromium", "/tmp/dl");
  const json& a = chrome["alwaysMatch"];
  CHECK(a["browserName"] == "chrome");
  CHECK(a["unhandledPromptBehavior"] == "ignore");
  CHECK(a["goog:chromeOptions"]["binary"] == "/usr/bin/chromium");
  const json& args = a["goog:chromeOptions"]["args"];
  for (const char* flag : {"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                           "--disable-background-networking", "--disable-component-update", "--disable-sync",
                           "--disable-renderer-backgrounding", "--disable-background-timer-throttling"}) {
    INFO(flag);
    CHECK(std::find(args.begin(), args.end(), flag) != args.end());
  }
  CHECK(a["goog:chromeOptions"]["prefs"]["download.default_directory"] == "/tmp/dl");
  // A headless browser says it has a mouse: pages ask (pointer: fine) before drawing desktop UI.
  CHECK(std::find(args.begin(), args.end(),
                  "--blink-settings=primaryPointerType=4,availablePointerTypes=4,primaryHoverType=2,availableHoverTypes=2") !=
        args.end());

  auto remote = lscope::wd::sessionCapabilities(lscope::wd::Engine::kChromium, o, "", "");
  CHECK_FALSE(remote["alwaysMatch"]["goog:chromeOptions"].contains("binary"));  // the remote end chooses
  CHECK_FALSE(remote["alwaysMatch"]["goog:chromeOptions"].contains("prefs"));

  o.browser = "wpe";
  CHECK(lscope::wd::engineFor(o) == lscope::wd::Engine::kWpe);
  auto wpe = lscope::wd::sessionCapabilities(lscope::wd::Engine::kWpe, o, "", "");
  CHECK(wpe["alwaysMatch"]["wpe:browserOptions"] ==
        json({{"binary", "cog"}, {"args", {"--automation", "--platform=headless"}}}));
  CHECK_FALSE(wpe["alwaysMatch"].contains("goog:chromeOptions"));

  lscope::wd::WdOptions by_driver;
  by_driver.driver_binary = "/usr/bin/WPEWebDriver";
  CHECK(lscope::wd::engineFor(by_driver) == lscope::wd::Engine::kWpe);

  o.extra_capabilities = {{"browserVersion", "120"}, {"unhandledPromptBehavior", "ignore"}, {"se:name", "ci"}};
  auto merged = lscope::wd::sessionCapabilities(lscope::wd::Engine::kWpe, o, "", "");
  CHECK(merged["alwaysMatch"]["browserVersion"] == "120");
  CHECK(merged["alwaysMatch"]["se:name"] == "ci");
}

TEST_CASE("a remote end that answers after the deadline is a TIMEOUT, never a failed read") {
  // WebDriver waits are cut in slices: a slice whose answer comes late must read as "no answer
  // yet" (the wait goes on), not as a broken connection (the wait failed).
  // The remote end answers only once every request has given up on it.
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  lscope::net::HttpServer server([released](const lscope::net::ServerRequest&, lscope::net::ServerResponse& res) {
    released.wait();
    res.body = "{}";
  });
  auto port = server.bind("127.0.0.1", 0);
  REQUIRE(port.ok());
  std::thread serving([&] { server.run(); });
  lscope::net::HttpRequest req;
  req.method = "POST";
  req.url = "http://127.0.0.1:" + std::to_string(*port) + "/session/s/execute/async";
  req.body = "{}";
  for (int i = 0; i < 12; ++i) {
    // Deadlines that are not whole milliseconds away, as a slice's usually are.
    auto r = lscope::net::send(req, lscope::Deadline(lscope::Clock::now() + std::chrono::microseconds(20000 + 731 * i)));
    REQUIRE_FALSE(r.ok());
    CHECK_MESSAGE(r.status().code() == lscope::codes::kTimeout, r.status().message());
  }
  release.set_value();
  server.stop();
  serving.join();
}

TEST_CASE("launch switches: a headless browser has a desktop's pointer; a user's --blink-settings keys come after ours") {
  using V = std::vector<std::string>;
  const std::string ours = "primaryPointerType=4,availablePointerTypes=4,primaryHoverType=2,availableHoverTypes=2";
  CHECK(lscope::launchSwitches(true, {}) == V{"--headless", "--blink-settings=" + ours});
  CHECK(lscope::launchSwitches(true, {"--lang=de", "--blink-settings=primaryPointerType=2"}) ==
        V{"--headless", "--blink-settings=" + ours + ",primaryPointerType=2", "--lang=de"});
  // Headed: the real devices say what they are; a user's settings pass as they were.
  CHECK(lscope::launchSwitches(false, {"--lang=de"}) == V{"--lang=de"});
  CHECK(lscope::launchSwitches(false, {"--blink-settings=a=1", "--blink-settings=b=2"}) == V{"--blink-settings=a=1,b=2"});
}
