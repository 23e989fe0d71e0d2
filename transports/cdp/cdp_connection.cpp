// CdpConnection over websocketpp + standalone Asio. This is the only translation unit that
// includes websocketpp (its headers cost ~40 s to compile on these machines).
#include "transports/cdp/cdp_connection.h"

#include <atomic>
#include <condition_variable>
#include <future>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include <spdlog/spdlog.h>

#include "engine/json_bounded.h"

#include <websocketpp/client.hpp>
#include <websocketpp/config/asio_no_tls_client.hpp>

namespace lscope::cdp {
namespace {

using WsClient = websocketpp::client<websocketpp::config::asio_client>;

// Chromium sends screenshots and big DOM payloads; the default 32 MB cap is too small.
constexpr size_t kMaxMessageBytes = size_t(512) << 20;
// What a command waiting on a session that ended (failSession) answers.
constexpr const char* kSessionEnded = "the target's session ended: the frame went away";

class WsCdpConnection final : public CdpConnection {
 public:
  WsCdpConnection() {
    // websocketpp logs to std::cout by default: in stdio mode stdout carries only protocol.
    client_.clear_access_channels(websocketpp::log::alevel::all);
    client_.clear_error_channels(websocketpp::log::elevel::all);
    client_.init_asio();
    client_.set_max_message_size(kMaxMessageBytes);
  }

  ~WsCdpConnection() override {
    close();
    if (thread_.joinable()) thread_.join();
  }

  Status open(const std::string& url, Deadline deadline) {
    client_.set_open_handshake_timeout(static_cast<long>(deadline.remaining().count()) + 1);
    websocketpp::lib::error_code ec;
    auto con = client_.get_connection(url, ec);
    if (ec) {
      return Status(codes::kConnectionError, "invalid DevTools URL " + url + ": " + ec.message());
    }
    con->set_open_handler([this](websocketpp::connection_hdl) { setState(State::kOpen, ""); });
    con->set_fail_handler([this](websocketpp::connection_hdl h) {
      auto c = client_.get_con_from_hdl(h);
      setState(State::kFailed, c->get_ec().message());
    });
    con->set_close_handler([this](websocketpp::connection_hdl) { handleClosed(); });
    con->set_message_handler(
        [this](websocketpp::connection_hdl, WsClient::message_ptr msg) { handleMessage(msg->get_payload()); });
    hdl_ = con->get_handle();
    client_.connect(con);
    thread_ = std::thread([this] {
      try {
        client_.run();
      } catch (const std::exception& e) {
        spdlog::error("cdp: socket thread stopped: {}", e.what());
      }
      handleClosed();
    });

    std::unique_lock<std::mutex> lock(mu_);
    if (!state_cv_.wait_until(lock, deadline.at(), [this] { return state_ != State::kConnecting; })) {
      lock.unlock();
      close();
      return Status(codes::kTimeout, "timed out connecting to " + url);
    }
    if (state_ != State::kOpen) {
      return Status(codes::kConnectionError,
                    "could not connect to " + url + (fail_reason_.empty() ? "" : ": " + fail_reason_));
    }
    return Status::ok();
  }

  Result<json> send(const std::string& method, const json& params, const std::string& session_id,
                    Deadline deadline) override {
    auto waiter = std::make_shared<std::promise<json>>();
    auto reply = waiter->get_future();
    int id = enqueue(method, params, session_id, Pending{waiter, nullptr, {}});
    if (id < 0) return Status(codes::kConnectionError, "browser connection is closed");
    if (reply.wait_until(deadline.at()) != std::future_status::ready) {
      std::lock_guard<std::mutex> lock(mu_);
      pending_.erase(id);
      return Status(codes::kTimeout, method + " did not answer in time");
    }
    return toResult(method, reply.get());
  }

