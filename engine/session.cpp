// Session: keeps one agent's state and dispatches each command by table: page commands to
// page_commands.cpp on a Page, intents to the executor, the rest (intents, define, config) here.
#include "engine/session.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include <spdlog/spdlog.h>

#include "engine/builtins/builtins.h"
#include "engine/commands.h"
#include "engine/define_shorthand.h"
#include "engine/do_parser.h"
#include "engine/files.h"
#include "engine/intent_loader.h"
#include "engine/observation.h"
#include "engine/page_commands.h"
#include "engine/secrets.h"

namespace lscope {

Session::Session(BackendFactory* factory, SessionOptions options)
    : factory_(factory), options_(std::move(options)), config_(options_.config) {
  if (options_.strict) config_.strict_mode = true;
  env_.factory = factory_;
  env_.settle_quiet = options_.settle_quiet;
  env_.settle_network_quiet = std::max(env_.settle_network_quiet, options_.settle_quiet);
  env_.settle_max = options_.settle_max;
  env_.strict = config_.strict_mode;
  env_.pattern_rules = options_.pattern_rules;
  env_.policy = options_.policy ? options_.policy : std::make_shared<const NavigationPolicy>();
  applyPackRules();
  if (!options_.trace.dir.empty()) {
    // The file's name: the start time and a random tag, so sessions never share a file.
    std::random_device rd;
    char tag[32];
    std::snprintf(tag, sizeof tag, "%lld-%06x", static_cast<long long>(std::time(nullptr)), rd() & 0xffffffu);
    tracer_ = std::make_unique<TraceWriter>(options_.trace, tag);
  }
  if (!options_.record_file.empty()) recorder_ = std::make_unique<Recorder>(options_.record_file);
  if (options_.learner) loadDiscovered();
}

Session::~Session() = default;

// --- dispatch ---------------------------------------------------------------------------------

const CommandSpec* Session::specFor(const std::string& name) {
  if (const CommandSpec* s = findCommand(name)) return s;
  auto entry = findIntent(name);
  return entry ? &entry->spec : nullptr;
}

CommandLookup Session::lookup() {
  return [this](const std::string& name) -> const CommandSpec* {
    auto entry = findIntent(name);
    return entry ? &entry->spec : nullptr;
  };
}

std::shared_ptr<const IntentEntry> Session::findIntent(const std::string& name) const {
  std::lock_guard<std::mutex> lock(intents_mu_);
  if (options_.registry) return options_.registry->find(name, &session_intents_, config_.tier_priority, &pack_intents_);
  auto it = session_intents_.find(name);
  if (it != session_intents_.end()) return it->second;
  for (const auto& e : pack_intents_) {
    if (e->def->name == name) return e;
  }
  return nullptr;
}

std::vector<std::shared_ptr<const IntentEntry>> Session::intents() const {
  std::vector<std::shared_ptr<const IntentEntry>> out;
  std::set<std::string> seen;
  auto add = [&](const std::string& name) {
    if (!seen.insert(name).second) return;
    if (auto e = findIntent(name)) out.push_back(e);
  };
  std::vector<std::string> names;
  {
    std::lock_guard<std::mutex> lock(intents_mu_);
    for (const auto& [name, e] : session_intents_) names.push_back(name);
    for (const auto& e : pack_intents_) names.push_back(e->def->name);
  }
  if (options_.registry) {
    for (const auto& e : options_.registry->all()) names.push_back(e->def->name);
  }
  for (const auto& n : names) add(n);
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a->def->name < b->def->name; });
  return out;
}

uint64_t Session::intentsGeneration() const {
  std::lock_guard<std::mutex> lock(intents_mu_);
  return session_generation_ + (options_.registry ? options_.registry->generation() << 20 : 0);
}

Status Session::resolveSecrets(Command& command, Page& page) {
  const CommandSpec* spec = specFor(command.name);
  if (!spec) return Status::ok();
  for (const auto& p : spec->params) {
    if (!p.secret_ref || !command.args.contains(p.name) || !command.args[p.name].is_string()) continue;
    std::string name;
    if (!parseSecretRef(command.args[p.name].get<std::string>(), &name)) continue;
    std::optional<std::string> value;
    if (auto it = session_secrets_.find(name); it != session_secrets_.end()) value = it->second;
    if (!value && options_.secrets) value = options_.secrets->get(name);
    if (!value && page.call.elicit_secret) {
      auto asked = page.call.elicit_secret(name);
      if (!asked) return asked.status();
      value = *asked;
      session_secrets_[name] = *value;
    }
    if (!value) {
      return Status(codes::kParameterMissing, "secret '" + name + "' is not set",
                    "add " + name + "=... to the --secrets file, or set " + secretEnvName(name) +
                        " in the server's environment");
    }
    page.rememberSecret(*value);
    command.args[p.name] = *value;
  }
  return Status::ok();
}

Response Session::guardedDispatch(const Command& command, Page& page) {
  // Whatever a command throws is our bug (a browser's answer of a shape we did not expect): the
  // command fails with it, through the same masking, trace and events as any error, and lscope
  // goes on; `lscope run` has no other catch, and an MCP client would get a bare error.
  try {
    return dispatch(command, page);
  } catch (const std::exception& e) {
    spdlog::error("{} threw: {}", command.name, e.what());
    return errorResponse(command.name, Status(codes::kInternal, std::string("internal error: ") + e.what(),
                                              "try again; if it repeats, report it with the trace (--trace)"));
  }
}

