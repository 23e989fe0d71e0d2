// The secrets audit (issue 16 §6, intent-engine.md §13.1): known values are planted in every way
// a secret reaches Lemmascope (a password typed as text, a --secrets value, the login intent's
// password, fields of the spec's sensitive list, a secret the user gives through elicitation,
// the HTTP transport's bearer token) on a page that echoes them everywhere it can (text, title,
// URL, a shown password, alerts, console, an Authorization header). Then every output is read:
// each tool result and notification the client saw, lscope's log at trace level, its errors, and
// every file lscope (and the browser it started) left in its home and temporary directories,
// where its traces (--trace, with screenshots) and the learner's store live too. Any planted value, in any encoding, fails.
import { describe, it as nodeTest, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ElicitRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { connect, text, conform, backendArgs } from './lib/lscope.js';
import { startHttpServer, httpClient } from './lib/http_server.js';
import { startFixtureServer, accounts } from './lib/fixture_server.js';

const it = conform(nodeTest);
const here = path.dirname(fileURLToPath(import.meta.url));

const planted = {
  typed: 'Pl4nt typed/7Q&x',       // typed as literal text into a password field
  fromFile: 'Pl4ntSecretsFile-K9z', // --secrets
  login: 'Pl4ntLogin-3Rv',          // login intent's password (a wrong one: the error path)
  elicited: 'Pl4ntElicited-Hq2',    // the user, through URL-mode elicitation
  card: '4929 1187 5566 7041',      // the sensitive list: card_number, cvv, ssn, api_key, token
  cvv: 'Pl4ntCvv-41',
  ssn: '078-05-1120',
  apiKey: 'sk-Pl4ntApiKey-Zt5',
  token: 'Pl4ntTok-Wq8',
  bearer: 'Pl4ntBearer-9Wm',        // lscope serve --http --auth-token
  said: 'Pl4ntSaid-8Yk',            // a password inside a `do` sentence
};

// Each value as it may be written: raw, in JSON, URL-encoded (both ways), HTML-escaped.
function encodings(v) {
  return [...new Set([v, JSON.stringify(v).slice(1, -1), encodeURIComponent(v),
    new URLSearchParams({ v }).toString().slice(2), v.replace(/&/g, '&amp;').replace(/\//g, '&#x2F;')])];
}

// "where: value" for every planted value found in `haystack` (a string or a Buffer).
function leaks(where, haystack) {
  const s = Buffer.isBuffer(haystack) ? haystack.toString('latin1') : String(haystack);
  const found = [];
  for (const [name, v] of Object.entries(planted)) {
    for (const e of encodings(v)) {
      const at = s.indexOf(Buffer.from(e, 'utf8').toString('latin1'));
      if (at >= 0) found.push(`${where}: ${name} (${JSON.stringify(e)}) in …${s.slice(Math.max(0, at - 160), at + 60)}…`);
    }
  }
  return found;
}

// Every regular file under `dir`, with its bytes.
function* files(dir) {
  let entries;
  try { entries = fs.readdirSync(dir, { withFileTypes: true }); } catch { return; }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* files(p);
    else if (e.isFile()) {
      try { yield [p, fs.readFileSync(p)]; } catch { /* gone meanwhile */ }
    }
  }
}

function diskLeaks(dirs) {
  const found = [];
  for (const d of dirs) for (const [p, bytes] of files(d)) found.push(...leaks(p, bytes));
  return found;
}

let site;
let work;
before(async () => {
  site = await startFixtureServer({ extraRoots: { '/e2e-pages/': path.join(here, 'pages') } });
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'lscope-audit-'));
});
after(async () => {
  await site.close();
  fs.rmSync(work, { recursive: true, force: true });
});

// A home and a temporary directory of its own for each lscope: whatever it writes lands there.
function sandbox(name) {
  const home = path.join(work, name, 'home');
  const tmp = path.join(work, name, 'tmp');
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(tmp, { recursive: true });
  return { home, tmp, env: { HOME: home, TMPDIR: tmp, XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local/share'), XDG_CACHE_HOME: path.join(home, '.cache') } };
}

const lastGet = (p) => site.received.filter((r) => r.method === 'GET' && r.path === p).at(-1);

describe('secrets audit', () => {
  it('stdio: no planted value reaches a response, a notification, the trace-level log or the disk', async () => {
    const box = sandbox('stdio');
    const secretsFile = path.join(work, 'secrets');  // the user's own file, outside the sandbox
    fs.writeFileSync(secretsFile, `site = "${planted.fromFile}"\n`, { mode: 0o600 });
    // Traces (issue 20) with screenshots, and the session recorded as an intent, go into the
    // sandbox, which is read below.
    const { client, stderr } = await connect(['--tools', 'all', '--log-level', 'trace', '--secrets', secretsFile,
      '--trace', path.join(box.tmp, 'traces'), '--trace-screenshots', '--record', path.join(box.tmp, 'recorded.yaml'),
      '--learn', 'on'],
      { env: box.env, capabilities: { elicitation: { url: {} } } });
    const seen = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => seen.push(JSON.stringify(n)));
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      seen.push(JSON.stringify(req.params));
      const url = new URL(req.params.url);
      const form = await (await fetch(url)).text();
      const t = form.match(/name="t" value="([0-9a-f]+)"/)[1];
      await fetch(`${url.origin}${url.pathname}`, { method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ t, value: planted.elicited }).toString() });
      return { action: 'accept' };
    });
    const call = async (name, args = {}) => {
      const r = await client.callTool({ name, arguments: args });
      seen.push(JSON.stringify(r));
      return r;
    };
    const ok = async (name, args = {}) => {
      const r = await call(name, args);
      assert.equal(r.isError, false, `${name}: ${text(r)}`);
      return text(r);
    };
    const audit = `${site.base}/e2e-pages/audit.html`;
    let bye = false;
    try {
      await client.setLoggingLevel('debug');
      await ok('goto', { url: audit });
      // A password typed as text; the page shows it as you type, then on demand.
      await ok('type', { target: 'Email', text: 'ada@example.com' });
      await ok('type', { target: 'Password', text: planted.typed });
      await ok('click', { target: 'Show password' });
      await ok('observe');
      await ok('text');
      // The GET form puts it in the URL and the page prints it back.
      await ok('click', { target: 'Sign in' });
      assert.equal(lastGet('/e2e-pages/audit.html').form.password, planted.typed, 'the page got the typed password');
      await ok('url');
      await ok('title');
      await ok('text');
      // A secret from --secrets, then one the user gives through elicitation.
      for (const [ref, value] of [['secret:site', planted.fromFile], ['secret:asked', planted.elicited]]) {
        await ok('goto', { url: audit });
        await ok('type', { target: 'Password', text: ref });
        await ok('click', { target: 'Show password' });
        await ok('click', { target: 'Sign in' });
        assert.equal(lastGet('/e2e-pages/audit.html').form.password, value, `the page got ${ref}`);
        await ok('observe');
      }
      // The spec's sensitive fields through fill_form, then a save that echoes them everywhere.
      await ok('fill_form', { data: { card_number: planted.card, cvv: planted.cvv, ssn: planted.ssn,
        api_key: planted.apiKey, token: planted.token } });
      await ok('observe');
      await call('click', { target: 'Save billing' });  // the alert may be reported as the outcome
      const saved = site.received.filter((r) => r.path === '/api/audit').at(-1);
      assert.ok(saved, 'the page sent its request');
      assert.equal(saved.authorization, `Bearer ${planted.apiKey}`);
      assert.deepEqual(saved.form, { card_number: planted.card, cvv: planted.cvv, ssn: planted.ssn,
        api_key: planted.apiKey, token: planted.token });
      await ok('observe');
      await ok('text');
      await ok('url');
      await ok('title');
      await ok('extract', { kind: 'forms' });
      await ok('extract', { kind: 'text' });
      // Errors that repeat what they were given.
      // (a target named by a secret may match the page's echo of it: either answer is read)
      console.log(text(await call('click', { target: planted.apiKey })));
      console.log(text(await call('type', { target: `${planted.token} field`, text: planted.cvv })));
      assert.equal((await call('select', { target: `${planted.card}`, option: planted.ssn })).isError, true);
      assert.equal((await call('goto', { url: `javascript:alert("${planted.ssn}")` })).isError, true);
      // OIL through the run tool, with a literal password.
      await ok('run', { script: `goto ${audit}\ntype Password "${planted.typed}"\nobserve` });
      // The login intent with a wrong password fails on the fixture's login page.
      await ok('goto', { url: `${site.base}/login.html` });
      const login = await call('login', { username: 'ada@example.com', password: planted.login });
      assert.equal(login.isError, true, text(login));
      assert.equal(site.posts('/login').at(-1).form.password, planted.login, 'the page got the login password');
      // A password said in a `do` sentence: a reading that runs (and fails), then one that only
      // lists candidates.
      const said = await call('do', { sentence: `log in as ada@example.com with password "${planted.said}"` });
      assert.equal(site.posts('/login').at(-1).form.password, planted.said, text(said));
      await ok('do', { sentence: `sign me into the site with password "${planted.said}"` });
      await call('login', { username: 'ada@example.com', password: accounts['ada@example.com'] });
      assert.ok(seen.join('\n').includes('••••••••'), 'the mask is shown where the values were');
    } finally {
      await client.close();
      bye = true;
    }
    assert.ok(bye);
    const traces = fs.readdirSync(path.join(box.tmp, 'traces'));
    assert.ok(traces.some((f) => f.endsWith('.jsonl')) && traces.some((f) => f.endsWith('.png')), traces.join(' '));
    assert.match(fs.readFileSync(path.join(box.tmp, 'recorded.yaml'), 'utf8'), /action: type/, 'the session was recorded');
    // The learner's store (its default place under XDG_DATA_HOME) recorded the session: it is
    // among the files read below, database and WAL.
    const store = path.join(box.home, '.local/share/lemmascope/learner.db');
    assert.ok(fs.existsSync(store), 'the learner store was written');
    assert.ok(fs.statSync(store).size + (fs.existsSync(store + '-wal') ? fs.statSync(store + '-wal').size : 0) > 8192, 'with rows');
    const found = [...leaks('client', seen.join('\n')), ...leaks('stderr', stderr()),
      ...diskLeaks([box.home, box.tmp])];
    assert.deepEqual(found, [], `planted values leaked:\n${found.join('\n')}`);
    assert.match(stderr(), /\S/, 'the trace-level log said something');
  });

  it('HTTP: the bearer token and typed secrets stay out of the log and the disk', async () => {
    const box = sandbox('http');
    const server = await startHttpServer(['--auth-token', planted.bearer, '--tools', 'all', '--log-level', 'trace', ...backendArgs],
      { env: box.env });
    const seen = [];
    try {
      const headers = { Authorization: `Bearer ${planted.bearer}` };
      const { client } = await httpClient(server.url, { requestInit: { headers } });
      const call = async (name, args = {}) => {
        const r = await client.callTool({ name, arguments: args });
        seen.push(JSON.stringify(r));
        assert.equal(r.isError, false, `${name}: ${text(r)}`);
        return r;
      };
      await call('goto', { url: `${site.base}/e2e-pages/audit.html` });
      await call('type', { target: 'Password', text: planted.typed });
      await call('fill_form', { data: { api_key: planted.apiKey, token: planted.token } });
      await call('click', { target: 'Show password' });
      await call('observe');
      await client.close();
      // A request with a wrong token is refused without its header being written anywhere.
      const refused = await fetch(server.url, { method: 'POST', headers: { Authorization: `Bearer ${planted.cvv}`,
        'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) });
      assert.equal(refused.status, 401);
      seen.push(await refused.text());
    } finally {
      await server.stop();
    }
    const found = [...leaks('client', seen.join('\n')), ...leaks('stderr', server.stderr()),
      ...diskLeaks([box.home, box.tmp])];
    assert.deepEqual(found, [], `planted values leaked:\n${found.join('\n')}`);
  });
});
