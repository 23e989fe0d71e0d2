// Target resolution (intent-engine.md §5.2): an OIL target against a scan -> one element,
// with disambiguation (visible, enabled, primary, in viewport) and clear failures.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "engine/oil.h"
#include "engine/page_model.h"

namespace lscope {

struct Resolution {
  const Element* element = nullptr;
  std::vector<const Element*> candidates;  // every match, best first
  std::string note;                        // "chose 1 of 3 matches" when it had to choose
};

// Finds the agent ids of scanned elements matching a CSS selector or XPath (scanner query),
// or anchor positions for relations. Supplied by the session; may talk to the browser.
struct ResolverHooks {
  // Elements of the scan matched by a selector (css or xpath), in document order.
  std::function<Result<std::vector<int>>(const std::string& selector, bool xpath)> select;
  // Elements ordered by distance to the text (scan --near), nearest first.
  std::function<Result<std::vector<int>>(const std::string& text)> near;
};

// Every element matching `target` (relations applied), best first. Empty when none.
Result<std::vector<const Element*>> findCandidates(const TargetSpec& target, const PageScan& scan,
                                                   const ResolverHooks& hooks);

// Resolves to exactly one element. TARGET_NOT_FOUND lists the closest texts on the page;
// with `strict`, several equally good matches are TARGET_AMBIGUOUS with the candidates listed.
Result<Resolution> resolveTarget(const TargetSpec& target, const PageScan& scan,
                                 const ResolverHooks& hooks, bool strict);

// Normalized text for matching: lower case, whitespace collapsed, trimmed.
std::string normalizeText(const std::string& text);

}  // namespace lscope
