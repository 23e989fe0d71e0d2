// What the engine knows of a page after a scan: elements with stable agent-facing ids,
// detected patterns, page info. Built from the scanner's `scan` response (scanner-protocol §3.1).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/backend.h"
#include "engine/status.h"

namespace lscope {

using json = nlohmann::json;

struct Element {
  int id = 0;          // agent-facing id: stable while the document stays the same
  int scanner_id = 0;  // the scanner's id in the scan this element came from
  std::string frame;   // backend frame id ("" = top document) the scanner ran in
  std::string frame_label;  // frame noted in observations (iframe selector), "" for top
  std::string type;    // input, button, link, select, textarea, checkbox, radio, generic
  std::string role;    // email, password, search, tel, url, username, submit, primary, generic
  std::string tag;
  std::string text;    // accessible text
  std::string selector;
  std::string xpath;
  std::string key;     // stable identity key (background-semantic-diff)
  std::string form;      // the form it belongs to (scanner's form key), "" outside forms
  std::string landmark;  // nearest landmark: main, nav, aside, header, footer, search, dialog, ""
  Rect rect;
  bool visible = true;
  bool enabled = true;
  bool focused = false;
  bool in_viewport = true;
  std::optional<std::string> value;  // masked by the scanner for passwords
  std::optional<bool> checked;
  bool filters_form = false;  // a combobox picking one of its form's choices: no site search
  std::vector<std::string> modifiers;
  std::vector<std::string> options;  // select options (visible texts)
  // Other names a person may use for it: a day cell's full date, an icon's word, a tooltip.
  std::vector<std::string> aliases;
  // Set when other controls read the same: a short text of its own row that tells it apart.
  std::string context;
  json attributes = json::object();
  // Where to press it when not at its middle: the box of the words a target named inside a row
  // (a grid's "Total" in its header row), set by the resolver.
  std::optional<Rect> aim;

  bool hasModifier(const std::string& m) const;
  // True for password inputs and fields whose name/label is on the sensitive list (§13.1).
  bool isSensitive() const;
};

struct Pattern {
  std::string name;       // login_form, search_form, cookie_banner, ...
  std::string container;  // CSS selector of the container
  std::string frame;
  // Field name -> agent-facing element id (e.g. email=1); lists for pagination pages.
  std::map<std::string, int> fields;
  std::map<std::string, std::vector<int>> lists;
  std::map<std::string, std::string> texts;  // non-element fields (modal title)
};

// Text the page shows to the user about what happened: errors, alerts, confirmations.
struct PageMessage {
  std::string kind;  // error, warning, success, info
  std::string text;
  std::string key;   // identity, to tell new messages from old ones
};

struct FrameNote {
  std::string selector;
  std::string src;
  bool cross_origin = false;
};

struct PageScan {
  std::string url;
  std::string title;
  std::string ready_state;
  std::string document;  // the scanner's token for this document (new on every load)
  int submits = 0;            // submit events this document received (scanner pageInfo)
  std::string last_submit;    // the form key of the last one
  double viewport_width = 0, viewport_height = 0;
  double scroll_x = 0, scroll_y = 0, scroll_max_x = 0, scroll_max_y = 0;
  std::vector<Element> elements;
  std::vector<Pattern> patterns;
  std::vector<FrameNote> frames;
  std::vector<PageMessage> messages;
  std::map<std::string, Point> frame_offsets;  // cross-origin frame id -> its viewport origin
  int total_scanned = 0;
  int interactive = 0;  // interactive elements found, hidden ones included
  int available = 0;    // elements that qualified (visible ones, or all with include_hidden)
  bool truncated = false;
  double scan_ms = 0;

  const Element* byId(int id) const;
  const Pattern* pattern(const std::string& name) const;
};

// Parses the data of a scanner `scan` response. Agent-facing ids are not assigned here
// (id = scanner id); see IdAllocator.
Result<PageScan> parseScan(const json& data, const std::string& frame = "");
// Parses one element of a scanner response (scan, query, find_text); false when malformed.
bool parseElement(const json& e, const std::string& frame, Element& out);
// A scanner box {x, y, width, height} (missing numbers are 0).
Rect rectFromJson(const json& r);

// Keeps agent-facing ids stable across scans of one document: an element keeps its id while
// its identity key is seen again; new elements get the next free number. reset() on
// navigation starts again at 1.
class IdAllocator {
 public:
  void reset();
  // Rewrites element ids and pattern references of `scan` in place. An element whose key is
  // new but whose selector and type match an element of `previous` that is gone keeps that
  // element's id (its text or state changed, not its identity), when it is the only one: several
  // such pairs are a list showing other entries in the same places, each of them new.
  void assign(PageScan& scan, const PageScan* previous = nullptr);
  // The agent id of one element found outside a scan (query, find_text): its known id, or the
  // next free one.
  int idFor(const Element& e);

 private:
  std::map<std::string, int> by_key_;
  int next_ = 1;
};

// The sensitive field names of intent-engine.md §13.1.
const std::vector<std::string>& sensitiveFieldNames();
// True when a field name or label mentions a sensitive field (case-insensitive, ignoring
// separators: "Card Number", "card-number", "cardNumber" all match card_number).
bool isSensitiveName(const std::string& name);
// The mask shown instead of a secret (never its length).
inline const char* kMask = "••••••••";

}  // namespace lscope
