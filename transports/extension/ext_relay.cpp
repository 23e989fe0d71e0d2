// ExtensionRelay over a websocketpp server + standalone Asio. The only translation unit of the
// extension backend that includes websocketpp (its headers cost ~40 s to compile here).
#include "transports/extension/ext_relay.h"

#include <atomic>
#include <condition_variable>
#include <future>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include <spdlog/spdlog.h>

#include <websocketpp/config/asio_no_tls.hpp>
#include <websocketpp/server.hpp>

#include "engine/files.h"
#include "engine/json_bounded.h"
#include "engine/packs.h"

namespace lscope::ext {
namespace {

using WsServer = websocketpp::server<websocketpp::config::asio>;
constexpr size_t kMaxMessageBytes = size_t(512) << 20;  // screenshots

// Compares secrets in time independent of where they differ.
bool sameSecret(const std::string& given, const std::string& expected) {
  if (expected.empty() || given.size() != expected.size()) return false;
  unsigned char diff = 0;
  for (size_t i = 0; i < given.size(); ++i) diff |= static_cast<unsigned char>(given[i] ^ expected[i]);
  return diff == 0;
}

std::string queryValue(const std::string& resource, const std::string& name) {
  auto q = resource.find('?');
  if (q == std::string::npos) return "";
  std::string rest = resource.substr(q + 1);
  size_t pos = 0;
  while (pos <= rest.size()) {
    size_t amp = rest.find('&', pos);
    std::string pair = rest.substr(pos, amp == std::string::npos ? std::string::npos : amp - pos);
    if (pair.rfind(name + "=", 0) == 0) return pair.substr(name.size() + 1);
    if (amp == std::string::npos) break;
    pos = amp + 1;
  }
  return "";
}

class WsRelay final : public ExtensionRelay {
 public:
  explicit WsRelay(RelayOptions options) : options_(std::move(options)) {
    // websocketpp logs to std::cout by default: in stdio mode stdout carries only protocol.
    server_.clear_access_channels(websocketpp::log::alevel::all);
    server_.clear_error_channels(websocketpp::log::elevel::all);
    server_.init_asio();
    server_.set_reuse_addr(true);
    server_.set_max_message_size(kMaxMessageBytes);
    server_.set_validate_handler([this](websocketpp::connection_hdl h) { return validate(h); });
    server_.set_open_handler([this](websocketpp::connection_hdl h) { opened(h); });
    server_.set_close_handler([this](websocketpp::connection_hdl h) { closed(h); });
    server_.set_fail_handler([](websocketpp::connection_hdl) {});
    server_.set_message_handler(
        [this](websocketpp::connection_hdl h, WsServer::message_ptr msg) { handleMessage(h, msg->get_payload()); });
  }

  ~WsRelay() override {
    close();
    if (thread_.joinable()) thread_.join();
  }

  Status start() {
    websocketpp::lib::error_code ec;
    asio::error_code aec;
    auto address = asio::ip::make_address(options_.host, aec);
    if (aec) return Status(codes::kParameterInvalid, "cannot listen on " + options_.host + ": " + aec.message());
    server_.listen(asio::ip::tcp::endpoint(address, static_cast<unsigned short>(options_.port)), ec);
    if (ec) {
      return Status(codes::kConnectionError,
                    "cannot listen for the extension on " + options_.host + ":" + std::to_string(options_.port) +
                        ": " + ec.message(),
                    "another lscope may serve the extension already; pass --extension-port PORT (and pair again)");
    }
    server_.start_accept(ec);
    if (ec) return Status(codes::kConnectionError, "cannot accept extension connections: " + ec.message());
    auto local = server_.get_local_endpoint(aec);
    port_ = aec ? options_.port : local.port();
    thread_ = std::thread([this] {
      try {
        server_.run();
      } catch (const std::exception& e) {
        spdlog::error("extension relay: socket thread stopped: {}", e.what());
      }
    });
    return Status::ok();
  }

