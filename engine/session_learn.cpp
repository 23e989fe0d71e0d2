// The Session's side of the intent learner (intent-engine.md §8, issue 18): what each acting
// command leaves in the store, the "# discovered intent" section, and the commands that turn a
// proposal into a discovered intent (learned, accept, reject, refine, forget).
#include <algorithm>
#include <cctype>
#include <sstream>

#include <spdlog/spdlog.h>

#include "engine/define_shorthand.h"
#include "engine/intent_loader.h"
#include "engine/observation.h"
#include "engine/session.h"

namespace lscope {

namespace {

const std::set<std::string>& learnedActions() {
  static const std::set<std::string> k = {"goto", "click", "type", "select", "check", "uncheck", "press", "clear"};
  return k;
}

std::string lowerText(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string firstWord(const std::string& line, size_t* end = nullptr) {
  size_t b = line.find_first_not_of(" \t");
  if (b == std::string::npos) {
    if (end) *end = line.size();
    return "";
  }
  size_t e = line.find_first_of(" \t", b);
  if (e == std::string::npos) e = line.size();
  if (end) *end = e;
  return line.substr(b, e - b);
}

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

// Whether the field's label, name or selector names a field the user excluded (§8.5).
bool excludedField(const std::vector<std::string>& names, const Observed& o) {
  std::string hay = lowerText(o.text + " " + o.field + " " + o.selector);
  for (const auto& n : names) {
    if (!n.empty() && hay.find(lowerText(n)) != std::string::npos) return true;
  }
  return false;
}

// A URL with the values of its sensitive query parameters masked (?token=…, &password=…): a
// magic link or a form that sends a secret by GET keeps it out of the store.
std::string maskQuery(const std::string& url) {
  auto q = url.find('?');
  if (q == std::string::npos) return url;
  auto hash = url.find('#', q);
  std::string query = url.substr(q + 1, hash == std::string::npos ? std::string::npos : hash - q - 1);
  std::string out;
  size_t start = 0;
  while (start <= query.size()) {
    size_t amp = query.find('&', start);
    std::string pair = query.substr(start, amp == std::string::npos ? std::string::npos : amp - start);
    size_t eq = pair.find('=');
    if (eq != std::string::npos && isSensitiveName(pair.substr(0, eq))) pair = pair.substr(0, eq + 1) + kMask;
    out += (out.empty() && start == 0 ? "" : "&") + pair;
    if (amp == std::string::npos) break;
    start = amp + 1;
  }
  return url.substr(0, q + 1) + out + (hash == std::string::npos ? "" : url.substr(hash));
}

}  // namespace

Session::LearnBefore Session::learnBefore(const Command& c) const {
  LearnBefore b;
  if (!browser_.last || !learnedActions().count(c.name)) return b;
  b.url = browser_.last->url;
  b.document = browser_.last->document;
  for (const auto& p : browser_.last->patterns) {
    b.patterns += (b.patterns.empty() ? "" : ",") + p.name;
    for (const auto& [field, id] : p.fields) b.members.emplace(id, p.name + "." + field);
  }
  return b;
}

void Session::learn(const Command& original, const Command& c, const LearnBefore& before, Response& r) {
  const LearnerConfig& cfg = config_.learner;
  if (!r.ok() || !learnedActions().count(c.name)) return;
  Observed o;
  o.action = c.name;
  std::string url = before.url;
  if (c.name == "goto") {
    url = browser_.last ? browser_.last->url : c.args.value("url", "");
    o.value = maskQuery(url);
  }
  if (url.empty() && browser_.last) url = browser_.last->url;
  o.domain = urlHost(url);
  o.path = urlPath(url);
  if (o.domain.empty() || cfg.excludes(o.domain)) return;
  o.patterns = c.name == "goto" ? "" : before.patterns;
  const json& t = r.data.contains("target") ? r.data["target"] : json();
  const Element* el = nullptr;
  if (t.is_object()) {
    o.text = t.value("text", "");
    o.role = t.value("role", "");
    o.type = t.value("type", "");
    o.selector = t.value("selector", "");
    int id = t.value("id", 0);
    if (auto m = before.members.find(id); m != before.members.end()) o.member = m->second;
    // The element as scanned, while the page is still that document (a navigation took it).
    if (browser_.last && browser_.last->document == before.document) {
      el = browser_.last->byId(id);
      if (el && el->text != o.text) el = nullptr;
    }
    if (el) o.field = el->attributes.value("name", "");
  }
  if (c.name == "type") {
    o.value = original.args.value("text", "");
    o.enter = original.args.value("enter", false);
  } else if (c.name == "select") {
    const json& v = original.args.contains("option") ? original.args["option"] : original.args.value("value", json());
    o.value = v.is_string() ? v.get<std::string>() : v.is_null() ? "" : v.dump();
  } else if (c.name == "press") {
    o.value = original.args.value("key", "");
  }
  // §13.1, §8.5: a password, a field on the sensitive list or the user's exclude list, a
  // secret: reference or a value the session knows as a secret is never stored.
  std::string given = original.args.value("text", "");
  bool secret_ref = given.rfind("secret:", 0) == 0;
  bool known_secret = !o.value.empty() && std::find(browser_.secrets.begin(), browser_.secrets.end(), o.value) != browser_.secrets.end();
  o.sensitive = (el && el->isSensitive()) || o.role == "password" || isSensitiveName(o.text) || isSensitiveName(o.field) ||
                secret_ref || known_secret || excludedField(cfg.exclude_fields, o);
  if (o.sensitive) o.value.clear();
  // §13.1: whatever the page put a secret into (its URL's query after a GET form, a label)
  // is masked as in responses; the page's own query is not kept with the path at all.
  o.path = o.path.substr(0, o.path.find_first_of("?#"));
  for (std::string* f : {&o.value, &o.text, &o.selector, &o.field, &o.path}) *f = scrubText(*f, browser_.secrets);
  if (!learn_session_) {
    auto id = options_.learner->newSession();
    if (!id) {
      spdlog::warn("learner: {}", id.status().message());
      return;
    }
    learn_session_ = *id;
  }
  o.session = learn_session_;
  o.seq = ++learn_seq_;
  Status s = options_.learner->record(o);
  if (!s) {
    spdlog::warn("learner: {}", s.message());
    return;
  }

  // §8.2–8.3: what this command completes, proposed once per session. The domain's history is
  // read from the store when the agent arrives on it, and again after 30 s for what other
  // processes added; in between this session's commands are appended to it.
  auto now = Clock::now();
  if (!learn_index_ || learn_index_->domain() != o.domain || now - learn_loaded_ > std::chrono::seconds(30)) {
    if (!learn_index_) learn_index_ = std::make_unique<LearnerIndex>();
    learn_index_->reset(options_.learner->history(o.domain, 20, 150));
    learn_loaded_ = now;
  } else {
    learn_index_->add(o);
  }
  if (learn_index_->commands(learn_session_) < 2) return;
  // The domain's stored proposals, read only when recognition has something to name or compare.
  std::optional<std::vector<ProposalRow>> stored_rows;
  auto storedRows = [&]() -> std::vector<ProposalRow>& {
    if (!stored_rows) stored_rows = options_.learner->proposals(o.domain);
    return *stored_rows;
  };
  auto taken = [&](const std::string& n) {
    if (findCommand(n) || findIntent(n)) return true;
    return std::any_of(storedRows().begin(), storedRows().end(), [&](const ProposalRow& p) { return p.name == n; });
  };
  for (auto& p : learn_index_->recognize(learn_session_, cfg, taken)) {
    auto& stored = storedRows();
    if (p.continues) continue;  // the earlier occurrences went on: propose the whole sequence
    auto same = std::find_if(stored.begin(), stored.end(), [&](const ProposalRow& q) { return sameTemplate(q.tmpl, p.row.tmpl); });
    if (same == stored.end()) {
      // A proposal that has grown (a step more than when first proposed) keeps its name.
      same = std::find_if(stored.begin(), stored.end(), [&](const ProposalRow& q) {
        return q.status == "proposed" && containsTemplate(p.row.tmpl, q.tmpl);
      });
      if (same != stored.end()) announced_.erase(same->name);
    }
    if (same != stored.end()) {
      if (same->status != "proposed") continue;  // rejected, or already an intent
      if (refining_ && refining_->name == same->name) continue;
      // The same sequence seen again: its counts and what varied now, under its first name.
      p.row.name = same->name;
      p.row.definition["intent"] = same->name;
    }
    options_.learner->putProposal(p.row);
    if (cfg.auto_accept) {
      std::string error;
      if (registerDiscovered(p.row.definition, &error)) {
        p.row.status = cfg.persistence == "user" ? "saved" : "accepted";
        options_.learner->putProposal(p.row);
        r.add("discovered intent", p.row.name + " saved (auto_accept): " + p.row.name + " is a tool now");
      }
      continue;
    }
    if (!announced_.insert(p.row.name).second) continue;
    for (const auto& line : describeProposal(p.row)) r.add("discovered intent", line);
    r.add("discovered intent", "accept " + p.row.name + " | refine " + p.row.name + " | reject " + p.row.name);
    if (!r.data.contains("discovered")) r.data["discovered"] = json::array();
    r.data["discovered"].push_back({{"name", p.row.name}, {"confidence", p.row.confidence}, {"observations", p.row.observations}});
  }
}

bool Session::registerDiscovered(const json& definition, std::string* error) {
  LoadOptions o;
  o.tier = "discovered";
  o.trusted = false;  // learned from an agent: no scripts (§13.2)
  auto def = parseIntent(definitionYaml(definition), "learned", o);
  if (!def) {
    if (error) *error = def.status().message();
    return false;
  }
  std::string name = def->name;
  auto entry = makeEntry(std::move(def.value()));
  std::lock_guard<std::mutex> lock(intents_mu_);
  session_intents_[name] = entry;
  ++session_generation_;
  return true;
}

void Session::loadDiscovered() {
  if (config_.learner.persistence != "user") return;
  for (const auto& p : options_.learner->proposals()) {
    if (p.status != "saved" || findCommand(p.name)) continue;
    std::string error;
    if (!registerDiscovered(p.definition, &error)) spdlog::warn("learner: saved intent {} does not load: {}", p.name, error);
  }
}

namespace {

Response learnerOff(const std::string& command) {
  return errorResponse(command, Status(codes::kUnsupported, "the intent learner is off",
                                       "it is on by default for local stdio use; intent_learner.enabled: true in config.yaml"));
}

}  // namespace

Response Session::doLearned(const Command& c) {
  if (!options_.learner) return learnerOff(c.name);
  bool all = c.args.value("all", false);
  auto rows = options_.learner->proposals();
  int proposed = 0, saved = 0, rejected = 0;
  Response r = okResponse("learned");
  json list = json::array();
  for (const auto& p : rows) {
    if (p.status == "proposed") ++proposed;
    if (p.status == "saved" || p.status == "accepted") ++saved;
    if (p.status == "rejected") ++rejected;
    if (p.status == "rejected" && !all) continue;
    std::string section = p.status == "proposed" ? "proposed" : p.status == "rejected" ? "rejected" : "saved";
    auto lines = describeProposal(p);
    for (size_t i = 0; i < lines.size(); ++i) r.add(section, (i ? "  " : "") + lines[i]);
    list.push_back({{"name", p.name}, {"domain", p.domain}, {"status", p.status}, {"confidence", p.confidence},
                    {"observations", p.observations}, {"definition", p.definition}});
  }
  r.summary = std::to_string(proposed) + " proposed, " + std::to_string(saved) + " saved" +
              (rejected ? ", " + std::to_string(rejected) + " rejected" : "");
  if (rows.empty()) r.add("next", "Nothing yet: a sequence repeated " + std::to_string(config_.learner.min_observations) + " times on one site is proposed.");
  r.data["proposals"] = list;
  r.data["store"] = options_.learner->path();
  return r;
}

namespace {

Status noProposal(const std::string& name) {
  return Status(codes::kIntentNotFound, "no learner proposal named \"" + name + "\"", "learned lists them");
}

}  // namespace

Response Session::doAccept(const Command& c) {
  if (!options_.learner) return learnerOff(c.name);
  std::string name = c.args.value("name", "");
  auto p = options_.learner->proposal(name);
  if (!p) return errorResponse("accept", noProposal(name));
  json definition = refining_ && refining_->name == name ? refining_->definition : p->definition;
  std::string error;
  if (!registerDiscovered(definition, &error)) {
    return errorResponse("accept", Status(codes::kDefinitionInvalid, "\"" + name + "\" does not load: " + error, "refine " + name));
  }
  p->definition = definition;
  p->status = config_.learner.persistence == "user" ? "saved" : "accepted";
  Status s = options_.learner->putProposal(*p);
  if (!s) return errorResponse("accept", s);
  if (refining_ && refining_->name == name) refining_.reset();
  Response r = okResponse("accept", name);
  r.add("saved", "Intent '" + name + "' saved to discovered intents" +
                     (p->status == "saved" ? " (every later session has it)." : " (this session)."));
  r.add("next", "Use 'export " + name + "' to persist it to a file.");
  r.data["name"] = name;
  return r;
}

Response Session::doReject(const Command& c) {
  if (!options_.learner) return learnerOff(c.name);
  std::string name = c.args.value("name", "");
  auto p = options_.learner->proposal(name);
  if (!p) return errorResponse("reject", noProposal(name));
  p->status = "rejected";
  Status s = options_.learner->putProposal(*p);
  if (!s) return errorResponse("reject", s);
  if (refining_ && refining_->name == name) refining_.reset();
  Response r = okResponse("reject", name);
  r.add("next", "It is not proposed again; forget " + p->domain + " clears what was learned there.");
  return r;
}

Response Session::doForget(const Command& c) {
  if (!options_.learner) return learnerOff(c.name);
  bool all = c.args.value("all", false);
  std::string domain = c.args.value("domain", "");
  if (all == !domain.empty()) {
    return errorResponse("forget", Status(codes::kParameterMissing, "forget needs a domain or --all", "forget shop.example | forget --all"));
  }
  auto before = options_.learner->proposals(domain);
  auto n = options_.learner->forget(domain);
  if (!n) return errorResponse("forget", n.status());
  {
    // Its saved intents leave this session too.
    std::lock_guard<std::mutex> lock(intents_mu_);
    for (const auto& p : before) {
      auto it = session_intents_.find(p.name);
      if (it != session_intents_.end() && it->second->def->tier == "discovered") {
        session_intents_.erase(it);
        ++session_generation_;
      }
    }
  }
  announced_.clear();
  refining_.reset();
  learn_index_.reset();
  Response r = okResponse("forget", all ? "everything" : domain);
  r.add("deleted", std::to_string(*n) + " rows");
  r.data["deleted"] = *n;
  return r;
}

std::optional<Command> Session::refineLine(const std::string& line) const {
  size_t end = 0;
  std::string w = lowerText(firstWord(line, &end));
  static const std::set<std::string> kBare = {"add", "remove", "edit", "test", "save", "cancel", "rename"};
  Command c;
  c.name = "refine";
  c.source = "refine";
  if (w == "refine") {
    size_t name_end = 0;
    std::string rest = line.substr(end);
    std::string name = firstWord(rest, &name_end);
    if (name.empty()) return std::nullopt;  // the parser says what is missing
    c.args["name"] = name;
    std::string change = trim(rest.substr(name_end));
    if (!change.empty()) c.args["change"] = change;
    return c;
  }
  if (refining_ && kBare.count(w) && !findCommand(w)) {
    c.args["name"] = refining_->name;
    c.args["change"] = trim(line);
    return c;
  }
  return std::nullopt;
}

namespace {

// A YAML flow map as JSON, read as the intent loader reads a file (engine/intent_loader.h: YAML
// 1.2 core scalars, bounded nesting and aliases, errors with line and column).
Result<json> flowMap(const std::string& text) {
  auto j = parseYamlDocument(text, "step", codes::kDefinitionInvalid);
  if (!j) return j.status();
  if (j->is_object()) return j;
  return Status(codes::kDefinitionInvalid, "not a map: " + text);
}

// One step as written in refine (§8.4): `type { pattern: review_form.body } $text` (an action,
// its target as a flow map, then the text or value), a whole flow map ({action: click, target:
// {text: Submit}}), or an OIL step line of the define shorthand (type "Review" $text).
Result<json> parseStep(const std::string& text, const json& definition) {
  std::string t = trim(text);
  if (t.empty()) return Status(codes::kParameterMissing, "give the step", "edit step 2 click \"Submit review\"");
  if (t[0] == '{') return flowMap(t);
  size_t word_end = 0;
  std::string action = firstWord(t, &word_end);
  std::string after = trim(t.substr(word_end));
  if (!after.empty() && after[0] == '{') {
    int depth = 0;
    size_t close = std::string::npos;
    for (size_t i = 0; i < after.size(); ++i) {
      if (after[i] == '{') ++depth;
      if (after[i] == '}' && --depth == 0) {
        close = i;
        break;
      }
    }
    if (close == std::string::npos) return Status(codes::kDefinitionInvalid, "the target's { has no }");
    auto target = flowMap(after.substr(0, close + 1));
    if (!target) return target.status();
    json step = {{"action", lowerText(action)}, {"target", *target}};
    std::string rest = trim(after.substr(close + 1));
    if (rest.size() >= 2 && (rest.front() == '"' || rest.front() == '\'') && rest.back() == rest.front()) rest = rest.substr(1, rest.size() - 2);
    if (!rest.empty()) step[step["action"] == "select" ? "value" : "text"] = rest;
    return step;
  }
  // The shorthand needs the parameters a step names to exist.
  std::string doc = "step:\n";
  const json params = definition.value("parameters", json::array());
  if (!params.empty()) doc += "  parameters:\n";
  for (const auto& p : params) doc += "    - " + p.value("name", "") + ": " + p.value("type", "string") + "\n";
  doc += "  steps:\n    - " + t + "\n";
  auto full = expandShorthand(doc, "step");
  if (!full) return Status(codes::kDefinitionInvalid, "not a step: " + full.status().message(), full.status().hint());
  const json& steps = (*full)["steps"];
  if (!steps.is_array() || steps.size() != 1) return Status(codes::kDefinitionInvalid, "give one step");
  return steps[0];
}

Result<size_t> stepNumber(const std::string& word, size_t count, bool insert) {
  char* end = nullptr;
  long n = std::strtol(word.c_str(), &end, 10);
  size_t max = insert ? count + 1 : count;
  if (word.empty() || *end || n < 1 || static_cast<size_t>(n) > max) {
    return Status(codes::kParameterInvalid, "step \"" + word + "\" is not 1.." + std::to_string(max));
  }
  return static_cast<size_t>(n - 1);
}

}  // namespace

Response Session::doRefine(const Command& c, Page& page) {
  if (!options_.learner) return learnerOff(c.name);
  std::string name = c.args.value("name", "");
  if (!refining_ || refining_->name != name) {
    auto p = options_.learner->proposal(name);
    if (!p) {
      // A discovered intent already saved is refined from its definition.
      auto e = findIntent(name);
      if (!e || e->def->tier != "discovered") return errorResponse("refine", noProposal(name));
      refining_ = Refining{name, e->def->document};
    } else {
      refining_ = Refining{name, p->definition};
    }
  }
  json& d = refining_->definition;
  std::string change = c.args.value("change", "");
  size_t end = 0;
  std::string verb = lowerText(firstWord(change, &end));
  std::string rest = trim(change.substr(end));
  size_t end2 = 0;
  std::string what = lowerText(firstWord(rest, &end2));
  std::string rest2 = trim(rest.substr(end2));
  Response r = okResponse("refine", name);
  auto show = [&](const std::string& title) {
    std::string yaml = definitionYaml(d);
    std::stringstream ss(yaml);
    for (std::string l; std::getline(ss, l);) r.add(title, l);
  };
  auto fail = [&](const Status& s) { return errorResponse("refine", s); };
  if (verb.empty()) {
    show("current definition");
    r.add("commands", "add param <name>:<type> [--optional] | remove param <name> | edit step <n> <step> | add step <n> <step>");
    r.add("commands", "remove step <n> | rename <new> | test [--<param> <value> ...] | save | cancel");
    r.data["definition"] = d;
    return r;
  }
  if (verb == "cancel") {
    refining_.reset();
    r.summary = name + " (changes discarded)";
    return r;
  }
  if (verb == "save") {
    Command a;
    a.name = "accept";
    a.args["name"] = name;
    Response s = doAccept(a);
    s.command = "refine";
    return s;
  }
  const json unchanged = d;  // a change that leaves a definition that does not load is undone
  json& params = d["parameters"];
  if (!params.is_array()) params = json::array();
  json& steps = d["steps"];
  if (verb == "add" && what == "param") {
    // add param title:string [--optional] [--default V]
    std::stringstream ss(rest2);
    std::string spec;
    ss >> spec;
    auto colon = spec.find(':');
    std::string pname = spec.substr(0, colon);
    std::string ptype = colon == std::string::npos ? "string" : spec.substr(colon + 1);
    if (pname.empty() || !std::all_of(pname.begin(), pname.end(), [](unsigned char ch) { return std::islower(ch) || std::isdigit(ch) || ch == '_'; })) {
      return fail(Status(codes::kParameterInvalid, "parameter names are lowercase words: add param title:string"));
    }
    if (ptype != "string" && ptype != "number" && ptype != "boolean") {
      return fail(Status(codes::kParameterInvalid, "type \"" + ptype + "\": string, number or boolean"));
    }
    for (const auto& p : params) {
      if (p.value("name", "") == pname) return fail(Status(codes::kParameterInvalid, "\"" + pname + "\" is a parameter already"));
    }
    json p = {{"name", pname}, {"type", ptype}, {"required", rest2.find("--optional") == std::string::npos}};
    params.push_back(p);
  } else if (verb == "remove" && what == "param") {
    std::string pname = firstWord(rest2);
    auto it = std::find_if(params.begin(), params.end(), [&](const json& p) { return p.value("name", "") == pname; });
    if (it == params.end()) return fail(Status(codes::kParameterInvalid, "no parameter \"" + pname + "\""));
    std::string ref = "$" + pname;
    if (steps.dump().find("\"" + ref + "\"") != std::string::npos) {
      return fail(Status(codes::kParameterInvalid, "a step still uses " + ref, "edit that step first"));
    }
    params.erase(it);
  } else if ((verb == "edit" || verb == "add" || verb == "remove") && what == "step") {
    size_t e3 = 0;
    std::string num = firstWord(rest2, &e3);
    auto idx = stepNumber(num, steps.size(), verb == "add");
    if (!idx) return fail(idx.status());
    if (verb == "remove") {
      if (steps.size() == 1) return fail(Status(codes::kParameterInvalid, "an intent keeps at least one step"));
      steps.erase(steps.begin() + static_cast<long>(*idx));
    } else {
      auto step = parseStep(rest2.substr(e3), d);
      if (!step) return fail(step.status());
      if (verb == "edit") {
        steps[*idx] = *step;
      } else {
        steps.insert(steps.begin() + static_cast<long>(*idx), *step);
      }
    }
  } else if (verb == "rename") {
    std::string to = what;
    if (to.empty() || findCommand(to) || findIntent(to) || options_.learner->proposal(to)) {
      return fail(Status(codes::kParameterInvalid, "\"" + to + "\" is taken or empty"));
    }
    auto p = options_.learner->proposal(name);
    if (p) {
      options_.learner->removeProposal(name);
      p->name = to;
      p->definition["intent"] = to;
      options_.learner->putProposal(*p);
    }
    d["intent"] = to;
    refining_->name = to;
    name = to;
    r.summary = to;
  } else if (verb == "test") {
    // The draft, run once on the current page with the values given (§8.4).
    if (params.empty()) d.erase("parameters");
    LoadOptions o;
    o.tier = "discovered";
    auto def = parseIntent(definitionYaml(d), "refine", o);
    if (!def) return fail(Status(codes::kDefinitionInvalid, def.status().message(), def.status().hint()));
    auto entry = makeEntry(std::move(def.value()));
    CommandLookup only = [&](const std::string& n) -> const CommandSpec* { return n == name ? &entry->spec : nullptr; };
    auto parsed = parseLine(name + " " + rest, only);
    if (!parsed) return fail(parsed.status());
    if (!parsed->has_value()) return fail(Status(codes::kParameterMissing, "nothing to test"));
    Response t = runIntent(*this, **parsed, page, *entry);
    t.command = "refine";
    t.summary = std::string(t.ok() ? "test passed" : "test failed") + (t.summary.empty() ? "" : ": " + t.summary);
    t.add("next", t.ok() ? "save, or change more" : "change the failing step (edit step <n> ...), then test again");
    return t;
  } else {
    return fail(Status(codes::kParameterInvalid, "unknown refinement \"" + change + "\"",
                       "add param, remove param, edit step, add step, remove step, rename, test, save, cancel"));
  }
  if (params.empty()) d.erase("parameters");
  // Every change must leave a loadable definition.
  LoadOptions o;
  o.tier = "discovered";
  auto check = parseIntent(definitionYaml(d), "refine", o);
  if (!check) {
    d = unchanged;
    return fail(Status(codes::kDefinitionInvalid, "not changed: " + check.status().message(), check.status().hint()));
  }
  // The change, compactly (the whole YAML is `refine NAME`).
  ProposalRow shown;
  shown.name = name;
  shown.definition = d;
  auto lines = describeProposal(shown);
  for (size_t i = 1; i < lines.size(); ++i) r.add("updated", lines[i]);
  r.data["definition"] = d;
  return r;
}

}  // namespace lscope
