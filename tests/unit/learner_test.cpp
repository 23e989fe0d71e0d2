// The intent learner's recognition (engine/learner.h) on synthetic multi-session histories:
// three flows (a review form, a ticket form, search then open), each with varying values,
// wording variants and noise commands between and around the steps; and noise alone.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <unistd.h>
#include <sstream>

#include "engine/config.h"
#include "engine/learner.h"

using namespace lscope;

namespace {

Observed cmd(const std::string& action, const std::string& text, const std::string& type, const std::string& value = "",
             const std::string& selector = "", const std::string& field = "", const std::string& role = "generic") {
  Observed o;
  o.domain = "shop.example";
  o.path = "/";
  o.action = action;
  o.text = text;
  o.type = type;
  o.value = value;
  o.selector = selector;
  o.field = field;
  o.role = role;
  return o;
}

Observed go(const std::string& path) {
  Observed o;
  o.domain = "shop.example";
  o.action = "goto";
  o.path = path;
  o.value = "https://shop.example" + path;
  return o;
}

const char* kNoiseLinks[] = {"About", "Shipping info", "Contact", "Careers", "Blog", "Gift cards", "Help", "Stores"};

Observed noise(std::mt19937& rng) {
  std::uniform_int_distribution<int> pick(0, 7), kind(0, 3);
  int k = kind(rng);
  if (k == 0) return go("/page/" + std::string(kNoiseLinks[pick(rng)]));
  if (k == 1) return cmd("type", "Newsletter email", "input", "x" + std::to_string(pick(rng)) + "@mail.example", "#news", "news", "email");
  return cmd("click", kNoiseLinks[pick(rng)], "link", "", "nav a:nth-child(" + std::to_string(pick(rng) + 1) + ")");
}

// One session of the review flow, wording varied, with noise now and then.
std::vector<Observed> reviewSession(std::mt19937& rng, int product, int stars, const std::string& body, bool variant) {
  std::bernoulli_distribution sometimes(0.3);
  std::vector<Observed> s;
  auto maybeNoise = [&] {
    if (sometimes(rng)) s.push_back(noise(rng));
  };
  maybeNoise();
  s.push_back(go("/product/" + std::to_string(product)));
  maybeNoise();
  s.push_back(cmd("click", variant ? "Leave a Review" : "Write a review", "button", "", "#open"));
  s.push_back(cmd("click", std::to_string(stars) + (stars == 1 ? " star" : " stars"), "radio", "", "", "rating"));
  maybeNoise();
  s.push_back(cmd("type", "Your review", "textarea", body, "#body", "body"));
  s.push_back(cmd("click", variant ? "Post review" : "Submit review", "button", "", "#send", "", "submit"));
  maybeNoise();
  return s;
}

std::vector<Observed> ticketSession(std::mt19937& rng, const std::string& title, const std::string& priority, const std::string& text) {
  std::bernoulli_distribution sometimes(0.3);
  std::vector<Observed> s;
  s.push_back(go("/tickets"));
  if (sometimes(rng)) s.push_back(noise(rng));
  s.push_back(cmd("click", "New ticket", "button", "", "#new"));
  s.push_back(cmd("type", "Title", "input", title, "#title", "title"));
  s.push_back(cmd("select", "Priority", "select", priority, "#priority", "priority"));
  s.push_back(cmd("type", "Description", "textarea", text, "#desc", "description"));
  if (sometimes(rng)) s.push_back(noise(rng));
  s.push_back(cmd("click", "Create ticket", "button", "", "", "", "submit"));
  return s;
}

std::vector<Observed> searchSession(std::mt19937& rng, const std::string& query, const std::string& result) {
  std::bernoulli_distribution sometimes(0.3);
  std::vector<Observed> s;
  if (sometimes(rng)) s.push_back(noise(rng));
  s.push_back(go("/catalog"));
  Observed t = cmd("type", "Search products", "input", query, "#q", "q", "search");
  t.enter = true;
  s.push_back(t);
  s.push_back(cmd("click", result, "link", "", "#results a:nth-child(1)"));
  if (sometimes(rng)) s.push_back(noise(rng));
  return s;
}

// Appends sessions to a history (session ids from 1) and recognizes after each command of the
// last one, as the Session does; returns every proposal seen.
struct Run {
  std::vector<Observed> history;
  int64_t next = 1;
  std::vector<Proposal> add(std::vector<Observed> session, const LearnerConfig& cfg = {}) {
    std::vector<Proposal> seen;
    int64_t id = next++;
    int seq = 0;
    for (auto& o : session) {
      o.session = id;
      o.seq = ++seq;
      history.push_back(o);
      for (auto& p : recognize(history, id, cfg, [](const std::string&) { return false; })) {
        if (!p.continues) seen.push_back(p);
      }
    }
    return seen;
  }
};

const json* param(const json& def, const std::string& name) {
  auto it = def.find("parameters");
  if (it == def.end()) return nullptr;
  for (const auto& p : *it) {
    if (p.value("name", "") == name) return &p;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("learner: the review flow is proposed at its third repetition, with its parameters") {
  std::mt19937 rng(7);
  Run run;
  CHECK(run.add(reviewSession(rng, 1, 4, "Great lamp", false)).empty());
  CHECK(run.add(reviewSession(rng, 2, 5, "Solid", true)).empty());
  auto found = run.add(reviewSession(rng, 3, 2, "Broke after a week", false));
  REQUIRE(!found.empty());
  const Proposal& p = found.back();
  CHECK(p.row.name == "write_review");
  CHECK(p.row.observations == 3);
  CHECK(p.row.confidence >= 0.75);
  const json& d = p.row.definition;
  REQUIRE(d["steps"].size() == 5);
  CHECK(d["steps"][0]["url"] == "$url");
  CHECK(d["steps"][2]["target"]["text"] == "$rating");
  REQUIRE(param(d, "rating"));
  CHECK((*param(d, "rating"))["type"] == "number");
  REQUIRE(param(d, "review"));
  CHECK((*param(d, "review"))["type"] == "string");
  CHECK(d["steps"][3]["text"] == "$review");
  // The wording variants are one step, each a fallback of the other.
  std::string submit = d["steps"][4]["target"].dump();
  CHECK(submit.find("Submit review") != std::string::npos);
  CHECK(submit.find("Post review") != std::string::npos);
}

TEST_CASE("learner: a select's values become an enum; typed values strings") {
  std::mt19937 rng(11);
  Run run;
  run.add(ticketSession(rng, "Printer jam", "High", "Paper stuck"));
  run.add(ticketSession(rng, "VPN down", "Urgent", "Cannot reach the office"));
  auto found = run.add(ticketSession(rng, "Monitor flickers", "Low", "Every few minutes"));
  REQUIRE(!found.empty());
  const json& d = found.back().row.definition;
  CHECK(found.back().row.name == "new_ticket");
  REQUIRE(param(d, "priority"));
  CHECK((*param(d, "priority"))["enum"] == json({"High", "Urgent", "Low"}));
  REQUIRE(param(d, "title"));
  REQUIRE(param(d, "description"));
  CHECK(d["steps"][0]["url"] == "https://shop.example/tickets");  // the same page every time: no parameter
}

TEST_CASE("learner: a result opened by what was typed is targeted by that parameter") {
  // A shop the agent has used before (a three-step flow in a history of nothing else is
  // not yet unlikely enough by chance).
  std::mt19937 rng(3);
  Run run;
  for (int i = 0; i < 2; ++i) {
    std::vector<Observed> before;
    for (int k = 0; k < 6; ++k) before.push_back(noise(rng));
    run.add(before);
  }
  run.add(searchSession(rng, "lamp", "Desk lamp"));
  run.add(searchSession(rng, "kettle", "Electric kettle"));
  auto found = run.add(searchSession(rng, "blanket", "Wool blanket"));
  REQUIRE(!found.empty());
  const json& d = found.back().row.definition;
  REQUIRE(d["steps"].size() == 3);
  std::string typed = d["steps"][1]["text"];
  CHECK(d["steps"][2]["target"]["text"] == typed);
  CHECK(d["steps"][1]["options"]["enter"] == true);
}

TEST_CASE("learner: noise alone is never proposed") {
  for (int seed = 1; seed <= 20; ++seed) {
    std::mt19937 rng(seed);
    Run run;
    for (int s = 0; s < 6; ++s) {
      std::vector<Observed> session;
      for (int i = 0; i < 8; ++i) session.push_back(noise(rng));
      auto found = run.add(session);
      INFO("seed " << seed << " session " << s << ": " << (found.empty() ? "" : found[0].row.name));
      CHECK(found.empty());
    }
  }
}

TEST_CASE("learner: quality over many histories: right proposal by the third repetition, none from noise") {
  // Each history: noise sessions and the three flows interleaved, values drawn at random.
  const char* bodies[] = {"Great", "Solid product", "Broke fast", "Nice colour", "Too small"};
  const char* titles[] = {"Printer jam", "VPN down", "No sound", "Slow laptop", "Lost badge"};
  const char* prios[] = {"Low", "Normal", "High", "Urgent"};
  const char* queries[][2] = {{"lamp", "Desk lamp"}, {"kettle", "Tea kettle"}, {"blanket", "Wool blanket"}, {"grinder", "Coffee grinder"}};
  int right = 0, total = 0, wrong = 0;
  for (int seed = 1; seed <= 30; ++seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> five(0, 4), four(0, 3);
    Run run;
    std::set<std::string> proposed;
    for (int rep = 0; rep < 3; ++rep) {
      std::vector<Observed> junk;
      for (int i = 0; i < 5; ++i) junk.push_back(noise(rng));
      for (auto& p : run.add(junk)) proposed.insert(p.row.name);
      for (auto& p : run.add(reviewSession(rng, 10 + rep, 1 + five(rng), bodies[five(rng)], rep == 1))) proposed.insert(p.row.name);
      for (auto& p : run.add(ticketSession(rng, titles[five(rng)], prios[four(rng)], bodies[five(rng)]))) proposed.insert(p.row.name);
      int q = four(rng);
      for (auto& p : run.add(searchSession(rng, queries[q][0], queries[q][1]))) proposed.insert(p.row.name);
    }
    total += 3;
    for (const char* want : {"write_review", "new_ticket", "search_products"}) right += proposed.count(want) ? 1 : 0;
    for (const auto& n : proposed) {
      if (n != "write_review" && n != "new_ticket" && n != "search_products" && n != "leave_review") ++wrong;
    }
  }
  MESSAGE("learner quality: " << right << "/" << total << " flows proposed by the third repetition, " << wrong << " other proposals");
  CHECK(right * 100 >= total * 90);
  CHECK(wrong == 0);
}

TEST_CASE("learner store: WAL, no sensitive value, forget deletes for real") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("lscope-learner-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::string db = (dir / "learner.db").string();
  {
    auto store = LearnerStore::open(db);
    REQUIRE(store);
    auto id = (*store)->newSession();
    REQUIRE(id);
    Observed o = cmd("type", "Password", "input", "hunter2-planted", "#pw", "password", "password");
    o.session = *id;
    o.sensitive = true;
    REQUIRE((*store)->record(o));
    Observed p = cmd("type", "Search", "input", "visible-value", "#q", "q", "search");
    p.session = *id;
    p.domain = "other.example";
    REQUIRE((*store)->record(p));
    auto h = (*store)->history("shop.example");
    REQUIRE(h.size() == 1);
    CHECK(h[0].value.empty());
    CHECK(h[0].sensitive);
    auto n = (*store)->forget("other.example");
    REQUIRE(n);
    CHECK(*n == 1);
    CHECK((*store)->history("other.example").empty());
  }
  std::string bytes;
  for (const char* f : {"learner.db", "learner.db-wal"}) {
    std::ifstream in(dir / f, std::ios::binary);
    bytes += std::string(std::istreambuf_iterator<char>(in), {});
  }
  CHECK(bytes.find("hunter2-planted") == std::string::npos);
  CHECK(bytes.find("visible-value") == std::string::npos);
  CHECK(bytes.find("other.example") == std::string::npos);
  CHECK(bytes.find("shop.example") != std::string::npos);  // what was not forgotten is there
  fs::remove_all(dir);
}

TEST_CASE("learner config: settings from config.yaml, with clear errors") {
  LearnerConfig c;
  CHECK(c.set("enabled", "false"));
  CHECK(c.enabled == "false");
  CHECK(c.set("min_observations", "4"));
  CHECK(c.min_observations == 4);
  CHECK(!c.set("min_observations", "1"));
  CHECK(!c.set("min_confidence", "2"));
  CHECK(!c.set("colour", "blue"));
  CHECK(c.set("exclude_domains", "bank.example *.corp.example"));
  CHECK(c.excludes("bank.example"));
  CHECK(c.excludes("www.bank.example"));
  CHECK(c.excludes("intra.corp.example"));
  CHECK(!c.excludes("shop.example"));
}

TEST_CASE("learner config: config.yaml's intent_learner section, errors with file:line") {
  namespace fs = std::filesystem;
  fs::path file = fs::temp_directory_path() / ("lscope-learner-config-" + std::to_string(::getpid()) + ".yaml");
  {
    std::ofstream out(file);
    out << "intent_engine:\n  resolution:\n    strict_mode: true\nintent_learner:\n  enabled: true\n  min_observations: 4\n"
           "  exclude_domains: [bank.example, \"*.corp.example\"]\n  store: /tmp/x.db\n";
  }
  auto c = loadConfigFile(file.string());
  REQUIRE(c);
  CHECK(c->strict_mode);
  CHECK(c->learner.enabled == "true");
  CHECK(c->learner.min_observations == 4);
  CHECK(c->learner.excludes("a.corp.example"));
  CHECK(c->learner.store == "/tmp/x.db");
  {
    std::ofstream out(file);
    out << "intent_learner:\n  enabled: true\n  min_observations: 1\n";
  }
  auto bad = loadConfigFile(file.string());
  REQUIRE(!bad);
  CHECK(bad.status().message().find(file.string() + ":3: intent_learner.min_observations") == 0);
  fs::remove(file);
}
