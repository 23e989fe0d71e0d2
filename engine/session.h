// An engine session: one agent's browser state (a Backend from the factory, the last scan,
// stable element ids) and the execution of commands against it.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/backend.h"
#include "engine/changes.h"
#include "engine/oil.h"
#include "engine/page_model.h"
#include "engine/resolver.h"
#include "engine/response.h"

namespace lscope {

struct SessionOptions {
  Millis command_timeout{30000};   // whole command
  Millis settle_quiet{150};        // network quiet after an action before the after-scan
  Millis settle_max{3000};         // at most this long settling after an action
  bool strict = false;             // ambiguous targets fail instead of choosing (§11.1)
  size_t observe_max = 150;        // elements listed by observe
  std::shared_ptr<class SecretStore> secrets;  // --secrets file and environment; may be null
};

// Thread-safety: not thread-safe; one command at a time (the MCP layer queues calls).
class Session {
 public:
  // `factory` must outlive the session.
  Session(BackendFactory* factory, SessionOptions options);
  ~Session();

  // Runs one command; never throws. Errors are responses with kind kError.
  Response execute(const Command& command, const CallContext& context);
  // Parses and runs OIL lines; one response per command line (and per syntax error).
  // Stops at the first failure when stop_on_error. `on_response`, if given, sees each
  // response as soon as it is ready, with the line that produced it.
  using ResponseCallback = std::function<void(const std::string& line, const Response& response)>;
  std::vector<Response> runScript(const std::string& script, const CallContext& context,
                                  bool stop_on_error, const ResponseCallback& on_response = nullptr);

  const SessionOptions& options() const { return options_; }

 private:
  struct Ctx;  // per-command state: deadline, call context, the response being built

  Response dispatch(const Command& command, Ctx& ctx);
  // Replaces "secret:NAME" in parameters that accept it with the secret's value (session,
  // store, then the user through the client) and remembers the value for masking.
  Status resolveSecrets(Command& command, Ctx& ctx);
  Result<Backend*> backend(Ctx& ctx);
  void dropBackendIfDead(Ctx& ctx, const Status& status);

  // Scans the page (top document) and assigns stable ids; remembers it as the last scan.
  Result<PageScan> scan(Ctx& ctx, const json& params = json::object(), bool remember = true);
  Result<json> scannerCall(Ctx& ctx, json command, const std::string& frame = "");
  // Scans the cross-origin frames of the page and adds their elements to `page`.
  void scanFrames(Ctx& ctx, PageScan& page, const json& params);
  // Scrolls `el` into view, checks it can take the action (`check`: click, type, hover) and
  // returns the top-level viewport point to send native input to.
  Result<Point> pointOf(Ctx& ctx, const Element& el, const std::string& check, bool force = false);
  // "1-based tab number" for a backend tab id, remembering the order tabs were first seen.
  int tabNumber(const std::string& tab_id);
  Result<Resolution> resolve(Ctx& ctx, const TargetSpec& target, const PageScan& page);

  // Runs `act` between a before-scan and an after-scan and adds the change report.
  Response actAndReport(Ctx& ctx, const Command& command,
                        const std::function<Result<std::string>(Backend&, const PageScan&)>& act,
                        bool form_action);
  Status settle(Ctx& ctx);
  void reportEvents(Ctx& ctx, Response& r);

  Response doGoto(const Command& c, Ctx& ctx);
  Response doHistory(const Command& c, Ctx& ctx);
  Response doUrl(const Command& c, Ctx& ctx);
  Response doObserve(const Command& c, Ctx& ctx);
  Response doText(const Command& c, Ctx& ctx);
  Response doTitle(const Command& c, Ctx& ctx);
  Response doScreenshot(const Command& c, Ctx& ctx);
  Response doClick(const Command& c, Ctx& ctx);
  Response doType(const Command& c, Ctx& ctx);
  Response doElementCommand(const Command& c, Ctx& ctx);  // clear, check, uncheck, hover, focus, select
  Response doPress(const Command& c, Ctx& ctx);
  Response doScroll(const Command& c, Ctx& ctx);
  Response doWait(const Command& c, Ctx& ctx);
  Response doTabs(const Command& c, Ctx& ctx);
  Response doUpload(const Command& c, Ctx& ctx);

  BackendFactory* factory_;
  SessionOptions options_;
  std::unique_ptr<Backend> backend_;
  IdAllocator ids_;
  std::optional<PageScan> last_;
  std::string last_document_;
  std::vector<std::string> secrets_;
  std::vector<std::string> tab_order_;  // backend tab ids in the order first seen
  std::map<std::string, std::string> session_secrets_;  // secrets the user gave this session  // values typed into sensitive fields: never shown again
};

// Adds a scheme when missing: http:// for localhost, loopback and host:port, else https://.
std::string normalizeUrl(const std::string& url);

}  // namespace lscope