  void post(const std::string& method, const json& params, const std::string& session_id,
            std::function<void(const Result<json>&)> done) override {
    auto cb = done ? std::move(done) : [](const Result<json>&) {};
    auto method_copy = method;
    if (enqueue(method, params, session_id,
                Pending{nullptr, [cb, method_copy](const json& r) { cb(toResult(method_copy, r)); }, {}}) < 0) {
      cb(Status(codes::kConnectionError, "browser connection is closed"));
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

  void onClose(std::function<void()> callback) override {
    bool already_closed;
    {
      std::lock_guard<std::mutex> lock(mu_);
      already_closed = state_ == State::kClosed || state_ == State::kFailed;
      if (!already_closed) close_callbacks_.push_back(std::move(callback));
    }
    if (already_closed) callback();
  }

  void failSession(const std::string& session_id) override {
    if (session_id.empty()) return;
    // On the socket thread, after the event being handled: no caller's lock is held there.
    asio::post(client_.get_io_service(), [this, session_id] {
      std::vector<int> ids;
      {
        std::lock_guard<std::mutex> lock(mu_);
        ids = pendingOnSession(pending_, session_id);
      }
      for (int id : ids) complete(id, sessionEndedReply());
    });
  }

  bool connected() const override {
    std::lock_guard<std::mutex> lock(mu_);
    return state_ == State::kOpen;
  }

  void close() override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (closing_) return;
      closing_ = true;
    }
    asio::post(client_.get_io_service(), [this] {
      websocketpp::lib::error_code ec;
      client_.close(hdl_, websocketpp::close::status::normal, "bye", ec);
      if (ec) client_.stop();
    });
  }

 private:
  enum class State { kConnecting, kOpen, kFailed, kClosed };
  struct Pending {
    std::shared_ptr<std::promise<json>> waiter;  // send(): a thread waits on it
    std::function<void(const json&)> callback;   // post(): called on the socket thread
    std::string session;                         // the target session it was sent to
  };

  static Result<json> toResult(const std::string& method, json reply) {
    if (reply.contains("__closed")) {
      return Status(codes::kConnectionError, "browser connection closed during " + method,
                    "the browser exited or crashed; the next command starts a new one");
    }
    if (reply.contains("error")) return translateCdpError(method, reply["error"]);
    auto result = reply.find("result");
    return result == reply.end() ? json::object() : std::move(*result);
  }

  // Assigns an id and writes the message; returns -1 when the socket is not open.
  int enqueue(const std::string& method, const json& params, const std::string& session_id,
              Pending pending) {
    json msg = {{"method", method}, {"params", params.is_null() ? json::object() : params}};
    if (!session_id.empty()) msg["sessionId"] = session_id;
    int id;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (state_ != State::kOpen || closing_) return -1;
      id = ++next_id_;
      pending.session = session_id;
      pending_.emplace(id, std::move(pending));
    }
    msg["id"] = id;
    auto text = std::make_shared<std::string>(msg.dump(-1, ' ', false, json::error_handler_t::replace));
    // --log-level trace: the protocol's traffic by method and id, never params (typed keys).
    if (spdlog::should_log(spdlog::level::trace)) spdlog::trace("cdp > {} {} {}", id, method, session_id);
    asio::post(client_.get_io_service(), [this, text, id] {
      websocketpp::lib::error_code ec;
      client_.send(hdl_, *text, websocketpp::frame::opcode::text, ec);
      if (ec) complete(id, json{{"__closed", true}});
    });
    return id;
  }

  // The reply is moved to the waiting thread: a scan of a 50,000-element page is megabytes.
  void complete(int id, json&& reply) {
    Pending p;
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = pending_.find(id);
      if (it == pending_.end()) return;  // timed out already
      p = std::move(it->second);
      pending_.erase(it);
    }
    if (p.callback) p.callback(reply);
    if (p.waiter) p.waiter->set_value(std::move(reply));
  }

