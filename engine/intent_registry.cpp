// IntentRegistry: tiers, priority and the CommandSpec of each intent.
#include "engine/intents.h"

#include <algorithm>
#include <cctype>

#include "engine/intent_loader.h"

namespace lscope {

const std::vector<std::string>& defaultTierPriority() {
  static const std::vector<std::string> kTiers = {"session", "discovered", "user", "pack", "core", "builtin"};
  return kTiers;
}

namespace {

std::string titleOf(const std::string& name) {
  std::string t;
  bool up = true;
  for (char c : name) {
    if (c == '_') {
      t += ' ';
      up = false;
      continue;
    }
    t += up ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    up = false;
  }
  return t;
}

}  // namespace

CommandSpec specForIntent(const IntentDef& def) {
  CommandSpec spec;
  spec.name = def.name;
  spec.title = titleOf(def.name);
  spec.category = "intent";
  spec.summary = def.description.empty() ? "Run the " + def.name + " intent." : def.description;
  std::string usage = def.name;
  for (const auto& p : def.params) {
    ParamSpec ps;
    ps.name = p.name;
    ps.required = p.required && !p.default_value.is_null() ? false : p.required;
    ps.description = p.description;
    ps.sensitive = p.sensitive;
    ps.secret_ref = p.sensitive || p.type == "string";
    if (p.type == "string") ps.type = ParamType::kString;
    else if (p.type == "number") ps.type = ParamType::kNumber;
    else if (p.type == "boolean") ps.type = ParamType::kBoolean;
    else if (p.type == "array") ps.type = ParamType::kArray;
    else ps.type = ParamType::kObject;
    if (p.enum_values.is_array()) {
      for (const auto& e : p.enum_values) ps.choices.push_back(e.is_string() ? e.get<std::string>() : e.dump());
    }
    // Required values are positional in OIL (login "me" "pw"); the rest are --options.
    ps.positional = ps.required && ps.type != ParamType::kBoolean;
    if (ps.positional) {
      usage += " <" + p.name + ">";
    } else {
      usage += ps.type == ParamType::kBoolean ? " [--" + p.name + "]" : " [--" + p.name + " <" + p.name + ">]";
    }
    spec.params.push_back(ps);
  }
  // §11.2 per-intent options. Parameter names win if an intent defines one of these.
  auto add = [&](const char* name, ParamType t, const char* desc) {
    if (spec.param(name)) return;
    ParamSpec ps;
    ps.name = name;
    ps.type = t;
    ps.description = desc;
    spec.params.push_back(ps);
  };
  add("timeout", ParamType::kDuration, "");
  add("retry", ParamType::kInteger, "");
  add("no_verify", ParamType::kBoolean, "");
  if (!def.checkpoints().empty()) add("resume", ParamType::kString, "checkpoint to resume from");
  spec.usage = usage;
  // Unknown effects: MCP's defaults (destructive, open world). Built-ins say what they do.
  spec.read_only = false;
  spec.destructive = true;
  spec.idempotent = false;
  spec.open_world = true;
  if (def.tier == "builtin") {
    static const std::map<std::string, std::pair<bool, bool>> kEffects = {
        // name -> {destructive, idempotent}
        {"login", {false, false}},         {"logout", {true, false}},       {"search", {false, true}},
        {"accept_cookies", {false, true}}, {"dismiss_popups", {false, true}}, {"fill_form", {false, true}},
        {"submit_form", {true, false}},    {"scroll_to", {false, true}}};
    auto it = kEffects.find(def.name);
    if (it != kEffects.end()) {
      spec.destructive = it->second.first;
      spec.idempotent = it->second.second;
    }
  }
  return spec;
}

std::shared_ptr<const IntentEntry> makeEntry(IntentDef def) {
  auto e = std::make_shared<IntentEntry>();
  auto d = std::make_shared<IntentDef>(std::move(def));
  e->spec = specForIntent(*d);
  e->def = d;
  return e;
}

IntentRegistry::IntentRegistry(Sources sources, std::vector<IntentDef> builtins)
    : sources_(std::move(sources)), priority_(defaultTierPriority()) {
  for (auto& b : builtins) builtins_.push_back(makeEntry(std::move(b)));
  reload();
}

void IntentRegistry::reload() {
  std::vector<std::shared_ptr<const IntentEntry>> loaded;
  std::vector<Status> errors;
  auto load = [&](const std::string& dir, const std::string& tier, bool trusted) {
    LoadOptions o;
    o.tier = tier;
    o.trusted = trusted;
    auto r = loadIntentDirectory(dir, o);
    for (auto& d : r.intents) loaded.push_back(makeEntry(std::move(d)));
    errors.insert(errors.end(), r.errors.begin(), r.errors.end());
  };
  // Shipped and user-chosen files are trusted (§13.3 builtin/local); session intents are not.
  load(sources_.core_dir, "core", true);
  load(sources_.user_dir, "user", true);
  for (const auto& d : sources_.extra_dirs) load(d, "user", true);
  std::lock_guard<std::mutex> lock(mu_);
  loaded_ = std::move(loaded);
  errors_ = std::move(errors);
  ++generation_;
}

void IntentRegistry::setPriority(std::vector<std::string> tiers) {
  std::lock_guard<std::mutex> lock(mu_);
  priority_ = std::move(tiers);
  ++generation_;
}

std::vector<std::string> IntentRegistry::priority() const {
  std::lock_guard<std::mutex> lock(mu_);
  return priority_;
}

int IntentRegistry::rank(const std::string& tier, const std::vector<std::string>& priority) const {
  const auto& order = priority.empty() ? priority_ : priority;
  auto it = std::find(order.begin(), order.end(), tier);
  return it == order.end() ? 1000 : static_cast<int>(it - order.begin());
}

std::shared_ptr<const IntentEntry> IntentRegistry::find(
    const std::string& name, const std::map<std::string, std::shared_ptr<const IntentEntry>>* session,
    const std::vector<std::string>& priority, const Entries* packs) const {
  std::lock_guard<std::mutex> lock(mu_);
  std::shared_ptr<const IntentEntry> best;
  auto consider = [&](const std::shared_ptr<const IntentEntry>& e) {
    if (e->def->name != name) return;
    int r = rank(e->def->tier, priority);
    if (r >= 1000) return;  // a tier left out of the priority list is not used
    if (!best || r < rank(best->def->tier, priority)) best = e;
  };
  if (session) {
    auto it = session->find(name);
    if (it != session->end()) consider(it->second);
  }
  if (packs) {
    for (const auto& e : *packs) consider(e);
  }
  for (const auto& e : loaded_) consider(e);
  for (const auto& e : builtins_) consider(e);
  return best;
}

std::vector<std::shared_ptr<const IntentEntry>> IntentRegistry::all(const Entries* packs) const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::shared_ptr<const IntentEntry>> out;
  if (packs) out = *packs;
  for (const auto& e : loaded_) out.push_back(e);
  for (const auto& e : builtins_) out.push_back(e);
  std::stable_sort(out.begin(), out.end(), [&](const auto& a, const auto& b) {
    if (a->def->name != b->def->name) return a->def->name < b->def->name;
    return rank(a->def->tier, {}) < rank(b->def->tier, {});
  });
  return out;
}

std::vector<Status> IntentRegistry::errors() const {
  std::lock_guard<std::mutex> lock(mu_);
  return errors_;
}

uint64_t IntentRegistry::generation() const {
  std::lock_guard<std::mutex> lock(mu_);
  return generation_;
}

}  // namespace lscope
