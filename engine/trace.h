// Traces (issue 20): one JSONL file per session under --trace DIR, one line per command (and
// per step of an intent), masked exactly as responses are; size-bounded, the previous file kept
// as <name>.1.jsonl when it rotates. Background: ../shared/spec/background-semantic-diff.md.
#pragma once

#include <cstdint>
#include <fstream>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lscope {

struct TraceOptions {
  std::string dir;                 // empty: no trace
  uint64_t max_bytes = 20u << 20;  // a file rotates past this size
  bool screenshots = false;        // a PNG after each command that acts, referenced by its line
};

// Thread-safe.
class TraceWriter {
 public:
  // Files are <dir>/lscope-<session>.jsonl (and .1.jsonl); the directory is made if missing.
  TraceWriter(TraceOptions options, std::string session);
  bool ok() const { return ok_; }
  const TraceOptions& options() const { return options_; }
  // Writes one line: `entry` serialized, every secret masked (any encoding responses mask).
  void write(const nlohmann::json& entry, const std::vector<std::string>& secrets);
  // Saves a base64 PNG next to the trace; returns its file name (relative to the trace), or "".
  std::string saveScreenshot(const std::string& base64_png);
  std::string path() const { return path_; }

 private:
  void rotate();  // REQUIRES: mu_ held

  TraceOptions options_;
  std::string session_;
  std::string path_;
  std::mutex mu_;
  std::ofstream out_;
  uint64_t written_ = 0;
  int shots_ = 0;
  bool ok_ = false;
};

}  // namespace lscope
