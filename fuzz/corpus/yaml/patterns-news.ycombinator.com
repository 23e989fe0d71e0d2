# yaml-language-server: $schema=../../schemas/patterns-v1.json
# Hacker News markup (§9.3): form action="login" (twice: log in, create account), #me, #logout,
# tr.athing, a#up_<id>, form action="comment".
patterns:
  hn_login:
    description: "The Login form (not the Create Account form below it)"
    detection:
      container: "form[action=login]:not(:has(input[name=creating]))"
    elements:
      username: { selector: "input[name=acct]" }
      password: { selector: "input[name=pw]" }
      submit: { selector: "input[type=submit]" }

  hn_user:
    description: "The top bar of a logged-in user: name and logout"
    detection:
      container: ".pagetop:has(#me)"
    elements:
      me: { selector: "#me" }
      logout: { selector: "#logout" }

  comment_form:
    description: "The comment box under a story"
    detection:
      container: "form[action=comment]"
    elements:
      text: { selector: "textarea[name=text]" }
      submit: { selector: "input[type=submit]" }
