// Streamable HTTP: sessions, security checks (Origin, Host, bearer token), JSON and SSE
// answers, the GET event stream, DELETE. The spec section is cited above each rule.
#include "server/http_server.h"

#include <sys/random.h>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>

#include <spdlog/spdlog.h>

#include "engine/json_bounded.h"
#include "net/http.h"
#include "server/jsonrpc.h"

namespace lscope::mcp {
namespace {

constexpr const char* kEndpoint = "/mcp";
constexpr Millis kKeepAlive(15000);  // an SSE comment this often keeps proxies from closing idle streams

// Session ids: 128 bits from the kernel's CSPRNG, hex (transports: "globally unique and
// cryptographically secure").
std::string newSessionId() {
  unsigned char bytes[16];
  size_t got = 0;
  while (got < sizeof bytes) {
    ssize_t n = ::getrandom(bytes + got, sizeof bytes - got, 0);
    if (n > 0) got += static_cast<size_t>(n);
  }
  static const char* kHex = "0123456789abcdef";
  std::string id;
  for (unsigned char b : bytes) {
    id += kHex[b >> 4];
    id += kHex[b & 15];
  }
  return id;
}

std::string hostOf(const std::string& host_port) {
  if (!host_port.empty() && host_port[0] == '[') return host_port.substr(0, host_port.find(']') + 1);
  return host_port.substr(0, host_port.find(':'));
}

void jsonBody(net::ServerResponse& res, int status, const json& body) {
  res.status = status;
  res.content_type = "application/json";
  res.body = body.dump(-1, ' ', false, json::error_handler_t::replace);
}

void plain(net::ServerResponse& res, int status, const std::string& text) {
  res.status = status;
  res.content_type = "text/plain; charset=utf-8";
  res.body = text + "\n";
}

// One MCP session over HTTP, and the Outbox that routes its messages to the right stream:
// messages of a request go to that request's POST stream; the rest to the GET stream.
class HttpSession final : public Outbox {
 public:
  HttpSession(std::string id, const ServerConfig& config, BackendFactory* factory)
      : id_(std::move(id)), last_used_(Clock::now()) {
    mcp_ = std::make_unique<McpSession>(config, factory, this);
  }
  ~HttpSession() override {
    close();
    mcp_.reset();  // joins the worker while the queues still exist
  }

  const std::string& id() const { return id_; }
  McpSession& mcp() { return *mcp_; }

  void send(const json& message, const json& related) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (!related.is_null()) {
      auto it = requests_.find(related.dump());
      if (it != requests_.end()) {
        it->second.queue.push_back(message);
        cv_.notify_all();
        return;
      }
    }
    // Not tied to an open request stream: the GET stream, if the client keeps one open.
    // Without it, notifications are dropped, as the transport allows.
    if (get_open_) {
      general_.push_back(message);
      cv_.notify_all();
    }
  }

  void finished(const json& request_id) override {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = requests_.find(request_id.dump());
    if (it != requests_.end()) it->second.finished = true;
    cv_.notify_all();
  }

  // Opens the stream of one request: from now on its messages are kept for it.
  void openRequest(const std::string& key) {
    std::lock_guard<std::mutex> lock(mu_);
    requests_[key];
  }
  void closeRequest(const std::string& key) {
    std::lock_guard<std::mutex> lock(mu_);
    requests_.erase(key);
  }
  // Blocks until the request has messages, is finished, the session closes, or `wait` passes.
  // Returns the messages; sets `done` once nothing more will come.
  std::vector<json> waitRequest(const std::string& key, bool& done, Millis wait) {
    std::unique_lock<std::mutex> lock(mu_);
    auto& r = requests_[key];
    cv_.wait_for(lock, wait, [&] { return closed_ || r.finished || !r.queue.empty(); });
    std::vector<json> out(r.queue.begin(), r.queue.end());
    r.queue.clear();
    done = closed_ || r.finished;
    return out;
  }

