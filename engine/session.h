// An engine session: one agent's browser state (a Backend from the factory, the last scan,
// stable element ids, session intents, settings) and the execution of commands and intents.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "engine/backend.h"
#include "engine/changes.h"
#include "engine/config.h"
#include "engine/intents.h"
#include "engine/oil.h"
#include "engine/page_model.h"
#include "engine/resolver.h"
#include "engine/response.h"

namespace lscope {

class SecretStore;

struct SessionOptions {
  Millis command_timeout{30000};   // an atomic command
  Millis settle_quiet{150};        // network quiet after an action before the after-scan
  Millis settle_max{3000};         // at most this long settling after an action
  bool strict = false;             // ambiguous targets fail instead of choosing (§11.1)
  size_t observe_max = 150;        // elements listed by observe
  std::shared_ptr<SecretStore> secrets;       // --secrets file and environment; may be null
  std::shared_ptr<IntentRegistry> registry;   // loaded and built-in intents; may be null
  EngineConfig config;                        // §11 settings (the session may change its copy)
};

// Thread-safety: not thread-safe; one command at a time (the MCP layer queues calls).
class Session {
 public:
  // `factory` must outlive the session.
  Session(BackendFactory* factory, SessionOptions options);
  ~Session();

  // Runs one command or intent; never throws. Errors are responses with kind kError.
  Response execute(const Command& command, const CallContext& context);
  // Parses and runs OIL lines; one response per command line (and per syntax error).
  // Stops at the first failure when stop_on_error. `on_response`, if given, sees each
  // response as soon as it is ready, with the line that produced it.
  using ResponseCallback = std::function<void(const std::string& line, const Response& response)>;
  std::vector<Response> runScript(const std::string& script, const CallContext& context,
                                  bool stop_on_error, const ResponseCallback& on_response = nullptr);

  // Finds intents (registry and session) for the OIL parser and the MCP layer.
  CommandLookup lookup();
  // Every intent this session can run: the winning definition per name.
  std::vector<std::shared_ptr<const IntentEntry>> intents() const;
  // Changes whenever the set of intents changes (reload, define, undefine).
  uint64_t intentsGeneration() const;

  const SessionOptions& options() const { return options_; }

 private:
  // Per-command state.
  struct Ctx {
    Deadline deadline;
    const CallContext& call;
    bool form_action = false;  // the current action may submit a form (set by the action)
  };
  struct IntentRun;  // the state of one running intent (intent_runner.cpp)
  struct ClickOptions {
    MouseButton button = MouseButton::kLeft;
    int count = 1;
    bool force = false;
  };

  Response dispatch(const Command& command, Ctx& ctx);
  // Replaces "secret:NAME" in parameters that accept it with the secret's value (session,
  // store, then the user through the client) and remembers the value for masking.
  Status resolveSecrets(Command& command, Ctx& ctx);
  const CommandSpec* specFor(const std::string& name);
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
  ResolverHooks hooksFor(Ctx& ctx, const PageScan& page);
  Result<Resolution> resolve(Ctx& ctx, const TargetSpec& target, const PageScan& page);

  // Primitive actions on a resolved element of the current scan. Each returns a note for the
  // action log ("" or " (synthetic events)") or why it failed.
  Result<std::string> clickOn(Ctx& ctx, Backend& be, const Element& el, const ClickOptions& o);
  Result<std::string> typeInto(Ctx& ctx, Backend& be, const Element& el, const std::string& text, bool clear);
  Result<std::string> selectIn(Ctx& ctx, const Element& el, const json& option);  // text/value, or index
  Result<std::string> setChecked(Ctx& ctx, Backend& be, const Element& el, bool want);
  Status pressCombo(Ctx& ctx, Backend& be, const std::string& combo);
  // Remembers a value typed into a sensitive field so it is masked wherever it shows up.
  void rememberSecret(const std::string& value);

  // Runs `act` between a before-scan and an after-scan and adds the change report.
  Response actAndReport(Ctx& ctx, const Command& command,
                        const std::function<Result<std::string>(Backend&, const PageScan&)>& act,
                        bool form_action);
  Status settle(Ctx& ctx);
  // Waits (at most 1 s) for finite animations and transitions running in the page to end.
  void settleAnimations(Ctx& ctx);
  void reportEvents(Ctx& ctx, Response& r);
  // `# available intents` and `# suggested` for an observation (§6).
  void addAvailability(const PageScan& page, Response& r);

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
  Response doIntents(const Command& c, Ctx& ctx);
  Response doDefine(const Command& c, Ctx& ctx);
  Response doUndefine(const Command& c, Ctx& ctx);
  Response doConfig(const Command& c, Ctx& ctx);

  // --- intents (intent_runner.cpp) ---
  std::shared_ptr<const IntentEntry> findIntent(const std::string& name) const;
  Response runIntent(const Command& c, Ctx& ctx, const IntentEntry& entry, int depth = 0);
  Status runSteps(const std::vector<StepDef>& steps, IntentRun& run);
  Status runStep(const StepDef& step, IntentRun& run);
  Status runAction(const StepDef& step, IntentRun& run);
  Status runActionOnce(const StepDef& step, IntentRun& run);
  Result<bool> evalCondition(const ConditionDef& c, IntentRun& run);
  // Waits until the condition holds, re-checking on page changes (event-driven), or timeout.
  Status waitCondition(const ConditionDef& c, IntentRun& run, Deadline until);
  Result<std::vector<const Element*>> findElements(const TargetDef& t, IntentRun& run);
  Result<const Element*> findElement(const TargetDef& t, IntentRun& run);
  json bind(const json& v, const IntentRun& run) const;
  Status rescan(IntentRun& run);
  // Blocks until the page changes (DOM mutation, navigation) or `until`.
  void waitForChange(IntentRun& run, Deadline until);

  // --- built-in intents (builtins.cpp) ---
  Status builtinLogin(IntentRun& run);
  Status builtinLogout(IntentRun& run);
  Status builtinSearch(IntentRun& run);
  Status builtinAcceptCookies(IntentRun& run);
  Status builtinDismissPopups(IntentRun& run);
  Status builtinFillForm(IntentRun& run);
  Status builtinSubmitForm(IntentRun& run);
  Status builtinScrollTo(IntentRun& run);
  Status fillForm(IntentRun& run, const json& data, const std::string& pattern, bool partial);

  BackendFactory* factory_;
  SessionOptions options_;
  EngineConfig config_;
  std::unique_ptr<Backend> backend_;
  IdAllocator ids_;
  std::optional<PageScan> last_;
  std::string last_document_;
  std::vector<std::string> secrets_;    // values never shown again (typed into sensitive fields)
  std::vector<std::string> tab_order_;  // backend tab ids in the order first seen
  std::map<std::string, std::string> session_secrets_;  // secrets the user gave this session
  // Guards session_intents_ and session_generation_: the MCP layer reads the intents (for
  // tools/list) on another thread than the one running commands.
  mutable std::mutex intents_mu_;
  std::map<std::string, std::shared_ptr<const IntentEntry>> session_intents_;
  uint64_t session_generation_ = 0;
};

// Adds a scheme when missing: http:// for localhost, loopback and host:port, else https://.
std::string normalizeUrl(const std::string& url);
// Resolves "/path", "?query" and "#fragment" against `base`; other URLs are returned as is.
std::string resolveUrl(const std::string& base, const std::string& url);

// The built-in intents (§4, Appendix A) as definitions: parameters and options for the tool
// schemas; their steps are C++ (builtins.cpp).
std::vector<IntentDef> builtinIntents();

}  // namespace lscope
