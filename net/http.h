// HTTP for the layers that need it (WebDriver and CDP discovery as a client; later the MCP
// Streamable HTTP transport as a server). cpp-httplib lives only in http.cpp: its headers cost
// ~40 s per translation unit here.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "engine/deadline.h"
#include "engine/status.h"

namespace lscope::net {

struct HttpRequest {
  std::string method = "GET";  // GET, POST, DELETE
  std::string url;             // http://host:port/path?query
  std::string body;
  std::string content_type = "application/json; charset=utf-8";
  std::map<std::string, std::string> headers;
};

struct HttpResponse {
  int status = 0;
  std::string body;
  std::map<std::string, std::string> headers;  // names lower-cased
};

struct Url {
  std::string scheme;  // http or https
  std::string host;
  int port = 80;
  std::string path = "/";  // with query
};

// Parses http(s)://host[:port][/path]. IPv6 hosts in brackets.
Result<Url> parseUrl(const std::string& url);

// Sends one request and blocks until the response or the deadline. An unreachable host is
// CONNECTION_ERROR; no answer in time is TIMEOUT. Any HTTP status is a successful result.
// Thread-safe (a fresh connection per call).
Result<HttpResponse> send(const HttpRequest& request, Deadline deadline);

// --- server -------------------------------------------------------------------------------------

struct ServerRequest {
  std::string method;
  std::string path;
  std::map<std::string, std::string> headers;  // names lower-cased
  std::map<std::string, std::string> query;    // decoded query parameters
  std::string body;
  std::string remote_addr;
  std::string header(const std::string& lower_name) const {
    auto it = headers.find(lower_name);
    return it == headers.end() ? std::string() : it->second;
  }
};

// Writes the body of a streamed response (Server-Sent Events). write() returns false once the
// client has gone away.
class StreamWriter {
 public:
  virtual ~StreamWriter() = default;
  virtual bool write(const std::string& chunk) = 0;
};

struct ServerResponse {
  int status = 200;
  std::map<std::string, std::string> headers;
  std::string content_type = "application/json";
  std::string body;
  // When set, the response is streamed (chunked): this runs on the connection's thread and
  // the response ends when it returns.
  std::function<void(StreamWriter&)> stream;
};

// An HTTP/1.1 server: one handler for every request. Each connection is served on a thread of
// a pool large enough for long-lived event streams. Thread-safe.
class HttpServer {
 public:
  using Handler = std::function<void(const ServerRequest&, ServerResponse&)>;
  explicit HttpServer(Handler handler);
  ~HttpServer();
  // Binds host:port (port 0: any free port). Returns the port bound.
  Result<int> bind(const std::string& host, int port);
  // Serves until stop(). Blocks.
  void run();
  // Makes run() return; safe from any thread (signal handlers excepted). It returns once idle
  // kept-alive connections have timed out (keepIdleConnections).
  void stop();
  // How long an idle kept-alive connection stays open, and for how many requests (before run();
  // httplib's defaults: 5 s, 5 requests).
  void keepIdleConnections(int seconds, int requests);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace lscope::net
