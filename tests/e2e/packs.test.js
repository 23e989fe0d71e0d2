// Site packs (issue 14, intent-engine.md §9, §12, §13.3) end to end: the official MCP client,
// the real lscope binary, real Chromium reaching copies of github.com, en.wikipedia.org,
// demo.nopcommerce.com and news.ycombinator.com under their real names (--host-resolver-rules,
// HTTPS). Each pack loads by itself from the URL, and each intent is judged by what the site
// received (the site server's records), not by the response's own words.
import { describe, it as nodeTest, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { connect, text, conform } from './lib/lscope.js';
import { startSiteServer } from './lib/site_server.js';
import { startFixtureServer } from './lib/fixture_server.js';

const it = conform(nodeTest);

let sites;
let fixtures;
let client;
let home;
let listChanged = 0;
const call = async (name, args = {}) => client.callTool({ name, arguments: args });
const ok = async (name, args = {}) => {
  const r = await call(name, args);
  assert.equal(r.isError, false, `${name} ${JSON.stringify(args)} failed:\n${text(r)}`);
  return text(r);
};
const fails = async (name, args = {}) => {
  const r = await call(name, args);
  assert.equal(r.isError, true, `${name} ${JSON.stringify(args)} should fail:\n${text(r)}`);
  return { body: text(r), data: r.structuredContent };
};
const toolNames = async () => (await client.listTools()).tools.map((t) => t.name);
const fixturePort = () => new URL(fixtures.base).port;
const records = (host, kind) => sites.records.filter((r) => r.host === host && r.kind === kind);

// A pack folder written by the test: pack.yaml, patterns.yaml, intents/*.yaml.
function writePack(parent, name, files) {
  const dir = path.join(parent, name);
  fs.mkdirSync(path.join(dir, 'intents'), { recursive: true });
  for (const [file, body] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), body);
  return dir;
}

before(async () => {
  sites = await startSiteServer();
  fixtures = await startFixtureServer();
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'lscope-packs-home-'));
  ({ client } = await connect(['--tools', 'all',
    '--browser-arg=--ignore-certificate-errors', `--browser-arg=--host-resolver-rules=${sites.hostRules}`],
  { env: { HOME: home } }));
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => { listChanged += 1; });
});
after(async () => {
  await client?.close();
  await sites?.close();
  await fixtures?.close();
  fs.rmSync(home, { recursive: true, force: true });
});

