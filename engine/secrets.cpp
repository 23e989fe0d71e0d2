// SecretStore: file and environment lookups.
#include "engine/secrets.h"

#include <sys/stat.h>

#include <cctype>
#include <cstdlib>
#include <fstream>

#include <spdlog/spdlog.h>

namespace lscope {
namespace {

std::string trim(const std::string& s) {
  auto b = s.find_first_not_of(" \t\r");
  auto e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

bool validName(const std::string& n) {
  if (n.empty() || n.size() > 64) return false;
  for (unsigned char c : n) {
    if (!std::isalnum(c) && c != '_' && c != '-' && c != '.') return false;
  }
  return true;
}

}  // namespace

bool parseSecretRef(const std::string& value, std::string* name) {
  if (value.rfind("secret:", 0) != 0) return false;
  std::string n = value.substr(7);
  if (!validName(n)) return false;
  if (name) *name = n;
  return true;
}

std::string secretEnvName(const std::string& name) {
  std::string env = "LSCOPE_SECRET_";
  for (unsigned char c : name) env += std::isalnum(c) ? static_cast<char>(std::toupper(c)) : '_';
  return env;
}

Status SecretStore::loadFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status(codes::kParameterInvalid, "cannot read secrets file " + path);
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && (st.st_mode & (S_IRWXG | S_IRWXO))) {
    spdlog::warn("secrets file {} is readable by others: chmod 600 {}", path, path);
  }
  std::map<std::string, std::string> read;
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    auto sep = t.find_first_of("=:");
    if (sep == std::string::npos) {
      return Status(codes::kParameterInvalid, path + ":" + std::to_string(line_no) + ": expected name=value",
                    "one secret per line: github=s3cret");
    }
    std::string name = trim(t.substr(0, sep));
    std::string value = trim(t.substr(sep + 1));
    if (!validName(name)) {
      return Status(codes::kParameterInvalid, path + ":" + std::to_string(line_no) + ": bad secret name \"" + name + "\"",
                    "names use letters, digits, '_', '-' and '.'");
    }
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') && value.back() == value.front()) {
      value = value.substr(1, value.size() - 2);
    }
    read[name] = value;
  }
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& [k, v] : read) values_[k] = v;
  return Status::ok();
}

std::optional<std::string> SecretStore::get(const std::string& name) const {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = values_.find(name);
    if (it != values_.end()) return it->second;
  }
  if (const char* env = std::getenv(secretEnvName(name).c_str())) return std::string(env);
  return std::nullopt;
}

void SecretStore::put(const std::string& name, const std::string& value) {
  std::lock_guard<std::mutex> lock(mu_);
  values_[name] = value;
}

}  // namespace lscope
