// do (issue 19): accuracy on the phrasing set (tests/do/phrasings.json) and the parse time.
//   build/tests/lscope_do_bench [--runs 200] [--wrong] [--explain "<sentence>"]
// Prints top-1 accuracy (the intent and the values the sentence gives, when `do` would run it),
// the share of no-intent sentences refused, and the median / p90 time of one parse over the
// whole catalog (built-ins and intents/core).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "tests/do/phrasing_eval.h"

int main(int argc, char** argv) {
  using namespace lscope;
  int runs = 200;
  bool show_wrong = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--runs") && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
    if (!std::strcmp(argv[i], "--wrong")) show_wrong = true;
  }
  const auto set = phrasing::load(LSCOPE_SOURCE_DIR);
  const phrasing::Catalog catalog(LSCOPE_SOURCE_DIR, set["ready"]);
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--explain")) continue;
    for (const auto& c : parseDo(argv[i + 1], catalog.intents, 3)) {
      std::printf("%.2f %s %s (%s)\n", c.confidence, c.intent.c_str(), c.params.dump().c_str(), c.reason.c_str());
    }
    return 0;
  }
  size_t intents = 0, right = 0, none = 0, refused = 0;
  for (const auto& item : set["sentences"]) {
    auto o = phrasing::judge(item, catalog, 0.6);
    bool expects = !o.expected.empty();
    (expects ? intents : none) += 1;
    (expects ? right : refused) += o.correct ? 1 : 0;
    if (!o.correct && show_wrong) {
      std::printf("  wrong: %s -> %s (expected %s)\n", o.sentence.c_str(), o.got.empty() ? "nothing" : o.got.c_str(),
                  expects ? o.expected.c_str() : "nothing");
    }
  }
  std::vector<double> us;
  for (int r = 0; r < runs; ++r) {
    for (const auto& item : set["sentences"]) {
      std::string s = item.value("s", "");
      auto t0 = std::chrono::steady_clock::now();
      auto found = parseDo(s, catalog.intents, 3);
      auto t1 = std::chrono::steady_clock::now();
      if (found.size() > 3) return 2;  // keeps the call
      us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    }
  }
  std::sort(us.begin(), us.end());
  std::printf("phrasing set: %zu sentences (%zu with an intent, %zu with none), %zu intents in the catalog\n",
              intents + none, intents, none, catalog.defs.size());
  std::printf("top-1, intent and values: %zu/%zu = %.1f %%\n", right, intents, 100.0 * right / intents);
  std::printf("no-intent sentences refused: %zu/%zu = %.1f %%\n", refused, none, 100.0 * refused / none);
  std::printf("parse time over %zu parses: median %.1f us, p90 %.1f us, max %.1f us\n", us.size(), us[us.size() / 2],
              us[us.size() * 9 / 10], us.back());
  return 0;
}
