// A page on 127.0.0.1 where the user types a secret the agent asked for by name. MCP forbids
// form-mode elicitation for passwords; URL mode sends the user here instead, so the value goes
// from the user to the browser and never through the client or the model.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "engine/status.h"

namespace lscope::net {
class HttpServer;
struct ServerRequest;
struct ServerResponse;
}  // namespace lscope::net

namespace lscope::mcp {

// Thread-safe. The HTTP listener starts on the first open() and stops with the portal.
class SecretPortal {
 public:
  SecretPortal();
  ~SecretPortal();

  // Opens a one-time page for secret `name`; `on_submit` gets the value the user enters.
  // Returns the page's URL (with an unguessable token).
  Result<std::string> open(const std::string& id, const std::string& name,
                           std::function<void(const std::string& value)> on_submit);
  // Forgets a page (answered, declined or timed out).
  void close(const std::string& id);

 private:
  struct Entry {
    std::string name;
    std::string token;
    std::function<void(const std::string&)> on_submit;
  };
  void handle(const net::ServerRequest& req, net::ServerResponse& res);

  std::mutex mu_;
  std::unique_ptr<net::HttpServer> http_;
  std::thread thread_;
  int port_ = 0;
  std::map<std::string, Entry> entries_;
};

// 128 random bits from the kernel's CSPRNG, as hex.
std::string randomHex();

}  // namespace lscope::mcp
