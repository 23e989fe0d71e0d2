// Target resolution (intent-engine.md §5.2) on scans, without a browser.
#include <doctest/doctest.h>

#include "engine/page.h"
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
  CHECK(r->note == "chose [5], first of 2 equal matches; 2nd \"Save\" picks another");
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

TEST_CASE("every role word an observation prints, and ARIA role names, are targets") {
  PageScan p = scanOf("http://x.test/", "T",
                      {{"input", "generic", "Name", "#n", {}, "", {{"attributes", {{"type", "text"}}}}},
                       {"input", "generic", "Birthday", "#d", {}, "", {{"attributes", {{"type", "date"}}}}},
                       {"select", "generic", "Country", "#c"},
                       {"textarea", "generic", "Bio", "#b"},
                       {"option", "generic", "France", "#o"},
                       {"input", "search", "Find", "#q", {}, "", {{"attributes", {{"type", "search"}}}}},
                       {"row", "generic", "Ada Lovelace", "#r"},
                       {"checkbox", "generic", "Agree", "#a", {}, "", {{"attributes", {{"role", "switch"}}}}}});
  CHECK(resolveId("input", p) == 1);
  CHECK(resolveId("input/date", p) == 2);
  CHECK(resolveId("\"date\"", p) == 2);  // no element shows the text: the word names a kind
  CHECK(resolveId("select", p) == 3);
  CHECK(resolveId("combobox", p) == 3);
  CHECK(resolveId("listbox", p) == 3);
  CHECK(resolveId("textarea", p) == 4);
  CHECK(resolveId("textbox", p) == 1);
  CHECK(resolveId("option", p) == 5);
  CHECK(resolveId("searchbox", p) == 6);
  CHECK(resolveId("row", p) == 7);
  CHECK(resolveId("switch", p) == 8);
  CHECK(resolveId("checkbox", p) == 8);
}

TEST_CASE("ordinals pick the n-th match in page order, shown ones first") {
  PageScan p = scanOf("http://x.test/", "T",
                      {{"button", "generic", "Edit", "#e1"},
                       {"button", "generic", "Edit", "#e2", {}, "", {{"state", {{"visible", false}, {"enabled", true}}}}},
                       {"button", "generic", "Edit", "#e3"},
                       {"button", "generic", "Edit", "#e4"},
                       {"input", "generic", "A", "#a"},
                       {"input", "generic", "B", "#b"}});
  CHECK(resolveId("2nd \"Edit\"", p) == 3);  // the hidden one is not counted
  CHECK(resolveId("last \"Edit\"", p) == 4);
  CHECK(resolveId("first \"Edit\"", p) == 1);
  CHECK(resolveId("2nd input", p) == 6);
  auto none = resolveTarget(*parseTarget("5th \"Edit\""), p, {}, false);
  REQUIRE_FALSE(none.ok());
  CHECK(none.status().message() == "there is no 5th: 3 elements match \"Edit\"");
  CHECK(parseTarget("2nd \"Edit\"")->toString() == "2nd \"Edit\"");
  CHECK(parseOrdinal("11th") == 11);
  CHECK(parseOrdinal("11st") == 0);
  CHECK(parseOrdinal("22nd") == 22);
  // An ordinal word before plain words is text ("First page").
  auto first_page = parseTarget("first page");
  REQUIRE(first_page.ok());
  CHECK(first_page->nth == 0);
  CHECK(first_page->value == "first page");
}

TEST_CASE("fallbacks, alternatives and pattern references (intent definitions)") {
  PageScan p = scanOf("http://x.test/", "T",
                      {{"input", "email", "Email", "#e"}, {"button", "submit", "Go", "#g"}},
                      {{{"name", "login_form"}, {"container", "form"}, {"email", 1}, {"submit", 2}}});
  TargetSpec pat;
  pat.kind = TargetSpec::Kind::kPattern;
  pat.value = "login_form.submit";
  CHECK(resolveTarget(pat, p, {}, false)->element->id == 2);
  TargetSpec missing;
  missing.kind = TargetSpec::Kind::kText;
  missing.value = "Continue";
  missing.fallback = std::make_shared<TargetSpec>(pat);
  CHECK(resolveTarget(missing, p, {}, false)->element->id == 2);
  TargetSpec any;
  any.kind = TargetSpec::Kind::kText;
  any.match = TextMatch::kContains;
  any.value = "Proceed";
  any.alternatives = {"Go"};
  CHECK(resolveTarget(any, p, {}, false)->element->id == 2);
}