  bool openGet() {
    std::lock_guard<std::mutex> lock(mu_);
    if (get_open_ || closed_) return false;
    get_open_ = true;
    return true;
  }
  void closeGet() {
    std::lock_guard<std::mutex> lock(mu_);
    get_open_ = false;
    general_.clear();
  }
  std::vector<json> waitGeneral(bool& closed, Millis wait) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait_for(lock, wait, [&] { return closed_ || !general_.empty(); });
    std::vector<json> out(general_.begin(), general_.end());
    general_.clear();
    closed = closed_;
    return out;
  }

  void close() {
    std::lock_guard<std::mutex> lock(mu_);
    closed_ = true;
    cv_.notify_all();
  }

  void touch() { last_used_ = Clock::now(); }
  Clock::time_point lastUsed() const { return last_used_; }
  uint64_t nextEventId() { return ++event_id_; }

 private:
  struct RequestStream {
    std::deque<json> queue;
    bool finished = false;
  };

  const std::string id_;
  std::atomic<Clock::time_point> last_used_;
  std::atomic<uint64_t> event_id_{0};
  std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::string, RequestStream> requests_;
  std::deque<json> general_;
  bool get_open_ = false;
  bool closed_ = false;
  std::unique_ptr<McpSession> mcp_;  // last: destroyed first
};

std::string sseEvent(HttpSession& s, const json& message) {
  return "id: " + std::to_string(s.nextEventId()) + "\nevent: message\ndata: " +
         message.dump(-1, ' ', false, json::error_handler_t::replace) + "\n\n";
}

bool isSupportedVersion(const std::string& v) {
  const auto& all = supportedProtocolVersions();
  return std::find(all.begin(), all.end(), v) != all.end();
}

}  // namespace

bool isLoopbackHost(const std::string& host) {
  std::string h = host;
  if (h.size() > 2 && h.front() == '[' && h.back() == ']') h = h.substr(1, h.size() - 2);
  return h == "localhost" || h == "::1" || h.rfind("127.", 0) == 0;
}

struct McpHttpServer::Impl {
  const ServerConfig& config;
  BackendFactory* factory;
  HttpOptions options;
  net::HttpServer http;
  std::mutex mu;
  std::map<std::string, std::shared_ptr<HttpSession>> sessions;
  bool stopped = false;

  Impl(const ServerConfig& c, BackendFactory* f, HttpOptions o)
      : config(c), factory(f), options(std::move(o)),
        http([this](const net::ServerRequest& req, net::ServerResponse& res) { handle(req, res); }) {
    // An idle connection stays open longer than MCP clients keep theirs (3-5 s): a client that
    // reuses it before it has read that the server closed it (one starved of the CPU for a
    // moment) gets a reset instead of an answer ("fetch failed"). Not much longer: each idle
    // connection holds a thread. lscope serve ends on a signal, without waiting for them.
    http.keepIdleConnections(15, 1000);
  }

  // Origin, Host and bearer checks: a non-empty result is the refusal.
  bool refused(const net::ServerRequest& req, net::ServerResponse& res) {
    // Authorization: with a token, every request must carry it.
    if (!options.auth_token.empty() && req.header("authorization") != "Bearer " + options.auth_token) {
      res.headers["WWW-Authenticate"] = "Bearer";
      plain(res, 401, "Unauthorized: send Authorization: Bearer <token>");
      return true;
    }
    // Transports, "Security Warning": servers MUST validate Origin (DNS rebinding).
    std::string origin = req.header("origin");
    if (!origin.empty() && origin != "null") {
      auto scheme = origin.find("://");
      std::string host = hostOf(scheme == std::string::npos ? origin : origin.substr(scheme + 3));
      bool allowed = isLoopbackHost(host) ||
                     std::find(options.allowed_origins.begin(), options.allowed_origins.end(), origin) !=
                         options.allowed_origins.end();
      if (!allowed) {
        plain(res, 403, "Forbidden: origin " + origin + " is not allowed");
        return true;
      }
    }
    // A loopback server without a token also checks Host: a rebound DNS name is refused.
    if (options.auth_token.empty() && isLoopbackHost(options.host)) {
      std::string host = hostOf(req.header("host"));
      if (!host.empty() && !isLoopbackHost(host)) {
        plain(res, 403, "Forbidden: host " + req.header("host") + " is not this server");
        return true;
      }
    }
    return false;
  }

