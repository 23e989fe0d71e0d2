// The MCP layer without a browser: golden transcripts (request in, exact response out) from
// tests/golden/*.jsonl, and the tool catalog's shape.
#include <doctest/doctest.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <fstream>
#include <future>
#include <map>
#include <mutex>
#include <cstdlib>
#include <regex>

#include "engine/json_bounded.h"
#include "server/jsonrpc.h"
#include "server/mcp_session.h"
#include "server/tools.h"
#include "tests/unit/scan_builder.h"
#include "tests/unit/stub_backend.h"

using namespace lscope;
using namespace lscope::mcp;
using lscope::testing::El;

namespace {

class QueueOutbox final : public Outbox {
 public:
  void send(const json& message, const json&) override {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.push_back(message);
    cv_.notify_all();
  }
  // Waits up to 10 s for the next message.
  std::optional<json> next() {
    std::unique_lock<std::mutex> lock(mu_);
    if (!cv_.wait_for(lock, std::chrono::seconds(10), [&] { return !queue_.empty(); })) return std::nullopt;
    json m = queue_.front();
    queue_.pop_front();
    return m;
  }
  bool empty() {
    std::lock_guard<std::mutex> lock(mu_);
    return queue_.empty();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<json> queue_;
};

json loginScan() {
  return lscope::testing::scanJson("", "Sign in",
                                   {{"input", "email", "Email", "#email"},
                                    {"input", "password", "Password", "#pw"},
                                    {"button", "submit", "Sign in", "#go", {"primary"}}});
}

// How long a failed wait took is the machine's: a loaded one passes the 500 ms after which an
// error says "(waited 615ms)". Transcripts compare without it.
json withoutWaits(const json& message) {
  static const std::regex kWaited(R"( \(waited [0-9.]+m?s\))");
  return json::parse(std::regex_replace(message.dump(), kWaited, ""));
}

// Replays a transcript: "> " lines are sent; "< " lines are the expected replies, compared
// as JSON values. Replies to tools/call arrive through the outbox.
void replay(const std::string& file) {
  std::ifstream in(std::string(LSCOPE_SOURCE_DIR) + "/tests/golden/" + file);
  REQUIRE(in.good());
  ServerConfig config;
  config.version = "0.0.0-test";
  lscope::testing::StubFactory factory(loginScan());
  QueueOutbox outbox;
  McpSession session(config, &factory, &outbox);
  std::string line;
  int line_no = 0;
  std::deque<json> pending;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.size() < 2 || line[0] == '#') continue;
    std::string body = line.substr(2);
    if (line[0] == '>') {
      auto reply = session.handleText(body);
      if (reply) pending.push_back(*reply);
      continue;
    }
    REQUIRE(line[0] == '<');
    json expected = json::parse(body);
    if (pending.empty()) {
      auto m = outbox.next();
      REQUIRE_MESSAGE(m.has_value(), file << ":" << line_no << " expected a reply, got none");
      pending.push_back(*m);
    }
    INFO(file << ":" << line_no);
    if (std::getenv("LSCOPE_GOLDEN_PRINT")) MESSAGE("actual: " << pending.front().dump());
    CHECK(withoutWaits(pending.front()) == withoutWaits(expected));
    pending.pop_front();
  }
  session.drain();
  while (std::getenv("LSCOPE_GOLDEN_PRINT") && !outbox.empty()) MESSAGE("unexpected: " << outbox.next()->dump());
  CHECK(pending.empty());
  CHECK(outbox.empty());
}

}  // namespace

TEST_CASE("golden: lifecycle, version negotiation, ping") { replay("mcp_lifecycle.jsonl"); }
TEST_CASE("golden: every malformed message gets the right JSON-RPC error") { replay("mcp_errors.jsonl"); }
TEST_CASE("golden: tool calls, tool errors and argument validation") { replay("mcp_tools.jsonl"); }

