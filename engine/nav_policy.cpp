#include "engine/nav_policy.h"

#include "engine/packs.h"

#include <algorithm>
#include <cctype>

namespace lscope {
namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

int defaultPort(const std::string& scheme) {
  if (scheme == "http" || scheme == "ws") return 80;
  if (scheme == "https" || scheme == "wss") return 443;
  if (scheme == "ftp") return 21;
  return 0;
}

// Host and port of an authority ("user@host:port", "[::1]:8080").
bool splitAuthority(std::string auth, std::string& host, std::string& port) {
  auto at = auth.rfind('@');
  if (at != std::string::npos) auth = auth.substr(at + 1);
  if (!auth.empty() && auth[0] == '[') {
    auto close = auth.find(']');
    if (close == std::string::npos) return false;
    host = auth.substr(1, close - 1);
    std::string rest = auth.substr(close + 1);
    if (!rest.empty() && rest[0] != ':') return false;
    port = rest.empty() ? "" : rest.substr(1);
    return true;
  }
  auto colon = auth.rfind(':');
  host = colon == std::string::npos ? auth : auth.substr(0, colon);
  port = colon == std::string::npos ? "" : auth.substr(colon + 1);
  return true;
}

bool allDigits(const std::string& s) {
  return !s.empty() && s.size() <= 5 && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

}  // namespace

std::optional<UrlOrigin> parseOrigin(const std::string& url) {
  auto colon = url.find(':');
  if (colon == std::string::npos || colon == 0) return std::nullopt;
  std::string scheme = lower(url.substr(0, colon));
  if (!std::isalpha(static_cast<unsigned char>(scheme[0])) ||
      !std::all_of(scheme.begin(), scheme.end(), [](unsigned char c) { return std::isalnum(c) || c == '+' || c == '-' || c == '.'; })) {
    return std::nullopt;
  }
  UrlOrigin o;
  o.scheme = scheme;
  std::string rest = url.substr(colon + 1);
  if (scheme == "blob") {
    // blob:https://site/uuid belongs to the origin inside it.
    auto inner = parseOrigin(rest);
    if (inner && inner->scheme != "blob") {
      o.host = inner->host;
      o.port = inner->port;
      o.scheme = "blob:" + inner->scheme;
    }
    return o;
  }
  if (rest.rfind("//", 0) != 0) return o;  // opaque: about:blank, data:, javascript:
  std::string auth = rest.substr(2, rest.find_first_of("/?#\\", 2) - 2);
  std::string host, port;
  if (!splitAuthority(auth, host, port)) return o;
  host = lower(host);
  while (!host.empty() && host.back() == '.') host.pop_back();
  o.host = host;
  o.port = allDigits(port) ? std::stoi(port) : defaultPort(scheme);
  return o;
}

Result<OriginPattern> OriginPattern::parse(const std::string& text) {
  OriginPattern p;
  p.text = text;
  std::string rest = text;
  auto sep = rest.find("://");
  if (sep != std::string::npos) {
    p.scheme = lower(rest.substr(0, sep));
    rest = rest.substr(sep + 3);
    if (p.scheme != "http" && p.scheme != "https" && p.scheme != "ws" && p.scheme != "wss") {
      return Status(codes::kParameterInvalid, "origin pattern \"" + text + "\": the scheme must be http, https, ws or wss",
                    "write host, host:port or scheme://host[:port], with * for any part of the host");
    }
  }
  while (!rest.empty() && rest.back() == '/') rest.pop_back();
  if (rest.find_first_of("/?#@ ") != std::string::npos || rest.empty()) {
    return Status(codes::kParameterInvalid, "origin pattern \"" + text + "\" is not an origin (no path, query or user)",
                  "write host, host:port or scheme://host[:port], e.g. *.example.com or http://127.0.0.1:8080");
  }
  std::string host, port;
  if (!splitAuthority(rest, host, port)) {
    return Status(codes::kParameterInvalid, "origin pattern \"" + text + "\": unclosed [ in an IPv6 address");
  }
  p.host = lower(host);
  while (!p.host.empty() && p.host.back() == '.') p.host.pop_back();
  if (p.host.empty()) return Status(codes::kParameterInvalid, "origin pattern \"" + text + "\" names no host");
  if (port.empty() || port == "*") {
    // No port with a scheme is that scheme's default (an origin), without one any port.
    if (port.empty() && !p.scheme.empty()) p.port = defaultPort(p.scheme);
  } else if (allDigits(port)) {
    p.port = std::stoi(port);
  } else {
    return Status(codes::kParameterInvalid, "origin pattern \"" + text + "\": the port must be a number or *");
  }
  return p;
}

bool OriginPattern::matches(const UrlOrigin& o) const {
  std::string scheme = o.scheme.rfind("blob:", 0) == 0 ? o.scheme.substr(5) : o.scheme;
  if (o.host.empty()) return false;
  if (scheme.empty()) return false;
  if (!this->scheme.empty() ? scheme != this->scheme
                            : !(scheme == "http" || scheme == "https" || scheme == "ws" || scheme == "wss")) {
    return false;
  }
  if (port && *port != o.port) return false;
  return urlGlobMatch(host, o.host);  // `*` runs, as pack auto_load globs
}

Result<std::vector<OriginPattern>> NavigationPolicy::parseList(const std::string& list) {
  std::vector<OriginPattern> out;
  std::string item;
  auto flush = [&]() -> Status {
    if (item.empty()) return Status::ok();
    auto p = OriginPattern::parse(item);
    item.clear();
    if (!p) return p.status();
    out.push_back(*p);
    return Status::ok();
  };
  for (char c : list) {
    if (c == ';' || c == ',' || std::isspace(static_cast<unsigned char>(c))) {
      LSCOPE_RETURN_IF_ERROR(flush());
    } else {
      item += c;
    }
  }
  LSCOPE_RETURN_IF_ERROR(flush());
  return out;
}

std::string NavigationPolicy::refusal(const std::string& raw) const {
  // As the URL standard reads it: C0 controls and spaces trimmed, tabs and newlines removed
  // anywhere (" java\tscript:" is javascript: to a browser).
  std::string url;
  for (char c : raw) {
    if (c != '\t' && c != '\n' && c != '\r') url += c;
  }
  auto control = [](char c) { return static_cast<unsigned char>(c) <= 0x20; };
  while (!url.empty() && control(url.front())) url.erase(url.begin());
  while (!url.empty() && control(url.back())) url.pop_back();
  auto o = parseOrigin(url);
  if (!o) return "\"" + url + "\" is not a URL";
  std::string scheme = o->scheme.rfind("blob:", 0) == 0 ? o->scheme.substr(5) : o->scheme;
  if (o->scheme == "about") {
    std::string what = lower(url.substr(6));
    what = what.substr(0, what.find_first_of("?#"));
    if (what == "blank" || what == "srcdoc") return "";
    return url + " is a browser page (about:" + what + "); only about:blank opens";
  }
  if (o->scheme == "data" || o->scheme == "blob") return "";  // opaque: no origin of its own
  if (scheme == "file") {
    if (allow_file) return "";
    return "file: URLs are refused: they would let a client read local files through the page "
           "(start lscope with --allow-file-access for local use)";
  }
  if (scheme == "javascript") return "javascript: URLs are refused: scripts run only through intents that are trusted to";
  if (scheme != "http" && scheme != "https") {
    return scheme + ": URLs are refused (browser internals and other schemes); only http, https, data: and about:blank open";
  }
  for (const auto& b : blocked) {
    if (b.matches(*o)) return o->host + " is blocked (--blocked-origins " + b.text + ")";
  }
  if (!allowed.empty() &&
      std::none_of(allowed.begin(), allowed.end(), [&](const OriginPattern& a) { return a.matches(*o); })) {
    return o->host + " is not in --allowed-origins";
  }
  return "";
}

std::string NavigationPolicy::describe() const {
  std::string out;
  auto join = [](const std::vector<OriginPattern>& v) {
    std::string s;
    for (const auto& p : v) s += (s.empty() ? "" : ";") + p.text;
    return s;
  };
  if (allow_file) out += "--allow-file-access";
  if (!allowed.empty()) out += std::string(out.empty() ? "" : " ") + "--allowed-origins " + join(allowed);
  if (!blocked.empty()) out += std::string(out.empty() ? "" : " ") + "--blocked-origins " + join(blocked);
  return out;
}

}  // namespace lscope
