// MCP over Streamable HTTP: a raw request (request line, headers, body) through the server's
// request path (Origin, Host and token checks, sessions, JSON-RPC) without a socket. The input
// is parsed the way an HTTP server splits a request; what the handler makes of it is the target.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "fuzz/common.h"
#include "net/http.h"
#include "server/http_server.h"

namespace {

lscope::fuzz::NoBrowser factory;
lscope::mcp::McpHttpServer* server = nullptr;
lscope::mcp::ServerConfig config;  // the server keeps a reference: lives as long as it

class Sink final : public lscope::net::StreamWriter {
 public:
  bool write(const std::string& data) override {
    size_ += data.size();
    return size_ < (1 << 20);
  }

 private:
  size_t size_ = 0;
};

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  lscope::fuzz::quiet();
  config.version = "fuzz";
  lscope::mcp::HttpOptions options;
  options.port = 0;
  // Every session the fuzzer opens stays until the sweep: keep them few.
  options.idle_timeout = lscope::Millis(0);
  server = new lscope::mcp::McpHttpServer(config, &factory, options);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string raw(reinterpret_cast<const char*>(data), size);
  lscope::net::ServerRequest req;
  size_t head_end = raw.find("\r\n\r\n");
  std::string head = raw.substr(0, head_end);
  req.body = head_end == std::string::npos ? "" : raw.substr(head_end + 4);
  std::istringstream lines(head);
  std::string line;
  if (!std::getline(lines, line)) return 0;
  std::istringstream first(line);
  first >> req.method >> req.path;
  while (std::getline(lines, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string value = line.substr(colon + 1);
    value.erase(0, value.find_first_not_of(' '));
    req.headers[lower(line.substr(0, colon))] = value;
  }
  req.remote_addr = "127.0.0.1";
  lscope::net::ServerResponse res;
  server->serveRequest(req, res);
  if (res.status < 100 || res.status > 599) std::abort();
  if (res.stream) {
    Sink sink;
    res.stream(sink);
  }
  return 0;
}
