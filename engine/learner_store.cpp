// LearnerStore: the learner's SQLite database (intent-engine.md §8.5, issue 18). WAL so that
// several lscope processes share it (readers never wait for the writer; a busy writer waits),
// synchronous=NORMAL (a crash loses at most the last commands, never the file's integrity),
// secure_delete so that `forget` leaves no trace of what it deleted in the file.
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fnmatch.h>
#include <sstream>

#include "engine/learner.h"

namespace lscope {

namespace fs = std::filesystem;

// --- configuration ------------------------------------------------------------------------------

Status LearnerConfig::set(const std::string& key, const std::string& value) {
  auto words = [](const std::string& v) {
    std::vector<std::string> out;
    std::stringstream ss(v);
    for (std::string w; ss >> w;) out.push_back(w);
    return out;
  };
  auto isBool = [](const std::string& v) { return v == "true" || v == "false" || v == "yes" || v == "no" || v == "on" || v == "off"; };
  auto truthy = [](const std::string& v) { return v == "true" || v == "yes" || v == "on"; };
  if (key == "enabled") {
    if (value == "auto") {
      enabled = "auto";
    } else if (isBool(value)) {
      enabled = truthy(value) ? "true" : "false";
    } else {
      return Status(codes::kParameterInvalid, "intent_learner.enabled: true, false or auto");
    }
  } else if (key == "min_observations") {
    char* end = nullptr;
    long n = std::strtol(value.c_str(), &end, 10);
    if (value.empty() || *end || n < 2 || n > 100) return Status(codes::kParameterInvalid, "intent_learner.min_observations: 2..100");
    min_observations = static_cast<int>(n);
  } else if (key == "min_confidence") {
    char* end = nullptr;
    double v = value.size() <= 10 ? std::strtod(value.c_str(), &end) : -1;
    if (value.empty() || !end || *end || !(v >= 0 && v <= 1)) return Status(codes::kParameterInvalid, "intent_learner.min_confidence: a number from 0 to 1");
    min_confidence = v;
  } else if (key == "auto_accept") {
    if (!isBool(value)) return Status(codes::kParameterInvalid, "intent_learner.auto_accept: true or false");
    auto_accept = truthy(value);
  } else if (key == "persistence") {
    if (value != "session" && value != "user" && value != "global") {
      return Status(codes::kParameterInvalid, "intent_learner.persistence: session or user");
    }
    persistence = value == "global" ? "user" : value;  // one user, one store: global is user here
  } else if (key == "exclude_fields") {
    exclude_fields = words(value);
  } else if (key == "exclude_domains") {
    exclude_domains = words(value);
  } else if (key == "store") {
    store = value;
  } else if (key == "learn_from") {
    // direct_commands is what is learned from; failed_intents is accepted and not used yet.
  } else {
    return Status(codes::kParameterInvalid, "unknown setting intent_learner." + key,
                  "enabled, min_observations, min_confidence, auto_accept, persistence, exclude_fields, "
                  "exclude_domains, store");
  }
  return Status::ok();
}

bool LearnerConfig::excludes(const std::string& domain) const {
  for (const auto& pattern : exclude_domains) {
    if (pattern == domain || ::fnmatch(pattern.c_str(), domain.c_str(), FNM_CASEFOLD) == 0) return true;
    // "example.com" excludes its subdomains too.
    if (domain.size() > pattern.size() && domain.compare(domain.size() - pattern.size(), pattern.size(), pattern) == 0 &&
        domain[domain.size() - pattern.size() - 1] == '.') {
      return true;
    }
  }
  return false;
}

std::string LearnerConfig::defaultStore() {
  const char* xdg = std::getenv("XDG_DATA_HOME");
  if (xdg && *xdg) return std::string(xdg) + "/lemmascope/learner.db";
  const char* home = std::getenv("HOME");
  if (home && *home) return std::string(home) + "/.local/share/lemmascope/learner.db";
  return "";
}

// --- the store ----------------------------------------------------------------------------------

namespace {

double nowSeconds() {
  using namespace std::chrono;
  return duration_cast<duration<double>>(system_clock::now().time_since_epoch()).count();
}

// A prepared statement that finalizes itself.
struct Stmt {
  sqlite3_stmt* s = nullptr;
  Stmt(sqlite3* db, const char* sql) { sqlite3_prepare_v2(db, sql, -1, &s, nullptr); }
  ~Stmt() { sqlite3_finalize(s); }
  explicit operator bool() const { return s != nullptr; }
  void text(int i, const std::string& v) { sqlite3_bind_text(s, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT); }
  void num(int i, double v) { sqlite3_bind_double(s, i, v); }
  void integer(int i, int64_t v) { sqlite3_bind_int64(s, i, v); }
  std::string col(int i) {
    const unsigned char* t = sqlite3_column_text(s, i);
    return t ? std::string(reinterpret_cast<const char*>(t), static_cast<size_t>(sqlite3_column_bytes(s, i))) : "";
  }
};

Status dbError(sqlite3* db, const std::string& what) {
  return Status(codes::kInternal, "learner store: " + what + ": " + (db ? sqlite3_errmsg(db) : "no database"));
}

}  // namespace

Status LearnerStore::exec(const char* sql) {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    std::string m = err ? err : "error";
    sqlite3_free(err);
    return Status(codes::kInternal, std::string("learner store: ") + m);
  }
  return Status::ok();
}

