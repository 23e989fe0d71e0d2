// The state of one running intent, shared by the executor (intent_runner.cpp) and the built-in
// intents (engine/builtins/): the page it acts on, its variables, its action log and what its
// response will say. Every action goes through the Page's one action layer; an intent clears a
// popup that covers its target (dismiss_popups, accept_cookies) and retries once.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engine/config.h"
#include "engine/intents.h"
#include "engine/page.h"
#include "engine/waits.h"

namespace lscope {

// What an intent needs from the session besides the page: other intents, by name.
class IntentHost {
 public:
  virtual ~IntentHost() = default;
  virtual std::shared_ptr<const IntentEntry> findIntent(const std::string& name) const = 0;
  virtual CommandLookup lookup() = 0;
  virtual const EngineConfig& config() const = 0;
};

struct IntentRun {
  Page& page;
  IntentHost& host;
  const IntentDef& def;
  json vars = json::object();                  // parameters and loop values ($refs)
  std::map<std::string, int> element_vars;     // loop variables bound to elements (agent ids)
  std::vector<std::string> actions;            // the action log (§10)
  std::string checkpoint;                      // the last checkpoint reached
  std::string resume_from;                     // skip steps until this checkpoint
  bool resuming = false;
  PageScan scan;                               // the current scan
  Deadline deadline;
  int depth = 0;
  bool verify = true;
  // What the response says besides actions and changes.
  std::string summary;                         // after "ok <intent>"
  std::string message;                         // an error message better than the status's
  std::string hint;
  std::vector<std::string> result;             // # result
  std::vector<std::pair<std::string, std::vector<std::string>>> sections;  // # dismissed, # filled ...
  bool partial = false;
  std::set<int> reported;                      // elements a section already reports (# filled)
  bool no_changes = false;                     // built-ins that report "nothing to do"
  bool clearing_cover = false;                 // this run clears a cover for another intent

  IntentRun(Page& p, IntentHost& h, const IntentDef& d, Deadline dl) : page(p), host(h), def(d), deadline(dl) {}
  void log(std::string line) { actions.push_back(std::move(line)); }
  void add(const std::string& section, std::string line);

  const EngineConfig& config() const { return host.config(); }
  // Scans the page again into `scan`.
  Status rescan();
  // Waits (the one wait engine) until `probe` holds, at most `ms` and never past the intent's
  // deadline. TIMEOUT when it does not.
  Status waitFor(const std::function<Result<bool>()>& probe, long long ms);
  // Waits for the page to change (or `ms`), then rescans.
  Status waitForChange(long long ms);

  // Acts through the page's action layer with the intent's semantics: auto-wait up to
  // `timeout_ms` (0: the step timeout), and a popup covering the target is cleared once.
  Result<Acted> act(const Element& el, const Page::ActFn& fn, long long timeout_ms = 0);
  Result<Acted> act(const TargetSpec& target, const Page::ActFn& fn, long long timeout_ms = 0);
  // The common actions, logged as `click [3] "Sign in"`; the scan is refreshed afterwards.
  Result<Acted> click(const Element& el, const ClickOptions& o = {});
  Result<Acted> type(const Element& el, const std::string& text, bool clear = true);
  Status press(const std::string& combo, const Element* on = nullptr);
  // Typing that brought up a popup over its field (a tour at the first key): `typedInto` after a
  // typing (act noted the popups up before it), and `beforeKeys` before a key pressed into the
  // field, which clears such a popup as a person would (press does it itself).
  void typedInto(const Element& el);
  Status beforeKeys();
  // Runs another intent by name (nested: its actions join this log); true when it succeeded.
  Response runNested(const std::string& name, const json& params);

 private:
  void logCleared(const Acted& a);
  // How this run clears a popup over its target (unset in the clearers themselves).
  std::function<Result<std::string>(const std::string& popup_kind)> clear_cover_;
  struct Typed {
    int id = 0;
    std::set<std::string> covers_before;
  };
  std::set<std::string> covers_before_act_;  // the popups (kind and container) before the last act
  std::optional<Typed> typed_;               // the last action typed (for beforeKeys)
};

// Runs an intent definition (built-in or steps) end to end: parameters, steps, verification,
// extraction, response (§5.1). depth > 0 for nested runs (no before/after change report).
Response runIntent(IntentHost& host, const Command& c, Page& page, const IntentEntry& entry, int depth = 0);

// Runs a pack-level hook (§12.3) outside an intent (after_navigate): its actions as "# hooks"
// lines, an error response when it failed (a refused step says why).
Response runPackHook(IntentHost& host, Page& page, const std::shared_ptr<const PackRuntime>& pack,
                     const std::string& hook);

// `[3] "Sign in"` (50 characters of text at most), for action logs.
std::string logLabel(const Element& e);

}  // namespace lscope