  void handleMessage(const std::string& payload) {
    // A value a page shaped (an evaluated result) may nest past what we copy safely.
    json msg = parseProtocolMessage(payload, "the browser");
    if (msg.is_discarded() || !msg.is_object()) {
      spdlog::warn("cdp: unparsable message ({} bytes)", payload.size());
      return;
    }
    if (msg.contains("id")) {
      if (spdlog::should_log(spdlog::level::trace)) spdlog::trace("cdp < {}{}", msg["id"].dump(), msg.contains("error") ? " error" : "");
      if (msg["id"].is_number_integer()) complete(msg["id"].get<int>(), std::move(msg));
      return;
    }
    auto method = msg.value("method", std::string());
    if (method.empty()) return;
    const json& params = msg.contains("params") ? msg["params"] : json::object();
    auto session = msg.value("sessionId", std::string());
    if (spdlog::should_log(spdlog::level::trace)) spdlog::trace("cdp < {} {}", method, session);
    std::vector<std::shared_ptr<Listener>> listeners;
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (auto& [h, l] : listeners_) listeners.push_back(l);
    }
    for (auto& l : listeners) {
      try {
        (*l)(method, params, session);
      } catch (const std::exception& e) {
        spdlog::error("cdp: listener for {} threw: {}", method, e.what());
      }
    }
  }

  void setState(State s, const std::string& reason) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (state_ == State::kConnecting) {
        state_ = s;
        fail_reason_ = reason;
      }
    }
    state_cv_.notify_all();
  }

  void handleClosed() {
    std::map<int, Pending> pending;
    std::vector<std::function<void()>> callbacks;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (state_ == State::kClosed) return;
      bool was_open = state_ == State::kOpen;
      state_ = state_ == State::kConnecting ? State::kFailed : State::kClosed;
      if (!was_open && state_ == State::kFailed && fail_reason_.empty()) fail_reason_ = "closed";
      pending.swap(pending_);
      callbacks.swap(close_callbacks_);
    }
    state_cv_.notify_all();
    for (auto& [id, p] : pending) {
      if (p.waiter) p.waiter->set_value(json{{"__closed", true}});
      if (p.callback) p.callback(json{{"__closed", true}});
    }
    for (auto& cb : callbacks) cb();
  }

  WsClient client_;
  websocketpp::connection_hdl hdl_;
  std::thread thread_;

  mutable std::mutex mu_;
  std::condition_variable state_cv_;
  State state_ = State::kConnecting;
  std::string fail_reason_;
  bool closing_ = false;
  int next_id_ = 0;
  int next_listener_ = 0;
  std::map<int, Pending> pending_;
  std::map<int, std::shared_ptr<Listener>> listeners_;
  std::vector<std::function<void()>> close_callbacks_;
};

}  // namespace

Result<std::unique_ptr<CdpConnection>> CdpConnection::connect(const std::string& ws_url,
                                                              Deadline deadline) {
  auto conn = std::make_unique<WsCdpConnection>();
  auto st = conn->open(ws_url, deadline);
  if (!st) return st;
  return std::unique_ptr<CdpConnection>(std::move(conn));
}

json sessionEndedReply() { return json{{"error", {{"code", -32000}, {"message", kSessionEnded}}}}; }

// CDP error replies: {"code": -32000, "message": "..."}. The message text is the only stable
// signal Chromium gives; each row maps a known message fragment to an engine code.
Status translateCdpError(const std::string& method, const json& error) {
  std::string message = error.is_object() ? error.value("message", std::string("unknown error"))
                                          : error.dump();
  int code = error.is_object() ? error.value("code", 0) : 0;
  struct Row {
    const char* fragment;
    const char* code;
    const char* hint;
  };
  static const Row kRows[] = {
      {"Cannot find context with specified id", "CONTEXT_LOST", ""},
      {"Execution context was destroyed", "CONTEXT_LOST", ""},
      {"Inspected target navigated or closed", "CONTEXT_LOST", ""},
      {"No node with given id found", codes::kElementStale, "run observe to refresh element ids"},
      {"Node is detached from document", codes::kElementStale, "run observe to refresh element ids"},
      {"Could not compute box model", codes::kElementNotVisible, "scroll the element into view"},
      {"Cannot navigate to invalid URL", codes::kNavigationError, "check the URL"},
      {"Session with given id not found", codes::kConnectionError, "the tab was closed; list tabs"},
      {"No target with given id found", codes::kConnectionError, "the tab was closed; list tabs"},
      {"Target closed", codes::kConnectionError, "the tab was closed; list tabs"},
      {kSessionEnded, codes::kElementStale, "run observe again"},
      {"No dialog is showing", codes::kBrowserError, ""},
      // Through the extension (chrome.debugger): the tab went while a command ran, the browser
      // quits, or a page that embeds an extension's page.
      {"Detached while handling command", codes::kBrowserError,
       "the tab was closed or the browser is quitting; list tabs, or goto a URL"},
      {"The browser is shutting down", codes::kBrowserError, "the next command works once the browser is back"},
      {"Cannot access a chrome-extension:// URL", codes::kBrowserError,
       "the page embeds an extension's page, and Chromium lets no extension debug such a page; goto another URL"},
  };
  for (const auto& row : kRows) {
    if (message.find(row.fragment) != std::string::npos) {
      return Status(row.code, method + ": " + message, row.hint);
    }
  }
  if (code == -32601) {
    return Status(codes::kUnsupported, method + " is not supported by this browser",
                  "use a newer Chromium");
  }
  if (code == -32602) return Status(codes::kInternal, method + ": invalid parameters: " + message);
  return Status(codes::kBrowserError, method + ": " + message);
}

}  // namespace lscope::cdp
