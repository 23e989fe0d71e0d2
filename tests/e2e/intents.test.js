// The intent engine end to end: each built-in intent on differently built fixture pages, the
// core YAML intents, session intents, checkpoints and configuration, through the official MCP
// client. Assertions check what the page received or shows.
import { describe, it as nodeTest, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { connect, text, conform } from './lib/lscope.js';
import { startFixtureServer, accounts } from './lib/fixture_server.js';

// The backend conformance suite: known differences come from backends/expectations.json.
const it = conform(nodeTest);

const EMAIL = 'ada@example.com';
const PASSWORD = accounts[EMAIL];

let site;
let client;
const call = (name, args = {}) => client.callTool({ name, arguments: args });
const ok = async (name, args = {}) => {
  const r = await call(name, args);
  assert.equal(r.isError, false, `${name} ${JSON.stringify(args)} failed:\n${text(r)}`);
  return text(r);
};
const fails = async (name, args = {}) => {
  const r = await call(name, args);
  assert.equal(r.isError, true, `${name} ${JSON.stringify(args)} should fail:\n${text(r)}`);
  return text(r);
};
const go = (page) => ok('goto', { url: `${site.base}/${page}` });
const pageText = async () => (await call('text')).structuredContent.text;
const lastPost = (path) => site.received.filter((r) => r.method === 'POST' && r.path === path).at(-1);

before(async () => {
  site = await startFixtureServer();
  ({ client } = await connect(['--tools', 'all']));
});
after(async () => {
  await client.close();
  await site.close();
});

describe('login', () => {
  for (const [page, endpoint] of [['login.html', '/login'], ['noform-login.html', '/api/login'],
    ['aria-login.html', '/login'], ['react-login.html', '/api/login'], ['shadow.html', '/api/login'],
    ['hostile.html', '/login']]) {
    it(`signs in on ${page}`, async () => {
      await go(page);
      const before = site.received.length;
      const r = await ok('login', { username: EMAIL, password: PASSWORD });
      assert.match(r, /^ok login "ada@example\.com"/);
      assert.match(r, /# actions\ntype \[\d+\] "ada@example\.com"\ntype \[\d+\] "••••••••"/);
      assert.match(r, /authenticated: true/);
      assert.ok(!r.includes(PASSWORD), 'the password is never echoed');
      const sent = site.received.slice(before).filter((x) => x.method === 'POST' && x.path === endpoint);
      assert.equal(sent.length, 1, `one POST to ${endpoint}`);
      const who = sent[0].form.email ?? sent[0].form.username;
      assert.equal(who, EMAIL);
      assert.equal(sent[0].form.password, PASSWORD);
    });
  }

  for (const page of ['login.html', 'react-login.html']) {
    it(`a wrong password on ${page} is an error quoting the page`, async () => {
      await go(page);
      const r = await fails('login', { username: EMAIL, password: 'not it' });
      assert.match(r, /^error login: authentication failed\n/);
      assert.match(r, /# result\nForm error: "Incorrect username or password\."/);
      assert.match(r, /# hint\nVerify credentials and retry\./);
    });
  }

  it('--no_submit fills the fields and sends nothing', async () => {
    await go('login.html');
    const before = site.received.length;
    const r = await ok('login', { username: EMAIL, password: PASSWORD, no_submit: true });
    assert.match(r, /not submitted/);
    assert.equal(site.received.slice(before).filter((x) => x.method === 'POST').length, 0);
    assert.match(text(await call('observe')), /\[1\] input\/email "Email" \{required\} = "ada@example\.com"/);
  });

  it('a page without a login form says so', async () => {
    await go('dashboard.html');
    assert.match(await fails('login', { username: EMAIL, password: PASSWORD }), /^error login: no login form on this page/);
  });
});

describe('search', () => {
  it('submits by Enter and lands on results (search.html)', async () => {
    await go('search.html');
    const r = await ok('search', { query: 'lemmas' });
    assert.match(r, /press Enter/);
    assert.match(r, /~ url: \/search\.html → \/search\.html\?q=lemmas/);
    assert.match(await pageText(), /lemmas/i);
  });
  it('clicks the button when Enter does nothing (search-button.html)', async () => {
    await go('search-button.html');
    const r = await ok('search', { query: 'lamp' });
    assert.match(r, /click \[\d+\] "Search"/);
    assert.match(await pageText(), /5 results/);
  });
  it('--submit click, in a header form (shop.html)', async () => {
    await go('shop.html');
    const r = await ok('search', { query: 'vase', submit: 'click' });
    assert.match(r, /click \[\d+\] "Go"/);
    assert.match(r, /search\.html\?q=vase/);
  });
  it('no search box: an error with a hint', async () => {
    await go('dashboard.html');
    assert.match(await fails('search', { query: 'x' }), /^error search: no search box on this page\n\n# hint\n/);
  });
  it('a picker among a form\'s fields is no site search (Headless UI: "People", "Search by name…", in an invite form)', async () => {
    // Typing there and pressing Enter chose an invitee; its form's one button sends the invites.
    await go('corpus/reach/headlessui-invite.html');
    assert.doesNotMatch(text(await call('observe')), /search_form|- search <query>/);
    assert.match(await fails('search', { query: 'tanya', appear: '0s' }), /^error search: no search box on this page/);
    assert.doesNotMatch(text(await call('observe')), /Remove Tanya Fox|invites sent/);
  });
  it('a picker named for what it picks is no site search, in a panel without a form (MUI: "Approver", "Search a colleague")', async () => {
    // Typing there chose a colleague, and the panel's one button sent the request.
    await go('corpus/reach/mui-timeoff.html');
    const seen = text(await call('observe'));
    assert.match(seen, /\[\d+\] input(\/search)? "Approver"/);
    assert.doesNotMatch(seen, /search_form|- search <query>/);
    const before = site.received.length;
    assert.match(await fails('search', { query: 'Ken', appear: '0s' }), /^error search: no search box on this page/);
    assert.match(text(await call('observe')), /\[\d+\] input(\/search)? "Approver"\n/);  // still empty
    assert.ok(!site.received.slice(before).some((r) => r.method === 'POST' && r.path === '/report'), 'no request sent');
  });
  it('beside such a picker, the site search is the one used', async () => {
    await go('invite-search.html');
    const r = await ok('search', { query: 'lemmas' });
    assert.match(r, /type \[\d+\] "lemmas"/);
    assert.match(r, /~ url: \/invite-search\.html → \/search\.html\?q=lemmas/);
    assert.doesNotMatch(r, /People/);
  });
});

describe('accept_cookies', () => {
  it('hand-written banner: accepted, banner gone, cookie set', async () => {
    await go('consent-custom.html');
    const r = await ok('accept_cookies');
    assert.match(r, /click \[\d+\] "Accept all"/);
    assert.match(r, /- cookie_banner/);
    await go('consent-custom.html');
    assert.ok(!/cookie_banner/.test(text(await call('observe'))), 'no banner after reload: the cookie stuck');
  });
  it('vanilla-cookieconsent: accept and reject reach the library', async () => {
    await go('consent.html');
    await ok('accept_cookies');
    assert.match(await pageText(), /necessary.*analytics|analytics.*necessary/is);
    const { client: fresh } = await connect();
    try {
      await fresh.callTool({ name: 'goto', arguments: { url: `${site.base}/consent.html` } });
      const r = await fresh.callTool({ name: 'accept_cookies', arguments: { reject: true } });
      assert.equal(r.isError, false, text(r));
      assert.match(text(r), /Reject all/);
      const state = (await fresh.callTool({ name: 'text', arguments: { target: 'css(#consent-state)' } })).structuredContent.text;
      assert.ok(!/analytics/.test(state), state);
    } finally {
      await fresh.close();
    }
  });
  it('among stacked popups', async () => {
    await go('stacked-popups.html');
    assert.match(await ok('accept_cookies'), /click \[\d+\] "Accept"/);
  });
  it('no banner: ok with "No cookie banner detected."', async () => {
    await go('login.html');
    const r = await ok('accept_cookies', { wait: '300ms' });
    assert.equal(r, 'ok accept_cookies\n\n# result\nNo cookie banner detected.\n');
  });
});

describe('dismiss_popups', () => {
  it('stacked popups: repeats until none remain, then the content is usable', async () => {
    await go('stacked-popups.html');
    const r = await ok('dismiss_popups');
    assert.match(r, /# dismissed\n\[1\] .*\n\[2\] .*\n\[3\] /);
    assert.match(r, /\+ \[\d+\] button "Like"/);
    await ok('click', { target: 'Like' });
  });
  it('a Micromodal dialog', async () => {
    await go('modal-micromodal.html');
    assert.match(await ok('dismiss_popups'), /promo_popup "Get our weekly newsletter" → clicked/);
    assert.match(await pageText(), /closed/i);
  });
  it('a SweetAlert2 promo', async () => {
    await go('popup-sweetalert.html');
    await ok('dismiss_popups');
    // SweetAlert2 settles its promise once the exit animation has run: wait for the page to say so.
    await ok('wait', { condition: 'visible', target: 'dismissed', timeout: '5s' });
    assert.match(text(await call('text', { target: 'css(#promo-result)' })), /dismissed: (close|cancel|esc|backdrop)/);
  });
  it('no popups: ok with "No popups detected."', async () => {
    await go('login.html');
    assert.equal(await ok('dismiss_popups'), 'ok dismiss_popups\n\n# result\nNo popups detected.\n');
  });
});

describe('fill_form and submit_form', () => {
  it('fills every kind of field and submits; the server gets the values', async () => {
    await go('signup.html');
    const r = await ok('fill_form', {
      data: { first_name: 'Ada', last_name: 'Lovelace', email: EMAIL, phone: '555 0100', country: 'France',
        plan: 'Team', newsletter: true, terms: true, bio: 'Analyst.' },
    });
    assert.match(r, /^ok fill_form 9 fields/);
    assert.match(r, /# filled\n\[1\] input "First name" ← "Ada"/);
    assert.match(r, /radio "Team" ← checked/);
    assert.match(r, /select "Country" ← "France"/);
    const s = await ok('submit_form');
    assert.match(s, /signup-done\.html|now at:/);
    const post = lastPost('/signup');
    assert.equal(post.form.first_name, 'Ada');
    assert.equal(post.form.country, 'fr');
    assert.equal(post.form.plan, 'team');
    assert.equal(post.form.bio, 'Analyst.');
    assert.ok(post.form.terms);
  });
  it('a checkbox group answered with option names checks those and unchecks the rest of the group', async () => {
    await go('checkbox-groups.html');
    const r = await ok('fill_form', { data: { 'Email me about': ['Security alerts', 'Product news'], Channels: 'Push', 'Weekly digest': true } });
    assert.match(r, /checkbox "Billing" ← unchecked/);
    assert.match(r, /checkbox "Security alerts" ← checked/);
    assert.match(r, /checkbox "Push" ← checked/);
    assert.equal(text(await call('text', { target: 'css(#state)' })).trim().split('\n').at(-1),
      'topics=security,product channels=push digest=true');
    const missing = await call('fill_form', { data: { Channels: ['SMS', 'Fax'] } });
    assert.equal(missing.isError, true);
    assert.match(text(missing), /"Channels": no option "Fax"/);
  });
  it('an unknown field makes it partial; --partial accepts it', async () => {
    await go('signup.html');
    const r = await call('fill_form', { data: { first_name: 'Ada', middle_name: 'B' } });
    assert.equal(r.isError, true);
    assert.match(text(r), /^partial fill_form: 1 of 2 fields filled/);
    assert.match(text(r), /# skipped\n"middle_name": no matching field found/);
    assert.match(await ok('fill_form', { data: { last_name: 'L', middle_name: 'B' }, partial: true }), /^ok fill_form 1 field/);
  });
  it('React-controlled inputs, placeholders only (no labels, no form)', async () => {
    await go('react-login.html');
    await ok('fill_form', { data: { email: EMAIL, password: PASSWORD } });
    await ok('submit_form');
    assert.deepEqual(lastPost('/api/login').form, { email: EMAIL, password: PASSWORD });
    await go('noform-login.html');
    const r = await ok('fill_form', { data: { email: EMAIL, password: PASSWORD } });
    assert.ok(!r.includes(PASSWORD));
    await ok('submit_form');
    assert.equal(lastPost('/api/login').form.password, PASSWORD);
  });
  it('submitting an incomplete form reports the browser\'s validation messages', async () => {
    await go('signup.html');
    const r = await fails('submit_form');
    assert.match(r, /^error submit_form: the form reports errors/);
    // The browser's own words: Chromium "Please fill out this field.", WebKit "Fill out this field".
    assert.match(r, /Form error: "First name: (Please f|F)ill out this field\.?"/);
  });
});

describe('logout and scroll_to', () => {
  for (const page of ['account.html', 'dashboard.html', 'settings.html']) {
    it(`signs out on ${page}`, async () => {
      await go(page);
      const r = await ok('logout');
      assert.match(r, /signed out: true/);
      if (page === 'account.html') {
        assert.match(r, /click \[\d+\] "Ada L\." \(menu\)/);
        assert.match(await pageText(), /You are signed out\./);
      }
    });
  }
  it('scroll_to brings an element into view', async () => {
    await go('long.html');
    assert.match(await ok('scroll_to', { target: 'I have read everything' }), /^ok scroll_to \[\d+\] "I have read everything"/);
    assert.match(await ok('observe', { viewport: true }), /I have read everything/);
    assert.match(await ok('scroll_to', { target: 'Accept clauses' }), /^ok scroll_to/);
  });
});

describe('core intents (YAML)', () => {
  it('next_page and prev_page follow the pagination pattern', async () => {
    await go('pagination.html');
    assert.match(await ok('next_page'), /page=2/);
    assert.match(await ok('next_page'), /page=3/);
    assert.match(await ok('prev_page'), /page=2/);
  });
  it('close_modal closes a Micromodal dialog and verifies it is hidden', async () => {
    await go('modal-micromodal.html');
    assert.match(await ok('close_modal'), /click \[\d+\] "Close"/);
    assert.match(await pageText(), /closed/i);
  });
  it('clear_form empties a filled form', async () => {
    await go('signup.html');
    await ok('fill_form', { data: { first_name: 'Ada', email: EMAIL } });
    await ok('clear_form');
    assert.ok(!/= "Ada"/.test(text(await call('observe'))));
  });
  it('sign_out_menu opens the account menu first', async () => {
    await go('account.html');
    await ok('sign_out_menu');
    assert.match(await pageText(), /You are signed out\./);
  });
  it('accept_terms checks the terms checkbox', async () => {
    await go('signup.html');
    await ok('accept_terms');
    assert.match(text(await call('observe')), /checkbox "I accept the terms of service" \{[^}]*checked/);
  });
  it('search_and_open_first runs the built-in search, then opens the first result', async () => {
    await go('search.html');
    const r = await ok('search_and_open_first', { query: 'lemmas' });
    assert.match(r, /intent search/);
    assert.match(await ok('url'), /article\.html\?id=1/);
  });
  it('go_home goes to the site root', async () => {
    await go('shop.html');
    const r = await call('go_home');
    assert.match(text(r), /go_home/);
    assert.match(await ok('url'), /127\.0\.0\.1:\d+\/\n?$/);
  });
});

describe('the intent layer over MCP', () => {
  it('intents are tools with schemas from their parameters; `intent` reaches any of them', async () => {
    const { tools } = await client.listTools();
    const login = tools.find((t) => t.name === 'login');
    assert.deepEqual(login.inputSchema.required, ['username', 'password']);
    assert.ok(login.inputSchema.properties.no_submit && login.inputSchema.properties.wait);
    assert.equal(login.annotations.destructiveHint, false);
    await go('pagination.html');
    const r = await ok('intent', { name: 'next_page', params: {} });
    assert.match(r, /^ok next_page/);
    assert.match(await fails('intent', { name: 'fly' }), /no intent named "fly"/);
  });

  it('a session intent defined at run time becomes a tool; clients hear tools/list_changed', async () => {
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => { changed += 1; });
    const def = [
      'intent: to_second_page', 'version: 1', 'description: Go to page 2 and back.',
      'parameters: [{ name: back_text, type: string, default: Prev }]',
      'steps:', '  - action: click', '    target: { text: "2", match: exact }',
      '  - checkpoint: on_second', '  - action: click', '    target: { text: $back_text, match: exact }',
      'success: { conditions: [{ url_contains: "page=1" }] }',
    ].join('\n');
    const r = await ok('define', { definition: def });
    assert.match(r, /^ok define to_second_page\n\n# registered\nIntent 'to_second_page' available for this session\./);
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === 'to_second_page'));
    assert.ok(changed >= 1, 'notifications/tools/list_changed arrived');
    await go('pagination.html');
    // The second click fails: the error says where it got to and how to resume.
    const failed = await fails('to_second_page', { back_text: 'Nowhere' });
    assert.match(failed, /# checkpoint\non_second/);
    assert.match(failed, /to_second_page --resume on_second/);
    assert.match(await ok('url'), /page=2/);
    // Resuming skips the first click: from page 2 straight back to page 1.
    const resumed = await ok('to_second_page', { resume: 'on_second' });
    assert.ok(!/"2"/.test(resumed.split('# actions')[1].split('\n\n')[0]), resumed);
    assert.match(await ok('url'), /page=1/);
    assert.match(await fails('to_second_page', { resume: 'nowhere' }), /no checkpoint "nowhere"/);
    await ok('undefine', { name: 'to_second_page' });
    assert.ok(!(await client.listTools()).tools.some((t) => t.name === 'to_second_page'));
  });

  it('a popup covering a step\'s target is cleared by the intent, which retries and reports both', async () => {
    const def = ['intent: start_checkout', 'version: 1', 'steps:',
      '  - action: click', '    target: { text: "Checkout" }'].join('\n');
    await ok('define', { definition: def });
    await go('consent-custom.html?fresh');
    const r = await ok('start_checkout');
    // The banner covered the button: accept_cookies cleared it, then the click went through.
    assert.match(r, /# actions\n[^]*intent accept_cookies\n  click \[\d+\] "Accept all"[^]*\(a cookie_banner covered the target\)\nclick \[\d+\] "Checkout"/);
    assert.match(await pageText(), /Checkout started\./);
    await ok('undefine', { name: 'start_checkout' });
  });

  it('export writes YAML that loads back to the same intent; built-ins have nothing to export', async () => {
    const def = ['intent: to_page_two', 'version: 1', 'description: "Go to page 2"',
      'parameters: [{ name: page, type: string, default: "2" }]',
      'steps:', '  - action: click', '    target: { text: $page, match: exact }',
      'success: { conditions: [{ url_contains: "page=2" }] }'].join('\n');
    await ok('define', { definition: def });
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lscope-export-')), 'to_page_two.yaml');
    const r = await ok('export', { name: 'to_page_two', to: file });
    assert.match(r, /^ok export to_page_two\n\n# written\n.*to_page_two\.yaml\n/);
    const yaml = fs.readFileSync(file, 'utf8');
    assert.match(yaml, /^intent: to_page_two$/m);
    assert.match(yaml, /default: "2"/, 'a string that looks like a number stays a string');
    // The file defines the same intent again, and it runs.
    await ok('undefine', { name: 'to_page_two' });
    await ok('define', { definition: yaml });
    await go('pagination.html');
    await ok('to_page_two');
    assert.match(await ok('url'), /page=2/);
    await ok('undefine', { name: 'to_page_two' });
    assert.match(await fails('export', { name: 'login' }), /built-in intent/);
    assert.match(await fails('export', { name: 'no_such_intent' }), /no intent named "no_such_intent"/);
  });

  it('define takes the step shorthand (§7.2): fallbacks with or, implicit waits; it runs and exports in the full format', async () => {
    const def = ['to_last_page:', '  description: Go to the last page', '  steps:',
      '    - click "Last page" or click "3"', '    - wait url "page=3"',
      '  success:', '    - url_contains: "page=3"'].join('\n');
    const r = await ok('define', { definition: def });
    assert.match(r, /^ok define to_last_page\n/);
    await go('pagination.html');
    const ran = await ok('to_last_page');
    assert.match(ran, /click \[\d+\] "3"/, 'the second alternative ran after the first found nothing');
    assert.match(await ok('url'), /page=3/);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lscope-export-')), 'to_last_page.yaml');
    await ok('export', { name: 'to_last_page', to: file });
    const yaml = fs.readFileSync(file, 'utf8');
    assert.match(yaml, /^intent: to_last_page$/m);
    assert.match(yaml, /try:/);
    await ok('undefine', { name: 'to_last_page' });
    const bad = await fails('define', { definition: 'broken:\n  steps:\n    - click "Ok"\n    - clik "Nope"\n' });
    assert.match(bad, /^error define: definition:4:7: step 2: .*unknown command 'clik'/);
  });

  it('intents --session lists session intents; --clear-session removes them; clients hear each change; intent runs one without a refresh', async () => {
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => { changed += 1; });
    await ok('define', { definition: 'first_page:\n  steps:\n    - click "1"\n' });
    await ok('define', { definition: 'third_page:\n  steps:\n    - click "3"\n' });
    // A client that never refreshes its tool list runs the new intent through `intent`.
    await go('pagination.html');
    await ok('intent', { name: 'third_page' });
    assert.match(await ok('url'), /page=3/);
    const listed = await ok('run', { script: 'intents --session' });
    assert.match(listed, /first_page/);
    assert.match(listed, /third_page/);
    assert.ok(!/\blogin\b/.test(listed), 'only session intents');
    const before = changed;
    await ok('undefine', { name: 'first_page' });
    await ok('run', { script: 'intents --clear-session' });
    const after = await ok('run', { script: 'intents --session' });
    assert.ok(!/first_page|third_page/.test(after), after);
    assert.ok(!(await client.listTools()).tools.some((t) => t.name === 'third_page'));
    // The removals reached the client as tools/list_changed.
    assert.ok(changed > before, `tools/list_changed after undefine and --clear-session (${before} -> ${changed})`);
  });

  it('a bad definition is DEFINITION_INVALID with line and column', async () => {
    const r = await call('define', { definition: 'intent: x\nversion: 1\nsteps:\n  - action: tap\n' });
    assert.equal(r.isError, true);
    assert.match(text(r), /definition:4:5: \/steps\/0\/action: unknown action "tap"/);
    assert.equal(r.structuredContent.code, 'DEFINITION_INVALID');
  });

  it('intents lists tiers and readiness; config shows, sets and resets', async () => {
    await go('pagination.html');
    const list = await ok('intents');
    assert.match(list, /- login <username> <password> \(builtin\)/);
    assert.match(list, /- next_page \(core\): ready/);
    await ok('config', { action: 'set', key: 'execution.default_timeout', value: '45s' });
    assert.match(await ok('config', { action: 'show', key: 'execution' }), /execution\.default_timeout: 45s/);
    assert.match(await fails('config', { action: 'set', key: 'logging.redact_sensitive', value: 'false' }), /cannot be turned off/);
    await ok('config', { action: 'reset' });
    assert.match(await ok('config'), /intent_engine\.execution\.default_timeout: 30s/);
  });

  it('observe ends with the available intents and suggestions', async () => {
    await go('stacked-popups.html');
    const obs = await ok('observe');
    assert.match(obs, /# available intents\n(- .*\n)*- dismiss_popups: ready/);
    assert.match(obs, /# suggested\naccept_cookies/);
  });
});