Result<std::shared_ptr<LearnerStore>> LearnerStore::open(const std::string& path) {
  if (path.empty()) return Status(codes::kParameterInvalid, "learner store: no path (no home directory)", "set intent_learner.store");
  std::error_code ec;
  fs::path p(path);
  if (p.has_parent_path()) fs::create_directories(p.parent_path(), ec);
  std::shared_ptr<LearnerStore> store(new LearnerStore());
  store->path_ = path;
  if (sqlite3_open_v2(path.c_str(), &store->db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK) {
    Status s = dbError(store->db_, "cannot open " + path);
    return s;
  }
  // Only the user reads what their agents did.
  ::chmod(path.c_str(), 0600);
  sqlite3_busy_timeout(store->db_, 5000);
  for (const char* sql : {"PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL", "PRAGMA secure_delete=ON",
                          "CREATE TABLE IF NOT EXISTS sessions (id INTEGER PRIMARY KEY AUTOINCREMENT, started REAL NOT NULL, pid INTEGER)",
                          "CREATE TABLE IF NOT EXISTS commands (id INTEGER PRIMARY KEY AUTOINCREMENT, session INTEGER NOT NULL, seq INTEGER NOT NULL, "
                          "at REAL NOT NULL, domain TEXT NOT NULL, path TEXT, action TEXT NOT NULL, text TEXT, role TEXT, type TEXT, "
                          "selector TEXT, field TEXT, member TEXT, patterns TEXT, value TEXT, sensitive INTEGER NOT NULL DEFAULT 0, enter INTEGER NOT NULL DEFAULT 0)",
                          "CREATE INDEX IF NOT EXISTS commands_domain ON commands(domain, session, seq)",
                          "CREATE TABLE IF NOT EXISTS proposals (name TEXT PRIMARY KEY, domain TEXT NOT NULL, status TEXT NOT NULL, "
                          "confidence REAL, observations INTEGER, definition TEXT, template TEXT, updated REAL)"}) {
    Status s = store->exec(sql);
    if (!s) return s;
  }
  return store;
}

LearnerStore::~LearnerStore() {
  if (db_) sqlite3_close_v2(db_);
}

Result<int64_t> LearnerStore::newSession() {
  std::lock_guard<std::mutex> lock(mu_);
  Stmt st(db_, "INSERT INTO sessions (started, pid) VALUES (?, ?)");
  if (!st) return dbError(db_, "prepare");
  st.num(1, nowSeconds());
  st.integer(2, ::getpid());
  if (sqlite3_step(st.s) != SQLITE_DONE) return dbError(db_, "new session");
  return static_cast<int64_t>(sqlite3_last_insert_rowid(db_));
}

Status LearnerStore::record(const Observed& o) {
  std::lock_guard<std::mutex> lock(mu_);
  Stmt st(db_,
          "INSERT INTO commands (session, seq, at, domain, path, action, text, role, type, selector, field, member, "
          "patterns, value, sensitive, enter) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
  if (!st) return dbError(db_, "prepare");
  st.integer(1, o.session);
  st.integer(2, o.seq);
  st.num(3, o.at > 0 ? o.at : nowSeconds());
  st.text(4, o.domain);
  st.text(5, o.path);
  st.text(6, o.action);
  st.text(7, o.text);
  st.text(8, o.role);
  st.text(9, o.type);
  st.text(10, o.selector);
  st.text(11, o.field);
  st.text(12, o.member);
  st.text(13, o.patterns);
  st.text(14, o.sensitive ? std::string() : o.value);  // a sensitive value never reaches the file
  st.integer(15, o.sensitive ? 1 : 0);
  st.integer(16, o.enter ? 1 : 0);
  if (sqlite3_step(st.s) != SQLITE_DONE) return dbError(db_, "record");
  return Status::ok();
}

std::vector<Observed> LearnerStore::history(const std::string& domain, int max_sessions, int max_per_session) {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<Observed> out;
  Stmt sessions(db_, "SELECT session FROM commands WHERE domain = ? GROUP BY session ORDER BY MAX(id) DESC LIMIT ?");
  if (!sessions) return out;
  sessions.text(1, domain);
  sessions.integer(2, max_sessions);
  std::vector<int64_t> ids;
  while (sqlite3_step(sessions.s) == SQLITE_ROW) ids.push_back(sqlite3_column_int64(sessions.s, 0));
  std::reverse(ids.begin(), ids.end());
  // One statement for every session, bound again for each.
  Stmt st(db_,
          "SELECT seq, at, path, action, text, role, type, selector, field, member, patterns, value, sensitive, enter FROM "
          "(SELECT * FROM commands WHERE domain = ? AND session = ? ORDER BY seq DESC LIMIT ?) ORDER BY seq");
  if (!st) return out;
  for (int64_t id : ids) {
    sqlite3_reset(st.s);
    st.text(1, domain);
    st.integer(2, id);
    st.integer(3, max_per_session);
    while (sqlite3_step(st.s) == SQLITE_ROW) {
      Observed o;
      o.session = id;
      o.domain = domain;
      o.seq = sqlite3_column_int64(st.s, 0);
      o.at = sqlite3_column_double(st.s, 1);
      o.path = st.col(2);
      o.action = st.col(3);
      o.text = st.col(4);
      o.role = st.col(5);
      o.type = st.col(6);
      o.selector = st.col(7);
      o.field = st.col(8);
      o.member = st.col(9);
      o.patterns = st.col(10);
      o.value = st.col(11);
      o.sensitive = sqlite3_column_int(st.s, 12) != 0;
      o.enter = sqlite3_column_int(st.s, 13) != 0;
      out.push_back(std::move(o));
    }
  }
  return out;
}

Status LearnerStore::putProposal(const ProposalRow& p) {
  std::lock_guard<std::mutex> lock(mu_);
  Stmt st(db_,
          "INSERT OR REPLACE INTO proposals (name, domain, status, confidence, observations, definition, template, updated) "
          "VALUES (?,?,?,?,?,?,?,?)");
  if (!st) return dbError(db_, "prepare");
  st.text(1, p.name);
  st.text(2, p.domain);
  st.text(3, p.status);
  st.num(4, p.confidence);
  st.integer(5, p.observations);
  st.text(6, p.definition.dump());
  st.text(7, p.tmpl.dump());
  st.num(8, nowSeconds());
  if (sqlite3_step(st.s) != SQLITE_DONE) return dbError(db_, "save proposal");
  return Status::ok();
}

namespace {

ProposalRow readProposal(Stmt& st) {
  ProposalRow p;
  p.name = st.col(0);
  p.domain = st.col(1);
  p.status = st.col(2);
  p.confidence = sqlite3_column_double(st.s, 3);
  p.observations = sqlite3_column_int(st.s, 4);
  p.definition = json::parse(st.col(5), nullptr, false);
  p.tmpl = json::parse(st.col(6), nullptr, false);
  p.updated = sqlite3_column_double(st.s, 7);
  return p;
}

}  // namespace

std::optional<ProposalRow> LearnerStore::proposal(const std::string& name) {
  std::lock_guard<std::mutex> lock(mu_);
  Stmt st(db_, "SELECT name, domain, status, confidence, observations, definition, template, updated FROM proposals WHERE name = ?");
  if (!st) return std::nullopt;
  st.text(1, name);
  if (sqlite3_step(st.s) != SQLITE_ROW) return std::nullopt;
  return readProposal(st);
}

std::vector<ProposalRow> LearnerStore::proposals(const std::string& domain) {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<ProposalRow> out;
  Stmt st(db_, domain.empty()
                   ? "SELECT name, domain, status, confidence, observations, definition, template, updated FROM proposals ORDER BY updated"
                   : "SELECT name, domain, status, confidence, observations, definition, template, updated FROM proposals WHERE domain = ? ORDER BY updated");
  if (!st) return out;
  if (!domain.empty()) st.text(1, domain);
  while (sqlite3_step(st.s) == SQLITE_ROW) out.push_back(readProposal(st));
  return out;
}

Status LearnerStore::removeProposal(const std::string& name) {
  std::lock_guard<std::mutex> lock(mu_);
  Stmt st(db_, "DELETE FROM proposals WHERE name = ?");
  if (!st) return dbError(db_, "prepare");
  st.text(1, name);
  if (sqlite3_step(st.s) != SQLITE_DONE) return dbError(db_, "remove proposal");
  return Status::ok();
}

Result<json> LearnerStore::inspect(const std::string& path) {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    Status s = dbError(db, "cannot open " + path);
    sqlite3_close_v2(db);
    return s;
  }
  sqlite3_busy_timeout(db, 2000);
  json out = {{"commands", 0}, {"domains", 0}, {"proposed", 0}, {"saved", 0}, {"rejected", 0}};
  auto count = [&](const char* sql) -> long long {
    Stmt st(db, sql);
    return st && sqlite3_step(st.s) == SQLITE_ROW ? sqlite3_column_int64(st.s, 0) : -1;
  };
  out["commands"] = count("SELECT count(*) FROM commands");
  out["domains"] = count("SELECT count(DISTINCT domain) FROM commands");
  out["proposed"] = count("SELECT count(*) FROM proposals WHERE status = 'proposed'");
  out["saved"] = count("SELECT count(*) FROM proposals WHERE status IN ('saved', 'accepted')");
  out["rejected"] = count("SELECT count(*) FROM proposals WHERE status = 'rejected'");
  sqlite3_close_v2(db);
  if (out["commands"].get<long long>() < 0) return Status(codes::kInternal, path + " is not a learner store");
  return out;
}

Result<int> LearnerStore::forget(const std::string& domain) {
  std::lock_guard<std::mutex> lock(mu_);
  int deleted = 0;
  for (const char* sql : {"DELETE FROM commands WHERE ?1 = '' OR domain = ?1", "DELETE FROM proposals WHERE ?1 = '' OR domain = ?1"}) {
    Stmt st(db_, sql);
    if (!st) return dbError(db_, "prepare");
    st.text(1, domain);
    if (sqlite3_step(st.s) != SQLITE_DONE) return dbError(db_, "forget");
    deleted += sqlite3_changes(db_);
  }
  if (domain.empty()) {
    Status s = exec("DELETE FROM sessions");
    if (!s) return s;
  }
  // The deleted pages were zeroed (secure_delete); copy the WAL back and empty it so that no
  // older copy of them stays in the WAL file, then give the freed pages back.
  if (sqlite3_wal_checkpoint_v2(db_, nullptr, SQLITE_CHECKPOINT_TRUNCATE, nullptr, nullptr) != SQLITE_OK) {
    return dbError(db_, "checkpoint (another lscope is reading; run forget again)");
  }
  exec("VACUUM");
  sqlite3_wal_checkpoint_v2(db_, nullptr, SQLITE_CHECKPOINT_TRUNCATE, nullptr, nullptr);
  return deleted;
}

}  // namespace lscope
