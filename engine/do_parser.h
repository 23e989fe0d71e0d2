// `do` (issue 19): one sentence in, the intent it means out, with its parameters filled and a
// confidence. Deterministic and local: the words of each intent's phrases (its YAML `phrases:`,
// a built-in's own), name and keywords against the sentence's; the values the sentence carries
// (quoted text, JSON objects, emails, URLs, numbers, "user / pass" pairs, a word after a
// parameter's cue such as "password") matched to parameters by name and type; what is left
// after the phrase becomes the free-text parameter ("look up wireless headphones"); the page's
// readiness as context ("sign in" where a login form is ready).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/intent_model.h"

namespace lscope {

using json = nlohmann::json;

struct DoIntent {
  const IntentDef* def = nullptr;
  bool ready = false;  // §6.1: the page offers what it needs
};

struct DoCandidate {
  std::string intent;
  json params = json::object();      // as parsed (a sensitive value in clear: mask before showing)
  double confidence = 0;             // 0..1
  std::vector<std::string> missing;  // required parameters the sentence gave no value for
  std::string reason;                // one line: the phrase matched, where each value came from
  double recall = 0;                 // how much of its best phrase the sentence says (keywords count 0.8)
  size_t words = 0;                  // words of that phrase the sentence says
};

// Every intent with any match, best first (at most `max`).
std::vector<DoCandidate> parseDo(const std::string& sentence, const std::vector<DoIntent>& intents, size_t max = 3);

// Whether `do` runs the best reading: complete, most of its phrase said, at or above
// `threshold`, and either 0.1 ahead of the next or saying more of its phrase ("find and open"
// over "find", a whole phrase over part of one).
bool doSure(const std::vector<DoCandidate>& found, double threshold);
bool saysMore(const DoCandidate& a, const DoCandidate& b);

// The parameters with sensitive values masked (ParamDef::sensitive, or a password-like name).
json maskedParams(const IntentDef& def, const json& params);

// Snowball's English stem of a word, lowercased (the learner compares targets' words with it).
std::string stemWord(const std::string& word);
// The words of a text, split on anything but letters and digits ("log-in" is two), as written.
std::vector<std::string> splitWords(const std::string& text);

// One example phrase for `def` (its first phrase, else its name in words), for capabilities.
std::string examplePhrase(const IntentDef& def);

}  // namespace lscope