Response Session::execute(const Command& original, const CallContext& context) {
  // The command's deadline: the server's per-command timeout, longer when the command asks to
  // wait longer (--timeout).
  Deadline deadline = Deadline::in(options_.command_timeout);
  if (original.args.contains("timeout") && original.args["timeout"].is_number()) {
    long long ms = original.args["timeout"].get<long long>() + 5000;
    if (Millis(ms) > options_.command_timeout) deadline = Deadline::inMs(ms);
  }
  env_.strict = config_.strict_mode;
  if (options_.packs && options_.packs->generation() != packs_generation_) applyPackRules();
  const auto started = Clock::now();
  Page page(browser_, env_, deadline, context);
  Command command = original;
  Status secrets = resolveSecrets(command, page);
  std::string url_before = browser_.last ? browser_.last->url : "";
  LearnBefore learn_before;
  if (options_.learner) learn_before = learnBefore(command);
  Response r = secrets ? guardedDispatch(command, page) : errorResponse(command.name, secrets);
  // An error answers with the page's events too (a dialog, a script lscope stopped): the next
  // command's answer would tell them late, beside a page they no longer describe.
  if (!r.ok()) page.reportEvents(r);
  if (options_.packs && browser_.last) {
    // §9.6: the packs follow the page, whichever command moved it.
    const std::string& url = browser_.last->url;
    syncPacks(url);
    takePackNotes(r);
    if (url != url_before && !urlHost(url).empty()) {
      // §12.3 after_navigate, for each loaded pack that serves the new page.
      for (const auto& p : activePacks()) {
        if (!p->runtime->hooks.count("after_navigate") || !p->servesHost(urlHost(url))) continue;
        Response h = runPackHook(*this, page, p->runtime, "after_navigate");
        for (const auto& [title, lines] : h.sections) {
          for (const auto& l : lines) r.add(title, l);
        }
        if (!h.ok()) r.add("hooks", "! " + h.summary + (h.code.empty() ? "" : " (" + h.code + ")"));
      }
    }
  }
  scrub(r);  // §13.1: a typed secret never comes back, wherever the page puts it
  if (!r.ok()) r.data["code"] = r.code;
  r.data["ok"] = r.ok();
  if (context.cancelled() && r.code.empty()) r.code = codes::kCancelled;
  if (tracer_) trace(command, r, started, page);
  if (recorder_) recorder_->add(command, r);
  if (options_.learner) {
    // Learning never costs the agent its answer.
    try {
      learn(original, command, learn_before, r);
    } catch (const std::exception& e) {
      spdlog::warn("learner: {}", e.what());
    }
    scrub(r);
  }
  return r;
}

void Session::trace(const Command& command, const Response& r, Clock::time_point started, Page& page) {
  using namespace std::chrono;
  const auto now = system_clock::now();
  const auto ms = duration_cast<milliseconds>(Clock::now() - started).count();
  char when[40];
  std::time_t secs = system_clock::to_time_t(now);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S", &tm);
  std::string t = std::string(when) + "." + std::to_string(1000 + duration_cast<milliseconds>(now.time_since_epoch()).count() % 1000).substr(1) + "Z";
  // Arguments a command marks sensitive (do's sentence, a secret value) are never written.
  json args = command.args;
  const CommandSpec* spec = specFor(command.name);
  if (spec) {
    for (const auto& p : spec->params) {
      if (p.sensitive && args.contains(p.name)) args[p.name] = kMask;
    }
  }
  auto section = [&](const std::string& title) {
    json lines = json::array();
    for (const auto& [name, ls] : r.sections) {
      if (name != title) continue;
      for (const auto& l : ls) lines.push_back(l);
    }
    return lines;
  };
  json entry = {{"t", t}, {"ms", ms}, {"command", command.name}, {"args", args}, {"ok", r.ok()}};
  if (command.target) entry["target"] = command.target->toString();
  if (r.data.contains("target")) {
    entry["resolved"] = r.data["target"];
    // Where the target is on the page's last scan (viewport pixels), for the report's outline.
    const json& id = r.data["target"].contains("id") ? r.data["target"]["id"] : json();
    if (id.is_number_integer() && browser_.last) {
      for (const auto& el : browser_.last->elements) {
        if (el.id != id.get<int>()) continue;
        entry["rect"] = {std::lround(el.rect.x), std::lround(el.rect.y), std::lround(el.rect.width), std::lround(el.rect.height)};
        break;
      }
    }
  }
  if (!r.summary.empty()) entry[r.ok() ? "summary" : "error"] = r.summary;
  if (!r.ok()) {
    entry["code"] = r.code;
    if (!r.hint.empty()) entry["hint"] = r.hint;
  }
  json changes = section("changes");
  if (!changes.empty()) entry["changes"] = changes;
  if (r.data.contains("signals")) entry["signals"] = r.data["signals"];
  if (r.data.contains("url")) entry["url"] = r.data["url"];
  const bool acts = !spec || !spec->read_only;
  if (tracer_->options().screenshots && acts && browser_.backend) {
    if (auto b = page.backend()) {
      if (auto png = (*b)->screenshot(Deadline::in(Millis(5000)))) {
        std::string name = tracer_->saveScreenshot(*png);
        if (!name.empty()) entry["screenshot"] = name;
      }
    }
  }
  tracer_->write(entry, browser_.secrets);
  // An intent's steps, one line each, after the intent's own.
  int n = 0;
  for (const auto& step : section("actions")) {
    tracer_->write({{"t", t}, {"intent", command.name}, {"step", ++n}, {"action", step}}, browser_.secrets);
  }
}

