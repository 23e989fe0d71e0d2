# yaml-language-server: $schema=../../schemas/patterns-v1.json
# GitHub's pages, by GitHub's own ids, names and data attributes (§9.3).
patterns:
  github_login:
    description: "The sign-in form (/login, /session)"
    detection:
      container: "#login"
    elements:
      username: { selector: "#login_field" }
      password: { selector: "#password" }
      submit: { selector: "input[type=submit][name=commit]" }

  site_search:
    description: "The header's search box"
    detection:
      container: "form.js-site-search-form"
    elements:
      query: { selector: "input[name=q]" }

  user_menu:
    description: "The signed-in header: the avatar button that opens the user menu"
    detection:
      container: "#user-menu-button"
    elements:
      open: { selector: "#user-menu-button" }

  repo_header:
    description: "A repository's header: owner/name, Star, Fork and the tabs"
    detection:
      container: "#repository-container-header"
    elements:
      issues: { selector: "#issues-tab" }
      code: { selector: "#code-tab" }

  issues_list:
    description: "A repository's issue list, with its New issue button"
    detection:
      url_matches: "/issues/?(\\?.*)?$"
      container: ".issues-bar"
    elements:
      new_issue: { selector: "a[data-testid=new-issue-button]", text: "New issue" }

  issue_form:
    description: "The new-issue form"
    detection:
      url_contains: "/issues/new"
      container: "#new_issue"
    elements:
      title: { selector: "#issue_title" }
      body: { selector: "#issue_body" }
      submit: { selector: "button[type=submit]", text_contains: "Submit new issue" }