TEST_CASE("a text no listed element shows falls back to any text on the page") {
  PageScan p = scanOf("http://x.test/", "T", {{"button", "generic", "Save", "#s"}});
  ResolverHooks hooks;
  std::string asked;
  hooks.find_text = [&](const std::string& text, const std::string& match) -> Result<std::vector<FoundText>> {
    asked = text + "/" + match;
    FoundText f;
    f.element.id = 9;
    f.element.type = "row";
    f.element.text = "Meeting notes — Ada";
    f.via = "ancestor";
    f.matched = "Meeting notes";
    return std::vector<FoundText>{f};
  };
  auto r = resolveTarget(*parseTarget("\"Meeting notes\""), p, hooks, false);
  REQUIRE(r.ok());
  CHECK(asked == "Meeting notes/contains");
  CHECK(r->element->id == 9);
  CHECK(r->note == "text \"Meeting notes\" is inside it");
  // Listed elements win: the hook is not asked.
  asked.clear();
  CHECK(resolveTarget(*parseTarget("Save"), p, hooks, false)->element->id == 1);
  CHECK(asked.empty());
}

TEST_CASE("the text fallback aims at the words inside the box that hears them, not at its middle") {
  // w2ui's grid: the box around the records' table listens for every row; a press at its middle
  // picked the third row when the words asked for were in the fourth.
  PageScan p = scanOf("http://x.test/", "T", {{"button", "generic", "Save", "#s"}});
  ResolverHooks hooks;
  Rect text_rect{220, 222, 150, 16};
  hooks.find_text = [&](const std::string&, const std::string&) -> Result<std::vector<FoundText>> {
    FoundText f;
    f.element.id = 9;
    f.element.type = "button";
    f.element.text = "1001 Printer jams 1002 Refund 1003 Laptop 1004 VPN drops every hour";
    f.element.rect = Rect{210, 120, 1000, 160};
    f.via = "ancestor";
    f.matched = "VPN drops every hour";
    f.text_rect = text_rect;
    return std::vector<FoundText>{f};
  };
  auto r = resolveTarget(*parseTarget("\"VPN drops every hour\""), p, hooks, false);
  REQUIRE(r.ok());
  REQUIRE(r->element->aim.has_value());
  CHECK(r->element->aim->y == 222);
  // The words filling the box (or lying outside it) need no aim: its middle is theirs.
  text_rect = Rect{210, 120, 1000, 160};
  CHECK_FALSE(resolveTarget(*parseTarget("\"VPN drops every hour\""), p, hooks, false)->element->aim);
  text_rect = Rect{210, 400, 100, 16};
  CHECK_FALSE(resolveTarget(*parseTarget("\"VPN drops every hour\""), p, hooks, false)->element->aim);
}

TEST_CASE("the text fallback finds a short text as words, never inside a word") {
  // MUI X's time picker: "OK" had gone (the picker closed itself) and the fallback pressed "BOOK
  // TABLE", which holds "ok", submitting the form half filled.
  PageScan p = scanOf("http://x.test/", "T", {{"input", "text", "Full name", "#n"}});
  ResolverHooks hooks;
  std::vector<std::string> shown = {"Book table"};
  hooks.find_text = [&](const std::string&, const std::string&) -> Result<std::vector<FoundText>> {
    std::vector<FoundText> out;
    for (const auto& t : shown) {
      FoundText f;
      f.element.id = 7;
      f.element.type = "button";
      f.element.text = t;
      f.via = "self";
      f.matched = t;
      out.push_back(f);
    }
    return out;
  };
  auto none = resolveTarget(*parseTarget("\"OK\""), p, hooks, false);
  CHECK(none.status().code() == std::string(codes::kTargetNotFound));
  shown = {"Book table", "OK, book it"};
  auto words = resolveTarget(*parseTarget("\"OK\""), p, hooks, false);
  REQUIRE(words.ok());
  CHECK(words->element->text == "OK, book it");
  // From 4 characters, inside a word too (as for listed elements); and whenever contains is asked for.
  shown = {"Bookings"};
  CHECK(resolveTarget(*parseTarget("\"book\""), p, hooks, false).ok());
  shown = {"Book table"};
  CHECK(resolveTarget(*parseTarget("contains \"OK\""), p, hooks, false).ok());
}

