// One MCP session (modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle): the
// lifecycle, tools/list, tools/call, ping, logging, cancellation, progress. Transports feed it
// decoded messages; it answers synchronously or later through the Outbox.
#pragma once

#include <condition_variable>
#include <deque>
#include <future>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/backend.h"
#include "engine/session.h"
#include "server/tools.h"

namespace lscope::mcp {

using json = nlohmann::json;

// Protocol versions we speak, newest first.
const std::vector<std::string>& supportedProtocolVersions();

// Where messages the session sends on its own go (responses to tool calls, notifications).
// Thread-safe: called from the session's worker thread.
class Outbox {
 public:
  virtual ~Outbox() = default;
  // `related` is the id of the request the message belongs to (its response, its progress),
  // or null for messages of the session as a whole.
  virtual void send(const json& message, const json& related) = 0;
  // The request will get no further messages (answered, or cancelled without an answer).
  virtual void finished(const json& request_id) {}
};

struct ServerConfig {
  std::string name = "lemmascope";
  std::string version;
  SessionOptions engine;
  std::string tools_profile = "default";  // --tools; the catalog follows the session's intents
  size_t tools_page_size = 100;  // tools/list page size (opaque cursors beyond it)
  class SecretPortal* portal = nullptr;  // for URL-mode elicitation of secrets; may be null
  Millis elicitation_timeout{10 * 60 * 1000};  // how long a user has to enter a secret
};

class McpSession {
 public:
  // `factory` and `outbox` must outlive the session.
  McpSession(const ServerConfig& config, BackendFactory* factory, Outbox* outbox);
  // Cancels the running call, drops queued ones and joins the worker.
  ~McpSession();

  // Handles one decoded message; returns the immediate reply, if any. tools/call replies come
  // later through the outbox. Thread-safe with respect to the worker.
  std::optional<json> handle(const json& message);
  // Decodes then handles one line of text (-32700 on malformed JSON).
  std::optional<json> handleText(const std::string& text);
  // Blocks until every queued tool call has been answered.
  void drain();

  std::string protocolVersion() const;
  bool initialized() const;
  // Sends notifications/message when `level` is at or above the client's logging/setLevel
  // (default: warning). `related`: the request it concerns, if any.
  void log(const std::string& level, const std::string& message, const json& related = nullptr);

 private:
  struct Job {
    json id;
    std::string tool;
    json arguments;
    json progress_token;  // null when the client asked for no progress
    std::shared_ptr<CancelFlag> cancel;
  };

  std::optional<json> handleRequest(const json& msg);
  void handleNotification(const json& msg);
  json initialize(const json& params);
  std::optional<json> callTool(const json& id, const json& params);
  void workerLoop();
  json runJob(const Job& job);
  // Sends a request to the client and blocks for its answer (the worker thread only).
  Result<json> request(const std::string& method, json params, const Job& job, Deadline deadline);
  // MCP URL-mode elicitation: the user types the secret on a local page.
  Result<std::string> elicitSecret(const Job& job, const std::string& name);
  bool clientSupportsUrlElicitation() const;
  bool clientSupportsSampling() const;
  // MCP sampling: asks the client's model; its text answer.
  Result<std::string> sample(const Job& job, const std::string& system, const std::string& prompt);
  void sendProgress(const Job& job, double progress, double total, const std::string& message);

  // The tool catalog for the session's current intents; rebuilt when they change.
  std::shared_ptr<const ToolCatalog> catalog();
  // After a call that may have changed the intents: notifications/tools/list_changed.
  void announceToolChanges();

  const ServerConfig& config_;
  Outbox* outbox_;
  Session engine_;

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::string protocol_version_;
  bool initialize_seen_ = false;
  bool initialized_ = false;
  json client_capabilities_ = json::object();
  std::string log_level_ = "warning";
  std::deque<Job> queue_;
  std::map<std::string, std::shared_ptr<CancelFlag>> running_;  // id.dump() -> flag
  std::map<std::string, std::shared_ptr<std::promise<json>>> outgoing_;  // our requests by id
  std::mutex catalog_mu_;
  std::shared_ptr<const ToolCatalog> catalog_;
  uint64_t catalog_generation_ = ~uint64_t(0);
  uint64_t announced_generation_ = ~uint64_t(0);
  int next_request_ = 0;
  bool busy_ = false;
  bool stopping_ = false;
  std::thread worker_;
};

}  // namespace lscope::mcp