describe('site packs on real domains', () => {
  it('github.com: the pack loads by URL; sign in, search repositories, open the issue form, file an issue', async () => {
    const before = listChanged;
    const login = await ok('goto', { url: 'https://github.com/login' });
    assert.match(login, /# auto-loading\nLoading intent pack: github\.com \(v1\.0\.0, builtin\): create_issue, open_issue_form, search_repositories, sign_in/);
    assert.match(login, /- sign_in <username> <password>: ready/);
    assert.ok((await toolNames()).includes('sign_in'), 'sign_in is an MCP tool on github.com');
    assert.ok(listChanged > before, 'tools/list_changed was sent when the pack loaded');

    const signedIn = await ok('sign_in', { username: 'octocat', password: 'hunter2-correct' });
    assert.doesNotMatch(signedIn, /hunter2-correct/, 'the password is masked');
    assert.deepEqual(records('github.com', 'login').map((r) => [r.login, r.ok]), [['octocat', true]]);

    await ok('search_repositories', { query: 'spoon' });
    assert.deepEqual(records('github.com', 'search').at(-1), { host: 'github.com', kind: 'search', q: 'spoon', type: 'repositories' });
    assert.match(await ok('text'), /octo-org\/spoon-knife/);

    await ok('goto', { url: 'https://github.com/octo-org/hello-world' });
    await ok('open_issue_form');
    assert.match(await ok('url'), /\/octo-org\/hello-world\/issues\/new\s*$/);
    const created = await ok('create_issue', { title: 'Pack-made issue', body: 'Filed by the github.com pack.' });
    assert.match(created, /issue_number: 1/);
    const issue = records('github.com', 'issue');
    assert.equal(issue.length, 1);
    assert.equal(issue[0].title, 'Pack-made issue');
    assert.equal(issue[0].body, 'Filed by the github.com pack.');
    assert.equal(issue[0].user, 'octocat');
  });

  it('en.wikipedia.org: leaving GitHub unloads its pack; search, open an article, read the infobox with extract', async () => {
    const main = await ok('goto', { url: 'https://en.wikipedia.org/wiki/Main_Page' });
    assert.match(main, /Unloaded intent pack: github\.com \(left its site\)/);
    assert.match(main, /Loading intent pack: en\.wikipedia\.org/);
    const names = await toolNames();
    assert.ok(!names.includes('sign_in'), 'GitHub intents are gone from tools/list');
    assert.ok(names.includes('search_wikipedia'));

    const found = await ok('search_wikipedia', { query: 'ada lovelace' });
    assert.match(found, /page: Ada Lovelace - Wikipedia/);
    assert.match(await ok('url'), /\/wiki\/Ada_Lovelace\s*$/);
    assert.deepEqual(records('en.wikipedia.org', 'search').at(-1).q, 'ada lovelace');
    assert.match(await ok('observe'), /infobox/, 'the pack\'s infobox pattern is found on the article');
    const box = await ok('extract', { kind: 'tables', target: 'css(table.infobox)' });
    assert.match(box, /Born/);
    assert.match(box, /10 December 1815/);

    const opened = await ok('open_article', { title: 'turing' });
    assert.match(opened, /article: Alan Turing/);
    assert.match(await ok('url'), /\/wiki\/Alan_Turing\s*$/);
  });

  it('demo.nopcommerce.com: search, filter by category and price, add to cart', async () => {
    await ok('goto', { url: 'https://demo.nopcommerce.com/' });
    await ok('search_products', { query: 'laptop' });
    assert.equal(records('demo.nopcommerce.com', 'search').at(-1).q, 'laptop');
    await ok('filter_products', { category: 'Computers', max_price: 1400 });
    const search = records('demo.nopcommerce.com', 'search').at(-1);
    assert.equal(search.advs, true);
    assert.equal(Number(search.cid), 1);
    assert.equal(Number(search.pt), 1400);
    const shown = await ok('text');
    assert.match(shown, /Lenovo Thinkpad X1 Carbon Laptop/);
    assert.doesNotMatch(shown, /Asus N551JK/, 'the price filter left out the $1,500 laptop');

    await ok('add_to_cart', { product: 'Lenovo Thinkpad X1 Carbon' });
    const added = records('demo.nopcommerce.com', 'add_to_cart');
    assert.equal(added.length, 1);
    assert.equal(added[0].name, 'Lenovo Thinkpad X1 Carbon Laptop', 'the button of the named product, not its neighbour');
  });

  it('news.ycombinator.com: the pack\'s login replaces the built-in one (reported once), picks the Login form, then upvote and comment', async () => {
    const page = await ok('goto', { url: 'https://news.ycombinator.com/login?goto=news' });
    assert.match(page, /login: news\.ycombinator\.com's login is used instead of the builtin login/);
    await ok('login', { username: 'pg', password: 'correct-horse' });
    assert.deepEqual(records('news.ycombinator.com', 'login').map((r) => [r.acct, r.ok]), [['pg', true]]);
    assert.equal(records('news.ycombinator.com', 'create_account').length, 0, 'not the Create Account form');

    await ok('goto', { url: 'https://news.ycombinator.com/' });
    const again = await ok('goto', { url: 'https://news.ycombinator.com/news' });
    assert.doesNotMatch(again, /is used instead of/, 'the shadowing is reported once');

    await ok('upvote', { story: 'SQLite is not a toy database' });
    assert.deepEqual(records('news.ycombinator.com', 'vote').map((r) => [r.id, r.how, r.user]), [[43500104, 'up', 'pg']]);
    await ok('open_comments', { story: 'SQLite is not a toy database' });
    assert.match(await ok('url'), /item\?id=43500104/);
    await ok('comment', { text: 'Posted through the pack.' });
    const c = records('news.ycombinator.com', 'comment');
    assert.deepEqual(c.map((r) => [r.parent, r.text, r.user]), [[43500104, 'Posted through the pack.', 'pg']]);
  });

  it('packs lists loaded, available and every-site packs; pack unload and load work by hand', async () => {
    const list = await ok('packs');
    assert.match(list, /✓ news\.ycombinator\.com \(v1\.0\.0, builtin\) - loaded: comment, login, open_comments, upvote/);
    assert.match(list, /  github\.com \(v1\.0\.0, builtin\) - available: auto-loads on https:\/\/github\.com\/\*/);
    assert.match(list, /✓ consent \(v1\.0\.0, builtin\) - every site/);
    const unloaded = await ok('pack', { action: 'unload', name: 'news.ycombinator.com' });
    assert.match(unloaded, /Unloaded intent pack: news\.ycombinator\.com \(pack unload\)/);
    assert.ok(!(await toolNames()).includes('upvote'));
    const obs = await ok('goto', { url: 'https://news.ycombinator.com/news' });
    assert.doesNotMatch(obs, /Loading intent pack: news/, 'an unloaded pack stays unloaded on its site');
    const loaded = await ok('pack', { action: 'load', name: 'github.com' });
    assert.match(loaded, /Loading intent pack: github\.com/);
    assert.ok((await toolNames()).includes('create_issue'), 'a pack loaded by hand works off its site');
    await ok('pack', { action: 'unload', name: 'github.com' });
    await ok('pack', { action: 'load', name: 'news.ycombinator.com' });
  });
});

// A community pack for the fixture site (127.0.0.1): each privileged step in its own intent.
function sandboxPack(parent, port) {
  return writePack(parent, '127.0.0.1', {
    'pack.yaml': `pack: 127.0.0.1
version: 1.0.0
description: "Steps a community pack may not take"
domains: ["127.0.0.1"]
auto_load: ["http://127.0.0.1:${port}/*"]
custom_actions:
  page_title:
    description: "document.title, in JavaScript"
    implementation:
      type: javascript
      code: "function (params, context) { return document.title + ' @ ' + context.host; }"
custom_conditions:
  has_form:
    implementation:
      type: javascript
      code: "function (context) { return !!document.querySelector('form'); }"
  login_here:
    implementation:
      type: pattern_check
      patterns: [login_form]
hooks:
  before_intent:
    - action: observe
  after_navigate:
    - action: wait
      condition: { pattern_exists: login_form }
      timeout: 5s
  on_error:
    - action: screenshot
`,
    'intents/run_script.yaml': 'intent: run_script\nversion: 1\nsteps:\n  - action: execute\n    script: "return document.title"\n',
    'intents/custom_js.yaml': 'intent: custom_js\nversion: 1\nsteps:\n  - action: page_title\n',
    'intents/js_condition.yaml': 'intent: js_condition\nversion: 1\nsteps:\n  - branch:\n      if: { custom: has_form }\n      then:\n        - action: observe\n',
    'intents/pattern_condition.yaml': 'intent: pattern_condition\nversion: 1\nsteps:\n  - branch:\n      if: { custom: login_here }\n      then:\n        - action: observe\nsuccess:\n  conditions:\n    - custom: login_here\n',
    'intents/write_file.yaml': 'intent: write_file\nversion: 1\nsteps:\n  - action: screenshot\n    output: "./lscope-shot-{timestamp}.png"\n',
    'intents/leave_site.yaml': 'intent: leave_site\nversion: 1\nsteps:\n  - action: goto\n    url: "https://github.com/login"\n',
    'intents/read_password.yaml': 'intent: read_password\nversion: 1\nsteps:\n  - action: observe\nsuccess:\n  extract:\n    secret:\n      from: text\n      target: { selector: "#password" }\n',
  });
}

describe('pack trust (§13.3)', () => {
  let packDir;
  before(() => {
    packDir = sandboxPack(fs.mkdtempSync(path.join(os.tmpdir(), 'lscope-community-')), fixturePort());
  });

  it('a community pack cannot run scripts, write files, leave its site or read a sensitive field; each refusal says why', async () => {
    const installed = await ok('pack', { action: 'install', name: packDir });
    assert.match(installed, /127\.0\.0\.1 v1\.0\.0 \(community\)/);
    const page = await ok('goto', { url: `http://127.0.0.1:${fixturePort()}/login.html` });
    assert.match(page, /Loading intent pack: 127\.0\.0\.1 \(v1\.0\.0, community\)/);
    // §12.3 hooks: after_navigate ran after the goto, before_intent and on_error around an intent.
    assert.match(page, /# hooks\nafter_navigate \(127\.0\.0\.1\): /);
    await ok('type', { target: 'css(#password)', text: 'planted-secret-1' });
    const cases = [
      ['run_script', /step 0 \(execute\) refused: execute runs a script: pack 127\.0\.0\.1 is a community pack/],
      ['custom_js', /step 0 \(custom\) refused: custom action page_title runs a script/],
      ['js_condition', /custom condition has_form runs a script: pack 127\.0\.0\.1 is a community pack/],
      ['write_file', /refused: screenshot --output writes a file/],
      ['leave_site', /refused: goto github\.com leaves the pack's domains/],
      ['read_password', /extract secret reads \[\d+\] "Password" \(a sensitive field\): pack 127\.0\.0\.1 is a community pack/],
    ];
    for (const [name, why] of cases) {
      const r = await fails(name);
      assert.equal(r.data.code, 'PACK_NOT_TRUSTED', `${name}: ${r.body}`);
      assert.match(r.body, why, name);
      assert.match(r.body, /pack install <folder\|archive> --trusted/, `${name} says how to grant trust`);
      assert.doesNotMatch(r.body, /planted-secret-1/);
      assert.match(r.body, /before_intent hook \(127\.0\.0\.1\)\nobserve\n/, `${name}: before_intent ran first`);
      assert.match(r.body, /on_error hook \(127\.0\.0\.1\)\nscreenshot/, `${name}: on_error ran after the failure`);
    }
    assert.match(await ok('url'), /127\.0\.0\.1/, 'leave_site did not navigate');
    assert.equal(fs.readdirSync(process.cwd()).filter((f) => f.startsWith('lscope-shot-')).length, 0, 'no file written');
    // What a community pack may do: pattern_check conditions. Where no login form is, the
    // success condition fails and names itself.
    await ok('pattern_condition');
    await ok('goto', { url: `http://127.0.0.1:${fixturePort()}/search.html` });
    const unmet = await fails('pattern_condition');
    assert.match(unmet.body, /success conditions not met: .*custom login_here/);
  });

  it('installed as trusted, the same pack may run its scripts', async () => {
    const installed = await ok('pack', { action: 'install', name: packDir, trusted: true, force: true });
    assert.match(installed, /\(trusted\)/);
    await ok('goto', { url: `http://127.0.0.1:${fixturePort()}/login.html` });
    assert.match(await ok('run_script'), /ok run_script/);
    assert.match(await ok('custom_js'), /page_title → .* @ 127\.0\.0\.1/);
    await ok('js_condition');
    await ok('pack', { action: 'install', name: packDir, force: true });  // community again
  });
});

describe('pack install and invalid packs', () => {
  let index;
  let tmp;
  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lscope-index-'));
    const src = writePack(tmp, 'example.org', {
      'pack.yaml': 'pack: example.org\nversion: 1.2.0\ndomains: [example.org]\nauto_load: ["https://example.org/*"]\n',
      'intents/hello.yaml': 'intent: hello\nversion: 1\nsteps:\n  - action: observe\n',
    });
    execFileSync('tar', ['-czf', path.join(tmp, 'example.org-1.2.0.tar.gz'), '-C', tmp, 'example.org']);
    fs.rmSync(src, { recursive: true });
    const archive = fs.readFileSync(path.join(tmp, 'example.org-1.2.0.tar.gz'));
    const sha = crypto.createHash('sha256').update(archive).digest('hex');
    // A link pointing out of the pack: an archive with one is refused.
    const evil = path.join(tmp, 'evil', 'evil.example');
    fs.mkdirSync(path.join(evil, 'intents'), { recursive: true });
    fs.writeFileSync(path.join(evil, 'pack.yaml'), 'pack: evil.example\nversion: 1.0.0\n');
    fs.symlinkSync('/etc/passwd', path.join(evil, 'intents', 'steal.yaml'));
    execFileSync('tar', ['-czf', path.join(tmp, 'evil.tar.gz'), '-C', path.join(tmp, 'evil'), 'evil.example']);
    const evilSha = crypto.createHash('sha256').update(fs.readFileSync(path.join(tmp, 'evil.tar.gz'))).digest('hex');
    const body = JSON.stringify({ packs: [
      { name: 'example.org', version: '1.2.0', archive: 'example.org-1.2.0.tar.gz', sha256: sha },
      { name: 'tampered.example', version: '1.0.0', archive: 'example.org-1.2.0.tar.gz', sha256: '0'.repeat(64) },
      { name: 'evil.example', version: '1.0.0', archive: 'evil.tar.gz', sha256: evilSha },
    ] });
    index = http.createServer((req, res) => {
      if (req.url === '/index.json') { res.writeHead(200, { 'Content-Type': 'application/json' }); res.end(body); return; }
      const f = path.join(tmp, path.basename(req.url));
      if (fs.existsSync(f) && f.endsWith('.tar.gz')) { res.writeHead(200); res.end(fs.readFileSync(f)); return; }
      res.writeHead(404); res.end();
    });
    await new Promise((r) => index.listen(0, '127.0.0.1', r));
  });
  after(() => {
    index?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('pack install <name> --source <index URL> downloads, checks the sha256 and installs', async () => {
    const url = `http://127.0.0.1:${index.address().port}/index.json`;
    const out = await ok('pack', { action: 'install', name: 'example.org', source: url });
    assert.match(out, /example\.org v1\.2\.0 \(community\)/);
    assert.ok(fs.existsSync(path.join(home, '.lemmascope', 'packs', 'example.org', 'intents', 'hello.yaml')));
    assert.match(await ok('packs'), /example\.org \(v1\.2\.0, community\) - available/);
    const again = await fails('pack', { action: 'install', name: 'example.org', source: url });
    assert.match(again.body, /installed already/);
    assert.match((await ok('pack', { action: 'update', name: 'example.org' })), /example\.org v1\.2\.0/);

    const bad = await fails('pack', { action: 'install', name: 'tampered.example', source: url });
    assert.match(bad.body, /does not match the index's sha256/);
    const evil = await fails('pack', { action: 'install', name: 'evil.example', source: url });
    assert.match(evil.body, /not a plain file or folder \(links are refused\)/);
    assert.ok(!fs.existsSync(path.join(home, '.lemmascope', 'packs', 'evil.example')));
    const none = await fails('pack', { action: 'install', name: 'nope.example', source: url });
    assert.match(none.body, /no pack named "nope\.example".*\n.*it has: example\.org, tampered\.example, evil\.example/s);
  });

  it('an invalid pack is listed with file:line and why; the others still load', async () => {
    writePack(path.join(home, '.lemmascope', 'packs'), 'broken.example', {
      'pack.yaml': 'pack: broken.example\nversion: 1.0.0\ndomains: [broken.example]\nhooks:\n  after_login:\n    - action: observe\n',
    });
    const list = await ok('packs', { reload: true });
    assert.match(list, /✗ broken\.example - invalid: .*broken\.example\/pack\.yaml:5:3: \/hooks\/after_login: unknown hook "after_login"/);
    assert.match(list, /github\.com \(v1\.0\.0, builtin\)/);
  });
});

describe('the default tool profile', () => {
  it('lists a pack\'s intents as tools while the agent is on its site', async () => {
    const { client: c } = await connect(['--browser-arg=--ignore-certificate-errors',
      `--browser-arg=--host-resolver-rules=${sites.hostRules}`], { env: { HOME: home } });
    try {
      const names = async () => (await c.listTools()).tools.map((t) => t.name);
      assert.ok(!(await names()).includes('sign_in'));
      await c.callTool({ name: 'goto', arguments: { url: 'https://github.com/login' } });
      assert.ok((await names()).includes('sign_in'), 'sign_in is listed on github.com');
      await c.callTool({ name: 'goto', arguments: { url: 'https://en.wikipedia.org/wiki/Main_Page' } });
      const now = await names();
      assert.ok(!now.includes('sign_in') && now.includes('search_wikipedia'), 'the list follows the site');
    } finally {
      await c.close();
    }
  });
});
