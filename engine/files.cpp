// File helpers (engine/files.h).
#include "engine/files.h"

#include <cstdint>

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace lscope {

Result<std::string> readTextFile(const std::string& path, const char* code) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status(code, "cannot read " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool writeFile(const std::string& path, const std::string& bytes) {
  std::error_code ec;
  std::filesystem::path p(path);
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path(), ec);
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << bytes;
  out.close();
  return static_cast<bool>(out);
}

std::string makeTempDir(const std::string& prefix) {
  std::string tmpl = prefix.find('/') != std::string::npos
                         ? prefix + "XXXXXX"
                         : (std::filesystem::temp_directory_path() / (prefix + "XXXXXX")).string();
  if (!::mkdtemp(tmpl.data())) return {};
  return tmpl;
}

static const std::string kBase64Chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string base64Encode(const std::string& bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  uint32_t val = 0;
  int bits = -6;
  for (unsigned char c : bytes) {
    val = (val << 8) + c;
    bits += 8;
    while (bits >= 0) {
      out.push_back(kBase64Chars[(val >> bits) & 0x3f]);
      bits -= 6;
    }
  }
  if (bits > -6) out.push_back(kBase64Chars[((val << 8) >> (bits + 8)) & 0x3f]);
  while (out.size() % 4) out.push_back('=');
  return out;
}

std::string htmlEscape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string base64Decode(const std::string& in) {
  const std::string& kChars = kBase64Chars;
  std::string out;
  // Only the low bits matter; unsigned, the older ones shift out without overflow (UBSan).
  uint32_t val = 0;
  int bits = -8;
  for (unsigned char c : in) {
    auto pos = kChars.find(static_cast<char>(c));
    if (pos == std::string::npos) continue;  // '=', line breaks
    val = (val << 6) + static_cast<uint32_t>(pos);
    bits += 6;
    if (bits >= 0) {
      out.push_back(static_cast<char>((val >> bits) & 0xff));
      bits -= 8;
    }
  }
  return out;
}

}  // namespace lscope
