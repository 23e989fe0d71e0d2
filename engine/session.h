// An engine session: one agent's browser state (a Backend from the factory, the last scan,
// stable element ids), its session intents and settings. It keeps the state and hands the work
// to collaborators: page commands (page_commands.h, by table lookup) on a Page (page.h), intents
// to the executor (intent_run.h) and the built-in registry (builtins/builtins.h).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "engine/backend.h"
#include "engine/config.h"
#include "engine/intent_run.h"
#include "engine/intents.h"
#include "engine/learner.h"
#include "engine/oil.h"
#include "engine/packs.h"
#include "engine/page.h"
#include "engine/response.h"
#include "engine/recorder.h"
#include "engine/trace.h"

namespace lscope {

class SecretStore;

struct SessionOptions {
  Millis command_timeout{30000};   // an atomic command
  Millis settle_quiet{20};         // the page still (no DOM change, no request) after an action, and two frames
  Millis settle_max{3000};         // at most this long settling after an action
  bool strict = false;             // ambiguous targets fail instead of choosing (§11.1)
  size_t observe_max = 150;        // elements listed by observe
  std::shared_ptr<SecretStore> secrets;       // --secrets file and environment; may be null
  std::shared_ptr<IntentRegistry> registry;   // loaded and built-in intents; may be null
  EngineConfig config;                        // §11 settings (the session may change its copy)
  json pattern_rules;                         // patterns for every scan when there is no PackManager
  std::shared_ptr<PackManager> packs;         // site packs (§9); may be null
  std::shared_ptr<const NavigationPolicy> policy;  // where pages may go; null: the default policy
  TraceOptions trace;                         // --trace DIR (issue 20); empty dir: none
  std::string record_file;                    // --record FILE (issue 20): the session as an intent
  // The intent learner (§8, issue 18): null when learning is off for this server.
  std::shared_ptr<LearnerStore> learner;
};

// Thread-safety: not thread-safe; one command at a time (the MCP layer queues calls), except
// intents() and intentsGeneration(), which the MCP layer may call from another thread.
class Session : private IntentHost {
 public:
  // `factory` must outlive the session.
  Session(BackendFactory* factory, SessionOptions options);
  ~Session() override;

  // Runs one command or intent; never throws. Errors are responses with kind kError.
  Response execute(const Command& command, const CallContext& context);
  // Masks every secret this session has seen in a response made outside execute (an argument
  // or parse error that repeats what it was given): §13.1.
  void scrub(Response& r) const;
  // Parses and runs OIL lines; one response per command line (and per syntax error).
  // Stops at the first failure when stop_on_error. `on_response`, if given, sees each
  // response as soon as it is ready, with the line that produced it.
  using ResponseCallback = std::function<void(const std::string& line, const Response& response)>;
  std::vector<Response> runScript(const std::string& script, const CallContext& context,
                                  bool stop_on_error, const ResponseCallback& on_response = nullptr);

  // Finds intents (registry and session) for the OIL parser and the MCP layer.
  CommandLookup lookup() override;
  // Every intent this session can run: the winning definition per name.
  std::vector<std::shared_ptr<const IntentEntry>> intents() const;
  // Changes whenever the set of intents changes (reload, define, undefine).
  uint64_t intentsGeneration() const;

  const SessionOptions& options() const { return options_; }

 private:
  Response dispatch(const Command& command, Page& page);
  Response guardedDispatch(const Command& command, Page& page);  // dispatch; a throw is an error response
  // One trace line for the command (and one per step of an intent), masked (issue 20).
  void trace(const Command& command, const Response& r, Clock::time_point started, Page& page);
  // Replaces "secret:NAME" in parameters that accept it with the secret's value (session,
  // store, then the user through the client) and remembers the value for masking.
  Status resolveSecrets(Command& command, Page& page);
  const CommandSpec* specFor(const std::string& name);
  // `# available intents` and `# suggested` for an observation (§6).
  void addAvailability(const PageScan& page, Response& r);

