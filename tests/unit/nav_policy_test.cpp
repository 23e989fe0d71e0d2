// The navigation policy (engine/nav_policy.h): which URLs pages may open, origin patterns.
#include <doctest/doctest.h>

#include "engine/nav_policy.h"

using namespace lscope;

namespace {
NavigationPolicy withLists(const std::string& allowed, const std::string& blocked) {
  NavigationPolicy p;
  auto a = NavigationPolicy::parseList(allowed);
  auto b = NavigationPolicy::parseList(blocked);
  REQUIRE(static_cast<bool>(a));
  REQUIRE(static_cast<bool>(b));
  p.allowed = *a;
  p.blocked = *b;
  return p;
}
}  // namespace

TEST_CASE("origins are parsed the way the browser sees them") {
  auto o = parseOrigin("HTTPS://User:pw@Example.COM./path?q#f");
  REQUIRE(o.has_value());
  CHECK(o->scheme == "https");
  CHECK(o->host == "example.com");
  CHECK(o->port == 443);
  auto v6 = parseOrigin("http://[::1]:8080/");
  REQUIRE(v6.has_value());
  CHECK(v6->host == "::1");
  CHECK(v6->port == 8080);
  auto blob = parseOrigin("blob:https://a.example/123-456");
  REQUIRE(blob.has_value());
  CHECK(blob->host == "a.example");
  CHECK_FALSE(parseOrigin("no scheme here").has_value());
  // A backslash ends the authority, as browsers read http://a.example\@b.example.
  auto tricky = parseOrigin("http://a.example\\@b.example/");
  REQUIRE(tricky.has_value());
  CHECK(tricky->host == "a.example");
}

TEST_CASE("schemes: the web opens, browser internals and local files do not") {
  NavigationPolicy p;
  CHECK(p.refusal("https://example.com/").empty());
  CHECK(p.refusal("http://127.0.0.1:8080/x").empty());
  CHECK(p.refusal("about:blank").empty());
  CHECK(p.refusal("data:text/html,<p>hi</p>").empty());
  CHECK(p.refusal("file:///etc/passwd").find("--allow-file-access") != std::string::npos);
  CHECK_FALSE(p.refusal("javascript:alert(1)").empty());
  CHECK_FALSE(p.refusal("JavaScript:alert(1)").empty());
  // Read as a browser reads them: leading blanks and controls trimmed, tabs and newlines dropped.
  CHECK_FALSE(p.refusal(" \x01javascript:alert(1)").empty());
  CHECK_FALSE(p.refusal("java\tscr\nipt:alert(1)").empty());
  CHECK_FALSE(p.refusal(" file:///etc/passwd").empty());
  CHECK_FALSE(p.refusal("chrome://settings").empty());
  CHECK_FALSE(p.refusal("chrome-extension://abc/page.html").empty());
  CHECK_FALSE(p.refusal("devtools://devtools/bundled/inspector.html").empty());
  CHECK_FALSE(p.refusal("view-source:https://example.com/").empty());
  CHECK_FALSE(p.refusal("about:version").empty());
  CHECK_FALSE(p.refusal("not a url").empty());
  p.allow_file = true;
  CHECK(p.refusal("file:///tmp/page.html").empty());
  CHECK_FALSE(p.refusal("javascript:alert(1)").empty());
}

TEST_CASE("origin patterns: hosts with wildcards, schemes, ports") {
  auto p = withLists("", "*.ads.example; tracker.example:8080, https://secure.example");
  CHECK_FALSE(p.refusal("https://x.ads.example/").empty());
  CHECK_FALSE(p.refusal("http://a.b.ads.example/").empty());
  CHECK(p.refusal("https://ads.example/").empty());  // *. is subdomains only
  CHECK_FALSE(p.refusal("http://tracker.example:8080/").empty());
  CHECK(p.refusal("http://tracker.example:8081/").empty());
  CHECK_FALSE(p.refusal("https://secure.example/").empty());
  CHECK(p.refusal("http://secure.example/").empty());        // another scheme
  CHECK(p.refusal("https://secure.example:8443/").empty());  // an origin names its port
  CHECK(p.refusal("https://www.example/").empty());
}

TEST_CASE("an allow list admits only what it names; the block list wins") {
  auto p = withLists("127.0.0.1;*.shop.example;http://localhost:*", "bad.shop.example");
  CHECK(p.refusal("http://127.0.0.1:4000/").empty());
  CHECK(p.refusal("https://www.shop.example/cart").empty());
  CHECK(p.refusal("http://localhost:9999/").empty());
  CHECK_FALSE(p.refusal("https://localhost/").empty());
  CHECK(p.refusal("https://elsewhere.example/").find("not in --allowed-origins") != std::string::npos);
  CHECK(p.refusal("https://bad.shop.example/").find("--blocked-origins bad.shop.example") != std::string::npos);
  CHECK(p.refusal("about:blank").empty());  // the empty page is never an origin to refuse
  CHECK(p.restrictsOrigins());
  CHECK_FALSE(NavigationPolicy().restrictsOrigins());
}

TEST_CASE("bad origin patterns are refused with what to write") {
  for (const char* bad : {"https://a.example/path", "ftp://a.example", "a.example:port", "user@a.example", "[::1"}) {
    auto r = NavigationPolicy::parseList(bad);
    CHECK_FALSE(static_cast<bool>(r));
    CHECK(r.status().message().find("origin pattern") != std::string::npos);
  }
  auto empty = NavigationPolicy::parseList(" ; , ");
  REQUIRE(static_cast<bool>(empty));
  CHECK(empty->empty());
}
