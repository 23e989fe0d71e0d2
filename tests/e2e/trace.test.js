// Traces (issue 20): --trace DIR writes one JSONL file per session, a line per command and per
// intent step (time, duration, target and how it resolved, changes, errors with their hint, a
// screenshot reference), masked as responses are, and rotated past --trace-max-kb. `lscope trace
// view` turns one into a self-contained HTML report, opened here in headless Chromium.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runLscope } from './lib/lscope.js';
import { startFixtureServer, accounts } from './lib/fixture_server.js';

const EMAIL = 'ada@example.com';
const PASSWORD = accounts[EMAIL];
let site;
before(async () => { site = await startFixtureServer(); });
after(async () => { await site.close(); });

const traceDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'lscope-trace-'));
const traceFiles = (dir) => fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort();
const lines = (file) => fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));

test('a session trace: one line per command and intent step, masked, with screenshots', async () => {
  const dir = traceDir();
  try {
    const script = [
      `goto ${site.base}/login.html`,
      `type Email "${EMAIL}"`,
      `type Password "${PASSWORD}"`,
      'click "No such button" --timeout 1s',
      'click "Sign in"',
      `goto ${site.base}/login.html`,
      `login ${EMAIL} "${PASSWORD}"`,
    ].join('\n');
    const r = await runLscope(['--trace', dir, '--trace-screenshots', 'run', '--keep-going', '-'], { input: `${script}\n` });
    assert.equal(r.status, 1, 'one command failed on purpose\n' + r.stdout + r.stderr.slice(-1000));
    const files = traceFiles(dir);
    assert.equal(files.length, 1, files.join(' '));
    const all = lines(path.join(dir, files[0]));
    const commands = all.filter((l) => l.command);
    assert.deepEqual(commands.map((l) => l.command), ['goto', 'type', 'type', 'click', 'click', 'goto', 'login']);
    for (const l of commands) {
      assert.match(l.t, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.equal(typeof l.ms, 'number');
    }
    const [, email, password, missing, signIn, , login] = commands;
    assert.equal(email.target, 'email');
    assert.deepEqual([missing.ok, missing.code], [false, 'TARGET_NOT_FOUND'], JSON.stringify(missing));
    assert.ok(missing.hint, 'the error line carries its hint');
    assert.ok(signIn.changes.some((c) => /~ url: \/login\.html → \/dashboard\.html/.test(c)), JSON.stringify(signIn.changes));
    assert.ok(password.ok);
    // Intent steps follow the intent's line.
    const steps = all.filter((l) => l.intent === 'login');
    assert.ok(steps.length >= 3, JSON.stringify(steps));
    assert.ok(steps.some((s) => /^type \[\d+\] "••••••••"$/.test(s.action)), JSON.stringify(steps));
    assert.equal(login.ok, true);
    // Screenshots for the commands that act (not for the failed lookup's answer only: every act).
    for (const l of [signIn, login]) {
      assert.ok(l.screenshot, JSON.stringify(l));
      const png = fs.readFileSync(path.join(dir, l.screenshot));
      assert.deepEqual([...png.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47], 'a PNG');
    }
    // Masked everywhere: no file in the trace directory holds the password.
    for (const f of fs.readdirSync(dir)) {
      assert.ok(!fs.readFileSync(path.join(dir, f)).includes(PASSWORD), `${f} holds the password`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a trace file rotates past --trace-max-kb, the previous one kept', async () => {
  const dir = traceDir();
  try {
    const script = [`goto ${site.base}/signup.html`, ...Array.from({ length: 12 }, () => 'observe')].join('\n');
    const r = await runLscope(['--trace', dir, '--trace-max-kb', '1', 'run', '-'], { input: `${script}\n` });
    assert.equal(r.status, 0, r.stdout + r.stderr.slice(-1000));
    const files = traceFiles(dir);
    assert.equal(files.length, 2, files.join(' '));
    assert.ok(files.some((f) => f.endsWith('.1.jsonl')));
    const current = files.find((f) => !f.endsWith('.1.jsonl'));
    const size = fs.statSync(path.join(dir, current)).size;
    const longest = Math.max(...fs.readFileSync(path.join(dir, current), 'utf8').trim().split('\n').map((l) => l.length + 1));
    assert.ok(size <= 1024 + longest, `${size} bytes`);
    assert.ok(lines(path.join(dir, current)).every((l) => l.command === 'observe' || l.command === 'goto'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('trace view: one HTML file with the timeline, the steps, their screenshots and the failure highlighted', async () => {
  const dir = traceDir();
  try {
    const script = [`goto ${site.base}/login.html`, `type Email "${EMAIL}"`, 'click "No such button" --timeout 1s',
      `login ${EMAIL} "${PASSWORD}"`].join('\n');
    await runLscope(['--trace', dir, '--trace-screenshots', 'run', '--keep-going', '-'], { input: `${script}\n` });
    const trace = path.join(dir, traceFiles(dir)[0]);
    const report = path.join(dir, 'report.html');
    const made = await runLscope(['trace', 'view', trace, '--out', report]);
    assert.equal(made.status, 0, made.stderr);
    const body = fs.readFileSync(report, 'utf8');
    assert.ok(!/(src|href)="https?:/.test(body), 'nothing to fetch: no network needed');
    assert.ok(!body.includes(PASSWORD), 'the report is masked too');
    // Open it in headless Chromium (through lscope) and read what a person sees.
    const seen = await runLscope(['--allow-file-access', 'run', '-'], { input: `goto file://${report}\ntext\nextract images\n` });
    assert.equal(seen.status, 0, seen.stdout + seen.stderr.slice(-1000));
    assert.match(seen.stdout, /Lemmascope trace/);
    assert.match(seen.stdout, /4 steps, 1 failure/);
    assert.match(seen.stdout, /TARGET_NOT_FOUND/);
    assert.match(seen.stdout, /hint: closest:/);
    assert.match(seen.stdout, /type \[\d+\] "••••••••"/, 'the login intent\'s steps');
    const images = (seen.stdout.match(/\b(before|after)\b/g) || []).length;
    assert.ok(images >= 6, `before and after images: ${images}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('--record writes the session as an intent that --intents loads and runs with new values', async () => {
  const dir = traceDir();
  try {
    const file = path.join(dir, 'login_flow.yaml');
    const recorded = await runLscope(['--record', file, 'run', '-'], { input: [
      `goto ${site.base}/login.html`, 'type Email "grace@example.com"', `type Password "${PASSWORD}"`, 'observe',
      'click "Sign in"', ''].join('\n') });
    assert.equal(recorded.status, 0, recorded.stdout + recorded.stderr.slice(-1000));
    const yaml = fs.readFileSync(file, 'utf8');
    assert.match(yaml, /intent: login_flow/);
    assert.match(yaml, /text: \$email/);
    assert.match(yaml, /text: \$password/);
    assert.match(yaml, /sensitive: true/);
    assert.ok(!yaml.includes(PASSWORD), 'a value typed into a password field is never written');
    assert.ok(!/action: observe/.test(yaml), 'only actions are steps');
    // Replayed with other values, by another lscope that loads the folder.
    const before = site.received.length;
    const replay = await runLscope(['--intents', dir, 'run', '-'], {
      input: `intent login_flow ${JSON.stringify({ email: EMAIL, password: PASSWORD })}\nurl\n` });
    assert.equal(replay.status, 0, replay.stdout + replay.stderr.slice(-1000));
    assert.match(replay.stdout, /dashboard\.html/);
    const sent = site.received.slice(before).filter((x) => x.method === 'POST' && x.path === '/login');
    assert.equal(sent.length, 1);
    assert.deepEqual([sent[0].form.email ?? sent[0].form.username, sent[0].form.password], [EMAIL, PASSWORD]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
