// McpSession: MCP lifecycle and tools over the engine. One worker thread runs tool calls in
// order, so reads (ping, cancellation) are answered while a tool runs.
#include "server/mcp_session.h"

#include <spdlog/spdlog.h>

#include "engine/json_bounded.h"
#include "engine/oil.h"
#include "engine/response.h"
#include "server/jsonrpc.h"
#include "server/secret_portal.h"
#include "server/tools.h"

namespace lscope::mcp {
namespace {

constexpr auto kProgressInterval = std::chrono::milliseconds(100);

json toolResult(const std::vector<Response>& responses, bool structured) {
  json content = json::array();
  std::string text;
  bool failed = false;
  for (const auto& r : responses) {
    text += (text.empty() ? "" : "\n") + formatResponse(r);
    failed = failed || r.kind != Response::Kind::kOk;  // partial results are not a success either
  }
  content.push_back({{"type", "text"}, {"text", text}});
  for (const auto& r : responses) {
    for (const auto& img : r.images) content.push_back({{"type", "image"}, {"data", img}, {"mimeType", "image/png"}});
  }
  json result = {{"content", content}, {"isError", failed}};
  if (structured) {
    if (responses.size() == 1) {
      result["structuredContent"] = responses[0].data;
    } else {
      json all = json::array();
      for (const auto& r : responses) all.push_back(r.data);
      result["structuredContent"] = {{"ok", !failed}, {"results", all}};
    }
  }
  return result;
}

}  // namespace

const std::vector<std::string>& supportedProtocolVersions() {
  // Newest first; 2024-11-05 is echoed for old clients (it knows no annotations or titles).
  static const std::vector<std::string> kVersions = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};
  return kVersions;
}

McpSession::McpSession(const ServerConfig& config, BackendFactory* factory, Outbox* outbox)
    : config_(config),
      outbox_(outbox),
      engine_(factory, config.engine),
      protocol_version_(supportedProtocolVersions().front()) {
  announced_generation_ = engine_.intentsGeneration();
  worker_ = std::thread([this] { workerLoop(); });
}

McpSession::~McpSession() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
    queue_.clear();
    for (auto& [id, flag] : running_) flag->cancel();
  }
  cv_.notify_all();
  if (worker_.joinable()) worker_.join();
}

std::string McpSession::protocolVersion() const {
  std::lock_guard<std::mutex> lock(mu_);
  return protocol_version_;
}

bool McpSession::initialized() const {
  std::lock_guard<std::mutex> lock(mu_);
  return initialized_;
}

std::optional<json> McpSession::handleText(const std::string& text) {
  bool too_deep = false;
  json msg = parseJsonBounded(text, &too_deep);
  if (too_deep) return makeError(nullptr, kInvalidRequest, "Invalid Request: " + tooDeepMessage());
  if (msg.is_discarded()) return makeError(nullptr, kParseError, "Parse error: the line is not valid JSON");
  return handle(msg);
}

std::optional<json> McpSession::handle(const json& msg) {
  if (msg.is_array()) {
    // JSON-RPC batches were removed from MCP in 2025-06-18; we never accepted them.
    return makeError(nullptr, kInvalidRequest, "Invalid Request: batches are not supported");
  }
  Classified c = classify(msg);
  switch (c.kind) {
    case MessageKind::kInvalid: {
      json id = msg.is_object() && msg.contains("id") && (msg["id"].is_string() || msg["id"].is_number_integer())
                    ? msg["id"]
                    : json(nullptr);
      return makeError(id, kInvalidRequest, "Invalid Request: " + c.error);
    }
    case MessageKind::kNotification:
      try {
        handleNotification(msg);
      } catch (const json::exception& e) {
        spdlog::debug("notification ignored: {}", e.what());  // nothing to answer a notification with
      } catch (const std::exception& e) {
        spdlog::error("notification failed: {}", e.what());
      }
      return std::nullopt;
    case MessageKind::kResponse: {
      // The answer to one of our requests (elicitation/create, ping).
      std::shared_ptr<std::promise<json>> waiter;
      {
        std::lock_guard<std::mutex> lock(mu_);
        auto it = outgoing_.find(msg["id"].dump());
        if (it != outgoing_.end()) {
          waiter = it->second;
          outgoing_.erase(it);
        }
      }
      if (waiter) waiter->set_value(msg);
      return std::nullopt;
    }
    case MessageKind::kRequest:
      try {
        return handleRequest(msg);
      } catch (const json::exception& e) {
        // A field of the wrong type anywhere in params ({"protocolVersion": 1}): the request is
        // refused, the server goes on (found by fuzz/http_fuzz.cpp; it used to end the process).
        return makeError(msg["id"], kInvalidParams, std::string("Invalid params: ") + e.what());
      } catch (const std::exception& e) {
        // Anything else a handler throws is our bug; the client gets an error, not a dead server.
        spdlog::error("{} failed: {}", msg["method"].get<std::string>(), e.what());
        return makeError(msg["id"], kInternalError, std::string("Internal error: ") + e.what());
      }
  }
  return std::nullopt;
}

