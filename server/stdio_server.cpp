// The stdio transport: a line reader, and an Outbox that writes whole lines under a lock.
#include "server/stdio_server.h"

#include <mutex>
#include <string>

#include <spdlog/spdlog.h>

namespace lscope::mcp {
namespace {

class LineOutbox final : public Outbox {
 public:
  explicit LineOutbox(std::ostream& out) : out_(out) {}
  void send(const json& message, const json& /*related*/) override {
    // Messages MUST NOT contain embedded newlines: dump() without indentation has none.
    std::string line = message.dump(-1, ' ', false, json::error_handler_t::replace);
    std::lock_guard<std::mutex> lock(mu_);
    out_ << line << '\n';
    out_.flush();
  }

 private:
  std::ostream& out_;
  std::mutex mu_;
};

}  // namespace

void serveLines(McpSession& session, Outbox& outbox, std::istream& in) {
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    auto reply = session.handleText(line);
    if (reply) outbox.send(*reply, nullptr);
  }
}

int serveStdio(const ServerConfig& config, BackendFactory* factory, std::istream& in, std::ostream& out) {
  LineOutbox outbox(out);
  McpSession session(config, factory, &outbox);
  serveLines(session, outbox, in);
  spdlog::debug("stdin closed; finishing queued calls");
  session.drain();
  return 0;
}

}  // namespace lscope::mcp
