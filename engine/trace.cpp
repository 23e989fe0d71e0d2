#include "engine/trace.h"

#include <filesystem>

#include <spdlog/spdlog.h>

#include "engine/files.h"
#include "engine/response.h"

namespace lscope {

namespace fs = std::filesystem;

TraceWriter::TraceWriter(TraceOptions options, std::string session)
    : options_(std::move(options)), session_(std::move(session)) {
  std::error_code ec;
  fs::create_directories(options_.dir, ec);
  path_ = (fs::path(options_.dir) / ("lscope-" + session_ + ".jsonl")).string();
  out_.open(path_, std::ios::app | std::ios::binary);
  ok_ = out_.good();
  if (!ok_) spdlog::warn("trace: cannot write {}", path_);
  written_ = ok_ ? static_cast<uint64_t>(fs::file_size(path_, ec)) : 0;
}

void TraceWriter::rotate() {
  out_.close();
  std::error_code ec;
  std::string old = (fs::path(options_.dir) / ("lscope-" + session_ + ".1.jsonl")).string();
  fs::rename(path_, old, ec);  // replaces the previous rotation
  out_.open(path_, std::ios::trunc | std::ios::binary);
  ok_ = out_.good();
  written_ = 0;
}

void TraceWriter::write(const nlohmann::json& entry, const std::vector<std::string>& secrets) {
  // The same masking as responses (§13.1): the whole line, so a secret echoed anywhere in it goes.
  std::string line = scrubText(entry.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), secrets) + "\n";
  std::lock_guard<std::mutex> lock(mu_);
  if (!ok_) return;
  if (written_ > 0 && written_ + line.size() > options_.max_bytes) rotate();
  if (!ok_) return;
  out_ << line;
  out_.flush();
  written_ += line.size();
}

std::string TraceWriter::saveScreenshot(const std::string& base64_png) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!ok_) return "";
  constexpr int kKeptShots = 500;  // the oldest go: a long session stays bounded
  std::string name = "lscope-" + session_ + "-" + std::to_string(++shots_) + ".png";
  if (shots_ > kKeptShots) {
    std::error_code ec;
    fs::remove(fs::path(options_.dir) / ("lscope-" + session_ + "-" + std::to_string(shots_ - kKeptShots) + ".png"), ec);
  }
  std::ofstream png((fs::path(options_.dir) / name).string(), std::ios::binary | std::ios::trunc);
  std::string bytes = base64Decode(base64_png);
  png.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return png.good() ? name : "";
}

}  // namespace lscope
