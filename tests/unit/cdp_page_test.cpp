// CdpPage against a scripted connection: orders of replies and events a real browser produces
// only now and then (under load), played every time.
#include <doctest/doctest.h>

#include <map>
#include <mutex>

#include "transports/cdp/cdp_page.h"

using namespace lscope;
using namespace lscope::cdp;

namespace {

// Answers every command at once; `before_reply[method]` are events delivered to the listeners
// before that command's reply, as the socket thread may deliver them before the caller wakes.
class ScriptedConnection final : public CdpConnection {
 public:
  struct Event {
    std::string method;
    json params;
  };
  std::map<std::string, std::vector<Event>> before_reply;
  std::map<std::string, json> replies;
  std::vector<std::string> sent;

  Result<json> send(const std::string& method, const json&, const std::string&, Deadline) override {
    sent.push_back(method);
    for (const auto& e : before_reply[method]) emit(e.method, e.params);
    auto it = replies.find(method);
    return it == replies.end() ? json::object() : it->second;
  }
  void post(const std::string& method, const json& params, const std::string& session,
            std::function<void(const Result<json>&)> done) override {
    auto r = send(method, params, session, Deadline::in(Millis(1000)));
    if (done) done(r);
  }
  int addListener(Listener l) override {
    listeners_[++next_] = std::move(l);
    return next_;
  }
  void removeListener(int h) override { listeners_.erase(h); }
  void onClose(std::function<void()>) override {}
  bool connected() const override { return true; }
  void close() override {}

 private:
  void emit(const std::string& method, const json& params) {
    for (auto& [h, l] : listeners_) l(method, params, "S1");
  }
  std::map<int, Listener> listeners_;
  int next_ = 0;
};

}  // namespace

TEST_CASE("a page that loads before the navigating thread wakes is not waited for again") {
  // Seen in the attach tests and the corpus (1 run in 5 under load): Page.navigate's reply, then
  // the whole load's events, all handled before the caller read the reply; the caller then
  // marked the page loading and waited 30 s for a stop that had come already.
  auto conn = std::make_shared<ScriptedConnection>();
  conn->replies["Target.createTarget"] = {{"targetId", "T1"}};
  conn->replies["Target.attachToTarget"] = {{"sessionId", "S1"}};
  conn->replies["Page.getFrameTree"] = {{"frameTree", {{"frame", {{"id", "T1"}, {"url", "about:blank"}}}}}};
  conn->replies["Page.navigate"] = {{"frameId", "T1"}, {"loaderId", "L1"}};
  conn->before_reply["Page.navigate"] = {
      {"Page.frameStartedNavigating", {{"frameId", "T1"}, {"navigationType", "differentDocument"}}},
      {"Page.frameStartedLoading", {{"frameId", "T1"}}},
      {"Page.frameNavigated", {{"frame", {{"id", "T1"}, {"url", "http://x.test/"}, {"loaderId", "L1"}}}}},
      {"Page.frameStoppedLoading", {{"frameId", "T1"}}},
  };
  CdpPageOptions options;
  options.fit_viewport = false;
  auto page = CdpPage::open(conn, options, Deadline::in(Millis(2000)));
  REQUIRE(page.ok());
  Status st = (*page)->navigate("http://x.test/", Deadline::in(Millis(2000)));
  INFO(st.toString());
  CHECK(st.isOk());
  CHECK((*page)->waitForLoad(Deadline::in(Millis(100))).isOk());

  // A load not seen starting when the reply is read is still waited for: its stop comes later.
  conn->before_reply["Page.navigate"].clear();
  Status pending = (*page)->navigate("http://x.test/next", Deadline::in(Millis(200)));
  CHECK(pending.code() == codes::kTimeout);
}