std::optional<json> McpSession::handleRequest(const json& msg) {
  const json& id = msg["id"];
  const std::string method = msg["method"].get<std::string>();
  json params = msg.contains("params") ? msg["params"] : json::object();
  if (!params.is_object()) return makeError(id, kInvalidParams, "Invalid params: \"params\" must be an object");

  if (method == "initialize") return makeResult(id, initialize(params));
  if (method == "ping") return makeResult(id, json::object());
  if (method == "tools/list") {
    // MCP "Pagination": the cursor is opaque to the client; ours encodes an offset.
    size_t offset = 0;
    if (params.contains("cursor")) {
      if (!params["cursor"].is_string()) return makeError(id, kInvalidParams, "Invalid params: \"cursor\" must be a string");
      std::string cursor = params["cursor"].get<std::string>();
      // At most 9 digits: "tools:" and 30 nines made std::stoul throw out_of_range, which ended
      // the process (a client's one line; found by reading, the jsonrpc fuzzer had not).
      if (cursor.rfind("tools:", 0) != 0 || cursor.size() < 7 || cursor.size() > 15 ||
          cursor.find_first_not_of("0123456789", 6) != std::string::npos) {
        return makeError(id, kInvalidParams, "Invalid params: unknown cursor");
      }
      offset = std::stoul(cursor.substr(6));
    }
    auto cat = catalog();
    if (offset > cat->listed().size()) return makeError(id, kInvalidParams, "Invalid params: unknown cursor");
    std::string version = protocolVersion();
    json tools = json::array();
    const auto& listed = cat->listed();
    size_t end = std::min(listed.size(), offset + std::max<size_t>(config_.tools_page_size, 1));
    for (size_t i = offset; i < end; ++i) tools.push_back(toolJson(listed[i], version));
    json result = {{"tools", tools}};
    if (end < listed.size()) result["nextCursor"] = "tools:" + std::to_string(end);
    return makeResult(id, result);
  }
  if (method == "tools/call") return callTool(id, params);
  if (method == "logging/setLevel") {
    static const std::vector<std::string> kLevels = {"debug", "info", "notice", "warning",
                                                     "error", "critical", "alert", "emergency"};
    std::string level = params.value("level", "");
    if (std::find(kLevels.begin(), kLevels.end(), level) == kLevels.end()) {
      return makeError(id, kInvalidParams, "Invalid params: unknown log level \"" + level + "\"");
    }
    std::lock_guard<std::mutex> lock(mu_);
    log_level_ = level;
    return makeResult(id, json::object());
  }
  return makeError(id, kMethodNotFound, "Method not found: " + method);
}