  // Commands about intents and settings (intent-engine.md §6, §7, §11).
  Response doIntent(const Command& c, Page& page);
  Response doIntents(const Command& c);
  // do <sentence> and capabilities (issue 19): engine/do_parser.h reads the sentence.
  Response doDo(const Command& c, Page& page, const CallContext& context);
  Response doCapabilities();
  Response doDefine(const Command& c);
  Response doUndefine(const Command& c);
  Response doExport(const Command& c);
  // dismiss and submit: one popup or one form, through dismiss_popups and submit_form.
  Response doDismissOrSubmit(const Command& c, Page& page);
  Response doConfig(const Command& c);
  // Site packs (intent-engine.md §9.5, §9.6): loaded in this session by URL (auto_load) or by
  // hand (pack load / unload). syncPacks brings the set in line with `url` and notes what
  // changed for the next response ("# auto-loading"); applyPackRules gives the scanner the
  // patterns of the packs that apply.
  void syncPacks(const std::string& url);
  void applyPackRules();
  void takePackNotes(Response& r);
  std::vector<std::shared_ptr<const Pack>> activePacks() const;
  Response doPacks(const Command& c);
  Response doPack(const Command& c);

  // The intent learner (§8, engine/session_learn.cpp): each acting command recorded with its
  // page context; proposals in "# discovered intent"; learned, accept, reject, refine, forget.
  struct LearnBefore {
    std::string url, document, patterns;
    std::map<int, std::string> members;  // element id -> "pattern.field"
  };
  LearnBefore learnBefore(const Command& c) const;  // empty unless `c` is a command it records
  void learn(const Command& original, const Command& command, const LearnBefore& before, Response& r);
  void loadDiscovered();
  bool registerDiscovered(const json& definition, std::string* error);
  Response doLearned(const Command& c);
  Response doAccept(const Command& c);
  Response doReject(const Command& c);
  Response doRefine(const Command& c, Page& page);
  Response doForget(const Command& c);
  // A refine line in OIL ("refine NAME test --rating 5"), or a bare refinement line while one
  // is open ("add param title:string"): the change as written, past the OIL parser.
  std::optional<Command> refineLine(const std::string& line) const;

  // IntentHost
  std::shared_ptr<const IntentEntry> findIntent(const std::string& name) const override;
  const EngineConfig& config() const override { return config_; }

  BackendFactory* factory_;
  SessionOptions options_;
  EngineConfig config_;
  PageEnv env_;
  BrowserState browser_;
  std::unique_ptr<TraceWriter> tracer_;  // --trace; null without
  std::unique_ptr<Recorder> recorder_;   // --record; null without
  std::map<std::string, std::string> session_secrets_;  // secrets the user gave this session
  // Guards session_intents_ and session_generation_: the MCP layer reads the intents (for
  // tools/list) on another thread than the one running commands.
  mutable std::mutex intents_mu_;
  std::map<std::string, std::shared_ptr<const IntentEntry>> session_intents_;
  uint64_t session_generation_ = 0;
  std::vector<std::shared_ptr<const Pack>> active_packs_;  // guarded by intents_mu_
  IntentRegistry::Entries pack_intents_;                    // their intents; guarded by intents_mu_
  std::set<std::string> packs_by_hand_, packs_unloaded_;    // pack load / pack unload
  std::set<std::string> shadows_reported_;                  // "pack/intent" shadow notes given
  std::vector<std::string> pack_notes_;
  uint64_t packs_generation_ = 0;                           // the PackManager's, when rules were set
  int64_t learn_session_ = 0;                               // this session's row in the learner store
  int64_t learn_seq_ = 0;
  std::set<std::string> announced_;                         // proposals shown in this session
  std::unique_ptr<LearnerIndex> learn_index_;               // the current domain's history, features worked out
  Clock::time_point learn_loaded_{};                        // when it was read from the store
  struct Refining {
    std::string name;
    json definition;
  };
  std::optional<Refining> refining_;                        // refine NAME: the draft
};

// The built-in intents (§4, Appendix A) as definitions: parameters and options for the tool
// schemas; their steps are C++ (engine/builtins/).
std::vector<IntentDef> builtinIntents();

}  // namespace lscope
