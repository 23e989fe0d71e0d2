// A Chrome DevTools Protocol connection over one WebSocket (flat sessions: every message may
// carry a sessionId). websocketpp lives only in cdp_connection.cpp; this header is cheap.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/deadline.h"
#include "engine/status.h"

namespace lscope::cdp {

using json = nlohmann::json;

// Thread-safety: every method may be called from any thread. The socket runs on a thread of
// its own; event listeners are called on that thread, so they must be quick and must never
// call send() (it would wait for a reply that thread has to deliver); post() is fine.
class CdpConnection {
 public:
  using Listener =
      std::function<void(const std::string& method, const json& params, const std::string& session_id)>;

  // Connects to a DevTools WebSocket URL (ws://host:port/devtools/browser/<id>).
  static Result<std::unique_ptr<CdpConnection>> connect(const std::string& ws_url,
                                                        Deadline deadline);
  virtual ~CdpConnection() = default;

  // Sends one command and blocks until its reply or the deadline. A CDP error reply becomes a
  // Status translated by translateCdpError(); a closed socket is CONNECTION_ERROR.
  virtual Result<json> send(const std::string& method, const json& params,
                            const std::string& session_id, Deadline deadline) = 0;
  // Sends one command without waiting; the reply (or error) is passed to `done` if given,
  // on the socket thread.
  virtual void post(const std::string& method, const json& params, const std::string& session_id,
                    std::function<void(const Result<json>&)> done = nullptr) = 0;

  // Adds a listener for every event; returns a handle for removeListener.
  virtual int addListener(Listener listener) = 0;
  virtual void removeListener(int handle) = 0;
  // Called once, on the socket thread, when the connection closes for any reason.
  virtual void onClose(std::function<void()> callback) = 0;

  // A target's session ended (an out-of-process frame went away): the commands still waiting
  // for it fail at once, as the frame being gone (ELEMENT_STALE), instead of at their deadlines.
  // Asynchronous (safe to call while handling an event); a connection that cannot tell
  // sessions apart may do nothing.
  virtual void failSession(const std::string& session_id) { (void)session_id; }

  virtual bool connected() const = 0;
  // Closes the socket; pending calls fail with CONNECTION_ERROR. Idempotent.
  virtual void close() = 0;
};

// The one translation of CDP error replies ({"code":-32000,"message":"..."}) into engine codes.
Status translateCdpError(const std::string& method, const json& error);

// The reply a command gets when the target session it waits on ends (failSession): an error
// translateCdpError reads as the frame being gone (ELEMENT_STALE).
json sessionEndedReply();

// The ids of the commands in `pending` (id -> an entry with a `session`) sent to `session_id`:
// what failSession fails. REQUIRES: the caller holds the lock guarding `pending`.
template <class Pending>
std::vector<int> pendingOnSession(const std::map<int, Pending>& pending, const std::string& session_id) {
  std::vector<int> ids;
  for (const auto& [id, p] : pending) {
    if (p.session == session_id) ids.push_back(id);
  }
  return ids;
}

}  // namespace lscope::cdp
