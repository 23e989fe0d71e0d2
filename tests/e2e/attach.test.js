// Attaching instead of launching: --cdp-endpoint ws://… and --cdp-url http://host:port drive a
// Chromium someone else started, and leave it running (and tidy) on exit.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runLscope, alive } from './lib/lscope.js';
import { startFixtureServer } from './lib/fixture_server.js';

let site;
let chromium;
let profile;
let wsUrl;
before(async () => {
  site = await startFixtureServer();
  profile = fs.mkdtempSync(path.join(os.tmpdir(), 'lscope-attach-'));
  chromium = spawn('chromium', ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    `--user-data-dir=${profile}`, '--remote-debugging-port=0', 'about:blank'],
  // Its own process group, so the whole browser (zygotes, renderers) can be ended at once.
  { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  wsUrl = await new Promise((resolve, reject) => {
    let err = '';
    chromium.stderr.on('data', (d) => {
      err += d;
      const m = err.match(/DevTools listening on (ws:\/\/\S+)/);
      if (m) {
        chromium.stderr.destroy();  // helpers keep the pipe open; do not let it hold the test
        resolve(m[1]);
      }
    });
    chromium.on('exit', () => reject(new Error(`chromium exited: ${err}`)));
  });
});
after(async () => {
  const exited = new Promise((r) => chromium.once('exit', r));
  process.kill(-chromium.pid, 'SIGKILL');
  await exited;
  // Helpers of the group may still be closing files in the profile for a moment.
  fs.rmSync(profile, { recursive: true, force: true, maxRetries: 10 });
  await site.close();
});

const httpBase = () => `http://${new URL(wsUrl).host}`;
const pages = async () => (await (await fetch(`${httpBase()}/json/list`)).json()).filter((t) => t.type === 'page');

for (const how of ['--cdp-endpoint', '--cdp-url']) {
  test(`${how} drives a running Chromium and leaves it running`, async () => {
    const before = (await pages()).length;
    const arg = how === '--cdp-endpoint' ? wsUrl : httpBase();
    const r = await runLscope([how, arg, 'run', '-'], { input: `goto ${site.base}/login.html\ntype email a@b.c\ntitle\n` });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /ok title "Sign in · Fixture"/);
    assert.ok(alive(chromium.pid), 'the browser we did not start is still running');
    assert.equal((await pages()).length, before, 'the session closed its own tabs and context');
  });
}

test('an unreachable endpoint is a clear error', async () => {
  const r = await runLscope(['--cdp-url', 'http://127.0.0.1:1', 'run', '-'], { input: 'goto example.com\n' });
  assert.equal(r.status, 1);
  assert.match(r.stdout, /error goto: --cdp-url http:\/\/127\.0\.0\.1:1: nothing answers at 127\.0\.0\.1:1 \(GET http:\/\/127\.0\.0\.1:1\/json\/version: connection refused/);
});