TEST_CASE("a row chosen for some of its words is pressed at those words") {
  // A grid's header row is one listed row: "Total" is pressed where it shows, not at the row's middle.
  PageScan p = scanOf("http://x.test/", "T", {{"row", "generic", "Order Customer Status Total", "#head"}});
  ResolverHooks hooks;
  std::string asked;
  hooks.find_text = [&](const std::string& text, const std::string& match) -> Result<std::vector<FoundText>> {
    asked = text + "/" + match;
    FoundText f;
    f.element = p.elements[0];
    f.via = "ancestor";
    f.matched = "Total";
    f.text_rect = Rect{90, 20, 10, 18};
    return std::vector<FoundText>{f};
  };
  auto r = resolveTarget(*parseTarget("Total"), p, hooks, false);
  REQUIRE(r.ok());
  CHECK(asked == "Total/exact");
  CHECK(r->element->id == 1);
  REQUIRE(r->element->aim.has_value());
  CHECK(r->element->aim->x == 90);
  CHECK(r->note == "the words \"Total\" in it");
  // The row's whole text needs no aim; neither does a button.
  asked.clear();
  CHECK_FALSE(resolveTarget(*parseTarget("\"Order Customer Status Total\""), p, hooks, false)->element->aim);
  CHECK(asked.empty());
}

TEST_CASE("near measures from the anchor text's own box, not from the box it acts through") {
  // Tabulator: every name sits in the table's one focusable body; the "Delete" beside the named
  // row is the nearest to the name itself.
  PageScan p = scanOf("http://x.test/", "T",
                      {{"button", "generic", "Delete", "#d1"}, {"button", "generic", "Delete", "#d2"},
                       {"button", "generic", "Delete", "#d3"}});
  ResolverHooks hooks;
  hooks.find_text = [&](const std::string&, const std::string&) -> Result<std::vector<FoundText>> {
    FoundText f;
    f.element.id = 9;
    f.element.type = "generic";
    f.element.rect = Rect{0, 0, 400, 200};  // the table's body: holds every row
    f.via = "ancestor";
    f.matched = "Tim";
    f.text_rect = Rect{10, 20, 40, 18};  // the first row (the buttons' rows are y = 20, 40, 60)
    return std::vector<FoundText>{f};
  };
  auto r = resolveTarget(*parseTarget("Delete near \"Tim\""), p, hooks, false);
  REQUIRE(r.ok());
  CHECK(r->element->id == 1);  // from the body's middle, the third would be nearest
}

TEST_CASE("near: a row's control before its text is the row's own, unless a control follows the text on its line") {
  // Carbon's DataTable: each row's checkbox ("Select row") sits left of the name; the next row's
  // is below-left. Cards side by side: the control to the text's left is the previous card's
  // where one follows the text on its line.
  auto at = [](double x, double y) { return nlohmann::json{{"rect", {{"x", x}, {"y", y}, {"width", 20}, {"height", 24}}}}; };
  PageScan rows = scanOf("http://x.test/", "T",
                         {{"checkbox", "generic", "Select row", "#r1", {}, "", at(64, 486)},
                          {"checkbox", "generic", "Select row", "#r2", {}, "", at(64, 534)}});
  Rect text{104, 490, 80, 18};  // "Alan Turing", in the first row
  ResolverHooks hooks;
  hooks.find_text = [&](const std::string&, const std::string&) -> Result<std::vector<FoundText>> {
    FoundText f;
    f.element.id = 9;
    f.element.rect = text;
    f.via = "ancestor";
    f.matched = "Alan Turing";
    f.text_rect = text;
    return std::vector<FoundText>{f};
  };
  auto r = resolveTarget(*parseTarget("\"Select row\" near \"Alan Turing\""), rows, hooks, false);
  REQUIRE(r.ok());
  CHECK(r->element->id == 1);
  PageScan cards = scanOf("http://x.test/", "T",
                          {{"checkbox", "generic", "Select row", "#c1", {}, "", at(80, 490)},
                           {"checkbox", "generic", "Select row", "#c2", {}, "", at(200, 490)}});
  auto c = resolveTarget(*parseTarget("\"Select row\" near \"Alan Turing\""), cards, hooks, false);
  REQUIRE(c.ok());
  CHECK(c->element->id == 2);  // the first card's box is nearer, but comes before the text
}

