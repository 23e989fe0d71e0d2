// Target resolution (intent-engine.md §5.2): an OIL target, or an intent definition's target
// converted to one, against a scan -> one element, with disambiguation (visible, enabled,
// primary, in viewport), ordinals, fallbacks and clear failures. The engine's only resolver.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/oil.h"
#include "engine/page_model.h"

namespace lscope {

// Text shown on the page that is not a listed element (find_text): the element to act on.
struct FoundText {
  Element element;      // with an agent id; part of the page from now on
  std::string via;      // "self": the text's own element; "ancestor": its nearest actionable ancestor
  std::string matched;  // the text that matched
  Rect text_rect;       // the text's own box (`near` measures from it); the element's when unknown
};

struct Resolution {
  const Element* element = nullptr;
  std::vector<const Element*> candidates;  // every match, best first
  std::string note;                        // "chose [4], first of 3 equal matches", "via text ..."
  // Elements found outside the scan (text fallback); `element` may point into it.
  std::shared_ptr<const std::vector<Element>> extra;
};

// What the resolver may ask of the live page. Supplied by the Page; may talk to the browser.
struct ResolverHooks {
  // Elements of the scan matched by a selector (css or xpath), in document order.
  std::function<Result<std::vector<int>>(const std::string& selector, bool xpath)> select;
  // Elements ordered by distance to the text (scan --near), nearest first.
  std::function<Result<std::vector<int>>(const std::string& text)> near;
  // Any visible text on the page (Playwright's getByText), for text targets that match no
  // listed element; best first. `match`: exact, contains or regex.
  std::function<Result<std::vector<FoundText>>(const std::string& text, const std::string& match)> find_text;
  // The ids of the elements inside the modal dialogs the page shows (none open: empty). Of
  // equally good matches, those a person can reach come first: in the dialog, not behind it.
  std::function<std::vector<int>()> in_modal;
};

// Every element matching `target` (relations, ordinal and fallbacks applied), best first. Empty
// when none. Does not use the text fallback.
Result<std::vector<const Element*>> findCandidates(const TargetSpec& target, const PageScan& scan,
                                                   const ResolverHooks& hooks);

// Resolves to exactly one element. TARGET_NOT_FOUND lists the closest texts on the page;
// with `strict`, several equally good matches are TARGET_AMBIGUOUS with the candidates listed and
// the ordinal form that picks one.
Result<Resolution> resolveTarget(const TargetSpec& target, const PageScan& scan,
                                 const ResolverHooks& hooks, bool strict);

// True when `word` (a role word: type, role, type/role or ARIA role name) describes `e`.
bool roleMatches(const Element& e, const std::string& word);

// Normalized text for matching: lower case, whitespace collapsed, trimmed.
std::string normalizeText(const std::string& text);

// True when `want` (non-empty) occurs in `text` with a word boundary on both sides.
bool containsWords(const std::string& text, const std::string& want);

}  // namespace lscope
