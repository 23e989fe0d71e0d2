// The state of one running intent, shared by the executor (intent_runner.cpp) and the
// built-in intents (builtins.cpp). Private to the engine.
#pragma once

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engine/session.h"

namespace lscope {

struct Session::IntentRun {
  Ctx& ctx;
  const IntentDef& def;
  json vars = json::object();                  // parameters and loop values ($refs)
  std::map<std::string, int> element_vars;     // loop variables bound to elements (agent ids)
  std::vector<std::string> actions;            // the action log (§10)
  std::string checkpoint;                      // the last checkpoint reached
  std::string resume_from;                     // skip steps until this checkpoint
  bool resuming = false;
  PageScan page;                               // the current scan
  Deadline deadline;
  int depth = 0;
  bool verify = true;
  // What the response says besides actions and changes.
  std::string summary;                         // after "ok <intent>"
  std::string message;                         // an error message better than the status's
  std::string hint;
  std::vector<std::string> result;             // # result
  std::vector<std::pair<std::string, std::vector<std::string>>> sections;  // # dismissed, # filled ...
  bool partial = false;
  std::set<int> reported;                      // elements a section already reports (# filled)
  bool no_changes = false;                     // built-ins that report "nothing to do"

  IntentRun(Ctx& c, const IntentDef& d, Deadline dl) : ctx(c), def(d), deadline(dl) {}
  void log(std::string line) { actions.push_back(std::move(line)); }
  void add(const std::string& section, std::string line) {
    for (auto& [name, lines] : sections) {
      if (name == section) {
        lines.push_back(std::move(line));
        return;
      }
    }
    sections.push_back({section, {std::move(line)}});
  }
};

}  // namespace lscope
