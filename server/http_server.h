// MCP over Streamable HTTP (modelcontextprotocol.io/specification/2025-11-25/basic/transports
// #streamable-http): one endpoint, /mcp; POST for messages (JSON or SSE answers), GET for the
// server's own event stream, DELETE to end a session. Every MCP session gets its own engine
// session, so its own browser context.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/backend.h"
#include "net/http.h"
#include "server/mcp_session.h"

namespace lscope::mcp {

struct HttpOptions {
  std::string host = "127.0.0.1";
  int port = 8931;                       // 0: any free port
  std::string auth_token;                // required (Bearer) when set; required off loopback
  std::vector<std::string> allowed_origins;  // besides localhost origins
  Millis idle_timeout{30 * 60 * 1000};   // a session unused this long is ended
};

class McpHttpServer {
 public:
  // `factory` must outlive the server.
  McpHttpServer(const ServerConfig& config, BackendFactory* factory, HttpOptions options);
  ~McpHttpServer();
  // Checks the options (a non-loopback bind needs a token) and binds. Returns the port.
  Result<int> start();
  // Serves until stop(). Blocks.
  void run();
  // Ends every session and makes run() return. Thread-safe.
  void stop();
  // One request through the server's request path, without a socket (the HTTP fuzzer).
  void serveRequest(const net::ServerRequest& req, net::ServerResponse& res);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// True for 127.0.0.0/8, ::1 and localhost.
bool isLoopbackHost(const std::string& host);

}  // namespace lscope::mcp
