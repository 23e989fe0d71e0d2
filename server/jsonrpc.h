// JSON-RPC 2.0 message shapes and errors (jsonrpc.org/specification, as profiled by MCP
// "Base Protocol": ids are strings or integers, never null; params are objects).
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace lscope::mcp {

using json = nlohmann::json;

// JSON-RPC 2.0 §5.1 error codes.
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;

enum class MessageKind { kRequest, kNotification, kResponse, kInvalid };

struct Classified {
  MessageKind kind = MessageKind::kInvalid;
  std::string error;  // why it is invalid
};

// Classifies one decoded JSON value as a request, a notification, a response, or invalid.
Classified classify(const json& msg);

json makeResult(const json& id, json result);
json makeError(const json& id, int code, const std::string& message, json data = nullptr);
json makeNotification(const std::string& method, json params);
json makeRequest(const json& id, const std::string& method, json params);

}  // namespace lscope::mcp
