// WdClient and the WebDriver error table.
#include "transports/webdriver/wd_client.h"

#include "engine/json_bounded.h"
#include "net/http.h"

namespace lscope::wd {

Status translateWdError(int http_status, const json& body, const std::string& what) {
  json v = body.is_object() && body.contains("value") ? body["value"] : json::object();
  std::string error = v.is_object() ? v.value("error", std::string()) : "";
  std::string message = v.is_object() ? v.value("message", std::string()) : "";
  if (message.size() > 300) message = message.substr(0, 300) + "…";
  struct Row {
    const char* error;
    const char* code;
    const char* hint;
  };
  // W3C WebDriver §6.6 error codes -> engine codes.
  static const Row kRows[] = {
      {"no such element", codes::kElementNotFound, "run observe to refresh element ids"},
      {"stale element reference", codes::kElementStale, "run observe to refresh element ids"},
      {"detached shadow root", codes::kElementStale, "run observe to refresh element ids"},
      {"element not interactable", codes::kElementNotInteractable, "scroll to it, or dismiss what covers it"},
      {"element click intercepted", codes::kElementNotInteractable, "dismiss_popups, or retry with --force"},
      {"invalid selector", codes::kSelectorInvalid, "fix the selector"},
      {"timeout", codes::kTimeout, "the page took too long"},
      {"script timeout", codes::kTimeout, "the page took too long"},
      {"javascript error", codes::kScriptError, ""},
      {"no such window", "NO_SUCH_WINDOW", "tabs lists the open ones"},
      {"no such frame", codes::kElementStale, "the frame is gone; observe again"},
      {"invalid session id", codes::kConnectionError, "the browser session ended; the next command starts a new one"},
      {"session not created", codes::kBrowserError, "check the capabilities the remote end accepts"},
      {"unexpected alert open", "ALERT_OPEN", ""},
      {"no such alert", "NO_ALERT", ""},
      {"unknown command", codes::kUnsupported, "this remote end does not implement it"},
      {"unsupported operation", codes::kUnsupported, "this remote end does not implement it"},
      {"unknown method", codes::kUnsupported, "this remote end does not implement it"},
      {"insecure certificate", codes::kNavigationError, "the site's certificate is not trusted"},
      {"invalid argument", codes::kInternal, ""},
  };
  for (const auto& row : kRows) {
    if (error == row.error) return Status(row.code, what + ": " + (message.empty() ? error : message), row.hint);
  }
  if (error == "unknown error" && message.find("net::ERR_") != std::string::npos) {
    return Status(codes::kNavigationError, what + ": " + message, "check the URL and that the site is reachable");
  }
  return Status(codes::kBrowserError,
                what + ": " + (error.empty() ? "HTTP " + std::to_string(http_status) : error) +
                    (message.empty() ? "" : ": " + message));
}

Result<json> WdClient::call(const std::string& method, const std::string& path, const json& body, Deadline deadline) const {
  net::HttpRequest req;
  req.method = method;
  req.url = base_ + path;
  // Selenium answers "Content-Type header does not indicate utf-8 encoded json" otherwise.
  req.content_type = "application/json; charset=utf-8";
  if (method != "GET") req.body = body.is_null() ? "{}" : body.dump(-1, ' ', false, json::error_handler_t::replace);
  auto res = net::send(req, deadline);
  if (!res) return res.status();
  bool too_deep = false;
  json parsed = parseJsonBounded(res->body, &too_deep, kMaxBrowserJsonNesting);
  if (too_deep) {
    return Status(codes::kScriptError, method + " " + path + ": the remote end's answer is " + tooDeepMessage(kMaxBrowserJsonNesting));
  }
  if (res->status >= 400 || parsed.is_discarded()) {
    return translateWdError(res->status, parsed.is_discarded() ? json::object() : parsed, method + " " + path);
  }
  return parsed.value("value", json());
}

}  // namespace lscope::wd
