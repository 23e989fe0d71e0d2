// The intent learner (intent-engine.md §8, issue 18): every atomic command an agent runs is
// recorded with its page context in a SQLite store shared by every lscope process of the user;
// repeated sequences on one domain, across sessions, become proposed intents with parameters
// for what varied; the agent accepts, refines or rejects them.
//
// Three parts: LearnerStore (the database: WAL, secure delete, one connection per process),
// recognize() (pure: history in, proposals out; unit-tested without a browser) and the
// Session's commands (engine/session_learn.cpp).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/status.h"

struct sqlite3;

namespace lscope {

using json = nlohmann::json;

// §8.5, under `intent_learner:` in config.yaml.
struct LearnerConfig {
  std::string enabled = "auto";  // auto: on for local stdio only; true; false
  int min_observations = 3;
  double min_confidence = 0.75;
  bool auto_accept = false;
  std::string persistence = "user";         // user: saved intents load in every later session; session
  std::vector<std::string> exclude_fields;  // more sensitive field names (§8.5 privacy)
  std::vector<std::string> exclude_domains; // never recorded: "bank.example", "*.corp.example"
  std::string store;                        // the database; default: the user's data directory

  // Applies one `intent_learner.<key>` value from config.yaml (lists as space-separated words).
  Status set(const std::string& key, const std::string& value);
  bool excludes(const std::string& domain) const;
  static std::string defaultStore();  // $XDG_DATA_HOME/lemmascope/learner.db or ~/.local/share/...
};

// One recorded command: where it ran and what it acted on. A sensitive value is never stored
// (`value` empty, `sensitive` true).
struct Observed {
  int64_t session = 0;
  int64_t seq = 0;
  double at = 0;             // seconds since the epoch
  std::string domain, path;  // the page it ran on (for goto: where it went)
  std::string action;        // goto, click, type, select, check, uncheck, press, clear
  std::string text;          // the target's text (a field's label) as the scan read it
  std::string role, type, selector;
  std::string field;         // the element's name attribute (a field, a radio group)
  std::string member;        // pattern membership: "login_form.email"
  std::string patterns;      // patterns on the page, comma-separated
  std::string value;         // typed text, option, key or URL; "" when sensitive
  bool sensitive = false;
  bool enter = false;        // type --enter
};

// A proposal as stored: status proposed, saved (a discovered intent) or rejected.
struct ProposalRow {
  std::string name, domain, status;
  double confidence = 0;
  int observations = 0;
  json definition;  // the intent document (schemas/intent-v1.json)
  json tmpl;        // the recognized steps' features, to know the same sequence again
  double updated = 0;
};

class LearnerStore {
 public:
  // Opens (creating) the database and its tables; WAL, busy timeout, secure delete.
  static Result<std::shared_ptr<LearnerStore>> open(const std::string& path);
  ~LearnerStore();
  LearnerStore(const LearnerStore&) = delete;
  LearnerStore& operator=(const LearnerStore&) = delete;

  const std::string& path() const { return path_; }
  Result<int64_t> newSession();
  Status record(const Observed& o);
  // The domain's commands of its latest sessions, oldest first within each session.
  std::vector<Observed> history(const std::string& domain, int max_sessions = 30, int max_per_session = 300);
  Status putProposal(const ProposalRow& p);  // insert or replace by name
  std::optional<ProposalRow> proposal(const std::string& name);
  std::vector<ProposalRow> proposals(const std::string& domain = "");  // "" = every domain
  Status removeProposal(const std::string& name);
  // Deletes a domain's rows ("" = everything) for real: secure delete, WAL checkpointed.
  Result<int> forget(const std::string& domain);
  // What a store holds, read-only (lscope doctor): commands, domains, proposals by status.
  static Result<json> inspect(const std::string& path);

 private:
  LearnerStore() = default;
  Status exec(const char* sql);
  std::mutex mu_;
  sqlite3* db_ = nullptr;
  std::string path_;
};

struct Proposal {
  ProposalRow row;
  // Every earlier occurrence went on with one more common step: the current one is likely
  // not finished, so it is not proposed yet (the longer sequence will be).
  bool continues = false;
};

// A domain's history with each command's features worked out once (stemmed words, interned
// features, their similarities cached): the Session keeps one and appends to it, so that
// recognizing after a command reads neither the store nor the same words again.
class LearnerIndex {
 public:
  LearnerIndex();
  ~LearnerIndex();
  void reset(const std::vector<Observed>& history);
  void add(const Observed& o);
  const std::string& domain() const;
  size_t commands(int64_t session) const;
  // See recognize() below.
  std::vector<Proposal> recognize(int64_t current_session, const LearnerConfig& config,
                                  const std::function<bool(const std::string&)>& taken) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Finds repeated sequences in a domain's history (§8.2): sequences of the current session's
// last commands aligned with each other session's (gaps allowed for noise), counted across
// every session, generalized into a parameterized intent. `taken` says whether a name is in
// use. Pure and deterministic.
std::vector<Proposal> recognize(const std::vector<Observed>& history, int64_t current_session,
                                const LearnerConfig& config, const std::function<bool(const std::string&)>& taken);

// Whether two recognized templates are the same sequence (a stored proposal found again).
bool sameTemplate(const json& a, const json& b);
// Whether every step of `small` matches a step of `big`, in order (a proposal grown longer).
bool containsTemplate(const json& big, const json& small);

// The short lines of "# discovered intent" for a definition.
std::vector<std::string> describeProposal(const ProposalRow& p);

}  // namespace lscope