json McpSession::initialize(const json& params) {
  std::string requested = params.contains("protocolVersion") && params["protocolVersion"].is_string()
                              ? params["protocolVersion"].get<std::string>()
                              : "";
  const auto& versions = supportedProtocolVersions();
  std::string chosen = std::find(versions.begin(), versions.end(), requested) != versions.end()
                           ? requested
                           : versions.front();
  {
    std::lock_guard<std::mutex> lock(mu_);
    protocol_version_ = chosen;
    initialize_seen_ = true;
    if (params.contains("capabilities") && params["capabilities"].is_object()) {
      client_capabilities_ = params["capabilities"];
    }
  }
  const json& info = params.contains("clientInfo") && params["clientInfo"].is_object() ? params["clientInfo"] : json::object();
  auto field = [&](const char* k) { return info.contains(k) && info[k].is_string() ? info[k].get<std::string>() : "?"; };
  spdlog::info("initialize: client {} {} protocol {} -> {}", field("name"), field("version"), requested, chosen);
  return {{"protocolVersion", chosen},
          {"capabilities", {{"tools", {{"listChanged", true}}}, {"logging", json::object()}}},
          {"serverInfo", {{"name", config_.name}, {"title", "Lemmascope"}, {"version", config_.version}}},
          {"instructions",
           "Drive a real browser. Start with goto <url> (it returns the page's elements as [id] lines); "
           "act with click/type on ids or visible text; every action reports what changed. "
           "Use run for several OIL lines in one call."}};
}

void McpSession::handleNotification(const json& msg) {
  const std::string method = msg["method"].get<std::string>();
  json params = msg.value("params", json::object());
  if (method == "notifications/initialized") {
    std::lock_guard<std::mutex> lock(mu_);
    initialized_ = true;
  } else if (method == "notifications/cancelled") {
    // MCP "Cancellation": stop the request if it is still running; never answer it.
    if (!params.is_object() || !params.contains("requestId")) return;
    std::string key = params["requestId"].dump();
    std::lock_guard<std::mutex> lock(mu_);
    auto it = running_.find(key);
    if (it != running_.end()) it->second->cancel();
    for (auto q = queue_.begin(); q != queue_.end(); ++q) {
      if (q->id.dump() == key) {
        queue_.erase(q);
        break;
      }
    }
  }
  // Other notifications (roots/list_changed, progress from the client) need no action.
}

std::optional<json> McpSession::callTool(const json& id, const json& params) {
  if (!params.contains("name") || !params["name"].is_string()) {
    return makeError(id, kInvalidParams, "Invalid params: tools/call needs a \"name\" string");
  }
  std::string name = params["name"].get<std::string>();
  if (!catalog()->find(name)) return makeError(id, kInvalidParams, "Unknown tool: " + name);
  json arguments = params.contains("arguments") ? params["arguments"] : json::object();
  if (!arguments.is_object()) {
    return makeError(id, kInvalidParams, "Invalid params: \"arguments\" must be an object");
  }
  Job job{id, name, arguments, nullptr, std::make_shared<CancelFlag>()};
  if (params.contains("_meta") && params["_meta"].is_object() && params["_meta"].contains("progressToken")) {
    job.progress_token = params["_meta"]["progressToken"];
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    running_[id.dump()] = job.cancel;
    queue_.push_back(std::move(job));
  }
  cv_.notify_all();
  return std::nullopt;
}

void McpSession::workerLoop() {
  for (;;) {
    Job job;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      job = std::move(queue_.front());
      queue_.pop_front();
      busy_ = true;
    }
    json reply;
    try {
      reply = makeResult(job.id, runJob(job));
    } catch (const std::exception& e) {
      spdlog::error("tool {} threw: {}", job.tool, e.what());
      reply = makeError(job.id, kInternalError, std::string("Internal error: ") + e.what());
    }
    // The list's change goes out before the reply: a client that asks tools/list as soon as it
    // has the reply (its own define) has heard of the change by then, on stdio at least.
    announceToolChanges();
    if (!job.cancel->cancelled()) outbox_->send(reply, job.id);  // a cancelled request gets no response
    outbox_->finished(job.id);
    {
      std::lock_guard<std::mutex> lock(mu_);
      running_.erase(job.id.dump());
      busy_ = false;
    }
    cv_.notify_all();  // after the send: drain() returns only once replies are out
  }
}