TEST_CASE("tools/list: names, schemas and annotations are well formed") {
  std::regex name_re("^[a-zA-Z0-9_-]{1,64}$");
  auto all = ToolCatalog::build("all").value();
  for (const auto& t : all->listed()) {
    json j = toolJson(t, "2025-11-25");
    INFO(t.name);
    CHECK(std::regex_match(t.name, name_re));
    CHECK(j["inputSchema"]["type"] == "object");
    CHECK(j["inputSchema"]["additionalProperties"] == false);
    CHECK_FALSE(j["description"].get<std::string>().empty());
    CHECK(j["title"].is_string());
    CHECK(j["outputSchema"]["type"] == "object");
    if (j["inputSchema"].contains("required")) {
      for (const auto& r : j["inputSchema"]["required"]) CHECK(j["inputSchema"]["properties"].contains(r));
    }
  }
  json back = toolJson(*all->find("back"), "2025-11-25");
  CHECK(back["inputSchema"] == json{{"type", "object"}, {"additionalProperties", false}});
  // Older protocol versions do not get fields they do not define.
  json old = toolJson(*all->find("observe"), "2025-03-26");
  CHECK_FALSE(old.contains("outputSchema"));
  CHECK_FALSE(old.contains("title"));
  CHECK(old.contains("annotations"));
  // Only hints that differ from MCP's defaults are sent, chosen per tool.
  CHECK(all->find("observe")->annotations == json{{"readOnlyHint", true}, {"openWorldHint", false}});
  CHECK(all->find("click")->annotations == json::object());  // destructive, open world: the defaults
  CHECK(all->find("back")->annotations == json{{"destructiveHint", false}});
  CHECK(all->find("check")->annotations == json{{"destructiveHint", false}, {"idempotentHint", true}});
}

TEST_CASE("tool profiles: default lists the common tools, every tool stays callable") {
  auto def = ToolCatalog::build("default").value();
  auto names = [](const ToolCatalog& c) {
    std::vector<std::string> n;
    for (const auto& t : c.listed()) n.push_back(t.name);
    return n;
  };
  auto listed = names(*def);
  CHECK(std::find(listed.begin(), listed.end(), "click") != listed.end());
  CHECK(std::find(listed.begin(), listed.end(), "run") != listed.end());
  CHECK(std::find(listed.begin(), listed.end(), "back") == listed.end());
  CHECK(def->find("back") != nullptr);
  auto some = ToolCatalog::build("goto,observe").value();
  CHECK(names(*some) == std::vector<std::string>{"goto", "observe"});
  auto bad = ToolCatalog::build("goto,fly");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().message() == "--tools: no tool named fly");
}

TEST_CASE("tools/list pages with opaque cursors") {
  ServerConfig config;
  config.tools_profile = "all";
  config.tools_page_size = 5;
  lscope::testing::StubFactory factory(loginScan());
  QueueOutbox outbox;
  McpSession session(config, &factory, &outbox);
  std::vector<std::string> seen;
  json cursor;
  for (int page = 0; page < 20; ++page) {
    json req = {{"jsonrpc", "2.0"}, {"id", page}, {"method", "tools/list"}, {"params", json::object()}};
    if (!cursor.is_null()) req["params"]["cursor"] = cursor;
    auto reply = session.handle(req);
    REQUIRE(reply);
    const json& r = (*reply)["result"];
    CHECK(r["tools"].size() <= 5);
    for (const auto& t : r["tools"]) seen.push_back(t["name"]);
    if (!r.contains("nextCursor")) break;
    cursor = r["nextCursor"];
  }
  CHECK(seen.size() == ToolCatalog::build("all").value()->listed().size());
  for (std::string c : {"bogus", "tools:", "tools:-1", "tools:999999", "tools:999999999999999999999999999"}) {
    INFO(c);
    auto bad = session.handle({{"jsonrpc", "2.0"}, {"id", 99}, {"method", "tools/list"}, {"params", {{"cursor", c}}}});
    REQUIRE(bad);
    CHECK((*bad)["error"]["code"] == -32602);
  }
  auto still = session.handle({{"jsonrpc", "2.0"}, {"id", 100}, {"method", "ping"}});
  CHECK(still->contains("result"));
}

