// Change reports and semantic signals (intent-language.md "Change Notation",
// background-semantic-diff.md signals).
#include <doctest/doctest.h>

#include "engine/changes.h"
#include "tests/unit/scan_builder.h"

using namespace lscope;
using lscope::testing::El;
using lscope::testing::scanOf;

namespace {

PageScan loginPage() {
  return scanOf("http://x.test/login", "Sign in",
                {{"input", "email", "Email", "#email"},
                 {"input", "password", "Password", "#pw"},
                 {"button", "submit", "Sign in", "#go", {"primary"}}},
                {{{"name", "login_form"}, {"email", 1}, {"password", 2}, {"submit", 3}}});
}

bool hasLine(const ChangeReport& r, const std::string& line) {
  for (const auto& l : r.lines) {
    if (l == line) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("nothing happened: NoOp and no lines") {
  ChangeReport r = diffScans(loginPage(), loginPage(), {});
  CHECK(r.lines.empty());
  CHECK(r.noop());
  CHECK(r.signals.size() == 1);
}

TEST_CASE("navigation lists the new page and signals NavigationOccurred + FormSubmitted") {
  PageScan after = scanOf("http://x.test/dashboard", "Dashboard", {{"link", "generic", "Dashboard", "nav a"}});
  DiffContext ctx;
  ctx.new_document = true;
  ctx.form_action = true;
  ChangeReport r = diffScans(loginPage(), after, ctx);
  CHECK(r.lines[0] == "~ url: /login → /dashboard");
  CHECK(r.lines[1] == "~ title: \"Sign in\" → \"Dashboard\"");
  CHECK(r.lines[2] == "@ x.test/dashboard \"Dashboard\"");
  CHECK(r.lines[3] == "[1] link \"Dashboard\"");
  CHECK(hasLine(r, "- login_form"));
  CHECK(r.has("NavigationOccurred"));
  CHECK(r.has("FormSubmitted"));
  CHECK_FALSE(r.noop());
}

TEST_CASE("same document: appeared, disappeared and changed elements by stable id") {
  PageScan before = loginPage();
  PageScan after = scanOf("http://x.test/login", "Sign in",
                          {{"input", "email", "Email", "#email", {}, "me@x.com"},
                           {"button", "submit", "Sign in", "#go", {"primary"}},
                           {"link", "generic", "Help", "a.help"}});
  IdAllocator ids;
  ids.assign(before);
  ids.assign(after, &before);
  ChangeReport r = diffScans(before, after, {});
  CHECK(hasLine(r, "- [2] input/password \"Password\""));
  CHECK(hasLine(r, "+ [4] link \"Help\""));
  CHECK(hasLine(r, "~ [1] input/email \"Email\": value \"me@x.com\""));
  CHECK(r.added == 1);
  CHECK(r.removed == 1);
  CHECK(r.changed == 1);
}

TEST_CASE("a changed label keeps its id and reads as a change") {
  PageScan before = scanOf("http://x.test/p", "P", {{"button", "generic", "Follow", "#f"}});
  PageScan after = scanOf("http://x.test/p", "P", {{"button", "generic", "Following", "#f"}});
  IdAllocator ids;
  ids.assign(before);
  ids.assign(after, &before);
  CHECK(after.elements[0].id == before.elements[0].id);
  ChangeReport r = diffScans(before, after, {});
  REQUIRE(r.lines.size() == 1);
  CHECK(r.lines[0] == "~ [1] button \"Follow\": text → \"Following\"");
}

TEST_CASE("a list showing other entries in the same places lists them as new, not renamed") {
  PageScan before = scanOf("http://x.test/p", "P",
                           {{"button", "generic", "Ada Abbott", ".row:nth-child(1) > button"},
                            {"button", "generic", "Alan Abbott", ".row:nth-child(2) > button"},
                            {"button", "generic", "Send", "#send"}});
  PageScan after = scanOf("http://x.test/p", "P",
                          {{"button", "generic", "Rosa Quinn", ".row:nth-child(1) > button"},
                           {"button", "generic", "Ada Rossi", ".row:nth-child(2) > button"},
                           {"button", "generic", "Send", "#send"}});
  IdAllocator ids;
  ids.assign(before);
  ids.assign(after, &before);
  CHECK(after.elements[2].id == before.elements[2].id);
  CHECK(after.elements[0].id != before.elements[0].id);
  CHECK(after.elements[0].id != before.elements[1].id);
  CHECK(after.elements[1].id != before.elements[0].id);
  CHECK(after.elements[1].id != before.elements[1].id);
  ChangeReport r = diffScans(before, after, {});
  CHECK(r.added == 2);
  CHECK(r.removed == 2);
  CHECK(r.changed == 0);
}

TEST_CASE("an error message appearing is ErrorAppeared with its text") {
  PageScan after = loginPage();
  after.messages.push_back({"error", "Incorrect username or password.", "err:1"});
  DiffContext ctx;
  ctx.form_action = true;
  ChangeReport r = diffScans(loginPage(), after, ctx);
  CHECK(hasLine(r, "! error: \"Incorrect username or password.\""));
  CHECK(r.has("ErrorAppeared"));
  CHECK(r.signals.back().detail == "Incorrect username or password.");
  CHECK(r.has("FormSubmitted"));
  CHECK_FALSE(r.has("ResultsAppeared"));
}

TEST_CASE("results appearing in place is ResultsAppeared") {
  PageScan before = scanOf("http://x.test/s", "Search", {{"input", "search", "Search", "#q"}});
  PageScan after = scanOf("http://x.test/s", "Search",
                          {{"input", "search", "Search", "#q"},
                           {"link", "generic", "Result one", "#r1"},
                           {"link", "generic", "Result two", "#r2"},
                           {"link", "generic", "Result three", "#r3"}});
  IdAllocator ids;
  ids.assign(before);
  ids.assign(after, &before);
  ChangeReport r = diffScans(before, after, {});
  CHECK(r.has("ResultsAppeared"));
  CHECK(r.added == 3);
}

TEST_CASE("long change lists are capped") {
  PageScan before = scanOf("http://x.test/s", "S", {});
  std::vector<El> many;
  for (int i = 0; i < 40; ++i) many.push_back({"link", "generic", "L" + std::to_string(i), "#l" + std::to_string(i)});
  PageScan after = scanOf("http://x.test/s", "S", many);
  DiffContext ctx;
  ctx.max_lines = 5;
  ChangeReport r = diffScans(before, after, ctx);
  CHECK(r.lines.size() == 6);
  CHECK(r.lines.back() == "… 35 more added");
}

TEST_CASE("a pattern's members are elements of its own frame: scanner ids count per frame") {
  // The top document's login form, and a cross-origin frame scanned on its own whose first
  // element has scanner id 1 too (as the engine appends it: Page::scanFrames).
  PageScan page = loginPage();
  PageScan frame = scanOf("http://other.test/frame", "Frame", {{"button", "generic", "Frame button", "button"}});
  for (auto& e : frame.elements) {
    e.frame = "FRAME-1";
    page.elements.push_back(e);
  }
  IdAllocator ids;
  ids.assign(page);
  REQUIRE(page.patterns.size() == 1);
  CHECK(page.patterns[0].fields.at("email") == 1);
  CHECK(page.patterns[0].fields.at("password") == 2);
  CHECK(page.elements.back().id == 4);
  CHECK(page.elements.back().text == "Frame button");
}
