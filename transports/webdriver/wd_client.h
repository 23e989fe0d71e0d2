// A W3C WebDriver client (w3.org/TR/webdriver2): commands over HTTP to a remote end
// (chromedriver, WPEWebDriver, a Selenium Grid). One translation of WebDriver errors.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "engine/deadline.h"
#include "engine/status.h"

namespace lscope::wd {

using json = nlohmann::json;

// The one translation of WebDriver errors (§6.6 "Errors": {"value": {"error", "message"}})
// into engine codes. Exposed for its table test.
Status translateWdError(int http_status, const json& body, const std::string& what);

class WdClient {
 public:
  // `base`: http://host:port[/path] of the remote end (a Selenium Grid may have a path).
  explicit WdClient(std::string base) : base_(std::move(base)) {
    while (!base_.empty() && base_.back() == '/') base_.pop_back();
  }
  const std::string& base() const { return base_; }

  // Sends a command; returns the response's "value". Thread-safe.
  Result<json> call(const std::string& method, const std::string& path, const json& body, Deadline deadline) const;

 private:
  std::string base_;
};

}  // namespace lscope::wd
