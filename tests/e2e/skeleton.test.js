// The walking skeleton end to end: the official MCP client drives the real lscope binary over
// stdio, which drives real headless Chromium on a local fixture page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { connect, text, alive, waitExit, runLscope, startWithBrowser, goneAfterKill } from './lib/lscope.js';
import { startFixtureServer, accounts } from './lib/fixture_server.js';

let site;
before(async () => { site = await startFixtureServer(); });
after(async () => { await site.close(); });

test('an MCP client lists the tools and signs in on a real page', async () => {
  const { client } = await connect();
  try {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const n of ['goto', 'observe', 'click', 'type', 'text', 'run']) assert.ok(names.includes(n), n);

    const page = await client.callTool({ name: 'goto', arguments: { url: `${site.base}/login.html` } });
    assert.equal(page.isError, false, text(page));
    assert.match(text(page), /@ 127\.0\.0\.1:\d+\/login\.html "Sign in · Fixture"/);

    const obs = text(await client.callTool({ name: 'observe', arguments: {} }));
    assert.match(obs, /\[1\] input\/email "Email" \{required\}/);
    assert.match(obs, /\[2\] input\/password "Password" \{required\}/);
    assert.match(obs, /\[4\] button\/submit "Sign in" \{primary\}/);
    assert.match(obs, /- login_form: email=\[1\] password=\[2\]/);

    const email = 'ada@example.com';
    const password = accounts[email];
    const typedEmail = await client.callTool({ name: 'type', arguments: { target: 'email', text: email } });
    assert.equal(typedEmail.isError, false, text(typedEmail));
    assert.match(text(typedEmail), /value "ada@example\.com"/);

    const typedPw = await client.callTool({ name: 'type', arguments: { target: 2, text: password } });
    assert.equal(typedPw.isError, false, text(typedPw));
    assert.ok(!text(typedPw).includes(password), 'the password never comes back');
    assert.match(text(typedPw), /••••••••/);

    const clicked = await client.callTool({ name: 'click', arguments: { target: 'Sign in' } });
    assert.equal(clicked.isError, false, text(clicked));
    assert.match(text(clicked), /~ url: \/login\.html → \/dashboard\.html/);
    assert.match(text(clicked), /@ 127\.0\.0\.1:\d+\/dashboard\.html "Dashboard · Fixture"/);
    assert.equal(clicked.structuredContent.ok, true);

    // What the page received is exactly what was typed.
    const posts = site.posts('/login');
    assert.equal(posts.length, 1);
    assert.equal(posts[0].form.email, email);
    assert.equal(posts[0].form.password, password);

    const body = text(await client.callTool({ name: 'text', arguments: {} }));
    assert.match(body, /Welcome back/);
  } finally {
    await client.close();
  }
});

test('a tool that runs and fails is an isError result with a hint; the server keeps serving', async () => {
  const { client } = await connect();
  try {
    await client.callTool({ name: 'goto', arguments: { url: `${site.base}/login.html` } });
    const missing = await client.callTool({ name: 'click', arguments: { target: 'Create account' } });
    assert.equal(missing.isError, true);
    assert.match(text(missing), /^error click: no element matches Create account/);
    assert.match(text(missing), /# hint\nclosest: /);
    const ok = await client.callTool({ name: 'click', arguments: { target: '"Forgot password?"' } });
    assert.equal(ok.isError, false, text(ok));
    assert.match(text(ok), /forgot\.html/);
  } finally {
    await client.close();
  }
});

test('no orphan browser processes after SIGKILL: the watchdog ends them and removes the profile', async () => {
  // SIGKILL reaches no handler of lscope's: what it started must end without its help.
  const { child, browser, profile } = await startWithBrowser(`${site.base}/login.html`);
  assert.ok(browser.some((p) => /chromium/.test(p.args)), 'Chromium was started');
  child.kill('SIGKILL');
  assert.equal((await waitExit(child)).signal, 'SIGKILL');
  await goneAfterKill(browser, profile);
});

for (const how of ['EOF', 'SIGTERM', 'SIGINT']) {
  test(`no orphan browser processes after ${how}`, async () => {
    const { child, lines, browser, profile } = await startWithBrowser(`${site.base}/login.html`);
    assert.ok(browser.length > 0, 'Chromium was started');
    assert.ok(profile && fs.existsSync(profile), 'a temporary profile exists while running');
    if (how === 'EOF') child.stdin.end();
    else child.kill(how);
    const { code, signal } = await waitExit(child);
    assert.equal(signal, null, 'exits by itself, not killed by the signal');
    assert.equal(code, how === 'EOF' ? 0 : how === 'SIGTERM' ? 143 : 130);
    for (const p of browser) assert.equal(alive(p.pid), false, `pid ${p.pid} (${p.args.slice(0, 60)}) is gone`);
    assert.equal(fs.existsSync(profile), false, 'the profile directory is removed');
    // stdout carried only JSON-RPC.
    for (const l of lines) assert.equal(JSON.parse(l).jsonrpc, '2.0');
  });
}

test('no Chromium found: a clear error naming what was searched and how to install it', async () => {
  const r = await runLscope(['run', '-'], {
    input: 'goto example.com\n',
    env: { ...process.env, PATH: '/nonexistent' },
  });
  assert.notEqual(r.status, 0);
  assert.match(r.stdout, /error goto: no Chromium found: searched chromium, chromium-browser, google-chrome/);
  assert.match(r.stdout, /apt install chromium/);
});

test('lscope run: OIL lines through the same engine, backend options before or after the subcommand', async () => {
  const script = [
    `goto ${site.base}/login.html`,
    'type email "grace@example.com"',
    'click "Remember me"',
    'text "Forgot password?"',
  ].join('\n');
  for (const args of [['--timeout', '20', 'run', '-'], ['run', '-', '--browser', 'chromium', '--timeout', '20']]) {
    const r = await runLscope(args, { input: script });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^ok goto 127\.0\.0\.1:\d+\/login\.html/);
    assert.match(r.stdout, /ok type \[1\] "Email" "grace@example\.com"/);
    assert.match(r.stdout, /~ \[3\] checkbox "Remember me": checked/);
    assert.match(r.stdout, /ok text\n\nForgot password\?/);
  }
  const failing = await runLscope(['run', '-'], { input: `goto ${site.base}/login.html\nclick "Nope"\nurl\n` });
  assert.equal(failing.status, 1);
  assert.match(failing.stdout, /error click: no element matches "Nope"/);
  assert.ok(!failing.stdout.includes('ok url'), 'stops at the first failure');
  const syntax = await runLscope(['run', '-'], { input: 'clik 5\n' });
  assert.equal(syntax.status, 1);
  assert.match(syntax.stdout, /error clik: line 1: unknown command 'clik' \(column 1\)\n\n# hint\ndid you mean: click/);
});
