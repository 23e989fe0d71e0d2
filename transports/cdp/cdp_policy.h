// The navigation policy enforced by the browser itself (issue 16): with --allowed-origins or
// --blocked-origins, every document request (top-level, redirect hop, popup, frame) of our
// pages pauses at the browser (Fetch.enable on the browser target) until the gate lets it go
// on or fails it as blocked by client, so a refused origin never receives the request.
// Requests of pages that are not ours (the user's tabs in an attached browser) always go on.
#pragma once

#include <deque>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <utility>

#include "engine/backend.h"
#include "engine/nav_policy.h"
#include "transports/cdp/cdp_connection.h"

namespace lscope::cdp {

// What the gate asks of the pages it serves (CdpPage).
class GatedPage {
 public:
  virtual ~GatedPage() = default;
  // Whether the frame (a tab's target id, a child frame's id) is one of this page's.
  virtual bool ownsFrame(const std::string& frame_id) = 0;
  // Queues the notice of a blocked request of `frame_id` for the engine: a BrowserEvent
  // "blocked_navigation" when it was the active tab's own document, else "blocked".
  virtual void noteBlocked(const std::string& frame_id, const std::string& url, const std::string& why) = 0;
};

// Thread-safety: all methods may be called from any thread; requests are decided on the
// connection's socket thread.
class PolicyGate : public std::enable_shared_from_this<PolicyGate> {
 public:
  explicit PolicyGate(std::shared_ptr<const NavigationPolicy> policy) : policy_(std::move(policy)) {}

  // Whether there is anything to enforce at the browser (origin lists).
  bool active() const { return policy_ && policy_->restrictsOrigins(); }
  // Intercepts document requests on `conn` (called again for each new connection).
  Status start(const std::shared_ptr<CdpConnection>& conn, Deadline deadline);
  void add(GatedPage* page);
  void remove(GatedPage* page);

 private:
  void onPaused(CdpConnection& conn, const json& params);

  std::shared_ptr<const NavigationPolicy> policy_;
  std::mutex mu_;
  std::set<GatedPage*> pages_;
  // URLs of requests let through lately, by request id: a redirect hop names the one it
  // follows (redirectedRequestId), and a blocked hop says where it came from.
  std::deque<std::pair<std::string, std::string>> recent_;
};

}  // namespace lscope::cdp
