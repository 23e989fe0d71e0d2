// The choices built-ins make like a person (issue 12 item 4), as pure functions of a scan so
// they are tested without a browser: which search box is the page's main search, which form
// submit_form submits.
#pragma once

#include <string>
#include <vector>

#include "engine/page.h"
#include "engine/page_model.h"

namespace lscope {

// Every search box of the page, the page's main search first: the `main` landmark over
// navigation and sidebar filters, then a submit button beside it, size and position.
std::vector<const Element*> rankSearchBoxes(const PageScan& page);
// The search button that belongs to `box` (the search_form pattern's, else its form's), or null.
const Element* searchButtonFor(const PageScan& page, const Element& box);

// The form submit_form submits: the one last typed into (on this document); failing that, the
// form with the most filled fields; failing that, the main content's form with a submit button.
// `group` is "form <key>" (or "landmark <name>" for formless pages); empty when there is none.
struct FormChoice {
  std::string group;
  std::string why;
};
FormChoice chooseFormToSubmit(const PageScan& page, const BrowserState::Typed& typed, const std::string& document);
// The group an element belongs to in FormChoice terms.
std::string formGroupOf(const Element& e);
// A button that submits (by role or by its words).
bool isSubmitButton(const Element& e);

}  // namespace lscope