  int port() const override { return port_; }

  bool waitConnected(Deadline deadline) override {
    std::unique_lock<std::mutex> lock(mu_);
    return cv_.wait_until(lock, deadline.at(), [this] { return open_ || stopping_; }) && open_;
  }

  std::string peer() const override {
    std::lock_guard<std::mutex> lock(mu_);
    return open_ ? peer_ : "";
  }

  int refused() const override { return refused_.load(); }

  Result<json> send(const std::string& method, const json& params, const std::string& session_id,
                    Deadline deadline) override {
    // Wait for the extension to come back, unless its browser is gone for good.
    Deadline grace = deadline.capped(options_.reconnect_grace);
    while (!waitConnected(grace.capped(Millis(200)))) {
      if (grace.expired() || (options_.browser_gone && options_.browser_gone())) return notConnected(method);
    }
    auto waiter = std::make_shared<std::promise<json>>();
    auto reply = waiter->get_future();
    int id = enqueue(method, params, session_id, Pending{waiter, nullptr, {}});
    if (id < 0) return notConnected(method);
    if (reply.wait_until(deadline.at()) != std::future_status::ready) {
      std::lock_guard<std::mutex> lock(mu_);
      pending_.erase(id);
      return Status(codes::kTimeout, method + " did not answer in time (through the extension)");
    }
    return toResult(method, reply.get());
  }

  void failSession(const std::string& session_id) override {
    if (session_id.empty()) return;
    asio::post(server_.get_io_service(), [this, session_id] {  // after the event being handled
      std::vector<int> ids;
      {
        std::lock_guard<std::mutex> lock(mu_);
        ids = cdp::pendingOnSession(pending_, session_id);
      }
      for (int id : ids) complete(id, cdp::sessionEndedReply());
    });
  }

  void post(const std::string& method, const json& params, const std::string& session_id,
            std::function<void(const Result<json>&)> done) override {
    auto cb = done ? std::move(done) : [](const Result<json>&) {};
    auto method_copy = method;
    if (enqueue(method, params, session_id,
                Pending{nullptr, [this, cb, method_copy](const json& r) { cb(toResult(method_copy, r)); }, {}}) < 0) {
      cb(notConnected(method));
    }
  }

  int addListener(Listener listener) override {
    std::lock_guard<std::mutex> lock(mu_);
    int h = ++next_listener_;
    listeners_.emplace(h, std::make_shared<Listener>(std::move(listener)));
    return h;
  }

  void removeListener(int handle) override {
    std::lock_guard<std::mutex> lock(mu_);
    listeners_.erase(handle);
  }

  // The relay closes only when lscope stops; extension disconnects are not a close.
  void onClose(std::function<void()> callback) override {
    std::lock_guard<std::mutex> lock(mu_);
    close_callbacks_.push_back(std::move(callback));
  }

  bool connected() const override {
    std::lock_guard<std::mutex> lock(mu_);
    return open_;
  }

  void close() override {
    std::vector<std::function<void()>> callbacks;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (stopping_) return;
      stopping_ = true;
      callbacks.swap(close_callbacks_);
    }
    cv_.notify_all();
    asio::post(server_.get_io_service(), [this] {
      websocketpp::lib::error_code ec;
      server_.stop_listening(ec);
      auto c = current();
      if (!c.expired()) server_.close(c, websocketpp::close::status::going_away, "lscope stops", ec);
      server_.stop();
    });
    for (auto& cb : callbacks) cb();
  }

 private:
  struct Pending {
    std::shared_ptr<std::promise<json>> waiter;
    std::function<void(const json&)> callback;
    std::string session;  // the target session it was sent to
  };