TEST_CASE("a message nested too deep is refused, and the session goes on") {
  // Copies and dumps of a json value recurse per level: 100,000 levels ended the server.
  ServerConfig config;
  lscope::testing::StubFactory factory(loginScan());
  QueueOutbox outbox;
  McpSession session(config, &factory, &outbox);
  std::string deep = R"({"jsonrpc":"2.0","id":1,"method":"ping","params":)" + std::string(100000, '[') +
                     std::string(100000, ']') + "}";
  auto reply = session.handleText(deep);
  REQUIRE(reply);
  CHECK((*reply)["error"]["code"] == -32600);
  CHECK((*reply)["error"]["message"] == "Invalid Request: nested more than 128 levels deep");
  auto still = session.handleText(R"({"jsonrpc":"2.0","id":2,"method":"ping"})");
  REQUIRE(still);
  CHECK(still->contains("result"));
  // Brackets inside strings are text, not nesting; escaped quotes do not end a string.
  CHECK(lscope::jsonNesting(R"({"a": "[[[[{{{{\"[[[["})") == 1);
  CHECK(lscope::jsonNesting(R"([[1], {"b": [[]]}])") == 4);
  CHECK(lscope::jsonNesting(std::string(129, '[')) == 129);
  CHECK(lscope::parseJsonBounded(std::string(128, '[') + std::string(128, ']')).is_array());
  bool too_deep = false;
  CHECK(lscope::parseJsonBounded(std::string(129, '[') + std::string(129, ']'), &too_deep).is_discarded());
  CHECK(too_deep);
}

TEST_CASE("a browser's message nested too deep fails its own command, not the server") {
  // CDP, WebDriver and the relay carry values a page shapes: bounded at 1,000 levels.
  const auto nested = [](int n) { return std::string(n, '[') + std::string(n, ']'); };
  CHECK(lscope::parseJsonBounded(nested(1000), nullptr, lscope::kMaxBrowserJsonNesting).is_array());
  bool too_deep = false;
  std::string reply = R"({"id":42,"result":{"result":{"type":"object","value":)" + nested(5000) + "}}}";
  CHECK(lscope::parseJsonBounded(reply, &too_deep, lscope::kMaxBrowserJsonNesting).is_discarded());
  CHECK(too_deep);
  // The refused reply's id is read from its start, so the command waiting for it fails at once.
  CHECK(lscope::leadingMessageId(reply) == 42);
  CHECK(lscope::leadingMessageId(R"({"id":7})") == 7);
  CHECK(lscope::leadingMessageId(R"({"method":"Runtime.consoleAPICalled","params":[[[]]]})") == -1);
  CHECK(lscope::leadingMessageId(R"({"id":"7","result":{}})") == -1);
  CHECK(lscope::leadingMessageId(R"({"id":12345678901234,"result":{}})") == -1);
  CHECK(lscope::leadingMessageId(R"({"id":)") == -1);
  auto error = lscope::tooDeepReply(42, "the browser");
  CHECK(error["id"] == 42);
  CHECK(error["error"]["message"] == "the browser's answer is nested more than 1000 levels deep");
}

TEST_CASE("cancellation: a cancelled call gets no response and the session stays usable") {
  ServerConfig config;
  lscope::testing::GatedNavigateFactory factory(loginScan());
  QueueOutbox outbox;
  McpSession session(config, &factory, &outbox);
  std::promise<void> gate;
  lscope::testing::GatedNavigateBackend::gate = gate.get_future().share();
  session.handleText(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}})");
  // The first call is held in flight until the second is cancelled while queued behind it (a
  // fast first call let the second run before the cancellation came, now and then under load).
  session.handleText(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"goto","arguments":{"url":"http://x.test/gate"}}})");
  session.handleText(R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"observe"}})");
  session.handleText(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}})");
  session.handleText(R"({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"url"}})");
  gate.set_value();
  session.drain();
  lscope::testing::GatedNavigateBackend::gate = {};
  std::vector<json> ids;
  while (!outbox.empty()) ids.push_back((*outbox.next())["id"]);
  CHECK(std::find(ids.begin(), ids.end(), json(2)) != ids.end());
  CHECK(std::find(ids.begin(), ids.end(), json(3)) == ids.end());
  CHECK(std::find(ids.begin(), ids.end(), json(4)) != ids.end());
}