json McpSession::runJob(const Job& job) {
  CallContext ctx;
  ctx.cancel = job.cancel;
  if (!job.progress_token.is_null()) {
    auto last = std::make_shared<std::optional<Clock::time_point>>();
    auto count = std::make_shared<double>(0);
    ctx.progress = [this, &job, last, count](double, double total, const std::string& message) {
      // Monotonic and rate-limited (MCP "Progress": progress MUST increase).
      auto now = Clock::now();
      if (*last && now - **last < kProgressInterval) return;
      *last = now;
      *count += 1;
      sendProgress(job, *count, total, message);
    };
  }
  ctx.log = [this, &job](const std::string& level, const std::string& message) { log(level, message, job.id); };
  if (clientSupportsUrlElicitation()) {
    ctx.elicit_secret = [this, &job](const std::string& name) { return elicitSecret(job, name); };
  }
  if (clientSupportsSampling()) {
    ctx.sample = [this, &job](const std::string& system, const std::string& prompt) { return sample(job, system, prompt); };
  }
  bool structured = protocolVersion() >= "2025-06-18";
  auto cat = catalog();
  const ToolDef* tool = cat->find(job.tool);
  if (!tool) return toolResult({errorResponse(job.tool, Status(codes::kIntentNotFound, "no tool " + job.tool + " any more"))}, structured);
  if (tool->command.empty()) {  // run
    if (!job.arguments.contains("script") || !job.arguments["script"].is_string()) {
      Response r = errorResponse("run", Status(codes::kParameterInvalid, "'script' must be a string of OIL lines",
                                                "{\"script\": \"goto example.com\\nobserve\"}"));
      return toolResult({r}, structured);
    }
    return toolResult(engine_.runScript(job.arguments["script"].get<std::string>(), ctx, true), structured);
  }
  auto command = commandFromArgs(tool->command, job.arguments, engine_.lookup());
  if (!command) {
    Response r = errorResponse(job.tool, command.status());
    engine_.scrub(r);  // "did you mean: <the argument>" may repeat a secret
    return toolResult({r}, structured);
  }
  return toolResult({engine_.execute(*command, ctx)}, structured);
}

void McpSession::sendProgress(const Job& job, double progress, double total, const std::string& message) {
  json p = {{"progressToken", job.progress_token}, {"progress", progress}};
  if (total > 0) p["total"] = total;
  if (!message.empty() && protocolVersion() >= "2025-03-26") p["message"] = message;
  outbox_->send(makeNotification("notifications/progress", p), job.id);
}

std::shared_ptr<const ToolCatalog> McpSession::catalog() {
  // The engine's intents change only on the worker thread (define, reload); reading their
  // generation here is safe because tool calls run one at a time.
  std::lock_guard<std::mutex> lock(catalog_mu_);
  uint64_t gen = engine_.intentsGeneration();
  if (!catalog_ || gen != catalog_generation_) {
    auto built = ToolCatalog::build(config_.tools_profile, engine_.intents());
    catalog_ = built ? *built : ToolCatalog::build("default", engine_.intents()).value();
    catalog_generation_ = gen;
  }
  return catalog_;
}

void McpSession::announceToolChanges() {
  uint64_t gen = engine_.intentsGeneration();
  {
    std::lock_guard<std::mutex> lock(catalog_mu_);
    if (gen == announced_generation_) return;
    announced_generation_ = gen;
  }
  // MCP "Tools": servers that declared listChanged tell clients when the list changes.
  outbox_->send(makeNotification("notifications/tools/list_changed", nullptr), nullptr);
}

bool McpSession::clientSupportsUrlElicitation() const {
  std::lock_guard<std::mutex> lock(mu_);
  // MCP 2025-11-25 "Elicitation": clients declare {"elicitation": {"url": {}}}.
  return config_.portal && protocol_version_ >= "2025-11-25" && client_capabilities_.contains("elicitation") &&
         client_capabilities_["elicitation"].is_object() && client_capabilities_["elicitation"].contains("url");
}

bool McpSession::clientSupportsSampling() const {
  std::lock_guard<std::mutex> lock(mu_);
  // MCP "Sampling": clients that can be asked declare {"sampling": {}}.
  return client_capabilities_.contains("sampling") && client_capabilities_["sampling"].is_object();
}

