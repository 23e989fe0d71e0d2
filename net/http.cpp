// The one translation unit that includes cpp-httplib.
#include "net/http.h"

#include <algorithm>
#include <cctype>

#include <httplib.h>

namespace lscope::net {

Result<Url> parseUrl(const std::string& url) {
  Url u;
  auto scheme_end = url.find("://");
  if (scheme_end == std::string::npos) return Status(codes::kParameterInvalid, "not an http URL: " + url);
  u.scheme = url.substr(0, scheme_end);
  if (u.scheme != "http" && u.scheme != "https") {
    return Status(codes::kParameterInvalid, "unsupported scheme in " + url + " (use http://)");
  }
  std::string rest = url.substr(scheme_end + 3);
  auto slash = rest.find('/');
  std::string authority = rest.substr(0, slash);
  u.path = slash == std::string::npos ? "/" : rest.substr(slash);
  u.port = u.scheme == "https" ? 443 : 80;
  std::string host = authority;
  if (!authority.empty() && authority[0] == '[') {
    auto close = authority.find(']');
    if (close == std::string::npos) return Status(codes::kParameterInvalid, "bad IPv6 host in " + url);
    host = authority.substr(1, close - 1);
    if (close + 1 < authority.size() && authority[close + 1] == ':') {
      authority = authority.substr(close + 2);
    } else {
      authority.clear();
    }
    if (!authority.empty()) u.port = std::atoi(authority.c_str());
  } else if (auto colon = authority.rfind(':'); colon != std::string::npos) {
    host = authority.substr(0, colon);
    u.port = std::atoi(authority.substr(colon + 1).c_str());
  }
  if (host.empty() || u.port <= 0 || u.port > 65535) return Status(codes::kParameterInvalid, "bad host or port in " + url);
  u.host = host;
  return u;
}

Result<HttpResponse> send(const HttpRequest& request, Deadline deadline) {
  auto url = parseUrl(request.url);
  if (!url) return url.status();
  if (url->scheme == "https") {
    return Status(codes::kUnsupported, "https is not supported for " + request.url,
                  "use an http:// endpoint (driver and DevTools endpoints are plain HTTP)");
  }
  httplib::Client client(url->host, url->port);
  const auto start = Clock::now();
  auto left = std::max<long long>(deadline.remaining().count(), 1);
  client.set_connection_timeout(std::chrono::milliseconds(std::min<long long>(left, 10000)));
  client.set_read_timeout(std::chrono::milliseconds(left));
  client.set_write_timeout(std::chrono::milliseconds(left));
  httplib::Headers headers;
  for (const auto& [k, v] : request.headers) headers.emplace(k, v);
  httplib::Result res{nullptr, httplib::Error::Unknown};
  if (request.method == "GET") {
    res = client.Get(url->path, headers);
  } else if (request.method == "POST") {
    res = client.Post(url->path, headers, request.body, request.content_type);
  } else if (request.method == "DELETE") {
    res = client.Delete(url->path, headers, request.body, request.content_type);
  } else {
    return Status(codes::kInternal, "unsupported HTTP method " + request.method);
  }
  if (!res) {
    auto err = res.error();
    // The read timed out: the time given is used up (the deadline, read in whole ms, may be a
    // fraction of a ms from expiring when the timeout fires).
    if (err == httplib::Error::Read && (deadline.expired() || Clock::now() - start >= Millis(left))) {
      return Status(codes::kTimeout, request.method + " " + request.url + " did not answer in time");
    }
    if (err == httplib::Error::ConnectionTimeout) {
      return Status(codes::kTimeout, "connecting to " + url->host + ":" + std::to_string(url->port) + " timed out");
    }
    if (err == httplib::Error::Connection) {
      return Status(codes::kConnectionError,
                    "nothing answers at " + url->host + ":" + std::to_string(url->port) + " (" + request.method + " " +
                        request.url + ": connection refused or host unreachable)",
                    "is the endpoint running and reachable?");
    }
    return Status(codes::kConnectionError, request.method + " " + request.url + " failed: " + httplib::to_string(err),
                  "is the endpoint running and reachable?");
  }
  HttpResponse out;
  out.status = res->status;
  out.body = res->body;
  for (const auto& [k, v] : res->headers) {
    std::string key = k;
    std::transform(key.begin(), key.end(), key.begin(), [](unsigned char c) { return std::tolower(c); });
    out.headers[key] = v;
  }
  return out;
}

// --- server -------------------------------------------------------------------------------------

namespace {

constexpr int kServerThreads = 64;  // event streams hold a thread each while open

class SinkWriter final : public StreamWriter {
 public:
  explicit SinkWriter(httplib::DataSink& sink) : sink_(sink) {}
  bool write(const std::string& chunk) override {
    if (!sink_.is_writable()) return false;
    return sink_.write(chunk.data(), chunk.size());
  }