TEST_CASE("typing a password never echoes it; it is masked in the page's URL too") {
  ServerConfig config;
  json scan = loginScan();
  lscope::testing::StubFactory factory(scan);
  QueueOutbox outbox;
  McpSession session(config, &factory, &outbox);
  session.handleText(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"goto","arguments":{"url":"http://x.test/login"}}})");
  session.handleText(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"type","arguments":{"target":"password","text":"hunter2!"}}})");
  session.handleText(R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"goto","arguments":{"url":"http://x.test/welcome?password=hunter2%21"}}})");
  session.drain();
  std::string all;
  while (!outbox.empty()) all += outbox.next()->dump();
  CHECK(all.find("hunter2") == std::string::npos);
  CHECK(all.find("type [2] \\\"Password\\\" \\\"••••••••\\\"") != std::string::npos);
  CHECK(all.find("welcome?password=••••••••") != std::string::npos);
  REQUIRE(factory.last);
  REQUIRE(factory.last->typed.size() == 1);
  CHECK(factory.last->typed[0] == "hunter2!");  // the page did receive it
}

TEST_CASE("a command that throws fails as a tool error, masked; the session goes on") {
  // A backend's bug (an answer of an unexpected shape read as a string) fails that one command
  // through the usual error path: a tool result the agent reads, not a dead `lscope run`.
  ServerConfig config;
  lscope::testing::ThrowingNavigateFactory factory(loginScan());
  QueueOutbox outbox;
  McpSession session(config, &factory, &outbox);
  session.handleText(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"goto","arguments":{"url":"http://x.test/throw"}}})");
  session.handleText(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"goto","arguments":{"url":"http://x.test/login"}}})");
  session.drain();
  std::map<int, json> replies;
  while (!outbox.empty()) {
    json m = *outbox.next();
    if (m.contains("id")) replies[m["id"].get<int>()] = m;
  }
  REQUIRE(replies.count(1));
  REQUIRE(replies[1].contains("result"));  // a tool result, not a JSON-RPC error
  CHECK(replies[1]["result"]["isError"] == true);
  CHECK(replies[1]["result"]["content"][0]["text"].get<std::string>().find("internal error: type must be string") != std::string::npos);
  REQUIRE(replies.count(2));
  CHECK(replies[2]["result"]["isError"] == false);
}

TEST_CASE("fields of the wrong type are answered, never thrown: the server goes on") {
  // Found by fuzz/http_fuzz.cpp: {"protocolVersion": 1} ended the whole process (an uncaught
  // json::type_error), on stdio and over HTTP alike.
  ServerConfig config;
  config.version = "0.0.0-test";
  lscope::testing::StubFactory factory(loginScan());
  QueueOutbox outbox;
  McpSession session(config, &factory, &outbox);
  auto init = session.handleText(
      R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientInfo":"x","capabilities":[]}})");
  REQUIRE(init.has_value());
  // An unknown version is answered with the newest the server speaks (MCP "Version Negotiation").
  CHECK((*init)["result"]["protocolVersion"].is_string());
  for (const char* bad : {R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":7}})",
                          R"({"jsonrpc":"2.0","id":3,"method":"logging/setLevel","params":{"level":[]}})",
                          R"({"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"cursor":{}}})"}) {
    auto r = session.handleText(bad);
    REQUIRE(r.has_value());
    CHECK((*r)["error"]["code"] == -32602);
  }
  session.handleText(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{"a":1},"reason":5}})");
  auto ping = session.handleText(R"({"jsonrpc":"2.0","id":5,"method":"ping"})");
  REQUIRE(ping.has_value());
  CHECK((*ping)["result"] == json::object());
}
