// The observation text of intent-language.md: `@ host/path "Title"`, then one line per
// element `[id] type/role "text" {modifiers}`, then `# patterns`.
#pragma once

#include <string>
#include <vector>

#include "engine/page_model.h"

namespace lscope {

struct ObserveFormat {
  bool full = false;    // add selectors and positions (observe --full)
  size_t max = 150;     // elements listed before the "… N more" line
  // Characters of element lines before the "… N more" line (0: no limit). An observation costs
  // tokens on every turn: long pages list their first part and say how to see the rest.
  size_t max_chars = 0;
  std::string more_hint = "observe --near/--within";
};

// host[:port]/path[?query] without scheme or "www." (query kept, long ones shortened).
std::string shortUrl(const std::string& url);
// Just the path[?query] part, for url changes on the same host.
std::string urlPath(const std::string& url);
// `@ host/path "Title"`.
std::string pageLine(const PageScan& scan);
// `[id] type/role "text" {modifiers} = "value" near "row text"`.
std::string elementLine(const Element& e, bool full = false);
// `type/role "text"` without id or state, for change lines.
std::string elementLabel(const Element& e);
// ` near "row text"` for a control that reads like others (scanner's `context`), else "".
std::string nearContext(const Element& e);
// `- login_form: email=[1] password=[2] submit=[3]`, one per pattern.
std::vector<std::string> patternLines(const PageScan& scan);
// The page line, the element lines (capped) and the truncation line.
std::string formatObservation(const PageScan& scan, const ObserveFormat& format);
// Quotes text for OIL output ("..." with inner quotes escaped, newlines as spaces).
std::string quote(const std::string& text);

}  // namespace lscope
