// The navigation policy (issue 16): which URLs a page of ours may open. Schemes other than web
// ones are refused by default (file: only with --allow-file-access); --allowed-origins and
// --blocked-origins restrict web origins. Checked by the engine before every goto and new tab,
// by backends that can intercept requests (CDP: every document request, redirects, popups and
// frames included) and by the engine after each command for those that cannot (WebDriver).
// Origin lists are not a sandbox: a name that resolves to another address (DNS rebinding) or a
// request that is not a document (fetch, images) is not covered; see README "Security".
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/status.h"

namespace lscope {

// The parts of a URL the policy looks at.
struct UrlOrigin {
  std::string scheme;  // lower case, without ':'
  std::string host;    // lower case, IPv6 without brackets; empty for opaque URLs
  int port = 0;        // the scheme's default when the URL names none; 0 when there is none
};

// Parses scheme, host and port; nullopt when `url` has no scheme.
std::optional<UrlOrigin> parseOrigin(const std::string& url);

// One entry of an origin list: [scheme://]host[:port], `*` in the host matching any characters
// ("*.example.com": every subdomain, not example.com itself), `*` as the port any port, `*` alone
// every origin. Without a scheme, http and https; without a port, any port.
struct OriginPattern {
  std::string scheme;  // empty: http or https
  std::string host;
  std::optional<int> port;  // nullopt: any
  std::string text;         // as written, for messages

  static Result<OriginPattern> parse(const std::string& text);
  bool matches(const UrlOrigin& origin) const;
};

class NavigationPolicy {
 public:
  bool allow_file = false;
  std::vector<OriginPattern> allowed;  // empty: every web origin not blocked
  std::vector<OriginPattern> blocked;

  // "a.example;*.b.example, http://c:8080": separated by ';', ',' or blanks.
  static Result<std::vector<OriginPattern>> parseList(const std::string& list);

  bool restrictsOrigins() const { return !allowed.empty() || !blocked.empty(); }
  // Why `url` may not be opened (one sentence), or empty when it may.
  std::string refusal(const std::string& url) const;
  // The flags that reproduce this policy, for messages and child processes.
  std::string describe() const;
};

}  // namespace lscope