void Session::scrub(Response& r) const { scrubSecrets(r, browser_.secrets); }

Response Session::dispatch(const Command& c, Page& page) {
  const std::string& n = c.name;
  if (PageCommandFn fn = findPageCommand(n)) {
    CommandEnv env{page, options_.observe_max,
                   [this](const PageScan& p, Response& r) { addAvailability(p, r); }};
    return fn(env, c);
  }
  if (n == "intents") return doIntents(c);
  if (n == "do") return doDo(c, page, page.call);
  if (n == "capabilities") return doCapabilities();
  if (n == "define") return doDefine(c);
  if (n == "undefine") return doUndefine(c);
  if (n == "export") return doExport(c);
  if (n == "config") return doConfig(c);
  if (n == "packs") return doPacks(c);
  if (n == "pack") return doPack(c);
  if (n == "intent") return doIntent(c, page);
  if (n == "learned" || n == "accept" || n == "reject" || n == "refine" || n == "forget") {
    // The store is the user's file: whatever it holds answers with an error, never a crash.
    try {
      if (n == "learned") return doLearned(c);
      if (n == "accept") return doAccept(c);
      if (n == "reject") return doReject(c);
      if (n == "refine") return doRefine(c, page);
      return doForget(c);
    } catch (const std::exception& e) {
      return errorResponse(n, Status(codes::kInternal, std::string("learner: ") + e.what(), "forget --all starts the store afresh"));
    }
  }
  if (n == "dismiss" || n == "submit") return doDismissOrSubmit(c, page);
  if (auto entry = findIntent(n)) return runIntent(*this, c, page, *entry);
  return errorResponse(n, Status(codes::kUnknownCommand, "unknown command " + n,
                                 "see the command list: observe, click, type, goto ..."));
}

Response Session::doIntent(const Command& c, Page& page) {
  // The stable entry to any intent: intent <name> {params}.
  std::string name = c.args.value("name", "");
  auto entry = findIntent(name);
  if (!entry) {
    return errorResponse(name.empty() ? "intent" : name,
                         Status(codes::kIntentNotFound, "no intent named \"" + name + "\"", "intents lists them"));
  }
  auto inner = commandFromArgs(name, c.args.value("params", json::object()), lookup());
  if (!inner) return errorResponse(name, inner.status());
  Status secrets = resolveSecrets(*inner, page);
  if (!secrets) return errorResponse(name, secrets);
  return runIntent(*this, *inner, page, *entry);
}

Response Session::doDismissOrSubmit(const Command& c, Page& page) {
  bool dismiss = c.name == "dismiss";
  const char* intent = dismiss ? "dismiss_popups" : "submit_form";
  auto entry = findIntent(intent);
  if (!entry) return errorResponse(c.name, Status(codes::kIntentNotFound, std::string(intent) + " is not loaded"));
  Command inner;
  inner.name = intent;
  inner.source = c.source;
  if (c.args.contains("wait")) inner.args["wait"] = std::to_string(c.args["wait"].get<long long>()) + "ms";
  if (dismiss) {
    inner.args["all"] = false;  // one thing, named
    static const std::map<std::string, std::string> kKinds = {
        {"popup", ""},  {"popups", ""}, {"modal", "modal"}, {"dialog", "modal"}, {"overlay", "overlay"},
        {"toast", "toast"}, {"notification", "toast"}, {"banner", "banner"}, {"cookies", "banner"}};
    const TargetSpec& t = *c.target;
    auto kind = kKinds.find(t.value);
    bool word = (t.kind == TargetSpec::Kind::kWord || t.kind == TargetSpec::Kind::kRole) && !t.anchor && t.nth == 0;
    if (word && kind != kKinds.end()) {
      if (!kind->second.empty()) inner.args["type"] = kind->second;
    } else {
      inner.args["target"] = t.toString();
    }
  } else if (c.target) {
    inner.args["target"] = c.target->toString();
  }
  Response r = runIntent(*this, inner, page, *entry);
  r.command = c.name;
  return r;
}

std::vector<Response> Session::runScript(const std::string& script, const CallContext& context,
                                         bool stop_on_error, const ResponseCallback& on_response) {
  std::vector<Response> out;
  size_t start = 0;
  int line_no = 0;
  size_t total_lines = 0;
  for (size_t i = 0; i < script.size(); ++i) total_lines += script[i] == '\n' ? 1 : 0;
  if (!script.empty() && script.back() != '\n') ++total_lines;
  while (start <= script.size()) {
    size_t end = script.find('\n', start);
    std::string line = script.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    ++line_no;
    start = end == std::string::npos ? script.size() + 1 : end + 1;
    if (context.cancelled()) break;
    // refine's changes are written as the spec shows them (§8.4), past the OIL parser.
    Result<std::optional<Command>> parsed = std::optional<Command>();
    if (auto change = refineLine(line)) {
      parsed = std::optional<Command>(std::move(*change));
    } else {
      parsed = parseLine(line, lookup());
    }
    if (parsed && parsed->has_value()) {
      // Progress names the command, never its arguments (they may hold secrets).
      context.report(static_cast<double>(out.size() + 1), static_cast<double>(total_lines),
                     "line " + std::to_string(line_no) + ": " + (*parsed)->name);
    }
    if (!parsed) {
      Status s = parsed.status();
      auto first = line.find_first_not_of(" \t");
      std::string word = first == std::string::npos ? "" : line.substr(first, line.find(' ', first) - first);
      out.push_back(errorResponse(word.empty() ? "parse" : word,
                                  Status(s.code(), "line " + std::to_string(line_no) + ": " + s.message(), s.hint())));
      scrub(out.back());  // the error quotes the line, which may hold a secret typed earlier
      if (on_response) on_response(line, out.back());
      if (stop_on_error) break;
      continue;
    }
    if (!parsed->has_value()) continue;
    out.push_back(execute(**parsed, context));
    if (on_response) on_response(line, out.back());
    if (stop_on_error && !out.back().ok()) break;
  }
  return out;
}

}  // namespace lscope