 private:
  httplib::DataSink& sink_;
};

}  // namespace

struct HttpServer::Impl {
  httplib::Server server;
  Handler handler;
};

HttpServer::HttpServer(Handler handler) : impl_(std::make_unique<Impl>()) {
  impl_->handler = std::move(handler);
  impl_->server.new_task_queue = [] { return new httplib::ThreadPool(kServerThreads); };
  impl_->server.set_payload_max_length(size_t(16) << 20);
  auto route = [this](const httplib::Request& req, httplib::Response& res) {
    ServerRequest r;
    r.method = req.method;
    r.path = req.path;
    r.body = req.body;
    r.remote_addr = req.remote_addr;
    for (const auto& [k, v] : req.params) r.query[k] = v;
    for (const auto& [k, v] : req.headers) {
      std::string key = k;
      std::transform(key.begin(), key.end(), key.begin(), [](unsigned char c) { return std::tolower(c); });
      r.headers[key] = v;
    }
    ServerResponse out;
    try {
      impl_->handler(r, out);
    } catch (const std::exception& e) {
      out = ServerResponse();
      out.status = 500;
      out.content_type = "text/plain";
      out.body = std::string("internal error: ") + e.what();
    }
    res.status = out.status;
    for (const auto& [k, v] : out.headers) res.set_header(k.c_str(), v);
    if (out.stream) {
      auto stream = std::move(out.stream);
      res.set_chunked_content_provider(out.content_type, [stream](size_t, httplib::DataSink& sink) {
        SinkWriter writer(sink);
        stream(writer);
        sink.done();
        return true;
      });
    } else if (!out.body.empty() || out.status != 204) {
      res.set_content(out.body, out.content_type.c_str());
    }
  };
  for (auto* m : {"GET", "POST", "DELETE", "PUT", "PATCH", "OPTIONS"}) {
    std::string method = m;
    if (method == "GET") impl_->server.Get(".*", route);
    if (method == "POST") impl_->server.Post(".*", route);
    if (method == "DELETE") impl_->server.Delete(".*", route);
    if (method == "PUT") impl_->server.Put(".*", route);
    if (method == "PATCH") impl_->server.Patch(".*", route);
    if (method == "OPTIONS") impl_->server.Options(".*", route);
  }
}

HttpServer::~HttpServer() { stop(); }

Result<int> HttpServer::bind(const std::string& host, int port) {
  int bound = port == 0 ? impl_->server.bind_to_any_port(host) : (impl_->server.bind_to_port(host, port) ? port : -1);
  if (bound <= 0) {
    return Status(codes::kConnectionError, "cannot listen on " + host + ":" + std::to_string(port),
                  "is the port in use? pick another with --http HOST:PORT");
  }
  return bound;
}

void HttpServer::run() { impl_->server.listen_after_bind(); }

void HttpServer::keepIdleConnections(int seconds, int requests) {
  impl_->server.set_keep_alive_timeout(seconds);
  impl_->server.set_keep_alive_max_count(size_t(requests));
}

void HttpServer::stop() {
  if (impl_->server.is_running()) impl_->server.stop();
}

}  // namespace lscope::net