// MCP "Sampling" (sampling/createMessage): one user message, a short text answer; the client
// shows it to its user and picks the model. The answer's text content (a list in 2025-11-25).
Result<std::string> McpSession::sample(const Job& job, const std::string& system, const std::string& prompt) {
  json params = {{"messages", json::array({{{"role", "user"}, {"content", {{"type", "text"}, {"text", prompt}}}}})},
                 {"systemPrompt", system},
                 {"includeContext", "none"},
                 {"maxTokens", 50},
                 {"modelPreferences", {{"speedPriority", 0.8}, {"intelligencePriority", 0.5}}}};
  auto reply = request("sampling/createMessage", std::move(params), job, Deadline::in(Millis(60000)));
  if (!reply) return reply.status();
  const json& content = (*reply)["content"];
  auto textOf = [](const json& c) { return c.is_object() && c.value("type", "") == "text" && c.contains("text") && c["text"].is_string() ? c["text"].get<std::string>() : std::string(); };
  std::string text = textOf(content);
  if (content.is_array()) {
    for (const auto& c : content) text += textOf(c);
  }
  if (text.empty()) return Status(codes::kParameterInvalid, "the client's model gave no text");
  return text;
}

Result<json> McpSession::request(const std::string& method, json params, const Job& job, Deadline deadline) {
  auto waiter = std::make_shared<std::promise<json>>();
  auto answer = waiter->get_future();
  std::string id;
  {
    std::lock_guard<std::mutex> lock(mu_);
    id = "lscope-" + std::to_string(++next_request_);
    outgoing_[json(id).dump()] = waiter;
  }
  outbox_->send(makeRequest(id, method, std::move(params)), job.id);
  // Wait in slices so a cancelled tool call stops waiting for the client too.
  while (answer.wait_for(std::chrono::milliseconds(200)) != std::future_status::ready) {
    if (job.cancel->cancelled() || deadline.expired()) {
      std::lock_guard<std::mutex> lock(mu_);
      outgoing_.erase(json(id).dump());
      return job.cancel->cancelled() ? Status(codes::kCancelled, "cancelled")
                                     : Status(codes::kTimeout, "the client did not answer " + method + " in time");
    }
  }
  json reply = answer.get();
  if (reply.contains("error")) {
    return Status(codes::kBrowserError, method + " failed: " + reply["error"].value("message", std::string("error")));
  }
  return reply.value("result", json::object());
}

Result<std::string> McpSession::elicitSecret(const Job& job, const std::string& name) {
  Deadline deadline = Deadline::in(config_.elicitation_timeout);
  std::string eid = randomHex();
  auto got = std::make_shared<std::promise<std::string>>();
  auto value = got->get_future();
  auto url = config_.portal->open(eid, name, [got](const std::string& v) {
    try {
      got->set_value(v);
    } catch (const std::future_error&) {
    }
  });
  if (!url) return url.status();
  auto reply = request("elicitation/create",
                       {{"mode", "url"},
                        {"elicitationId", eid},
                        {"url", *url},
                        {"message", "Lemmascope needs the secret '" + name +
                                        "'. Open the link and type it there: it goes to the browser, never to the model."}},
                       job, deadline);
  if (!reply) {
    config_.portal->close(eid);
    return reply.status();
  }
  std::string action = reply->value("action", "");
  if (action != "accept") {
    config_.portal->close(eid);
    return Status(codes::kParameterMissing, "the user did not give secret '" + name + "' (" + action + ")",
                  "ask the user, or add it to the --secrets file");
  }
  while (value.wait_for(std::chrono::milliseconds(200)) != std::future_status::ready) {
    if (job.cancel->cancelled() || deadline.expired()) {
      config_.portal->close(eid);
      return job.cancel->cancelled() ? Status(codes::kCancelled, "cancelled")
                                     : Status(codes::kTimeout, "no secret '" + name + "' was entered in time");
    }
  }
  outbox_->send(makeNotification("notifications/elicitation/complete", {{"elicitationId", eid}}), job.id);
  return value.get();
}

namespace {
int levelRank(const std::string& level) {
  static const char* kLevels[] = {"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"};
  for (int i = 0; i < 8; ++i) {
    if (level == kLevels[i]) return i;
  }
  return 3;
}
}  // namespace

void McpSession::log(const std::string& level, const std::string& message, const json& related) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (levelRank(level) < levelRank(log_level_)) return;
  }
  // MCP "Logging": notifications/message {level, logger, data}.
  outbox_->send(makeNotification("notifications/message",
                                 {{"level", level}, {"logger", "lemmascope"}, {"data", scrubLog(message)}}),
                related);
}

void McpSession::drain() {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [this] { return stopping_ || (queue_.empty() && !busy_); });
}

}  // namespace lscope::mcp
