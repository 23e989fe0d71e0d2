// lscope doctor (issue 20): on this machine every backend's needs are met; on a PATH without the
// drivers it names what is missing and the Debian package to install; without a browser the
// default backend fails and the exit code says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runLscope } from './lib/lscope.js';

// A PATH holding only Chromium's launcher and the few tools its shell script calls.
function pathWithout() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lscope-doctor-path-'));
  const tools = ['expr', 'grep', 'rm', 'sed', 'uname', 'cat', 'dirname', 'readlink'];
  for (const t of ['chromium', ...tools]) {
    const real = ['/usr/bin', '/bin'].map((d) => path.join(d, t)).find((p) => fs.existsSync(p));
    if (real) fs.symlinkSync(real, path.join(dir, t));
  }
  return dir;
}

const env = (extra) => ({ ...process.env, ...extra });

test('doctor: everything a backend needs is here', async () => {
  const r = await runLscope(['doctor']);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^cdp \(default\)\s+ok\s+Chromium \d+\.[\d.]+.* at \/usr\/bin\/chromium, starts headless$/m);
  assert.match(r.stdout, /^webdriver\s+ok\s+ChromeDriver \d+\.[\d.]+ at \/usr\/bin\/chromedriver$/m);
  assert.match(r.stdout, /^files\s+ok\s+/m);
  assert.match(r.stdout, /^learner\s+off\s+turned off/m, 'the tests run with the learner off');
  assert.match(r.stdout, /The default backend works\./);
});

test('doctor: the learner\'s store, before and after it holds something', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lscope-doctor-learner-'));
  try {
    const db = path.join(dir, 'sub', 'learner.db');
    let r = await runLscope(['--learn', 'on', '--learner-db', db, 'doctor']);
    assert.match(r.stdout, new RegExp(`^learner\\s+ok\\s+on; ${db.replace(/[.]/g, '\\.')} is made at the first command$`, 'm'));
    r = await runLscope(['--learn', 'on', '--learner-db', db, 'run', '-'], { input: 'goto about:blank\nforget --all\n' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    r = await runLscope(['--learn', 'on', '--learner-db', db, 'doctor']);
    assert.match(r.stdout, /^learner\s+ok\s+on; .*learner\.db: 0 commands on 0 sites, 0 proposed, 0 saved/m);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('doctor: a machine without chromedriver is told what to install', async () => {
  const dir = pathWithout();
  try {
    const r = await runLscope(['doctor'], { env: env({ PATH: dir }) });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^cdp \(default\)\s+ok\s+/m);
    assert.match(r.stdout, /^webdriver\s+missing\s+no chromedriver on PATH: sudo apt install chromium-driver/m);
    assert.match(r.stdout, /^wpe\s+missing\s+no WPEWebDriver and cog on PATH: sudo apt install wpewebkit-driver cog/m);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('doctor: no browser at all fails with what to install', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lscope-doctor-empty-'));
  try {
    const r = await runLscope(['doctor'], { env: env({ PATH: dir }) });
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /^cdp \(default\)\s+missing\s+no Chromium found.*sudo apt install chromium/m);
    assert.match(r.stdout, /The default backend does not work yet/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
