// MCP over stdio: the bytes a client writes, framed into lines by the stdio transport's own
// loop (serveLines) and answered by a real session that lives across inputs, as a client's
// session does (tool calls fail at once: there is no browser). Every message out is one
// well-formed JSON-RPC 2.0 object.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "fuzz/common.h"
#include "server/stdio_server.h"

namespace {

class CheckingOutbox final : public lscope::mcp::Outbox {
 public:
  void send(const nlohmann::json& message, const nlohmann::json&) override {
    // What the stdio transport writes: one line, a JSON-RPC 2.0 object. (Reading the line back
    // took 60 % of each run, and checked only the serializer: with error_handler_t::replace it
    // writes valid JSON, invalid UTF-8 replaced.)
    if (!message.is_object() || message.value("jsonrpc", "") != "2.0") std::abort();
    if (!message.contains("method") && !message.contains("id")) std::abort();
    std::string line = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (line.find('\n') != std::string::npos) std::abort();
  }
};

lscope::fuzz::NoBrowser factory;
lscope::mcp::ServerConfig config;
CheckingOutbox outbox;
lscope::mcp::McpSession* session = nullptr;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  lscope::fuzz::quiet();
  config.version = "fuzz";
  session = new lscope::mcp::McpSession(config, &factory, &outbox);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  lscope::mcp::serveLines(*session, outbox, in);
  session->drain();
  return 0;
}