  // Not CONNECTION_ERROR: the browser and its tabs are most likely still there (the extension's
  // service worker restarts), and the engine keeps its session for when the extension is back.
  // A tab that is really gone answers "Session with given id not found" then.
  Status notConnected(const std::string& method) const {
    if (options_.browser_gone && options_.browser_gone()) {
      return Status(codes::kConnectionError, "the browser lscope launched for the extension has exited (" + method + ")",
                    "the next command starts it again");
    }
    return Status(codes::kBrowserError,
                  "the Lemmascope extension is not connected (" + method + ")",
                  "open the browser with the Lemmascope extension; it reconnects by itself once paired "
                  "(lscope pair prints the pairing code)");
  }

  Result<json> toResult(const std::string& method, const json& reply) const {
    // "No SW": the extension's service worker was stopped while the browser ran the command; the
    // worker's last words before its socket closes.
    if (reply.contains("__closed") || (reply.contains("error") && reply["error"].is_object() &&
                                       reply["error"].value("message", std::string()) == "No SW")) {
      if (options_.browser_gone && options_.browser_gone()) return notConnected(method);
      return Status(codes::kBrowserError, "the extension disconnected during " + method,
                    "the extension or the browser stopped; run the command again: it waits for the extension to come back");
    }
    if (reply.contains("error")) return cdp::translateCdpError(method, reply["error"]);
    return reply.value("result", json::object());
  }

  websocketpp::connection_hdl current() {
    std::lock_guard<std::mutex> lock(mu_);
    return hdl_;
  }

  // The handshake: loopback Host, the extension's Origin, the pairing token. Anything else is
  // refused before a single message is read.
  bool validate(websocketpp::connection_hdl h) {
    auto con = server_.get_con_from_hdl(h);
    const std::string origin = con->get_request_header("Origin");
    const std::string host = con->get_request_header("Host");
    const std::string token = queryValue(con->get_resource(), "token");
    std::string why;
    std::string host_name = host.substr(0, host.rfind(':'));
    if (host_name != "127.0.0.1" && host_name != "localhost") {
      why = "Host " + host + " is not loopback";
    } else if (origin != "chrome-extension://" + options_.extension_id) {
      why = "Origin " + (origin.empty() ? std::string("(none)") : origin) + " is not the Lemmascope extension";
    } else if (!sameSecret(token, options_.token)) {
      why = "wrong pairing token";
    }
    if (why.empty()) return true;
    ++refused_;
    spdlog::warn("extension relay: refused a connection: {}", why);
    con->set_status(websocketpp::http::status_code::forbidden);
    con->set_body(why + "\n");
    return false;
  }

  void opened(websocketpp::connection_hdl h) {
    websocketpp::connection_hdl old;
    std::map<int, Pending> pending;  // sent on the connection this one replaces
    {
      std::lock_guard<std::mutex> lock(mu_);
      old = hdl_;
      pending.swap(pending_);
      hdl_ = h;
      open_ = true;
      peer_ = "the Lemmascope extension";
      ++generation_;
    }
    if (!old.expired()) {
      websocketpp::lib::error_code ec;
      server_.close(old, websocketpp::close::status::normal, "replaced by a new connection", ec);
    }
    spdlog::info("extension connected");
    cv_.notify_all();
    failAll(pending);
  }

  static void failAll(std::map<int, Pending>& pending) {
    for (auto& [id, p] : pending) {
      if (p.waiter) p.waiter->set_value(json{{"__closed", true}});
      if (p.callback) p.callback(json{{"__closed", true}});
    }
  }

  void closed(websocketpp::connection_hdl h) {
    std::map<int, Pending> pending;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (hdl_.owner_before(h) || h.owner_before(hdl_)) return;  // an older, replaced connection
      hdl_.reset();
      open_ = false;
      pending.swap(pending_);
    }
    spdlog::info("extension disconnected; waiting for it to come back");
    if (options_.announce) options_.announce("the extension disconnected; waiting for it to come back");
    cv_.notify_all();
    failAll(pending);
  }

