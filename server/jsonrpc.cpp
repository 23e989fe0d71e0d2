// JSON-RPC 2.0 helpers.
#include "server/jsonrpc.h"

namespace lscope::mcp {

Classified classify(const json& msg) {
  if (!msg.is_object()) return {MessageKind::kInvalid, "a message must be a JSON object"};
  auto v = msg.find("jsonrpc");
  if (v == msg.end() || !v->is_string() || *v != "2.0") {
    return {MessageKind::kInvalid, "\"jsonrpc\" must be \"2.0\""};
  }
  bool has_id = msg.contains("id");
  if (has_id) {
    const json& id = msg["id"];
    if (!(id.is_string() || id.is_number_integer())) {
      return {MessageKind::kInvalid, "\"id\" must be a string or an integer"};
    }
  }
  if (msg.contains("method")) {
    if (!msg["method"].is_string()) return {MessageKind::kInvalid, "\"method\" must be a string"};
    if (msg.contains("result") || msg.contains("error")) {
      return {MessageKind::kInvalid, "a request cannot carry \"result\" or \"error\""};
    }
    return {has_id ? MessageKind::kRequest : MessageKind::kNotification, ""};
  }
  if (has_id && (msg.contains("result") != msg.contains("error"))) return {MessageKind::kResponse, ""};
  return {MessageKind::kInvalid, "a message needs \"method\", or \"id\" with \"result\" or \"error\""};
}

json makeResult(const json& id, json result) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

json makeError(const json& id, int code, const std::string& message, json data) {
  json err = {{"code", code}, {"message", message}};
  if (!data.is_null()) err["data"] = std::move(data);
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(err)}};
}

json makeNotification(const std::string& method, json params) {
  json n = {{"jsonrpc", "2.0"}, {"method", method}};
  if (!params.is_null()) n["params"] = std::move(params);
  return n;
}

json makeRequest(const json& id, const std::string& method, json params) {
  json r = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null()) r["params"] = std::move(params);
  return r;
}

}  // namespace lscope::mcp
