// HTTP for the layers that need it (WebDriver and CDP discovery as a client; later the MCP
// Streamable HTTP transport as a server). cpp-httplib lives only in http.cpp: its headers cost
// ~40 s per translation unit here.
#pragma once

#include <map>
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

}  // namespace lscope::net
