// Every atomic command and option, end to end: the official MCP client, the real lscope
// binary, real headless Chromium, local fixture pages. Assertions check what the page shows or
// received, not only the response text.
import { describe, it as nodeTest, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, text, conform, backendViewport } from './lib/lscope.js';
import { startFixtureServer, startCrossOriginServer, reportCsv } from './lib/fixture_server.js';

// The backend conformance suite: known differences come from backends/expectations.json.
const it = conform(nodeTest);
const here = path.dirname(fileURLToPath(import.meta.url));

let site;
let client;
const call = async (name, args = {}) => client.callTool({ name, arguments: args });
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
// A loopback port nothing listens on.
const closedPort = () => new Promise((resolve) => {
  const srv = net.createServer().listen(0, '127.0.0.1', () => {
    const { port } = srv.address();
    srv.close(() => resolve(port));
  });
});
// The page's own text, to check what it shows.
const pageText = async () => (await call('text')).structuredContent.text;

before(async () => {
  site = await startFixtureServer({ extraRoots: { '/e2e-pages/': path.join(here, 'pages') } });
  ({ client } = await connect());
});
after(async () => {
  await client.close();
  await site.close();
});

describe('navigation', () => {
  it('goto adds the scheme, returns the observation; back, forward, refresh and url', async () => {
    const host = site.base.replace('http://', '');
    const first = await ok('goto', { url: `${host}/login.html` });
    assert.match(first, /^ok goto 127\.0\.0\.1:\d+\/login\.html\n\n@ 127\.0\.0\.1:\d+\/login\.html "Sign in · Fixture"/);
    await ok('goto', { url: `${site.base}/dashboard.html` });
    const back = await ok('back');
    assert.match(back, /~ url: \/dashboard\.html → \/login\.html/);
    assert.match(await ok('url'), /^ok url http:\/\/127\.0\.0\.1:\d+\/login\.html/);
    const fwd = await ok('forward');
    assert.match(fwd, /~ url: \/login\.html → \/dashboard\.html/);
    const again = await ok('refresh');
    assert.match(again, /^ok refresh/);
    assert.match(await ok('title'), /^ok title "Dashboard · Fixture"/);
  });

  it('a bad URL is a NAVIGATION_ERROR with a hint, and the session goes on', async () => {
    const port = await closedPort();
    const r = await call('goto', { url: `http://127.0.0.1:${port}/nothing` });
    assert.equal(r.isError, true);
    assert.match(text(r), new RegExp(`^error goto: .*http://127\\.0\\.0\\.1:${port}/nothing`));
    assert.equal(r.structuredContent.code, 'NAVIGATION_ERROR');
    assert.match(text(r), /# hint\n/);
    await ok('goto', { url: `${site.base}/login.html` });
  });

  it('a refused connection is named as such', async () => {
    const port = await closedPort();
    const r = await call('goto', { url: `http://127.0.0.1:${port}/nothing` });
    assert.match(text(r), new RegExp(`^error goto: net::ERR_CONNECTION_REFUSED loading http://127\\.0\\.0\\.1:${port}/nothing`));
  });
});

describe('observation', () => {
  it('observe --full adds selectors and positions; --max caps with a visible more-line', async () => {
    await ok('goto', { url: `${site.base}/signup.html` });
    const full = await ok('observe', { full: true });
    assert.match(full, /\[1\] input "First name" \{required\} css\(#first\) @\d+,\d+ \d+x\d+/);
    const capped = await ok('observe', { max: 3 });
    const lines = capped.split('\n').filter((l) => /^\[\d+\]/.test(l));
    assert.equal(lines.length, 3);
    assert.match(capped, /… \d+ more \(observe --near\/--within\)/);
  });

  it('observe --near orders by distance; --within limits to a container; --viewport', async () => {
    await ok('goto', { url: `${site.base}/long.html` });
    const all = await ok('observe');
    assert.match(all, /button "I have read everything"/);
    const vp = await ok('observe', { viewport: true });
    assert.ok(!/I have read everything/.test(vp), 'the bottom button is off-screen');
    const within = await ok('observe', { within: '#list' });
    assert.match(within, /Accept clauses/);
    assert.ok(!/I have read everything/.test(within));
    const near = await ok('observe', { near: 'I have read' });
    const first = near.split('\n').find((l) => /^\[\d+\]/.test(l));
    assert.match(first, /I have read everything/);
  });

  it('the observation cap limits what is printed, never what can be targeted', async () => {
    // The 1,502-control settings page: "Save settings" is past what a default observation prints.
    await ok('goto', { url: `${site.base}/corpus/reach/long-settings.html` });
    const all = await ok('observe');
    assert.ok(!/Save settings/.test(all), 'the default observation stops before the end');
    assert.match(all, /… \d+ more/);
    const near = await ok('observe', { near: 'Save settings' });
    const id = Number(/\[(\d+)\] button\/submit "Save settings"/.exec(near)?.[1]);
    assert.ok(id > 0, near);
    // After an action elsewhere, both its id and its text still reach it.
    await ok('type', { target: 'Option 1.1', text: 'Ada' });
    assert.match(await ok('click', { target: String(id) }), new RegExp(`click \\[${id}\\] "Save settings"`));
    assert.match(await pageText(), /Settings saved\./);
    await ok('type', { target: 'Option 30.25', text: 'Lovelace' });
    assert.match(await ok('click', { target: 'Save settings' }), new RegExp(`click \\[${id}\\]`));
  });

  it('controls that read the same name their row: its id and that near phrase act on that row', async () => {
    // DataTables (npm): a Delete button on every row; the page reports the row it deleted.
    const deleted = () => site.reports.filter((r) => r.event === 'delete').at(-1)?.data.name;
    const rows = async () => {
      const seen = await ok('goto', { url: `${site.base}/corpus/reach/datatables.html` });
      return [...seen.matchAll(/^\[(\d+)\] button "Delete" near "([^"]+)"$/gm)].map((m) => ({ id: m[1], row: m[2] }));
    };
    let listed = await rows();
    assert.ok(listed.length >= 5, 'each Delete names its row');
    assert.equal(new Set(listed.map((d) => d.row)).size, listed.length, 'no two rows named alike');
    await ok('click', { target: listed[2].id });
    assert.equal(deleted(), listed[2].row);
    listed = await rows();
    await ok('click', { target: `"Delete" near "${listed[4].row}"` });
    assert.equal(deleted(), listed[4].row);
    // Text alone picks the first and says which row that is.
    listed = await rows();
    assert.match(await ok('click', { target: '"Delete"' }),
        new RegExp(`chose \\[${listed[0].id}\\] near "${listed[0].row}", first of \\d+`));
    assert.equal(deleted(), listed[0].row);
  });

  it('text of the page and of an element; screenshot is a PNG image', async () => {
    await ok('goto', { url: `${site.base}/dashboard.html` });
    assert.match(await ok('text'), /Welcome back/);
    assert.match(await ok('text', { target: 'Settings' }), /^ok text\n\nSettings/);
    const shot = await call('screenshot');
    assert.equal(shot.isError, false);
    const img = shot.content.find((c) => c.type === 'image');
    assert.equal(img.mimeType, 'image/png');
    const png = Buffer.from(img.data, 'base64');
    assert.equal(png.subarray(1, 4).toString(), 'PNG');
    assert.equal(png.readUInt32BE(16), backendViewport[0]);  // the viewport's width
    assert.equal(png.readUInt32BE(20), backendViewport[1]);
  });
});

describe('actions', () => {
  it('goto waits for web components still loading their definitions; a tag never defined does not hold it up', async () => {
    // x-dialog's definition arrives with a download that ends 1.5 s after load. Until then its
    // field and buttons show as plain light DOM and "Rename project" cannot open it.
    const first = await ok('goto', { url: `${site.base}/late-components.html` });
    assert.match(first, /"Rename project"/);
    assert.doesNotMatch(first, /"Save"|"Project name"/, 'the closed dialog is not listed:\n' + first);
    await ok('click', { target: 'Rename project' });
    await ok('type', { target: 'Project name', text: 'Apollo' });
    await ok('click', { target: 'Save' });
    assert.match(await pageText(), /Project Apollo/);
  });

  it('goto waits for a page that hides itself until it has drawn (Stencil\'s hydration): no blank observation', async () => {
    // Nothing loads at the load event and no tag is undefined; the app shows 0.8 s later.
    const first = await ok('goto', { url: `${site.base}/hydrating.html` });
    assert.match(first, /input\/email "Email"/, first);
    assert.match(first, /"Sign in"/, first);
  });

  it('click goes through trusted input (the page checks isTrusted)', async () => {
    await ok('goto', { url: `${site.base}/istrusted.html` });
    const r = await ok('click', { target: 'Confirm order' });
    assert.ok(!/synthetic/.test(r));
    assert.match(await pageText(), /trusted click/);
    assert.ok(!(await pageText()).includes('untrusted click ignored'));
    await ok('type', { target: 'Code', text: 'abc' });
    assert.match(await pageText(), /trusted 3, untrusted 0/);
  });

  it('a target that moves as it is pressed: the stray press is held back and the click lands on the target', async () => {
    // The page inserts a bar under the pointer as it arrives, where the button was.
    await ok('goto', { url: `${site.base}/moving-target.html` });
    await ok('click', { target: 'Save draft' });
    assert.match(await pageText(), /saved 1, undone 0/);
  });

  it('a target that moves away while pressed: the release is not taken for a click, and the press is made again', async () => {
    // The list scrolls one row under the pointer as "Sakura" is pressed (once): the release lands
    // on "Silver Spoon", and the click would go to the list itself, choosing nothing.
    await ok('goto', { url: `${site.base}/e2e-pages/slipping-list.html` });
    const r = await ok('click', { target: 'Sakura' });
    assert.match(r, /^ok click \[\d+\] "Sakura"/);
    assert.match(await pageText(), /chose Sakura$/m);
  });

  it('a highlight that follows the pointer off the pressed option is no choice: the slip is still one', async () => {
    await ok('goto', { url: `${site.base}/e2e-pages/slipping-list.html?highlight` });
    const r = await ok('click', { target: 'Sakura' });
    assert.match(r, /^ok click \[\d+\] "Sakura"/);
    assert.match(await pageText(), /chose Sakura$/m);
  });

  it('a target that the press itself chose, and that moved away as the page grew: no second press takes the choice back', async () => {
    // The option is chosen on mousedown and its chip pushes the list down under the pointer.
    await ok('goto', { url: `${site.base}/e2e-pages/slipping-list.html?press` });
    const r = await ok('click', { target: 'Sakura' });
    assert.match(r, /^ok click \[\d+\] "Sakura"/);
    assert.match(await pageText(), /^chosen Sakura$/m);
  });

  it('click --double and --right reach the page as such', async () => {
    await ok('goto', { url: `${site.base}/widgets.html` });
    await ok('click', { target: 'Double-click me', double: true });
    assert.match(await pageText(), /double-clicked/i);
    await ok('click', { target: 'Right-click me', right: true });
    assert.match(await pageText(), /context menu/i);
  });

  it('a covered element is refused with what covers it; --force clicks it anyway', async () => {
    await ok('goto', { url: `${site.base}/consent-custom.html` });
    const r = await fails('click', { target: 'Checkout' });
    // What covers it, and what clears it (issue 12: the atomic command reports, it does not act).
    assert.match(r, /^error click: \[\d+\] "Checkout" is covered by a cookie_banner/);
    assert.match(r, /# hint\naccept_cookies clears it \(then try again\), or --force clicks through it/);
    const forced = await ok('click', { target: 'Checkout', force: true });
    assert.match(forced, /forced/);
    assert.match(await pageText(), /Checkout started\./);
  });

  it('type clears first, --append keeps, --enter submits; React sees the value', async () => {
    await ok('goto', { url: `${site.base}/react-login.html` });
    await ok('type', { target: 'email', text: 'wrong@example.com' });
    const replaced = await ok('type', { target: 'email', text: 'ada@example.com' });
    assert.match(replaced, /value "ada@example\.com"/);
    await ok('type', { target: 'password', text: 'correct horse' });
    await ok('type', { target: 'password', text: ' battery staple', append: true, enter: true });
    const posts = site.received.filter((r) => r.path === '/api/login');
    assert.deepEqual(posts.at(-1).form, { email: 'ada@example.com', password: 'correct horse battery staple' });
  });

  it('clear, focus, hover, press, check, uncheck, select (text, value, index)', async () => {
    await ok('goto', { url: `${site.base}/signup.html` });
    await ok('type', { target: 'First name', text: 'Ada' });
    const cleared = await ok('clear', { target: 'First name' });
    assert.match(cleared, /value ""/);
    const focused = await ok('focus', { target: 'Email' });
    assert.match(focused, /~ \[\d+\] input\/email "Email": focused|^ok focus/);
    await ok('press', { key: 'Tab' });
    const checked = await ok('check', { target: 'newsletter' });
    assert.match(checked, /: checked/);
    const already = await ok('check', { target: 'newsletter' });
    assert.match(already, /already checked/);
    const un = await ok('uncheck', { target: 'newsletter' });
    assert.match(un, /: unchecked/);
    const radio = await ok('check', { target: 'Pro' });
    assert.match(radio, /\[\d+\] radio "Pro": checked/);
    const byText = await ok('select', { target: 'Country', option: 'France' });
    assert.match(byText, /← "France"/);
    const byValue = await ok('select', { target: 'Country', option: 'de' });
    assert.match(byValue, /← "Germany"/);
    const byIndex = await ok('select', { target: 'Country', index: 5 });
    assert.match(byIndex, /← "United States"/);
    const missing = await fails('select', { target: 'Country', option: 'Atlantis' });
    assert.match(missing, /France/);  // names the options there are
    await ok('hover', { target: 'Email' });
  });

  it('select with a list: a multiple select takes them at once, a list widget has each picked; a single select takes one', async () => {
    await ok('goto', { url: `${site.base}/e2e-pages/select-lists.html` });
    const both = await ok('select', { target: 'Toppings', option: ['Cheese', 'Olives'] });
    assert.match(both, /← "Cheese", "Olives"/);
    assert.match(await pageText(), /toppings Cheese,Olives size S/);
    const single = await fails('select', { target: 'Size', option: ['S', 'M'] });
    assert.match(single, /takes one option/);
    // fill_form: the list replaces the choice, all of it kept (one pick at a time kept the last).
    const filled = await ok('fill_form', { data: { Toppings: ['Ham', 'Peppers'], Size: 'L' } });
    assert.match(filled, /\[\d+\] select "Toppings" ← "Ham", "Peppers"/);
    assert.match(await pageText(), /toppings Ham,Peppers size L/);
    const widget = await ok('select', { target: 'Labels', option: ['Bug', 'Urgent'] });
    assert.match(widget, /← "Bug", "Urgent"/);
    assert.match(await pageText(), /labels Bug,Urgent/);
  });

  it('a grid row being edited: its fields are named by their column\'s header; select takes the select, not the header that reads the same', async () => {
    const first = await ok('goto', { url: `${site.base}/e2e-pages/grid-row.html` });
    assert.match(first, /select "Country" = "China"/, first);
    assert.match(first, /input "Name" = "Otto Clay"/, first);
    const picked = await ok('select', { target: 'Country', option: 'Canada' });
    assert.match(picked, /\[\d+\] "Country" \(the one that offers options of 2 matches\) ← "Canada"/);
    assert.match(await pageText(), /sorted none country Canada/);
  });

  it('a list that holds off presses for a moment after it opens: select waits for it', async () => {
    const first = await ok('goto', { url: `${site.base}/e2e-pages/drawn-menu.html` });
    assert.match(first, /select "Priority"/, first);
    assert.match(await ok('select', { target: 'Priority', option: 'High' }), /← "High"/);
    assert.match(await pageText(), /priority High row none/);
  });

  it('a grid\'s rows heard by the box around them are rows, and a click on words in one lands on them', async () => {
    const first = await ok('goto', { url: `${site.base}/e2e-pages/drawn-menu.html` });
    assert.match(first, /row "1004 VPN drops every hour"/, first);
    await ok('click', { target: 'Laptop battery swells' });
    assert.match(await pageText(), /priority none row 1003/);
  });

  it('a slider whose press keeps the focus where it was is focused as Tab would, and set by its arrow keys', async () => {
    const first = await ok('goto', { url: `${site.base}/e2e-pages/grid-row.html` });
    assert.match(first, /slider "Volume" = "40"/, first);
    assert.match(await ok('type', { target: 'Volume', text: '65' }), /← 65/);
    assert.match(await pageText(), /volume 65/);
  });

  it('check and uncheck on options: a multiple list\'s option is chosen and let go; a single list keeps its choice', async () => {
    await ok('goto', { url: `${site.base}/e2e-pages/select-lists.html` });
    await ok('click', { target: 'Labels' });
    assert.match(await ok('check', { target: 'Feature' }), /~ \[\d+\] option "Feature": selected/);
    assert.match(await ok('uncheck', { target: 'Feature' }), /~ \[\d+\] option "Feature": not selected/);
    await ok('press', { key: 'Escape' });
    assert.match(await ok('check', { target: 'High' }), /~ \[\d+\] option "High": selected/);
    assert.match(await ok('check', { target: 'High' }), /already checked/);
    // Clicking the chosen option of a single list keeps it: said, not called done.
    const kept = await fails('uncheck', { target: 'High' });
    assert.match(kept, /^error uncheck: \[\d+\] "High" is still chosen after its click/);
    assert.match(await pageText(), /priority High$/m);
  });

  it('a dialog that takes the focus before it shows: the keys it took are not called typed; login clears it and types again', async () => {
    const page = `${site.base}/e2e-pages/focus-trap.html`;
    await ok('goto', { url: page });
    // At the first key the dialog takes the focus; it shows when the focus tries to leave it.
    const typed = await fails('type', { target: 'Password', text: 'correct horse' });
    assert.match(typed, /lost the keys|covered by a modal_dialog "What's new"/);
    assert.doesNotMatch(await pageText(), /password ok/);
    await ok('goto', { url: page });
    const login = await ok('login', { username: 'ada@example.com', password: 'correct horse', no_submit: true });
    assert.match(login, /dismiss_popups: \[1\] modal_dialog "What's new" → clicked "Close"/);
    assert.match(await pageText(), /password ok/);
  });

  it('what an element is does not pass: typing into a checkbox, files into a text field, unchecking a radio fail at once', async () => {
    await ok('goto', { url: `${site.base}/signup.html` });
    // A hidden or disabled element is waited for ("waited N s" when it never comes); these are not.
    const typed = await fails('type', { target: 'newsletter', text: 'x' });
    assert.match(typed, /is a checkbox, not a text field/);
    const files = await fails('upload', { target: 'Email', path: '/etc/hostname' });
    assert.match(files, /is not a file input/);
    await ok('check', { target: 'Pro' });
    const radio = await fails('uncheck', { target: 'Pro' });
    assert.match(radio, /a radio button cannot be unchecked/);
    // Text is no field: the keys typed there would go nowhere, and "ok" would say otherwise.
    const heading = await fails('type', { target: 'Create your account', text: 'x' });
    assert.match(heading, /is no text field/);
    for (const r of [typed, files, radio, heading]) assert.doesNotMatch(r, /waited/);
    assert.match(await ok('observe'), /radio "Pro" \{checked\b/);
  });

  it('press Control+A then Backspace empties a field; unknown keys fail clearly', async () => {
    await ok('goto', { url: `${site.base}/signup.html` });
    await ok('type', { target: 'First name', text: 'Grace' });
    await ok('press', { key: 'Control+A' });
    const r = await ok('press', { key: 'Backspace' });
    assert.match(r, /value ""/);
    const bad = await fails('press', { key: 'Hyper+Q' });
    assert.match(bad, /unknown modifier/);
  });

  it('scroll down, bottom, top and within a container', async () => {
    await ok('goto', { url: `${site.base}/long.html` });
    assert.match(await ok('scroll', { direction: 'down', amount: '500' }), /^ok scroll down \(y 500 of \d+\)/);
    assert.match(await ok('scroll', { direction: 'bottom' }), /^ok scroll bottom \(y (\d+) of \1\)/);
    assert.match(await ok('scroll', { direction: 'top' }), /^ok scroll top \(y 0 of/);
    const inner = await call('scroll', { direction: 'down', amount: 'page', within: '#list' });
    assert.equal(inner.isError, false, text(inner));
    assert.ok(inner.structuredContent.scroll.y > 0);
  });

  it('upload sets a file input; the server receives the file', async () => {
    const file = path.join(os.tmpdir(), `lscope-upload-${process.pid}.txt`);
    fs.writeFileSync(file, 'hello upload\n');
    try {
      await ok('goto', { url: `${site.base}/upload.html` });
      const r = await ok('upload', { target: 'Document', path: file });
      assert.match(r, new RegExp(`← ${path.basename(file)}`));
      await ok('click', { target: 'Upload' });
      const up = site.received.filter((x) => x.path === '/upload').at(-1);
      assert.equal(up.files[0].filename, path.basename(file));
      assert.equal(up.files[0].size, 13);
      const missing = await fails('upload', { target: 'css(input[type=file])', path: '/no/such/file.txt' });
      assert.match(missing, /no such file: \/no\/such\/file\.txt/);
    } finally {
      fs.rmSync(file, { force: true });
    }
  });
});

describe('targets', () => {
  it('by role, exact/contains/regex text, css, xpath and relations', async () => {
    await ok('goto', { url: `${site.base}/pagination.html` });
    assert.match(await ok('click', { target: 'xpath(//a[normalize-space()="2"])' }), /~ url: \/pagination\.html → \/pagination\.html\?page=2/);
    assert.match(await ok('click', { target: 'css(a[rel=next])' }), /page=3/);
    assert.match(await ok('click', { target: '/^prev/i' }), /page=2/);
    assert.match(await ok('click', { target: 'contains Nex' }), /page=3/);
    assert.match(await ok('click', { target: 'exact "1"' }), /page=1/);
    await ok('goto', { url: `${site.base}/login.html` });
    assert.match(await ok('type', { target: 'password', text: 'x' }), /\[2\] "Password"/);
    assert.match(await ok('focus', { target: '"Sign in" after 2' }), /\[4\] "Sign in"/);
    assert.match(await ok('focus', { target: 'email before 2' }), /\[1\] "Email"/);
  });

  it('a string of digits that is both an id and the text of another element is asked about, not guessed', async () => {
    // Page 2 of the catalogue lists [3] "2" and [4] "3": an agent sending "3" may mean either.
    await ok('goto', { url: `${site.base}/pagination.html?page=2` });
    const amb = await call('click', { target: '3' });
    assert.equal(amb.isError, true, text(amb));
    assert.equal(amb.structuredContent.code, 'TARGET_AMBIGUOUS');
    assert.match(text(amb), /"3" is both the id of \[3\] link "2" and the text of \[4\] link "3"/);
    assert.match(await pageText(), /Page 2/, 'nothing was clicked');
    // The id as a number, the text in quotes: each does what it says.
    assert.match(await ok('click', { target: '"3"' }), /ok click \[4\] "3"[\s\S]*page=3/);
    await ok('goto', { url: `${site.base}/pagination.html?page=2` });
    assert.match(await ok('click', { target: 3 }), /ok click \[3\] "2"/);
    // Digits that are no element's text stay an id.
    assert.match(await ok('click', { target: '5' }), /ok click \[5\] "Next"/);
  });

  it('ambiguous text: the default chooses and says so; --strict fails listing candidates', async () => {
    await ok('goto', { url: `${site.base}/signup.html` });
    const r = await ok('focus', { target: 'contains name' });
    assert.match(r, /first of \d+ equal matches|^ok focus/);
    const { client: strict } = await connect(['--strict']);
    try {
      await strict.callTool({ name: 'goto', arguments: { url: `${site.base}/signup.html` } });
      const amb = await strict.callTool({ name: 'click', arguments: { target: 'contains name' } });
      assert.equal(amb.isError, true);
      assert.equal(amb.structuredContent.code, 'TARGET_AMBIGUOUS');
      assert.match(text(amb), /# hint\npick one: 2nd contains "name", an id, or a relation[^\n]*\n  \[\d+\] input "First name"/);
    } finally {
      await strict.close();
    }
  });
});

describe('a field and a button that read the same', () => {
  it('type goes into the field, wherever the button stands', async () => {
    await ok('goto', { url: `${site.base}/e2e-pages/same-names.html` });
    const typed = await ok('type', { target: 'Comment', text: 'Looks good to me' });
    assert.match(typed, /^ok type \[\d+\] "Comment" \(the one that takes text of 2 matches\) "Looks good to me"/);
    assert.match(typed, /^~ \[\d+\] textarea "Comment": value "Looks good to me"$/m);
    assert.match(await ok('type', { target: 'Search', text: 'regression' }), /^~ \[\d+\] input[^\n]*"Search": value "regression"$/m);
    const page = await pageText();
    assert.match(page, /Opened 0 times/);  // the button was not pressed
    // The button is still the click's.
    await ok('click', { target: 'Comment' });
    assert.match(await pageText(), /Opened 1 times/);
  });
});

describe('waits are event-driven', () => {
  it('wait visible/hidden text, idle, load, url', async () => {
    await ok('goto', { url: `${site.base}/slow.html?ms=700` });
    const vis = await ok('wait', { condition: 'visible', target: '"Done"', timeout: '5s' });
    assert.match(vis, /^ok wait visible "Done" \(\d+ms\)/);
    assert.match(await ok('wait', { condition: 'hidden', target: '"Loading…"' }), /^ok wait hidden/);
    await ok('click', { target: 'Save' });
    await ok('wait', { condition: 'visible', target: 'Saved!', timeout: 3000 });
    assert.match(await pageText(), /Saved!/);
    assert.match(await ok('wait', { condition: 'idle' }), /^ok wait idle/);
    assert.match(await ok('wait', { condition: 'load' }), /^ok wait load/);
    const timeout = await fails('wait', { condition: 'visible', target: '"Never shown"', timeout: '300ms' });
    assert.match(timeout, /timed out after 300 ms/);
    await ok('goto', { url: `${site.base}/dialogs.html` });
    await ok('click', { target: 'Go to dashboard' });
    assert.match(await ok('wait', { condition: 'url', target: 'dashboard', timeout: '5s' }), /^ok wait url/);
  });

  it('a page that started web workers goes idle: their scripts are no request in flight', async () => {
    // (Chromium reports a worker's script request on the page and its end on the worker's own
    // target: the page never went idle, and every action on it waited for network quiet to its cap.)
    await ok('goto', { url: `${site.base}/e2e-pages/workers.html` });
    assert.match(await ok('wait', { condition: 'idle', timeout: '4s' }), /^ok wait idle/);
    const asked = await ok('click', { target: 'Ask the workers' });
    assert.match(asked + '\n' + await pageText(), /square 49, plus one 8/);
  });
});

describe('change reports', () => {
  it('navigation, form submitted, error appeared, results appeared, nothing happened', async () => {
    await ok('goto', { url: `${site.base}/react-login.html` });
    await ok('type', { target: 'email', text: 'ada@example.com' });
    await ok('type', { target: 'password', text: 'wrong' });
    const err = await call('click', { target: 'Sign in' });
    assert.match(text(err), /! error: "Incorrect username or password\."/);
    const signals = err.structuredContent.changes.signals.map((s) => s.signal);
    assert.ok(signals.includes('ErrorAppeared'), signals.join());

    await ok('goto', { url: `${site.base}/search.html` });
    const results = await call('type', { target: 'search', text: 'lemmas', enter: true });
    assert.match(text(results), /\[\d+\] link "[^"]*lemmas/i);
    assert.ok(results.structuredContent.changes.signals.some((s) => s.signal === 'ResultsAppeared'),
      JSON.stringify(results.structuredContent.changes.signals));

    await ok('goto', { url: `${site.base}/login.html` });
    await ok('type', { target: 'email', text: 'ada@example.com' });
    await ok('type', { target: 'password', text: 'correct horse battery staple' });
    const nav = await call('click', { target: 'Sign in' });
    const navSignals = nav.structuredContent.changes.signals.map((s) => s.signal);
    assert.ok(navSignals.includes('NavigationOccurred') && navSignals.includes('FormSubmitted'), navSignals.join());
    assert.match(text(nav), /@ 127\.0\.0\.1:\d+\/dashboard\.html/);

    const noop = await call('hover', { target: 'Dashboard' });
    assert.match(text(noop), /# changes\nnone/);
    assert.ok(noop.structuredContent.changes.signals.some((s) => s.signal === 'NoOp'));
  });
});

describe('menus that open under the mouse', () => {
  it('hover opens a menu that listens for mouseenter or mouseover, and the mouse leaving closes it', async () => {
    // Through the extension's script mode too: its synthesized moves send enter and leave.
    await ok('goto', { url: `${site.base}/e2e-pages/hover-menu.html` });
    assert.match(await ok('hover', { target: 'Account' }), /\+ \[\d+\] link "Your profile"/);
    // The mouse goes on to an item inside the menu: it stays open, and the click lands.
    await ok('click', { target: 'Your orders' });
    assert.match((await call('url')).structuredContent.url, /#orders$/);
    const other = await ok('hover', { target: 'Departments' });
    assert.match(other, /- \[\d+\] link "Your profile"/);
    assert.match(other, /\+ \[\d+\] link "Garden"/);
    assert.match(await ok('hover', { target: 'Help' }), /- \[\d+\] link "Garden"/);
  });
});

describe('drag and drop', () => {
  it('drag moves an item in a list, to a bin, and a token by pointer events; the page says so, and so does the answer', async () => {
    // HTML's own drag and drop: native from the press in Chromium; where it cannot start (script
    // mode, WebKit) the scanner fires its events. Pointer events: the held button on every move.
    await ok('goto', { url: `${site.base}/e2e-pages/drag.html` });
    const reordered = await ok('drag', { target: 'Eggs', to: 'Bread' });
    assert.match(await pageText(), /order: Eggs, Bread, Milk/);
    assert.match(reordered, /now 1st of 3 under "Groceries"/);
    const thrown = await ok('drag', { target: 'Milk', to: 'Trash' });
    assert.match(await pageText(), /thrown away: Milk/);
    assert.match(thrown, /it is no longer on the page/);
    // A row among rows is a place of its own, not the title of the one under it.
    await ok('drag', { target: 'Bread', to: 'Fridge' });
    assert.match(await pageText(), /Bread put in the fridge/);
    await ok('drag', { target: 'Token', to: 'Right box' });
    assert.match(await pageText(), /token in the right box/);
  });
  it('a place that is not there, or the item itself, is refused before anything moves', async () => {
    await ok('goto', { url: `${site.base}/e2e-pages/drag.html` });
    assert.match(await fails('drag', { target: 'Bread', to: 'Garage', timeout: '1s' }), /^error drag: no element matches Garage/);
    assert.match(await fails('drag', { target: 'Bread', to: 'Bread' }), /^error drag: drag onto itself: \[\d+\] "Bread"/);
    assert.match(await pageText(), /nothing yet/);
  });
});

describe('long lists', () => {
  it('a row the list has not drawn yet is scrolled to and acted on; an explicit timeout bounds the scrolling', async () => {
    // The list draws each scroll 100 ms late: from the top to row 450 is 45 scrolls, 4.5 s at
    // the least (the seek had 4 s before), 9 s on a loaded machine, past the 5 s auto-wait: a
    // seek goes on while rows come (up to 12 s).
    const page = await ok('goto', { url: `${site.base}/e2e-pages/long-list.html` });
    assert.doesNotMatch(page, /Member 0450/);
    const clicked = await ok('click', { target: 'Member 0450' });
    assert.match(clicked, /"Member 0450".*\(scrolled its list to it\)/);
    assert.match(await pageText(), /chosen: Member 0450/);
    // Row 2900 is 2,450 rows further, 24 s of drawing at the least: a 1 s timeout ends the
    // scrolling, and the answer says the list was scrolled until the time ran out.
    const late = await fails('click', { target: 'Member 2900', timeout: 1000 });
    assert.match(late, /no element matches "?Member 2900"?; a long list, scrolled until the time ran out, did not show it/);
    assert.match(await pageText(), /chosen: Member 0450/);
  });

  it('a row the list draws anew after the scroll that found it is found again and acted on', async () => {
    // A scroll clears every row and the list draws them anew 100 ms later: the seek's own
    // centring of the row it found takes that row away, after the auto-wait's 5 s are gone (row
    // 520: 52 scrolls, 5.2 s of drawing at the least, after the seek's first quarter second).
    // The action's short wait of its own finds the new row. (Row 600 left the 12 s seek too
    // little room: 60 scrolls took 8.8 s on an idle machine, and ran out on a loaded one.)
    await ok('goto', { url: `${site.base}/e2e-pages/long-list.html?anew` });
    const clicked = await ok('click', { target: 'Member 0520' });
    assert.match(clicked, /"Member 0520".*\(scrolled its list to it\)/);
    assert.match(await pageText(), /chosen: Member 0520/);
  });
});

describe('carousels', () => {
  it('a carousel that says it takes drags but does not move under one: the drag is not told as a way taken, and nothing is pressed', async () => {
    await ok('goto', { url: `${site.base}/e2e-pages/still-carousel.html` });
    const still = await fails('click', { target: '"Listen" near "Lighthouses"', timeout: 3000 });
    assert.match(still, /^error click: no visible text "Lighthouses" on the page for near/);
    assert.doesNotMatch(still, /dragged/);
    assert.match(await pageText(), /nothing playing/);
    // The carousel is where it was: the first two still show.
    assert.match(await ok('click', { target: '"Listen" near "Night trains"' }), /^ok click/);
    assert.match(await pageText(), /playing Night trains/);
  });
});

describe('the state a widget shows', () => {
  it('the open tab, the expanded accordion section and menu are listed, and a click that changes them says so', async () => {
    // ARIA tabs whose panels hold only text: which tab is open is all that changes in the list.
    let page = await ok('goto', { url: `${site.base}/widgets.html` });
    assert.match(page, /\[\d+\] tab "Profile" \{selected\}/);
    assert.match(page, /\[\d+\] tab "Billing"\n/);
    let clicked = await ok('click', { target: 'Billing' });
    assert.match(clicked, /~ \[\d+\] tab "Billing": selected/, clicked);
    assert.match(clicked, /~ \[\d+\] tab "Profile": not selected/, clicked);
    // Bootstrap's accordion (one section open at a time) and its dropdown, from npm.
    page = await ok('goto', { url: `${site.base}/corpus/reach/bs-collapse.html` });
    assert.match(page, /\[\d+\] button "Shipping" \{expanded\}/);
    clicked = await ok('click', { target: 'Payment' });
    assert.match(clicked, /~ \[\d+\] button "Payment": expanded/, clicked);
    assert.match(clicked, /~ \[\d+\] button "Shipping": collapsed/, clicked);
    await ok('goto', { url: `${site.base}/corpus/reach/bs-dropdown.html` });
    clicked = await ok('click', { target: 'Sort by' });
    assert.match(clicked, /~ \[\d+\] button "Sort by": expanded/, clicked);
    assert.match(clicked, /\+ \[\d+\] button "Newest"/, clicked);
  });

  it('an option that draws its own checkbox is one line, checked by choosing it (Carbon\'s MultiSelect)', async () => {
    await ok('goto', { url: `${site.base}/corpus/reach/carbon-access.html` });
    await ok('click', { target: 'Add user' });
    const open = await ok('click', { target: 'Permissions' });
    assert.match(open, /\+ \[\d+\] option "Read"\n/, open);
    assert.doesNotMatch(open, /checkbox "Read"/, open);
    const checked = await ok('check', { target: 'Read' });
    assert.match(checked, /~ \[\d+\] option "Read": selected/, checked);
    // The box keeps its name: its label's added count is for screen readers.
    assert.doesNotMatch(checked, /Total items selected/, checked);
    assert.match(await ok('check', { target: 'Read' }), /already checked/);
    assert.match(await ok('uncheck', { target: 'Read' }), /~ \[\d+\] option "Read": not selected/);
    assert.match(await ok('uncheck', { target: 'Read' }), /already unchecked/);
  });
});

describe('the answer waits for the work an action starts', () => {
  it('a request, two in a row, one started a moment later, a panel fading in; nothing', async () => {
    await ok('goto', { url: `${site.base}/settle.html` });
    const from = site.received.length;
    assert.match(await ok('click', { target: 'Load orders' }), /Order 1003 paid/);
    assert.match(await ok('click', { target: 'Load history' }), /History of 2024 loaded/);
    assert.match(await ok('click', { target: 'Load invoices' }), /Invoice 77 due/);
    // The panel is hidden until its fade ends: listed once it can be used.
    assert.match(await ok('click', { target: 'Open details' }), /\+ \[\d+\] button "Close details"/);
    assert.match(await ok('click', { target: 'Do nothing' }), /# changes\nnone/);
    assert.equal(site.received.slice(from).filter((r) => r.path === '/api/slow').length, 4, 'no request made twice');
  });
});

describe('what real sessions hit', () => {
  it('dialogs are accepted and reported with their text', async () => {
    await ok('goto', { url: `${site.base}/dialogs.html` });
    assert.match(await ok('click', { target: 'Show alert' }), /# events\ndialog alert "Saved\." \(accepted\)/);
    const confirm = await ok('click', { target: 'Delete item' });
    assert.match(confirm, /dialog confirm "Delete this item\?" \(accepted\)/);
    assert.match(await pageText(), /deleted/);
    await ok('click', { target: 'Rename' });
    assert.match(await pageText(), /renamed to Untitled/);
  });

  it('a beforeunload prompt is accepted and reported', async () => {
    await ok('goto', { url: `${site.base}/dialogs.html` });
    await ok('check', { target: 'Warn before leaving this page' });
    const leave = await ok('click', { target: 'Go to dashboard' });
    assert.match(leave, /dialog beforeunload "[^"]*" \(accepted\)/);
    assert.match(leave, /~ url: \/dialogs\.html → \/dashboard\.html/);
  });

  it('a click that opens a tab reports it; tabs lists, switches and closes', async () => {
    await ok('goto', { url: `${site.base}/tabs.html` });
    const r = await ok('click', { target: 'Open dashboard in a new tab' });
    const m = r.match(/new tab \[(\d+)\] 127\.0\.0\.1:\d+\/dashboard\.html \(tabs switch (\d+)\)/);
    assert.ok(m, r);
    const list = await ok('tabs');
    assert.match(list, /tabs\.html "[^"]*" \(active\)/);
    await ok('tabs', { action: 'switch', tab: m[1] });
    assert.match(await ok('title'), /Dashboard/);
    await ok('tabs', { action: 'close', tab: m[1] });
    assert.match(await ok('title'), /New tabs and windows/);
    const opened = await ok('tabs', { action: 'new', tab: `${site.base}/login.html` });
    assert.match(opened, /login\.html "Sign in · Fixture" \(active\)/);
  });

  it('downloads are saved and reported with path and size', async () => {
    await ok('goto', { url: `${site.base}/download.html` });
    const r = await ok('click', { target: 'Download report' });
    const m = r.match(/download (\/\S+report\.csv) (\d+) bytes/);
    assert.ok(m, r);
    assert.equal(Number(m[2]), Buffer.byteLength(reportCsv));
    assert.equal(fs.readFileSync(m[1], 'utf8'), reportCsv);
  });

  it('cross-origin iframes are scanned through their own target and driven with native input', async () => {
    const other = await startCrossOriginServer();
    try {
      await ok('goto', { url: `${site.base}/iframe.html?xo=${other.base}` });
      const obs = await ok('observe');
      assert.match(obs, /input[^\n]*\(in iframe 127\.0\.0\.2:\d+\/iframe-form\.html[^)]*\)/);
      const line = obs.split('\n').find((l) => /in iframe 127\.0\.0\.2/.test(l) && /input/.test(l));
      const id = Number(line.match(/^\[(\d+)\]/)[1]);
      await ok('type', { target: id, text: 'xo@example.com', enter: true });
      const got = other.received.filter((x) => x.form.email === 'xo@example.com');
      assert.equal(got.length, 1);
    } finally {
      await other.close();
    }
  });
});

describe('frames that go away', () => {
  it('a cross-origin iframe removed by the click on its own button is a gone frame, not a lost browser', async () => {
    const other = await startCrossOriginServer({ reports: site.reports });
    try {
      const page = `${site.base}/corpus/consent/sourcepoint.html?xo=${other.base}`;
      await ok('goto', { url: page });
      const clicked = await ok('accept_cookies');
      // The click answered the banner (its frame posted the choice, the page removed the frame),
      // and the browser and its page are the same as before: no restart on about:blank.
      assert.deepEqual(site.reports.filter((r) => r.event === 'consent').at(-1).data,
        { necessary: true, analytics: true, marketing: true });
      assert.ok(!/session lost|about:blank/.test(clicked), clicked);
      assert.equal((await call('url')).structuredContent.url, page);
    } finally {
      await other.close();
    }
  });
});

describe('run: several OIL lines in one call', () => {
  it('runs until the first error and returns each response', async () => {
    const r = await call('run', { script: `goto ${site.base}/login.html\ntype email a@b.c\nclick "Nope"\nurl` });
    assert.equal(r.isError, true);
    const t = text(r);
    assert.match(t, /^ok goto/);
    assert.match(t, /\nok type \[1\] "Email" "a@b\.c"/);
    assert.match(t, /\nerror click: no element matches "Nope"/);
    assert.ok(!t.includes('ok url'));
    assert.equal(r.structuredContent.results.length, 3);
  });
});