  // Ends sessions idle longer than the timeout (checked on each request; no timer thread).
  void sweep() {
    std::vector<std::shared_ptr<HttpSession>> expired;
    {
      std::lock_guard<std::mutex> lock(mu);
      for (auto it = sessions.begin(); it != sessions.end();) {
        if (Clock::now() - it->second->lastUsed() > options.idle_timeout) {
          expired.push_back(it->second);
          it = sessions.erase(it);
        } else {
          ++it;
        }
      }
    }
    for (auto& s : expired) {
      spdlog::info("http: session {} expired", s->id().substr(0, 8));
      s->close();
    }
  }

  std::shared_ptr<HttpSession> find(const std::string& id) {
    std::lock_guard<std::mutex> lock(mu);
    auto it = sessions.find(id);
    return it == sessions.end() ? nullptr : it->second;
  }

  void handle(const net::ServerRequest& req, net::ServerResponse& res) {
    if (req.path != kEndpoint) return plain(res, 404, "Not Found: the MCP endpoint is /mcp");
    if (refused(req, res)) return;
    sweep();
    if (req.method == "POST") return post(req, res);
    if (req.method == "GET") return get(req, res);
    if (req.method == "DELETE") return del(req, res);
    res.headers["Allow"] = "GET, POST, DELETE";
    plain(res, 405, "Method Not Allowed");
  }

  // The session named by Mcp-Session-Id: 400 without one, 404 for an unknown or ended one.
  std::shared_ptr<HttpSession> sessionFor(const net::ServerRequest& req, net::ServerResponse& res) {
    std::string id = req.header("mcp-session-id");
    if (id.empty()) {
      jsonBody(res, 400, makeError(nullptr, kInvalidRequest, "Bad Request: Mcp-Session-Id header is required"));
      return nullptr;
    }
    auto s = find(id);
    if (!s) {
      jsonBody(res, 404, makeError(nullptr, kInvalidRequest, "Session not found: initialize a new session"));
      return nullptr;
    }
    // Transports, "Protocol Version Header": an invalid or unsupported version is a 400.
    std::string v = req.header("mcp-protocol-version");
    if (!v.empty() && !isSupportedVersion(v)) {
      jsonBody(res, 400, makeError(nullptr, kInvalidRequest, "Bad Request: unsupported MCP-Protocol-Version " + v));
      return nullptr;
    }
    s->touch();
    return s;
  }

  void post(const net::ServerRequest& req, net::ServerResponse& res) {
    bool too_deep = false;
    json msg = parseJsonBounded(req.body, &too_deep);
    if (too_deep) {
      return jsonBody(res, 400, makeError(nullptr, kInvalidRequest, "Invalid Request: " + tooDeepMessage()));
    }
    if (msg.is_discarded()) {
      return jsonBody(res, 400, makeError(nullptr, kParseError, "Parse error: the body is not valid JSON"));
    }
    bool is_init = msg.is_object() && msg.value("method", json()) == "initialize";
    std::shared_ptr<HttpSession> session;
    if (is_init) {
      // Transports, "Session Management": the id is issued with the InitializeResult.
      session = std::make_shared<HttpSession>(newSessionId(), config, factory);
      auto reply = session->mcp().handle(msg);
      if (!reply || reply->contains("error")) return jsonBody(res, 400, reply ? *reply : json());
      {
        std::lock_guard<std::mutex> lock(mu);
        if (stopped) return plain(res, 503, "Service Unavailable: shutting down");
        sessions[session->id()] = session;
      }
      spdlog::info("http: session {} started", session->id().substr(0, 8));
      res.headers["Mcp-Session-Id"] = session->id();
      return jsonBody(res, 200, *reply);
    }
    session = sessionFor(req, res);
    if (!session) return;
    if (msg.is_array()) {
      return jsonBody(res, 400, makeError(nullptr, kInvalidRequest, "Invalid Request: batches are not supported"));
    }
    Classified c = classify(msg);
    if (c.kind == MessageKind::kNotification || c.kind == MessageKind::kResponse) {
      session->mcp().handle(msg);
      res.status = 202;  // Accepted, no body
      res.content_type = "application/json";
      return;
    }
    if (c.kind == MessageKind::kInvalid) {
      auto reply = session->mcp().handle(msg);
      return jsonBody(res, 400, reply ? *reply : json());
    }
    std::string key = msg["id"].dump();
    session->openRequest(key);
    auto reply = session->mcp().handle(msg);
    if (reply) {
      session->closeRequest(key);
      return jsonBody(res, 200, *reply);
    }
    // Answered later (a tool call): stream progress, logs and then the response as SSE.
    res.status = 200;
    res.content_type = "text/event-stream";
    res.headers["Cache-Control"] = "no-cache";
    res.stream = [session, key](net::StreamWriter& w) {
      for (;;) {
        bool done = false;
        auto batch = session->waitRequest(key, done, kKeepAlive);
        for (const auto& m : batch) {
          if (!w.write(sseEvent(*session, m))) {
            // The client went away. That is not a cancellation (transports spec); the
            // request runs on and its answer is dropped.
            session->closeRequest(key);
            return;
          }
        }
        if (done) break;
        if (batch.empty() && !w.write(": keep-alive\n\n")) break;
      }
      session->closeRequest(key);
    };
  }