TEST_CASE("a field shows what was typed: the text, or its letters and digits in order") {
  CHECK(showsTyped("Ada Lovelace", "Ada Lovelace"));
  CHECK(showsTyped("(415) 555-2671", "4155552671"));  // an input mask's literals
  CHECK(showsTyped("1,000.50", "1000.50"));           // a number's separators
  CHECK(showsTyped("4242 4242 4242 4242", "4242424242424242"));
  CHECK_FALSE(showsTyped("(415) 555-2677", "4155552671"));  // a digit lost
  CHECK_FALSE(showsTyped("abc", "abcdef"));                  // a maxlength cut it
  CHECK_FALSE(showsTyped("1,000", "10.00"));                 // a decimal point lost: 100 times more
}

TEST_CASE("a date or time drawn section by section takes one part per section, in the field's order") {
  using V = std::vector<std::string>;
  const V mdy = {"month", "day", "year"};
  CHECK(sectionParts("06/20/2025", mdy) == V{"06", "20", "2025"});
  CHECK(sectionParts("6/5/2025", mdy) == V{"6", "5", "2025"});
  CHECK(sectionParts("2025-06-20", mdy) == V{"06", "20", "2025"});        // ISO 8601, placed by kind
  CHECK(sectionParts("2025-06-20", V{"day", "month", "year"}) == V{"20", "06", "2025"});
  CHECK(sectionParts("20.06.2025", V{"day", "month", "year"}) == V{"20", "06", "2025"});
  CHECK(sectionParts("2025/06/20", V{"year", "month", "day"}) == V{"2025", "06", "20"});
  const V range = {"month", "day", "year", "month", "day", "year"};  // a range: two dates in one group
  CHECK(sectionParts("2027-06-20 – 2027-06-25", range) == V{"06", "20", "2027", "06", "25", "2027"});
  CHECK(sectionParts("06/20/2027 - 06/25/2027", range) == V{"06", "20", "2027", "06", "25", "2027"});
  CHECK(sectionParts("2025-06-20 19:30", V{"month", "day", "year", "hour", "minute", "dayPeriod"}) ==
        V{"06", "20", "2025", "07", "30", "P"});
  const V hm12 = {"hour", "minute", "dayPeriod"};
  CHECK(sectionParts("07:30 PM", hm12) == V{"07", "30", "P"});           // a period by its first letter
  CHECK(sectionParts("7:30pm", hm12) == V{"7", "30", "p"});
  CHECK(sectionParts("19:30", hm12) == V{"07", "30", "P"});             // 24-hour time, its period added
  CHECK(sectionParts("00:05", hm12) == V{"12", "05", "A"});
  CHECK(sectionParts("12:00", hm12) == V{"12", "00", "P"});
  CHECK(sectionParts("25:00", hm12).empty());
  CHECK(sectionParts("06202025", mdy).empty());                          // no parts to tell apart
  CHECK(sectionParts("06/20", mdy).empty());
  CHECK(sectionParts("06\u202f/\u00a020/2025", mdy) == V{"06", "20", "2025"});  // no-break spaces are no part
  CHECK(sectionParts("20. März 2025", V{"day", "month", "year"}) == V{"20", "März", "2025"});

  CHECK(sectionParts("", mdy).empty());
  CHECK(sectionParts(" - / ", mdy).empty());
  CHECK(sectionParts("123:30", hm12).empty());                           // no hour of a clock
  CHECK(sectionParts("06/20/2025", V{"other", "other", "other"}) == V{"06", "20", "2025"});
  CHECK(sectionParts("午後7:30", V{"dayPeriod", "hour", "minute"}) == V{"午後", "7", "30"});  // whole: 午前 shares 午
  CHECK(sectionParts("06/20/2025/1", mdy).empty());                      // more parts than sections

  CHECK(showsParts("06/20/2025", V{"6", "20", "2025"}));                  // padded by the field
  CHECK_FALSE(showsParts("06/20/2025", V{"06", "2", "2025"}));            // "2" typed is not "20"
  CHECK(showsParts("2025年6月20日", V{"2025", "06", "20"}));              // the words between parts aside
  CHECK_FALSE(showsParts("2025年6月21日", V{"2025", "06", "20"}));
  CHECK(showsParts("07:30 PM", V{"07", "30", "P"}));
  CHECK(showsParts("5/2/2027", V{"05", "02", "2027"}));                   // not padded
  CHECK_FALSE(showsParts("06/02/2025", V{"06", "20", "2025"}));
  CHECK_FALSE(showsParts("06/DD/YYYY", V{"06", "20", "2025"}));
  CHECK_FALSE(showsParts("07:30 AM", V{"07", "30", "P"}));
}