namespace lscope {

// --- intents, definitions, configuration (intent-engine.md §6, §7, §11) ----------------------

namespace {

// The OIL form of an intent without its options: "login <username> <password>".
std::string shortUsage(const CommandSpec& spec) {
  std::string u = spec.name;
  for (const auto& p : spec.params) {
    if (p.positional) u += " <" + p.name + ">";
  }
  return u;
}

}  // namespace

// Whether an intent can run on this page, and if not, what it needs (§6.1). Empty: no opinion.
static std::string readiness(const IntentDef& def, const PageScan& page) {
  if (def.tier == "builtin") {
    // Each built-in's rule lives beside it (engine/builtins/<name>.cpp).
    const BuiltinIntent* b = findBuiltin(def.name);
    return b && b->ready(page) ? "ready" : "";
  }
  bool any = false;
  for (const auto& p : def.trigger_patterns) {
    any = true;
    if (!page.pattern(p)) return "needs " + p;
  }
  for (const auto& u : def.trigger_urls) {
    any = true;
    if (!urlGlobMatch(u, page.url) && !urlGlobMatch(u, shortUrl(page.url))) return "";
  }
  return any ? "ready" : "";
}

void Session::addAvailability(const PageScan& page, Response& r) {
  if (options_.packs) {
    syncPacks(page.url);
    takePackNotes(r);
  }
  for (const auto& e : intents()) {
    std::string state = readiness(*e->def, page);
    if (state == "ready") r.add("available intents", "- " + shortUsage(e->spec) + ": ready");
  }
  if (page.pattern("cookie_banner")) r.add("suggested", "accept_cookies  # a consent banner is open");
  if (page.pattern("modal_dialog") || page.pattern("promo_popup") || page.pattern("overlay")) {
    r.add("suggested", "dismiss_popups  # a popup covers the page");
  }
}

Response Session::doIntents(const Command& c) {
  if (c.args.value("reload", false) && options_.registry) options_.registry->reload();
  std::vector<std::shared_ptr<const IntentEntry>> all;
  IntentRegistry::Entries packs;
  {
    std::lock_guard<std::mutex> lock(intents_mu_);
    if (c.args.value("clear_session", false)) {
      session_intents_.clear();
      ++session_generation_;
    }
    for (const auto& [name, e] : session_intents_) all.push_back(e);
    packs = pack_intents_;
  }
  bool only_session = c.args.value("session", false);
  Response r = okResponse("intents");
  json list = json::array();
  if (!only_session && options_.registry) {
    for (const auto& e : options_.registry->all(&packs)) all.push_back(e);
  } else if (!only_session) {
    all.insert(all.end(), packs.begin(), packs.end());
  }
  for (const auto& e : all) {
    auto winner = findIntent(e->def->name);
    bool wins = winner && winner->def.get() == e->def.get();
    std::string state = browser_.last ? readiness(*e->def, *browser_.last) : "";
    std::string line = "- " + shortUsage(e->spec) + " (" + e->def->tier + (e->def->pack.empty() ? "" : " " + e->def->pack) + ")";
    if (!wins) line += " overridden";
    if (wins && !state.empty()) line += ": " + state;
    r.body += line + "\n";
    list.push_back({{"name", e->def->name}, {"tier", e->def->tier}, {"active", wins}, {"state", state}});
  }
  if (options_.registry) {
    for (const auto& err : options_.registry->errors()) r.add("errors", err.message());
  }
  r.data["intents"] = list;
  return r;
}

// do <sentence> (issue 19): the reading engine/do_parser.h gives; runs the best one when it is
// sure enough (resolution.do_threshold, and a clear lead over the next), else lists the three
// best, or lets the client's model choose among them when the client offers sampling.
Response Session::doDo(const Command& c, Page& page, const CallContext& context) {
  std::string sentence = c.args.value("sentence", "");
  if (sentence.size() > 8000) {
    return errorResponse("do", Status(codes::kParameterInvalid, "the sentence is longer than 8,000 characters",
                                      "say it in one sentence; give long data to fill_form directly"));
  }
  std::vector<DoIntent> candidates_in;
  std::vector<std::shared_ptr<const IntentEntry>> entries = intents();
  for (const auto& e : entries) {
    if (e->def->name == "do") continue;
    candidates_in.push_back({e->def.get(), browser_.last && readiness(*e->def, *browser_.last) == "ready"});
  }
  std::vector<DoCandidate> found = parseDo(sentence, candidates_in, 3);
  auto entryFor = [&](const std::string& name) -> std::shared_ptr<const IntentEntry> {
    for (const auto& e : entries) {
      if (e->def->name == name) return e;
    }
    return nullptr;
  };
  // Every sensitive value the sentence gave is a secret from now on: masked wherever it shows.
  for (const auto& cand : found) {
    auto e = entryFor(cand.intent);
    if (!e) continue;
    json masked = maskedParams(*e->def, cand.params);
    for (auto it = cand.params.begin(); it != cand.params.end(); ++it) {
      if (it->is_string() && masked[it.key()] != *it) page.rememberSecret(it->get<std::string>());
    }
  }
  auto describeCandidate = [&](const DoCandidate& cand) {
    auto e = entryFor(cand.intent);
    json shown = e ? maskedParams(*e->def, cand.params) : cand.params;
    std::string line = cand.intent;
    if (e) {
      for (const auto& p : e->def->params) {  // in the intent's order
        if (!shown.contains(p.name)) continue;
        const json& v = shown[p.name];
        line += " " + p.name + "=" + (v.is_string() ? quote(v.get<std::string>()) : v.dump());
      }
    }
    char conf[16];
    std::snprintf(conf, sizeof conf, "%.2f", cand.confidence);
    return line + " (" + conf + ": " + cand.reason + ")";
  };
  auto asJson = [&](const DoCandidate& cand) {
    auto e = entryFor(cand.intent);
    return json{{"intent", cand.intent},
                {"params", e ? maskedParams(*e->def, cand.params) : cand.params},
                {"confidence", cand.confidence},
                {"missing", cand.missing},
                {"reason", cand.reason}};
  };
  const double threshold = config_.do_threshold;
  bool sure = doSure(found, threshold);
  std::string chosen_by = "parser";
  bool dry_run = c.args.value("dry_run", false);
  // Unsure, and the client's model may be asked: it picks among the readings (never given a
  // secret: sensitive values are masked in the sentence and the candidates).
  std::vector<DoCandidate> runnable;
  for (const auto& f : found) {
    if (f.missing.empty()) runnable.push_back(f);
  }
  if (!sure && context.sample && !runnable.empty()) {
    std::string masked_sentence = scrubText(sentence, browser_.secrets);
    std::string prompt = "A user of a web browser said: " + quote(masked_sentence) + "\n\nThe intents that could mean it:\n";
    for (const auto& f : runnable) {
      auto e = entryFor(f.intent);
      prompt += "- " + describeCandidate(f) + (e ? " — " + e->def->description : "") + "\n";
    }
    if (browser_.last) {
      std::string pats;
      for (const auto& p : browser_.last->patterns) pats += (pats.empty() ? "" : ", ") + p.name;
      prompt += "\nThe page shows: " + (pats.empty() ? std::string("no known pattern") : pats) + ".\n";
    }
    prompt += "\nAnswer with the one intent name the user means, or none.";
    auto answer = context.sample(
        "You map a user's sentence to one browser automation intent. Reply with the intent name only.", prompt);
    if (answer) {
      std::string said = *answer;
      for (auto& ch : said) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      for (const auto& f : runnable) {
        auto at = said.find(f.intent);
        bool whole = at != std::string::npos &&
                     (at + f.intent.size() == said.size() || !(std::isalnum(static_cast<unsigned char>(said[at + f.intent.size()])) ||
                                                               said[at + f.intent.size()] == '_'));
        if (!whole) continue;
        auto keep = f;
        found.erase(std::remove_if(found.begin(), found.end(), [&](const DoCandidate& x) { return x.intent == keep.intent; }),
                    found.end());
        found.insert(found.begin(), keep);
        sure = true;
        chosen_by = "model";
        break;
      }
    } else {
      context.note("info", "do: the client's model was not asked: " + answer.status().message());
    }
  }
  json report = {{"ran", false}, {"chosen_by", chosen_by}, {"threshold", threshold}, {"candidates", json::array()}};
  for (const auto& f : found) report["candidates"].push_back(asJson(f));
  if (!sure || dry_run) {
    Response r = okResponse("do", found.empty() ? "no intent matches: nothing ran"
                                  : dry_run && sure ? "would run " + found[0].intent + " (dry run)"
                                                    : "not sure which intent: nothing ran");
    for (const auto& f : found) r.add(dry_run && sure ? "do" : "candidates", "- " + describeCandidate(f));
    if (sure && chosen_by == "model") r.add("do", "chosen by the client's model");
    if (!sure) {
      r.hint = found.empty() ? "capabilities lists what can be done here"
                             : "call the intent you mean with its values, or say it with the values it needs";
    }
    if (sure) report["chosen"] = found[0].intent;
    r.data["do"] = report;
    return r;
  }
  const DoCandidate& best = found[0];
  auto entry = entryFor(best.intent);
  if (!entry) return errorResponse("do", Status(codes::kIntentNotFound, "no intent " + best.intent + " any more"));
  auto inner = commandFromArgs(best.intent, best.params, lookup());
  if (!inner) return errorResponse("do", inner.status());
  inner->source = c.source;
  Status secrets = resolveSecrets(*inner, page);
  if (!secrets) return errorResponse(best.intent, secrets);
  Response r = runIntent(*this, *inner, page, *entry);
  std::string line = "ran " + describeCandidate(best);
  if (chosen_by == "model") line += ", chosen by the client's model";
  r.sections.insert(r.sections.begin(), {"do", {line}});
  report["ran"] = true;
  report["chosen"] = best.intent;
  r.data["do"] = report;
  return r;
}

// capabilities (issue 19): every intent one can ask for now, compactly (≤ 400 tokens on a typical
// page): its required parameters, what it does (the description's first clause), an example
// sentence; those ready on the page first.
Response Session::doCapabilities() {
  Response r = okResponse("capabilities");
  json list = json::array();
  std::vector<std::string> ready_lines, other_lines;
  for (const auto& e : intents()) {
    const IntentDef& def = *e->def;
    bool ready = browser_.last && readiness(def, *browser_.last) == "ready";
    std::string params;
    for (const auto& p : def.params) {
      if (p.required) params += " <" + p.name + ">";
    }
    // The description's first clause, asides in parentheses left out.
    std::string what;
    int depth = 0;
    for (char ch : def.description.substr(0, def.description.find(';'))) {
      if (ch == '(') ++depth;
      else if (ch == ')' && depth > 0) --depth;
      else if (depth == 0 && !(ch == ' ' && !what.empty() && what.back() == ' ')) what += ch;
    }
    while (!what.empty() && (what.back() == ' ' || what.back() == '.' || what.back() == ',')) what.pop_back();
    list.push_back({{"name", def.name}, {"description", def.description}, {"ready", ready},
                    {"example", examplePhrase(def)}, {"params", params.empty() ? "" : params.substr(1)}});
    (ready ? ready_lines : other_lines).push_back("- " + def.name + params + ": " + what + " (\"" + examplePhrase(def) + "\")");
  }
  for (auto& l : ready_lines) r.add("ready here", std::move(l));
  for (auto& l : other_lines) r.add("not ready here", std::move(l));
  r.add("usage", "do \"<what to do, with its values>\", or call an intent by name");
  r.data["intents"] = list;
  return r;
}

Response Session::doDefine(const Command& c) {
  LoadOptions o;
  o.tier = "session";
  o.trusted = false;  // agent-defined: no execute steps (§13.2)
  std::string text = c.args.value("definition", "");
  if (isShorthandDefinition(text)) {
    // §7.2: the step shorthand, translated to the full format first.
    auto full = expandShorthand(text);
    if (!full) return errorResponse("define", full.status());
    text = full->dump(2);
  }
  auto def = parseIntent(text, "definition", o);
  if (!def) return errorResponse("define", def.status());
  if (findCommand(def->name)) {
    return errorResponse("define", Status(codes::kDefinitionInvalid,
                                          "\"" + def->name + "\" is a command; pick another name"));
  }
  std::string name = def->name;
  auto entry = makeEntry(std::move(def.value()));
  bool replaced;
  {
    std::lock_guard<std::mutex> lock(intents_mu_);
    replaced = session_intents_.count(name) > 0;
    session_intents_[name] = entry;
    ++session_generation_;
  }
  Response r = okResponse("define", name);
  r.add("registered", "Intent '" + name + "' " + (replaced ? "replaced" : "available") + " for this session.");
  r.add("usage", entry->spec.usage);
  r.data["name"] = name;
  return r;
}

Response Session::doUndefine(const Command& c) {
  std::string name = c.args.value("name", "");
  {
    std::lock_guard<std::mutex> lock(intents_mu_);
    if (!session_intents_.erase(name)) {
      return errorResponse("undefine", Status(codes::kIntentNotFound, "no session intent named \"" + name + "\"",
                                              "intents --session lists them"));
    }
    ++session_generation_;
  }
  return okResponse("undefine", name);
}

// export (intent-engine.md §7.5): the definition as YAML, checked to load back the same,
// written to --to or the user's intent directory (loaded at every start).
Response Session::doExport(const Command& c) {
  namespace fs = std::filesystem;
  std::string name = c.args.value("name", "");
  auto entry = findIntent(name);
  if (!entry) {
    return errorResponse("export", Status(codes::kIntentNotFound, "no intent named \"" + name + "\"", "intents lists them"));
  }
  const IntentDef& def = *entry->def;
  if (def.document.is_null()) {
    return errorResponse("export", Status(codes::kUnsupported, "\"" + name + "\" is a built-in intent: its steps are code",
                                          "export works for session, file and pack intents"));
  }
  std::string path = c.args.value("to", c.args.value("out", ""));
  if (path.rfind("~/", 0) == 0) {
    const char* home = std::getenv("HOME");
    if (home && *home) path = std::string(home) + path.substr(1);
  }
  bool user_dir = path.empty();
  if (user_dir) {
    std::string dir = options_.registry ? options_.registry->sources().user_dir : "";
    if (dir.empty()) {
      return errorResponse("export", Status(codes::kParameterMissing, "no user intent directory (no home directory)",
                                            "export " + name + " --to FILE"));
    }
    path = dir + "/" + name + ".yaml";
  }
  std::string text = definitionYaml(def.document);
  LoadOptions o;
  o.tier = "user";
  o.trusted = def.trusted;
  auto again = parseIntent(text, path, o);
  if (!again || again->document != def.document) {
    return errorResponse("export", Status(codes::kInternal, "the YAML for \"" + name + "\" would not load back the same" +
                                                                  (again ? std::string() : ": " + again.status().message())));
  }
  std::error_code ec;
  fs::path target = fs::absolute(path, ec);
  if (!writeFile(target.string(), text)) {
    return errorResponse("export", Status(codes::kParameterInvalid, "cannot write " + target.string(),
                                          "give a writable path with --to"));
  }
  Response r = okResponse("export", name);
  r.add("written", target.string());
  if (user_dir) r.add("next", "The intent loads at every start from the user intent directory.");
  r.data["name"] = name;
  r.data["path"] = target.string();
  return r;
}

Response Session::doConfig(const Command& c) {
  std::string action = c.args.value("action", "show");
  std::string key = c.args.value("key", "");
  if (action == "set") {
    if (key.empty() || !c.args.contains("value")) {
      return errorResponse("config", Status(codes::kParameterMissing, "config set needs a key and a value",
                                            "config set execution.default_timeout 60s"));
    }
    Status s = config_.set(key, c.args["value"].get<std::string>());
    if (!s) return errorResponse("config", s);
  } else if (action == "reset") {
    Status s = config_.reset(key);
    if (!s) return errorResponse("config", s);
  }
  json shown = config_.toJson();
  if (action == "show" && !key.empty()) {
    std::string k = key.rfind("intent_engine", 0) == 0 ? key : "intent_engine." + key;
    json cur = shown;
    std::stringstream ss(k);
    for (std::string part; std::getline(ss, part, '.');) {
      if (!cur.is_object() || !cur.contains(part)) {
        return errorResponse("config", Status(codes::kParameterInvalid, "unknown setting \"" + key + "\""));
      }
      cur = cur[part];
    }
    shown = {{k, cur}};
  }
  Response r = okResponse("config", action == "show" ? "" : action + (key.empty() ? "" : " " + key));
  // Flat "key: value" lines: compact and readable.
  std::function<void(const json&, const std::string&)> flat = [&](const json& j, const std::string& prefix) {
    if (j.is_object()) {
      for (auto it = j.begin(); it != j.end(); ++it) flat(*it, prefix.empty() ? it.key() : prefix + "." + it.key());
    } else {
      r.body += prefix + ": " + (j.is_string() ? j.get<std::string>() : j.dump()) + "\n";
    }
  };
  flat(shown, "");
  r.data["config"] = config_.toJson();
  return r;
}

// --- site packs (intent-engine.md §9.5, §9.6) -------------------------------------------------

void Session::applyPackRules() {
  if (!options_.packs) return;
  packs_generation_ = options_.packs->generation();
  json rules = json::array();
  for (const auto& p : options_.packs->packs()) {
    if (packs_unloaded_.count(p->name()) && !p->everySite()) continue;
    // Loaded by hand: on every page. Otherwise on the pack's own hosts only: the scanner checks
    // the host itself, so a goto's first scan of a new site already has its patterns.
    for (auto& r : p->scanRules(!packs_by_hand_.count(p->name()))) rules.push_back(std::move(r));
  }
  env_.pattern_rules = std::move(rules);
}

void Session::syncPacks(const std::string& url) {
  if (!options_.packs) return;
  if (options_.packs->generation() != packs_generation_) applyPackRules();
  std::vector<std::shared_ptr<const Pack>> want;
  for (const auto& p : options_.packs->packs()) {
    if (p->everySite()) continue;  // pattern packs for every site: always on, never "loaded"
    const std::string& n = p->name();
    if (packs_by_hand_.count(n) || (!packs_unloaded_.count(n) && p->autoLoads(url))) want.push_back(p);
  }
  auto before = activePacks();
  auto has = [](const std::vector<std::shared_ptr<const Pack>>& v, const std::shared_ptr<const Pack>& p) {
    return std::any_of(v.begin(), v.end(), [&](const auto& x) { return x == p; });
  };
  bool changed = want.size() != before.size();
  for (const auto& p : want) changed = changed || !has(before, p);
  if (!changed) return;
  for (const auto& p : before) {
    bool still = std::any_of(want.begin(), want.end(), [&](const auto& x) { return x->name() == p->name(); });
    if (!still) {
      pack_notes_.push_back("Unloaded intent pack: " + p->name() +
                            (packs_unloaded_.count(p->name()) ? " (pack unload)" : " (left its site)"));
    }
  }
  IntentRegistry::Entries entries;
  for (const auto& p : want) {
    for (const auto& e : p->intents) entries.push_back(e);
  }
  {
    std::lock_guard<std::mutex> lock(intents_mu_);
    active_packs_ = want;
    pack_intents_ = entries;
    ++session_generation_;  // tools/list_changed
  }
  for (const auto& p : want) {
    if (has(before, p)) continue;
    std::string names = p->intentNames();
    pack_notes_.push_back("Loading intent pack: " + p->name() + " (v" + p->spec.version + ", " + p->trust + ")" +
                          (names.empty() ? "" : ": " + names));
    // A name the pack shares with another tier: say once which one runs (§2, §11.1 tier_priority).
    for (const auto& e : p->intents) {
      const std::string& n = e->def->name;
      if (!shadows_reported_.insert(p->name() + "/" + n).second) continue;
      std::shared_ptr<const IntentEntry> other;
      if (options_.registry) other = options_.registry->find(n, nullptr, config_.tier_priority);
      {
        std::lock_guard<std::mutex> lock(intents_mu_);
        auto it = session_intents_.find(n);
        if (it != session_intents_.end()) other = it->second;
      }
      if (!other) continue;
      auto winner = findIntent(n);
      if (winner && winner->def == e->def) {
        pack_notes_.push_back(n + ": " + p->name() + "'s " + n + " is used instead of the " + other->def->tier + " " + n);
      } else if (winner) {
        pack_notes_.push_back(n + ": " + p->name() + "'s " + n + " is shadowed by the " + winner->def->tier + " " + n);
      }
    }
  }
}

std::vector<std::shared_ptr<const Pack>> Session::activePacks() const {
  std::lock_guard<std::mutex> lock(intents_mu_);
  return active_packs_;
}

void Session::takePackNotes(Response& r) {
  for (auto& n : pack_notes_) r.add("auto-loading", n);
  pack_notes_.clear();
}

Response Session::doPacks(const Command& c) {
  if (!options_.packs) return errorResponse("packs", Status(codes::kUnsupported, "this server has no site packs"));
  if (c.args.value("reload", false)) options_.packs->reload();
  auto active = activePacks();
  Response r = okResponse("packs");
  json list = json::array();
  for (const auto& p : options_.packs->packs()) {
    bool loaded = std::any_of(active.begin(), active.end(), [&](const auto& a) { return a->name() == p->name(); });
    std::string state = p->everySite() ? "every site" : loaded ? "loaded" : "available";
    std::string detail;
    if (p->everySite()) {
      detail = std::to_string(p->rules.size()) + " patterns";
    } else if (loaded) {
      detail = p->intentNames();
    } else if (!p->spec.auto_load.empty()) {
      detail = "auto-loads on " + p->spec.auto_load[0];
    }
    r.body += std::string(loaded || p->everySite() ? "✓ " : "  ") + p->name() + " (v" + p->spec.version + ", " +
              p->trust + ") - " + state + (detail.empty() ? "" : ": " + detail) + "\n";
    json intents = json::array();
    for (const auto& e : p->intents) intents.push_back(e->def->name);
    list.push_back({{"name", p->name()}, {"version", p->spec.version}, {"trust", p->trust}, {"state", state},
                    {"intents", intents}, {"patterns", p->rules.size()}, {"dir", p->dir}});
  }
  for (const auto& pr : options_.packs->problems()) {
    r.body += "✗ " + pr.name + " - invalid: " + pr.error.message() + "\n";
    list.push_back({{"name", pr.name}, {"state", "invalid"}, {"error", pr.error.message()}, {"dir", pr.dir}});
  }
  if (list.empty()) r.body += "(no packs; pack install <folder|archive|index URL> adds one)\n";
  r.data["packs"] = list;
  return r;
}

Response Session::doPack(const Command& c) {
  if (!options_.packs) return errorResponse("pack", Status(codes::kUnsupported, "this server has no site packs"));
  std::string action = c.args.value("action", "");
  std::string name = c.args.value("name", "");
  std::string label = "pack " + action;
  auto fail = [&](const Status& st) { return errorResponse("pack", st); };
  auto describe = [&](Response& r, const Pack& p) {
    r.data["pack"] = {{"name", p.name()}, {"version", p.spec.version}, {"trust", p.trust}, {"dir", p.dir}};
  };
  if (action == "load" || action == "unload") {
    auto p = options_.packs->find(name);
    if (!p) return fail(Status(codes::kPackLoadFailed, "no pack named \"" + name + "\"", "packs lists them"));
    if (action == "load") {
      packs_by_hand_.insert(name);
      packs_unloaded_.erase(name);
    } else {
      packs_by_hand_.erase(name);
      packs_unloaded_.insert(name);
    }
    applyPackRules();
    syncPacks(browser_.last ? browser_.last->url : "");
    Response r = okResponse("pack", action + " " + name);
    takePackNotes(r);
    describe(r, *p);
    return r;
  }
  Result<std::shared_ptr<const Pack>> done = Status(codes::kParameterInvalid, "pack " + action + "?");
  if (action == "install") {
    PackManager::InstallOptions o;
    o.trusted = c.args.value("trusted", false);
    o.force = c.args.value("force", false);
    o.index = c.args.value("source", "");
    if (o.index.empty() && c.args.contains("pack")) o.name = c.args.value("pack", "");
    std::string source = name;
    if (source.rfind("~/", 0) == 0 && std::getenv("HOME")) source = std::string(std::getenv("HOME")) + source.substr(1);
    done = options_.packs->install(source, o);
  } else if (action == "update") {
    done = options_.packs->update(name);
  } else if (action == "new") {
    auto dir = writePackTemplate(name, options_.packs->installDir());
    if (!dir) return fail(dir.status());
    options_.packs->reload();
    auto made = options_.packs->find(name);
    done = made ? Result<std::shared_ptr<const Pack>>(made)
                : Result<std::shared_ptr<const Pack>>(Status(codes::kPackLoadFailed, "the new pack did not load"));
  } else {
    return fail(Status(codes::kParameterInvalid, "pack " + action + "?", "pack load|unload|update|install|new <name>"));
  }
  if (!done) return fail(done.status());
  const Pack& p = **done;
  Response r = okResponse("pack", action + " " + p.name());
  r.add("pack", p.name() + " v" + p.spec.version + " (" + p.trust + ") in " + p.dir);
  if (!p.intents.empty()) r.add("pack", "intents: " + p.intentNames());
  if (!p.spec.auto_load.empty()) r.add("pack", "auto-loads on " + p.spec.auto_load[0]);
  describe(r, p);
  // A pack that changed under a loaded name takes effect now.
  applyPackRules();
  {
    std::lock_guard<std::mutex> lock(intents_mu_);
    active_packs_.clear();  // re-read on the next sync
    pack_intents_.clear();
    ++session_generation_;
  }
  syncPacks(browser_.last ? browser_.last->url : "");
  takePackNotes(r);
  return r;
}

}  // namespace lscope
