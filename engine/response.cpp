// Formatting of responses as OIL text.
#include "engine/response.h"

#include <algorithm>
#include <cctype>
#include <mutex>

namespace lscope {

void Response::add(const std::string& section, std::string line) {
  for (auto& [name, lines] : sections) {
    if (name == section) {
      lines.push_back(std::move(line));
      return;
    }
  }
  sections.push_back({section, {std::move(line)}});
}

bool Response::hasSection(const std::string& section) const {
  for (const auto& s : sections) {
    if (s.first == section) return true;
  }
  return false;
}

Response okResponse(const std::string& command, std::string summary) {
  Response r;
  r.command = command;
  r.summary = std::move(summary);
  r.data["ok"] = true;
  return r;
}

Response errorResponse(const std::string& command, const Status& status) {
  Response r;
  r.kind = Response::Kind::kError;
  r.command = command;
  r.summary = status.message();
  r.code = status.code();
  r.hint = status.hint();
  r.data["ok"] = false;
  r.data["code"] = status.code();
  return r;
}

namespace {

const char* kSecretMask = "••••••••";

// form_plus=false: encodeURIComponent. form_plus=true: application/x-www-form-urlencoded as
// HTML forms send it (spaces as '+', only *-._ left unescaped).
std::string urlEncode(const std::string& s, bool form_plus) {
  static const char* kHex = "0123456789ABCDEF";
  const std::string safe = form_plus ? "*-._" : "-_.!~*'()";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || safe.find(static_cast<char>(c)) != std::string::npos) {
      out += static_cast<char>(c);
    } else if (c == ' ' && form_plus) {
      out += '+';
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

// `whole`: only where `from` is not part of a longer number or word (a digit beside its digits,
// a letter beside its letters).
void replaceAll(std::string& text, const std::string& from, const std::string& to, bool whole = false) {
  if (from.empty()) return;
  auto kind = [](unsigned char c) { return std::isdigit(c) ? 1 : std::isalpha(c) ? 2 : 0; };
  auto glued = [&](unsigned char a, unsigned char b) { return kind(a) != 0 && kind(a) == kind(b); };
  size_t pos = 0;
  while ((pos = text.find(from, pos)) != std::string::npos) {
    const bool inside = whole && ((pos > 0 && glued(text[pos - 1], from.front())) ||
                                  (pos + from.size() < text.size() && glued(text[pos + from.size()], from.back())));
    if (inside) {
      ++pos;
      continue;
    }
    text.replace(pos, from.size(), to);
    pos += to.size();
  }
}

void scrubJson(json& j, const std::vector<std::string>& secrets) {
  if (j.is_string()) {
    j = scrubText(j.get<std::string>(), secrets);
  } else if (j.is_array() || j.is_object()) {
    for (auto& v : j) scrubJson(v, secrets);
  }
}

}  // namespace

std::string scrubText(std::string text, const std::vector<std::string>& secrets) {
  for (const auto& s : secrets) {
    if (s.size() < 3) continue;
    // A short secret (a card's CVC "123") is masked where it stands alone: inside a longer number
    // ("2015550123") it is no more the secret than any three digits are.
    const bool whole = s.size() < 6;
    replaceAll(text, s, kSecretMask, whole);
    replaceAll(text, urlEncode(s, false), kSecretMask, whole);
    replaceAll(text, urlEncode(s, true), kSecretMask, whole);
  }
  return text;
}

namespace {
std::mutex g_log_secrets_mu;
std::vector<std::string> g_log_secrets;  // newest last; the oldest go past kMaxLogSecrets
constexpr size_t kMaxLogSecrets = 4096;
}  // namespace

void addLogSecret(const std::string& secret) {
  if (secret.size() < 3) return;
  std::lock_guard<std::mutex> lock(g_log_secrets_mu);
  if (std::find(g_log_secrets.begin(), g_log_secrets.end(), secret) != g_log_secrets.end()) return;
  if (g_log_secrets.size() >= kMaxLogSecrets) g_log_secrets.erase(g_log_secrets.begin());
  g_log_secrets.push_back(secret);
}

std::string scrubLog(std::string line) {
  std::lock_guard<std::mutex> lock(g_log_secrets_mu);
  return scrubText(std::move(line), g_log_secrets);
}

void scrubSecrets(Response& r, const std::vector<std::string>& secrets) {
  if (secrets.empty()) return;
  r.summary = scrubText(r.summary, secrets);
  r.body = scrubText(r.body, secrets);
  r.hint = scrubText(r.hint, secrets);
  for (auto& [title, lines] : r.sections) {
    title = scrubText(title, secrets);  // titles hold URLs too ("# form 2 … get /a?password=…")
    for (auto& l : lines) l = scrubText(l, secrets);
  }
  scrubJson(r.data, secrets);
}

std::string formatResponse(const Response& r) {
  std::string out;
  switch (r.kind) {
    case Response::Kind::kOk:
      out = "ok " + r.command + (r.summary.empty() ? "" : " " + r.summary);
      break;
    case Response::Kind::kError:
      out = "error " + r.command + ": " + r.summary;
      break;
    case Response::Kind::kPartial:
      out = "partial " + r.command + ": " + r.summary;
      break;
  }
  out += "\n";
  if (!r.body.empty()) {
    out += "\n" + r.body;
    if (r.body.back() != '\n') out += "\n";
  }
  for (const auto& [name, lines] : r.sections) {
    if (lines.empty()) continue;
    out += "\n# " + name + "\n";
    for (const auto& l : lines) out += l + "\n";
  }
  if (!r.hint.empty()) out += "\n# hint\n" + r.hint + "\n";
  return out;
}

}  // namespace lscope
