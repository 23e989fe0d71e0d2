// The intent learner's cost (issue 18): what recording adds to each command, and what
// recognizing adds to an acting command, on a store grown like a user's.
//   build/tests/lscope_learner_bench [--sessions 20] [--commands 150]
// Recording: one INSERT into the WAL store (synchronous=NORMAL), as Session::learn does.
// Recognition: on arriving at the domain, its history is read (last 20 sessions, 150 commands
// each) and indexed; after each acting command the command is appended and recognize() runs.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

#include "engine/learner.h"

using namespace lscope;
using Clock = std::chrono::steady_clock;

namespace {

double us(Clock::duration d) { return std::chrono::duration<double, std::micro>(d).count(); }

double pct(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))];
}

Observed make(std::mt19937& rng, int64_t session, int64_t seq) {
  const char* texts[] = {"Write a review", "5 stars", "Your review", "Submit review", "About", "Search products",
                         "Desk lamp", "New ticket", "Title", "Create ticket", "Shipping info", "Help"};
  const char* actions[] = {"click", "click", "type", "click", "click", "type", "click", "click", "type", "click", "click", "click"};
  std::uniform_int_distribution<int> pick(0, 11);
  int k = pick(rng);
  Observed o;
  o.session = session;
  o.seq = seq;
  o.domain = "shop.example";
  o.path = "/product/" + std::to_string(pick(rng));
  o.action = actions[k];
  o.text = texts[k];
  o.type = o.action == "type" ? "input" : "button";
  o.role = "generic";
  o.selector = "#el" + std::to_string(k);
  o.patterns = "search_form";
  if (o.action == "type") o.value = "value " + std::to_string(pick(rng));
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  int sessions = 20, commands = 150;
  for (int i = 1; i + 1 < argc; ++i) {
    if (!std::strcmp(argv[i], "--sessions")) sessions = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--commands")) commands = std::atoi(argv[i + 1]);
  }
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("lscope-learner-bench-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  auto store = LearnerStore::open((dir / "learner.db").string());
  if (!store) {
    std::fprintf(stderr, "%s\n", store.status().message().c_str());
    return 1;
  }
  std::mt19937 rng(1);
  std::vector<double> record_us;
  int64_t last = 0;
  for (int s = 0; s < sessions; ++s) {
    auto id = (*store)->newSession();
    last = *id;
    for (int c = 0; c < commands; ++c) {
      Observed o = make(rng, *id, c + 1);
      auto t0 = Clock::now();
      (*store)->record(o);
      record_us.push_back(us(Clock::now() - t0));
    }
  }
  LearnerConfig cfg;
  auto none = [](const std::string&) { return false; };
  // Arriving on the domain: the history read from the store and indexed once.
  std::vector<double> read_us, index_us, step_us;
  for (int i = 0; i < 20; ++i) {
    auto t0 = Clock::now();
    auto history = (*store)->history("shop.example", 20, 150);
    auto t1 = Clock::now();
    LearnerIndex index;
    index.reset(history);
    index.recognize(last, cfg, none);
    read_us.push_back(us(t1 - t0));
    index_us.push_back(us(Clock::now() - t1));
  }
  // Each acting command after that: appended to the index, then recognized.
  auto history = (*store)->history("shop.example", 20, 150);
  LearnerIndex index;
  index.reset(history);
  int64_t seq = commands;
  for (int i = 0; i < 200; ++i) {
    Observed o = make(rng, last, ++seq);
    auto t0 = Clock::now();
    index.add(o);
    auto found = index.recognize(last, cfg, none);
    step_us.push_back(us(Clock::now() - t0));
  }
  std::printf("learner bench: %d sessions x %d commands on one domain\n", sessions, commands);
  std::printf("record (per command)   median %7.1f us   p99 %7.1f us\n", pct(record_us, 0.5), pct(record_us, 0.99));
  std::printf("arrival: history read  median %7.1f us   p99 %7.1f us\n", pct(read_us, 0.5), pct(read_us, 0.99));
  std::printf("arrival: index+recog.  median %7.1f us   p99 %7.1f us\n", pct(index_us, 0.5), pct(index_us, 0.99));
  std::printf("per acting command     median %7.1f us   p99 %7.1f us   (append + recognize)\n", pct(step_us, 0.5), pct(step_us, 0.99));
  fs::remove_all(dir);
  return 0;
}
