// Target resolution (intent-engine.md §5.2) on scans, without a browser.
#include <doctest/doctest.h>

#include "engine/resolver.h"
#include "tests/unit/scan_builder.h"

using namespace lscope;
using lscope::testing::El;
using lscope::testing::scanOf;

namespace {

PageScan page() {
  return scanOf("http://x.test/", "T",
                {{"input", "email", "Email", "#email", {}, "", {{"attributes", {{"placeholder", "you@example.com"}}}}},
                 {"input", "password", "Password", "#pw"},
                 {"button", "submit", "Sign in", "#go", {"primary"}},
                 {"button", "generic", "Sign in with Google", "#g"},
                 {"link", "generic", "Save", "#s1"},
                 {"link", "generic", "Save", "#s2"},
                 {"button", "generic", "Hidden save", "#hs", {}, "", {{"state", {{"visible", false}, {"enabled", true}}}}}});
}

int resolveId(const std::string& target, const PageScan& p, bool strict = false) {
  auto t = parseTarget(target);
  REQUIRE(t.ok());
  auto r = resolveTarget(*t, p, {}, strict);
  INFO(target << ": " << r.status().toString());
  REQUIRE(r.ok());
  return r->element->id;
}

}  // namespace

TEST_CASE("by id, role, text and attribute") {
  PageScan p = page();
  CHECK(resolveId("3", p) == 3);
  CHECK(resolveId("email", p) == 1);
  CHECK(resolveId("password", p) == 2);
  CHECK(resolveId("submit", p) == 3);
  CHECK(resolveId("\"you@example.com\"", p) == 1);  // placeholder
}

TEST_CASE("exact text beats a longer text that contains it") {
  PageScan p = page();
  CHECK(resolveId("\"Sign in\"", p) == 3);
  CHECK(resolveId("sign IN", p) == 3);
  CHECK(resolveId("contains Google", p) == 4);
  CHECK(resolveId("/with.g/i", p) == 4);
  CHECK(resolveId("regex \"with G\"", p) == 4);
}

TEST_CASE("ties: default chooses and says so; strict fails with candidates") {
  PageScan p = page();
  auto t = parseTarget("Save");
  auto r = resolveTarget(*t, p, {}, false);
  REQUIRE(r.ok());
  CHECK(r->element->id == 5);
  CHECK(r->note == "chose [5], first of 2 equal matches");
  auto strict = resolveTarget(*t, p, {}, true);
  REQUIRE_FALSE(strict.ok());
  CHECK(strict.status().code() == "TARGET_AMBIGUOUS");
  CHECK(strict.status().hint().find("[5] link \"Save\"") != std::string::npos);
  CHECK(strict.status().hint().find("[6] link \"Save\"") != std::string::npos);
}

TEST_CASE("visible beats hidden") {
  PageScan p = page();
  CHECK(resolveId("save", p) == 5);
  CHECK(resolveId("\"Hidden save\"", p) == 7);  // the only match still resolves
}

TEST_CASE("relations order by position") {
  PageScan p = page();
  CHECK(resolveId("Save after 5", p) == 6);
  CHECK(resolveId("\"Sign in\" before 4", p) == 3);
}

TEST_CASE("not found lists the closest elements; bad regex is reported") {
  PageScan p = page();
  auto r = resolveTarget(*parseTarget("\"Sign inn\""), p, {}, false);
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == "TARGET_NOT_FOUND");
  CHECK(r.status().hint().find("[3] button/submit \"Sign in\"") != std::string::npos);
  auto id = resolveTarget(*parseTarget("42"), p, {}, false);
  CHECK(id.status().message() == "no element [42] on this page");
  auto re = resolveTarget(*parseTarget("/([a/"), p, {}, false);
  CHECK(re.status().code() == "PARAMETER_INVALID");
}

TEST_CASE("unquoted words with a relation word in them are text first") {
  PageScan p = scanOf("http://x.test/", "T",
                      {{"checkbox", "generic", "Warn before leaving this page", "#w"},
                       {"button", "generic", "Edit", "#e1"},
                       {"link", "generic", "Item 1", "#i1"}});
  CHECK(resolveId("Warn before leaving this page", p) == 1);
  CHECK(resolveId("Edit near Item 1", p) == 2);  // no element says that: the relation applies
}
