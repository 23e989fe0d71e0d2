// Attaching instead of launching: --cdp-endpoint ws://… and --cdp-url http://host:port drive a
// Chromium someone else started, and leave it running (and tidy) on exit.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { runLscope, alive } from './lib/lscope.js';
import { startFixtureServer } from './lib/fixture_server.js';
import { startChromium } from './lib/chromium.js';

let site;
let chromium;
before(async () => {
  site = await startFixtureServer();
  chromium = await startChromium();
});
after(async () => {
  await chromium.close();
  await site.close();
});

const pages = async () => (await (await fetch(`${chromium.httpUrl}/json/list`)).json()).filter((t) => t.type === 'page');

for (const how of ['--cdp-endpoint', '--cdp-url']) {
  test(`${how} drives a running Chromium and leaves it running`, async () => {
    const before = (await pages()).length;
    const arg = how === '--cdp-endpoint' ? chromium.wsUrl : chromium.httpUrl;
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