TEST_CASE("dots read as the name of an unnamed menu opener; a short text is no part of a word") {
  PageScan p = scanOf("http://x.test/", "T",
                      {{"checkbox", "generic", "Subscribe to updates", "#sub"},
                       {"button", "generic", "…", "#more"},
                       {"link", "generic", "...", "#gap"},
                       {"button", "generic", "Increase", "#up"}});
  for (const char* dots : {"\"...\"", "\"⋯\"", "\"⋮\"", "\"•••\"", "\"…\""}) {
    auto t = parseTarget(dots);
    REQUIRE(t.ok());
    auto r = resolveTarget(*t, p, {}, false);
    REQUIRE(r.ok());
    CHECK((r->element->id == 2 || r->element->id == 3));  // both read "…": the first, said as a tie
  }
  // "up" is no part of "updates": nothing matches (before: the checkbox, silently).
  auto up = parseTarget("\"up\"");
  REQUIRE(up.ok());
  CHECK_FALSE(resolveTarget(*up, p, {}, false).ok());
  CHECK(resolveId("\"Incr\"", p) == 4);  // four characters and more: inside a word still counts
}

TEST_CASE("a string of digits is an id, unless another element reads those digits") {
  PageScan p = scanOf("http://x.test/", "T",
                      {{"link", "generic", "Prev", "#p"}, {"link", "generic", "1", "#1"},
                       {"link", "generic", "2", "#2"}, {"link", "generic", "Next", "#n"}});
  auto cmd = commandFromArgs("click", json{{"target", "2"}}, {});
  REQUIRE(cmd.ok());
  auto amb = resolveTarget(*cmd->target, p, {}, false);
  REQUIRE_FALSE(amb.ok());
  CHECK(amb.status().code() == std::string(codes::kTargetAmbiguous));
  CHECK(amb.status().message().find("[2] link \"1\"") != std::string::npos);
  auto num = commandFromArgs("click", json{{"target", 2}}, {});
  REQUIRE(num.ok());
  CHECK(resolveTarget(*num->target, p, {}, false)->element->id == 2);
  auto four = commandFromArgs("click", json{{"target", "4"}}, {});
  REQUIRE(four.ok());
  CHECK(resolveTarget(*four->target, p, {}, false)->element->id == 4);
}

TEST_CASE("with a modal dialog open, a match inside it that holds the words beats an exact one behind it") {
  // A command menu over a table: the page's "Pioneer" link sits under the dialog's overlay; the
  // menu's option reads "Pioneer Katherine Johnson" (name and owner).
  PageScan p = scanOf("http://x.test/", "T",
                      {{"link", "generic", "Pioneer", "#row-pioneer"},
                       {"link", "generic", "Voyager", "#row-voyager"},
                       {"input", "search", "Command menu", "[cmdk-input]"},
                       {"option", "generic", "Pioneer Katherine Johnson", "#opt-pioneer"},
                       {"option", "generic", "Pioneering research", "#opt-research"}},
                      {{{"name", "modal_dialog"}, {"container", "[role=dialog]"}}});
  ResolverHooks hooks;
  hooks.in_modal = [] { return std::vector<int>{3, 4, 5}; };
  auto pick = [&](const std::string& target) {
    auto t = parseTarget(target);
    REQUIRE(t.ok());
    auto r = resolveTarget(*t, p, hooks, false);
    INFO(target << ": " << r.status().toString());
    REQUIRE(r.ok());
    return r->element->id;
  };
  CHECK(pick("\"Pioneer\"") == 4);  // the words, in the dialog: not the exact link behind it
  // Only inside a word in the dialog ("Voyage" in nothing there): the page's link stays the match
  // (clicking it then says the dialog covers it).
  CHECK(pick("\"Voyager\"") == 2);
  // Without a dialog open, exact text wins as everywhere.
  PageScan closed = scanOf("http://x.test/", "T",
                           {{"link", "generic", "Pioneer", "#row-pioneer"},
                            {"option", "generic", "Pioneer Katherine Johnson", "#opt-pioneer"}});
  auto t = parseTarget("\"Pioneer\"");
  auto r = resolveTarget(*t, closed, hooks, false);
  REQUIRE(r.ok());
  CHECK(r->element->id == 1);
}
