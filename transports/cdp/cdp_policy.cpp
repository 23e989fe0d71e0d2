#include "transports/cdp/cdp_policy.h"

#include <spdlog/spdlog.h>

namespace lscope::cdp {

namespace {
constexpr size_t kRecent = 64;
}

Status PolicyGate::start(const std::shared_ptr<CdpConnection>& conn, Deadline deadline) {
  if (!active()) return Status::ok();
  std::weak_ptr<PolicyGate> weak = shared_from_this();
  CdpConnection* raw = conn.get();
  // The listener lives as long as the connection; it is removed with it.
  conn->addListener([weak, raw](const std::string& method, const json& params, const std::string& session) {
    if (method != "Fetch.requestPaused" || !session.empty()) return;
    if (auto gate = weak.lock()) gate->onPaused(*raw, params);
  });
  // Fetch on the browser target pauses the document requests of every target (checked on
  // Chromium 120+: navigations, each redirect hop, popups, in- and out-of-process frames).
  auto r = conn->send("Fetch.enable",
                      {{"patterns", json::array({{{"urlPattern", "*"}, {"resourceType", "Document"}, {"requestStage", "Request"}}})}},
                      "", deadline);
  if (!r) return r.status().wrap("enabling the navigation policy (Fetch.enable)");
  return Status::ok();
}

void PolicyGate::add(GatedPage* page) {
  std::lock_guard<std::mutex> lock(mu_);
  pages_.insert(page);
}

void PolicyGate::remove(GatedPage* page) {
  std::lock_guard<std::mutex> lock(mu_);
  pages_.erase(page);
}

void PolicyGate::onPaused(CdpConnection& conn, const json& params) {
  std::string id = params.value("requestId", "");
  std::string url = params.contains("request") ? params["request"].value("url", "") : "";
  std::string frame = params.value("frameId", "");
  std::string why = policy_->refusal(url);
  std::lock_guard<std::mutex> lock(mu_);
  GatedPage* owner = nullptr;
  for (GatedPage* p : pages_) {
    if (p->ownsFrame(frame)) {
      owner = p;
      break;
    }
  }
  if (why.empty() || !owner) {
    conn.post("Fetch.continueRequest", {{"requestId", id}}, "");
    recent_.emplace_back(id, url);
    if (recent_.size() > kRecent) recent_.pop_front();
    return;
  }
  std::string from;
  std::string prev = params.value("redirectedRequestId", "");
  for (const auto& [rid, rurl] : recent_) {
    if (rid == prev) from = rurl;
  }
  spdlog::info("navigation policy: blocked {} ({})", url, why);
  conn.post("Fetch.failRequest", {{"requestId", id}, {"errorReason", "BlockedByClient"}}, "");
  owner->noteBlocked(frame, url, why + (from.empty() ? "" : " (redirected from " + from + ")"));
}

}  // namespace lscope::cdp
