// The intent learner (issue 18) end to end: real lscope processes (one per session) sharing one
// SQLite store, real headless Chromium, the official MCP client. Three sessions of a review
// flow on a fixture shop make the third response propose an intent; it is refined, tested and
// saved over MCP, becomes a tool (tools/list_changed) and posts a review with new values (the
// fixture server records what the page sent). The store holds no planted password; forget
// deletes for real (the sqlite3 CLI says so); kill -9 mid-write leaves an intact database;
// two processes write to it at once.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { connect, text, runLscope, lscopeBin, backendArgs } from './lib/lscope.js';
import { startFixtureServer, accounts } from './lib/fixture_server.js';

const EMAIL = 'ada@example.com';
const PASSWORD = accounts[EMAIL];

let site;
let dir;
let db;
before(async () => {
  site = await startFixtureServer();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lscope-learner-'));
  db = path.join(dir, 'learner.db');
});
after(async () => {
  await site.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const learnArgs = () => ['--learn', 'on', '--learner-db', db];
const sql = (query) => execFileSync('sqlite3', [db, query], { encoding: 'utf8' }).trim();
const storeBytes = () => ['', '-wal'].map((s) => (fs.existsSync(db + s) ? fs.readFileSync(db + s).toString('latin1') : '')).join('');

// One session of the review flow through MCP tools; returns the responses' texts.
async function reviewSession(client, { product, stars, body, variant, signIn = false }) {
  const call = async (name, args) => {
    const r = await client.callTool({ name, arguments: args });
    assert.equal(r.isError, false, `${name} ${JSON.stringify(args)}: ${text(r)}`);
    return text(r);
  };
  if (signIn) {
    // A password typed on the same site: the learner must never keep it.
    await call('goto', { url: `${site.base}/login.html` });
    await call('type', { target: 'Email', text: EMAIL });
    await call('type', { target: 'Password', text: PASSWORD });
  }
  const out = [];
  out.push(await call('goto', { url: `${site.base}/learn/product.html?id=${product}${variant ? '&v=2' : ''}` }));
  out.push(await call('click', { target: variant ? 'Leave a Review' : 'Write a review' }));
  out.push(await call('click', { target: `"${stars} stars"` }));
  out.push(await call('type', { target: 'Your review', text: body }));
  out.push(await call('click', { target: variant ? 'Post review' : 'Submit review' }));
  return out;
}

test('three repetitions of a review flow propose an intent; refined, tested and saved over MCP it is a tool that posts a review', async () => {
  for (const [i, s] of [{ product: 1, stars: 4, body: 'Great lamp', signIn: true }, { product: 2, stars: 5, body: 'Solid', variant: true }].entries()) {
    const { client } = await connect(learnArgs());
    try {
      const out = await reviewSession(client, s);
      assert.ok(!out.join('\n').includes('# discovered intent'), `nothing proposed in session ${i + 1}`);
    } finally {
      await client.close();
    }
  }
  const { client } = await connect(learnArgs());
  try {
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => { changed += 1; });
    const out = await reviewSession(client, { product: 3, stars: 2, body: 'Broke after a week' });
    const last = out.at(-1);
    assert.match(last, /# discovered intent\nwrite_review: seen 3 times on 127\.0\.0\.1, confidence 0\.\d\d/);
    assert.match(last, /rating: number \(4, 5, 2\)/);
    assert.match(last, /review: string \(Great lamp, Solid, Broke after a week\)/);
    assert.match(last, /click "Submit review" or "Post review"/);
    assert.match(last, /accept write_review \| refine write_review \| reject write_review/);
    const run = async (script) => {
      const r = await client.callTool({ name: 'run', arguments: { script } });
      return { ok: !r.isError, t: text(r) };
    };
    const listed = await run('learned');
    assert.match(listed.t, /^ok learned 1 proposed, 0 saved/);
    // Refine: one wording for the button, an optional parameter added and taken away.
    let r = await run('refine write_review edit step 2 click "Write a review"');
    assert.ok(r.ok, r.t);
    assert.match(r.t, /2 click "Write a review"\n/);
    // The spec's own step form (§8.4): an action, its target as a map, then the text.
    r = await run('refine write_review edit step 4 type { selector: "#body" } $review');
    assert.ok(r.ok, r.t);
    assert.match(r.t, /4 type css\(#body\) \$review/);
    r = await run('refine write_review edit step 4 type { colour: blue } $review');
    assert.equal(r.ok, false, 'a change that would not load is refused');
    assert.match(r.t, /not changed: .*unknown target key "colour"/);
    // An alias inside its own anchor (a cycle) is refused, and the session goes on.
    r = await run('refine write_review edit step 4 type { selector: &a { x: *a } } $review');
    assert.equal(r.ok, false, r.t);
    assert.match(r.t, /step:1:\d+: \/selector(\/x)+: nested more than 64 levels deep \(an alias used inside its own anchor/);
    r = await run('refine write_review add param title:string --optional');
    assert.match(r.t, /title: string/);
    r = await run('refine write_review remove param title');
    assert.ok(!/title: string/.test(r.t), r.t);
    r = await run('refine write_review remove param review');
    assert.equal(r.ok, false, 'a parameter a step uses cannot go');
    assert.match(r.t, /a step still uses \$review/);
    // Test: the draft runs on the page and the page receives the review.
    let sent = site.received.length;
    r = await run(`refine write_review test --url ${site.base}/learn/product.html?id=8 --rating 3 --review "Fine"`);
    assert.ok(r.ok, r.t);
    assert.match(r.t, /^ok refine test passed/);
    let got = site.received.slice(sent).filter((x) => x.path === '/learn/review-sent.html');
    assert.deepEqual(got.map((x) => x.form), [{ product: '8', rating: '3', body: 'Fine' }]);
    r = await run('refine write_review save');
    assert.ok(r.ok, r.t);
    assert.match(r.t, /saved to discovered intents/);
    // The saved intent is a tool now, and the client heard so.
    const tools = (await client.listTools()).tools;
    const tool = tools.find((t) => t.name === 'write_review');
    assert.ok(tool, tools.map((t) => t.name).join(' '));
    assert.deepEqual(Object.keys(tool.inputSchema.properties).filter((k) => ['url', 'rating', 'review'].includes(k)).sort(), ['rating', 'review', 'url']);
    assert.ok(changed >= 1, 'notifications/tools/list_changed arrived');
    sent = site.received.length;
    const done = await client.callTool({ name: 'write_review', arguments: { url: `${site.base}/learn/product.html?id=9`, rating: 1, review: 'Terrible' } });
    assert.equal(done.isError, false, text(done));
    got = site.received.slice(sent).filter((x) => x.path === '/learn/review-sent.html');
    assert.deepEqual(got.map((x) => x.form), [{ product: '9', rating: '1', body: 'Terrible' }]);
  } finally {
    await client.close();
  }
  // A fresh session (another process) has it as a tool from the start, and export writes YAML
  // that --intents loads.
  const again = await connect(learnArgs());
  try {
    const names = (await again.client.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes('write_review'), names.join(' '));
    const file = path.join(dir, 'exported', 'write_review.yaml');
    fs.mkdirSync(path.dirname(file));
    const ex = await again.client.callTool({ name: 'run', arguments: { script: `export write_review --to ${file}` } });
    assert.equal(ex.isError, false, text(ex));
  } finally {
    await again.client.close();
  }
  const loaded = await runLscope(['--intents', path.join(dir, 'exported'), 'run', '-'], { input: 'intents\n' });
  assert.match(loaded.stdout, /write_review/);
  // The planted password never reached the store; the field it was typed into is marked.
  assert.ok(!storeBytes().includes(PASSWORD), 'no planted password in the database or its WAL');
  assert.ok(Number(sql("SELECT count(*) FROM commands WHERE sensitive = 1 AND (value IS NULL OR value = '')")) >= 1);
  assert.equal(sql("SELECT count(*) FROM commands WHERE value LIKE '%" + PASSWORD.slice(0, 8) + "%'"), '0');
});

test('forget deletes the domain for real', async () => {
  const before = sql("SELECT count(*) FROM commands WHERE domain = '127.0.0.1'");
  assert.ok(Number(before) > 10, before);
  const r = await runLscope([...learnArgs(), 'run', '-'], { input: 'forget 127.0.0.1\nlearned\n' });
  assert.equal(r.status, 0, r.stdout + r.stderr.slice(-500));
  assert.match(r.stdout, /^ok forget 127\.0\.0\.1\n\n# deleted\n\d+ rows/);
  assert.match(r.stdout, /ok learned 0 proposed, 0 saved/);
  assert.equal(sql("SELECT count(*) FROM commands WHERE domain = '127.0.0.1'"), '0');
  assert.equal(sql('SELECT count(*) FROM proposals'), '0');
  const bytes = storeBytes();
  for (const gone of ['Broke after a week', 'Great lamp', 'review-sent', 'Write a review']) {
    assert.ok(!bytes.includes(gone), `"${gone}" is gone from the file, not only from the tables`);
  }
});

test('kill -9 while writing leaves an intact store; two processes write to it at once', async () => {
  const url = `${site.base}/learn/catalog.html`;
  const script = [`goto ${url}`, ...Array.from({ length: 400 }, (_, i) => (i % 2 ? 'press Tab' : 'press Shift+Tab'))].join('\n') + '\n';
  const child = spawn(lscopeBin, [...learnArgs(), ...backendArgs, 'run', '-'], { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  let seen = 0;
  await new Promise((resolve) => {
    child.stdout.on('data', (d) => {
      seen += (String(d).match(/^ok press/gm) || []).length;
      if (seen >= 60) resolve();
    });
    child.on('exit', resolve);
    child.stdin.end(script);
  });
  process.kill(-child.pid, 'SIGKILL');
  await new Promise((resolve) => (child.exitCode !== null || child.signalCode ? resolve() : child.on('exit', resolve)));
  assert.ok(seen >= 60, `killed mid-run after ${seen} commands`);
  assert.equal(sql('PRAGMA integrity_check'), 'ok');
  const rows = Number(sql("SELECT count(*) FROM commands WHERE action = 'press'"));
  assert.ok(rows >= 55 && rows <= 400, `${rows} rows kept`);
  // Two writers at once, then a reader: nothing lost, nothing locked out.
  const before = Number(sql('SELECT count(*) FROM commands'));
  const small = [`goto ${url}`, ...Array.from({ length: 30 }, () => 'press Tab')].join('\n') + '\n';
  const [a, b] = await Promise.all([runLscope([...learnArgs(), 'run', '-'], { input: small }), runLscope([...learnArgs(), 'run', '-'], { input: small })]);
  assert.equal(a.status, 0, a.stderr.slice(-500));
  assert.equal(b.status, 0, b.stderr.slice(-500));
  assert.ok(!/learner:/.test(a.stderr + b.stderr), 'no store error: ' + (a.stderr + b.stderr).slice(-500));
  assert.equal(Number(sql('SELECT count(*) FROM commands')), before + 62);
  const r = await runLscope([...learnArgs(), 'run', '-'], { input: 'learned\n' });
  assert.equal(r.status, 0, r.stdout + r.stderr.slice(-500));
});

test('a rejected proposal is not proposed again; a sensitive URL parameter never reaches the store', async () => {
  const TOKEN = 'Tok3n-planted-9931';
  const ticket = (title, priority, extra = '') => [`goto ${site.base}/learn/tickets.html?token=${TOKEN}`, extra,
    'click "New ticket"', `type Title "${title}"`, `select Priority ${priority}`, `type Description "About ${title}"`,
    'click "Create ticket"', ''].filter((l) => l !== '').join('\n') + '\n';
  const outs = [];
  for (const [t, p, extra] of [['Printer jam', 'High', ''], ['VPN down', 'Urgent', 'click "Read the FAQ"\ngoto ' + site.base + '/learn/tickets.html'], ['No sound', 'Low', '']]) {
    const r = await runLscope([...learnArgs(), 'run', '-'], { input: ticket(t, p, extra) });
    assert.equal(r.status, 0, r.stdout.slice(-800) + r.stderr.slice(-500));
    outs.push(r.stdout);
  }
  assert.ok(!outs[0].includes('# discovered intent') && !outs[1].includes('# discovered intent'));
  assert.match(outs[2], /# discovered intent\nnew_ticket: seen 3 times/);
  assert.match(outs[2], /priority: string \(High, Urgent, Low\)/);
  let r = await runLscope([...learnArgs(), 'run', '-'], { input: 'reject new_ticket\nlearned --all\n' });
  assert.match(r.stdout, /^ok reject new_ticket/);
  assert.match(r.stdout, /# rejected\nnew_ticket: seen 3 times/);
  r = await runLscope([...learnArgs(), 'run', '-'], { input: ticket('Lost badge', 'Normal') });
  assert.equal(r.status, 0, r.stdout.slice(-800));
  assert.ok(!r.stdout.includes('# discovered intent'), r.stdout.slice(-800));
  assert.ok(!storeBytes().includes(TOKEN), 'the token in the URL was masked before it was stored');
  assert.ok(Number(sql("SELECT count(*) FROM commands WHERE value LIKE '%token=%'")) >= 4);
});

test('a store with rows lscope never wrote (edited by hand) answers errors, never crashes', async () => {
  await runLscope([...learnArgs(), 'run', '-'], { input: 'learned\n' });  // the store exists
  sql(`INSERT INTO proposals VALUES ('junk_steps', 'x.example', 'proposed', 0.9, 3, '{"steps":[{"action":5,"url":[1],"target":{"text":{"a":1}}},7],"parameters":[3,{"name":[]}]}', '[1,2]', 0);
       INSERT INTO proposals VALUES ('junk_text', 'x.example', 'saved', 0.9, 3, 'not json', '{}', 0);`);
  const r = await runLscope([...learnArgs(), 'run', '--keep-going', '-'], {
    input: 'learned\nrefine junk_steps\nrefine junk_steps add param x:string\naccept junk_steps\naccept junk_text\nforget x.example\nlearned\n' });
  assert.equal(r.status, 1, 'some commands failed, the process did not crash: ' + r.stderr.slice(-500));
  assert.match(r.stdout, /^ok learned /m);
  assert.match(r.stdout, /^error accept: "junk_steps" does not load/m);
  assert.match(r.stdout, /^ok forget x\.example/m);
  assert.match(r.stderr, /saved intent junk_text does not load/);
  assert.equal(sql("SELECT count(*) FROM proposals WHERE domain = 'x.example'"), '0');
});

test('off by default over HTTP and with --learn off: learned says how to turn it on', async () => {
  const r = await runLscope(['--learn', 'off', '--learner-db', db, 'run', '-'], { input: 'learned\n' });
  assert.match(r.stdout, /^error learned: the intent learner is off/);
  assert.match(r.stdout, /intent_learner\.enabled: true/);
});
