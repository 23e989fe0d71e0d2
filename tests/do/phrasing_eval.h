// The `do` phrasing set (tests/do/phrasings.json) against the shipped catalog: the built-ins and
// intents/core. Shared by the unit test (accuracy floors) and bench/do_bench (figures, timing).
#pragma once

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/builtins/builtins.h"
#include "engine/do_parser.h"
#include "engine/intent_loader.h"

namespace lscope::phrasing {

struct Catalog {
  std::vector<IntentDef> defs;
  std::vector<DoIntent> intents;  // with readiness as the set says
  Catalog(const std::string& source_dir, const nlohmann::json& ready) {
    defs = builtinIntents();
    LoadOptions o;
    o.tier = "core";
    for (auto& d : loadIntentDirectory(source_dir + "/intents/core", o).intents) defs.push_back(d);
    for (const auto& d : defs) {
      bool r = std::find(ready.begin(), ready.end(), d.name) != ready.end();
      intents.push_back({&d, r});
    }
  }
};

inline nlohmann::json load(const std::string& source_dir) {
  std::ifstream in(source_dir + "/tests/do/phrasings.json");
  std::stringstream ss;
  ss << in.rdbuf();
  return nlohmann::json::parse(ss.str());
}

struct Outcome {
  std::string sentence, expected, got;  // got: the reading that would run, or "" (nothing)
  bool correct = false;
};

// One sentence: correct when `do` would run the expected intent with the expected values, or
// (intent null) run nothing.
inline Outcome judge(const nlohmann::json& item, const Catalog& catalog, double threshold) {
  Outcome o;
  o.sentence = item.value("s", "");
  o.expected = item["intent"].is_string() ? item["intent"].get<std::string>() : "";
  auto found = parseDo(o.sentence, catalog.intents, 3);
  bool sure = doSure(found, threshold);
  o.got = sure ? found[0].intent : "";
  if (o.expected.empty()) {
    o.correct = !sure;
    return o;
  }
  if (found.empty() || found[0].intent != o.expected) return o;
  o.got = found[0].intent;
  bool values = true;
  const nlohmann::json expected = item.value("params", nlohmann::json::object());
  for (auto it = expected.begin(); it != expected.end(); ++it) {
    if (!found[0].params.contains(it.key()) || found[0].params[it.key()] != *it) values = false;
  }
  o.correct = values && (found[0].missing.empty() ? sure : true);
  if (!values) o.got += " " + found[0].params.dump();
  return o;
}

}  // namespace lscope::phrasing