  void get(const net::ServerRequest& req, net::ServerResponse& res) {
    auto session = sessionFor(req, res);
    if (!session) return;
    if (req.header("accept").find("text/event-stream") == std::string::npos) {
      return plain(res, 406, "Not Acceptable: GET opens an event stream (Accept: text/event-stream)");
    }
    if (!session->openGet()) return plain(res, 409, "Conflict: this session already has an open event stream");
    res.status = 200;
    res.content_type = "text/event-stream";
    res.headers["Cache-Control"] = "no-cache";
    res.stream = [session](net::StreamWriter& w) {
      for (;;) {
        bool closed = false;
        auto batch = session->waitGeneral(closed, kKeepAlive);
        bool ok = true;
        for (const auto& m : batch) ok = ok && w.write(sseEvent(*session, m));
        if (!ok || closed) break;
        if (batch.empty() && !w.write(": keep-alive\n\n")) break;
      }
      session->closeGet();
    };
  }

  void del(const net::ServerRequest& req, net::ServerResponse& res) {
    auto session = sessionFor(req, res);
    if (!session) return;
    {
      std::lock_guard<std::mutex> lock(mu);
      sessions.erase(session->id());
    }
    session->close();
    spdlog::info("http: session {} ended by the client", session->id().substr(0, 8));
    plain(res, 200, "session ended");
  }
};

McpHttpServer::McpHttpServer(const ServerConfig& config, BackendFactory* factory, HttpOptions options)
    : impl_(std::make_unique<Impl>(config, factory, std::move(options))) {}

McpHttpServer::~McpHttpServer() { stop(); }

Result<int> McpHttpServer::start() {
  const auto& o = impl_->options;
  if (!isLoopbackHost(o.host) && o.auth_token.empty()) {
    return Status(codes::kParameterInvalid,
                  "refusing to listen on " + o.host + " without --auth-token: anyone who can reach it could drive your browser",
                  "bind 127.0.0.1, or set --auth-token (clients then send Authorization: Bearer <token>)");
  }
  return impl_->http.bind(o.host, o.port);
}

void McpHttpServer::run() { impl_->http.run(); }

void McpHttpServer::serveRequest(const net::ServerRequest& req, net::ServerResponse& res) { impl_->handle(req, res); }

void McpHttpServer::stop() {
  std::vector<std::shared_ptr<HttpSession>> all;
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    if (impl_->stopped) return;
    impl_->stopped = true;
    for (auto& [id, s] : impl_->sessions) all.push_back(s);
    impl_->sessions.clear();
  }
  for (auto& s : all) s->close();
  impl_->http.stop();
}

}  // namespace lscope::mcp
