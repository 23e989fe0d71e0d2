// The intent registry (intent-engine.md §2): built-in intents (C++), loaded intents (core,
// packs, user, --intents) and session intents, looked up by tier priority (§2.2, §11.1). Each
// intent also gets a CommandSpec, so OIL parses it and MCP lists it like any command.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/commands.h"
#include "engine/intent_model.h"
#include "engine/status.h"

namespace lscope {

struct IntentEntry {
  std::shared_ptr<const IntentDef> def;
  CommandSpec spec;
};

// The OIL/MCP surface of an intent: required parameters positional, the rest --options, plus
// the per-intent options of §11.2 (timeout, retry, no_verify, resume).
CommandSpec specForIntent(const IntentDef& def);

// The default tier order of §11.1 (resolution.tier_priority), session intents first.
const std::vector<std::string>& defaultTierPriority();

// Thread-safe. Shared by every session of the server; session intents live in the Session.
class IntentRegistry {
 public:
  struct Sources {
    std::string core_dir;                 // intents shipped with the binary
    std::string user_dir;                 // ~/.lemmascope/intents
    std::vector<std::string> extra_dirs;  // --intents DIR (user tier)
  };
  IntentRegistry(Sources sources, std::vector<IntentDef> builtins);

  // (Re)loads every directory. Files that fail are kept out and reported by errors().
  void reload();
  void setPriority(std::vector<std::string> tiers);
  std::vector<std::string> priority() const;

  // The definition that wins for `name` (session intents, if given, take part by tier), by
  // `priority` (tier names, first wins) or the registry's own order when empty.
  // `packs`: the intents of the site packs loaded in the session (tier "pack").
  using Entries = std::vector<std::shared_ptr<const IntentEntry>>;
  std::shared_ptr<const IntentEntry> find(const std::string& name,
                                          const std::map<std::string, std::shared_ptr<const IntentEntry>>* session = nullptr,
                                          const std::vector<std::string>& priority = {},
                                          const Entries* packs = nullptr) const;
  // Every definition of every tier (with `packs`), the winning one first for each name.
  std::vector<std::shared_ptr<const IntentEntry>> all(const Entries* packs = nullptr) const;
  std::vector<Status> errors() const;
  const Sources& sources() const { return sources_; }
  // Changes on every reload: the MCP layer compares it to announce tools/list_changed.
  uint64_t generation() const;

 private:
  // REQUIRES: mu_ held.
  int rank(const std::string& tier, const std::vector<std::string>& priority) const;

  Sources sources_;
  std::vector<std::shared_ptr<const IntentEntry>> builtins_;
  mutable std::mutex mu_;
  std::vector<std::shared_ptr<const IntentEntry>> loaded_;
  std::vector<Status> errors_;
  std::vector<std::string> priority_;
  uint64_t generation_ = 0;
};

std::shared_ptr<const IntentEntry> makeEntry(IntentDef def);

}  // namespace lscope