  int enqueue(const std::string& method, const json& params, const std::string& session_id, Pending pending) {
    json msg = {{"method", method}, {"params", params.is_null() ? json::object() : params}};
    if (!session_id.empty()) msg["sessionId"] = session_id;
    int id;
    websocketpp::connection_hdl hdl;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!open_ || stopping_) return -1;
      id = ++next_id_;
      pending.session = session_id;
      pending_.emplace(id, std::move(pending));
      hdl = hdl_;
    }
    msg["id"] = id;
    auto text = std::make_shared<std::string>(msg.dump(-1, ' ', false, json::error_handler_t::replace));
    asio::post(server_.get_io_service(), [this, text, id, hdl] {
      websocketpp::lib::error_code ec;
      server_.send(hdl, *text, websocketpp::frame::opcode::text, ec);
      if (ec) complete(id, json{{"__closed", true}});
    });
    return id;
  }

  void complete(int id, const json& reply) {
    Pending p;
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = pending_.find(id);
      if (it == pending_.end()) return;
      p = std::move(it->second);
      pending_.erase(it);
    }
    if (p.waiter) p.waiter->set_value(reply);
    if (p.callback) p.callback(reply);
  }

  void handleMessage(websocketpp::connection_hdl h, const std::string& payload) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (hdl_.owner_before(h) || h.owner_before(hdl_)) return;  // a replaced connection
    }
    json msg = parseProtocolMessage(payload, "the extension");
    if (msg.is_discarded() || !msg.is_object()) {
      spdlog::warn("extension relay: unparsable message ({} bytes)", payload.size());
      return;
    }
    if (msg.contains("id")) {
      if (msg["id"].is_number_integer()) complete(msg["id"].get<int>(), msg);
      return;
    }
    auto method = msg.value("method", std::string());
    const json& params = msg.contains("params") && msg["params"].is_object() ? msg["params"] : json::object();
    if (method == "Lemmascope.keepalive" || method.empty()) return;
    if (method == "Lemmascope.hello") {
      std::string ua = params.value("userAgent", std::string());
      auto at = ua.find("Chrom");
      std::string browser = at == std::string::npos ? ua : ua.substr(at, ua.find(' ', at) - at);
      std::lock_guard<std::mutex> lock(mu_);
      peer_ = "the Lemmascope extension " + params.value("version", std::string("?")) + " in " + browser;
      spdlog::info("extension: {}", peer_);
      if (options_.announce) options_.announce("connected: " + peer_);
      return;
    }
    auto session = msg.value("sessionId", std::string());
    std::vector<std::shared_ptr<Listener>> listeners;
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (auto& [k, l] : listeners_) listeners.push_back(l);
    }
    for (auto& l : listeners) {
      try {
        (*l)(method, params, session);
      } catch (const std::exception& e) {
        spdlog::error("extension relay: listener for {} threw: {}", method, e.what());
      }
    }
  }

  RelayOptions options_;
  WsServer server_;
  std::thread thread_;
  int port_ = 0;
  std::atomic<int> refused_{0};

  mutable std::mutex mu_;
  std::condition_variable cv_;
  websocketpp::connection_hdl hdl_;
  bool open_ = false;
  bool stopping_ = false;
  std::string peer_;
  uint64_t generation_ = 0;
  int next_id_ = 0;
  int next_listener_ = 0;
  std::map<int, Pending> pending_;
  std::map<int, std::shared_ptr<Listener>> listeners_;
  std::vector<std::function<void()>> close_callbacks_;
};


}  // namespace

Result<std::shared_ptr<ExtensionRelay>> ExtensionRelay::listen(RelayOptions options) {
  auto relay = std::make_shared<WsRelay>(std::move(options));
  auto st = relay->start();
  if (!st) return st;
  return std::shared_ptr<ExtensionRelay>(relay);
}

std::string extensionIdFromKey(const std::string& base64_der) {
  std::string hex = sha256Hex(base64Decode(base64_der)).substr(0, 32);
  for (auto& c : hex) c = static_cast<char>('a' + (c <= '9' ? c - '0' : c - 'a' + 10));
  return hex;
}

}  // namespace lscope::ext
