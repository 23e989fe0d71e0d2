// Change reports: the difference between two scans in the notation of intent-language.md
// (+ appeared, - disappeared, ~ changed, @ navigated) and the semantic signals of
// background-semantic-diff.md. Pure: scans in, report out.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/page_model.h"

namespace lscope {

struct Signal {
  std::string name;    // NavigationOccurred, FormSubmitted, ResultsAppeared, ErrorAppeared, NoOp
  std::string detail;  // the new URL, the error text, the number of results
};

struct ChangeReport {
  std::vector<std::string> lines;
  std::vector<Signal> signals;
  bool navigated = false;    // a new document
  bool url_changed = false;
  int added = 0, removed = 0, changed = 0;
  std::vector<std::string> new_errors;  // texts of error messages that appeared

  bool has(const std::string& signal) const;
  bool noop() const { return has("NoOp"); }
  nlohmann::json toJson() const;
};

struct DiffContext {
  bool new_document = false;  // the backend saw a navigation (a new document loaded)
  bool form_action = false;   // the action could submit a form (submit click, Enter, submit)
  size_t max_lines = 12;      // per kind (+, -, ~) before "… N more"
};

ChangeReport diffScans(const PageScan& before, const PageScan& after, const DiffContext& context);

}  // namespace lscope
