// The WebDriver backend beyond the shared conformance scenarios: several MCP sessions through a
// real Selenium Grid (hub + two nodes), faults (the driver dies, the remote end deletes the
// session, the remote end is unreachable) and the seed's command names.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { connect, text, descendants, alive, runLscope, lscopeBin, startWithBrowser, waitExit, goneAfterKill } from './lib/lscope.js';
import { startHttpServer, httpClient } from './lib/http_server.js';
import { startFixtureServer } from './lib/fixture_server.js';
import { startGrid, wd } from './lib/grid.js';

let site;
before(async () => { site = await startFixtureServer(); });
after(async () => { await site.close(); });

const closedPort = () => new Promise((resolve) => {
  const srv = net.createServer().listen(0, '127.0.0.1', () => {
    const { port } = srv.address();
    srv.close(() => resolve(port));
  });
});

const callOk = async (client, name, args = {}) => {
  const r = await client.callTool({ name, arguments: args });
  assert.equal(r.isError, false, `${name} ${JSON.stringify(args)} failed:\n${text(r)}`);
  return text(r);
};

describe('Selenium Grid: a hub with two nodes', () => {
  let grid;
  let server;
  before(async () => {
    grid = await startGrid({ nodes: 2, maxSessions: 1 });
    server = await startHttpServer(['--backend', 'webdriver', '--webdriver-url', grid.url,
      '--browser', '/usr/bin/chromium']);
  });
  after(async () => {
    await server?.stop();
    await grid?.stop();
  });

  it('serves several MCP sessions, spread across the nodes, each isolated', async () => {
    const sessions = await Promise.all([0, 1].map(() => httpClient(server.url)));
    try {
      // Both load the shop; its cookie banner shows until a choice is stored in a cookie.
      await Promise.all(sessions.map(({ client }) => callOk(client, 'goto', { url: `${site.base}/consent-custom.html` })));
      const spread = await grid.sessionsByNode();
      const counts = Object.values(spread).map((ids) => ids.length).sort();
      assert.deepEqual(counts, [1, 1], `one WebDriver session per node: ${JSON.stringify(spread)}`);
      // The first accepts cookies; the second, on the other node, still gets asked.
      const [a, b] = sessions.map((s) => s.client);
      await callOk(a, 'click', { target: 'Accept all' });
      await callOk(a, 'refresh');
      assert.doesNotMatch(await callOk(a, 'observe'), /Accept all/);
      await callOk(b, 'refresh');
      assert.match(await callOk(b, 'observe'), /button "Accept all"/);
    } finally {
      for (const { transport } of sessions) await transport.terminateSession().catch(() => {});
      for (const { client } of sessions) await client.close();
    }
    // Ending the MCP sessions ends their WebDriver sessions: the grid is free again.
    await waitUntil(async () => Object.values(await grid.sessionsByNode()).every((ids) => ids.length === 0),
      'the grid frees both slots');
  });

  it('a session the remote end deleted: a clear error, then a fresh session', async () => {
    const { client } = await httpClient(server.url);
    try {
      await callOk(client, 'goto', { url: `${site.base}/login.html` });
      const [id] = Object.values(await grid.sessionsByNode()).flat();
      assert.ok(id, 'the grid lists the session');
      const del = await wd(`${grid.url}/session/${id}`, 'DELETE');
      assert.equal(del.status, 200);
      const lost = await client.callTool({ name: 'observe', arguments: {} });
      assert.equal(lost.isError, true, text(lost));
      assert.match(text(lost), /session/i);
      assert.match(text(lost), /# hint\n.*(new one|next command)/);
      // The server kept serving and the next call starts a new WebDriver session.
      const again = await callOk(client, 'goto', { url: `${site.base}/dashboard.html` });
      assert.match(again, /Dashboard · Fixture/);
    } finally {
      await client.close();
    }
  });
});

describe('faults', () => {
  it('the driver process dies: a clear error, the server keeps serving, the next call starts afresh', async () => {
    const { client, transport } = await connect(['--backend', 'webdriver']);
    try {
      await callOk(client, 'goto', { url: `${site.base}/login.html` });
      const driver = descendants(transport.pid).find((p) => /chromedriver/.test(p.args));
      assert.ok(driver, 'lscope started chromedriver');
      process.kill(driver.pid, 'SIGKILL');
      await waitUntil(() => !alive(driver.pid), 'chromedriver is gone');
      const lost = await client.callTool({ name: 'observe', arguments: {} });
      assert.equal(lost.isError, true, text(lost));
      assert.equal(lost.structuredContent.code, 'CONNECTION_ERROR');
      assert.match(text(lost), /# hint\n/);
      assert.ok((await client.listTools()).tools.length > 0, 'still serving');
      const again = await callOk(client, 'goto', { url: `${site.base}/dashboard.html` });
      assert.match(again, /Dashboard · Fixture/);
      const restarted = descendants(transport.pid).find((p) => /chromedriver/.test(p.args));
      assert.ok(restarted && restarted.pid !== driver.pid, 'a new chromedriver serves the new session');
    } finally {
      await client.close();
    }
  });

  it('an unreachable remote end: a clear error each time, and the server keeps serving', async () => {
    const port = await closedPort();
    const { client } = await connect(['--webdriver-url', `http://127.0.0.1:${port}`]);
    try {
      for (let i = 0; i < 2; i++) {
        const r = await client.callTool({ name: 'goto', arguments: { url: `${site.base}/login.html` } });
        assert.equal(r.isError, true);
        assert.equal(r.structuredContent.code, 'CONNECTION_ERROR');
        assert.match(text(r), new RegExp(`127\\.0\\.0\\.1:${port}`));
      }
      assert.ok((await client.listTools()).tools.length > 0, 'still serving');
    } finally {
      await client.close();
    }
  });

  it('WPE: the driver dies with its browser; the next call gets a new driver and browser', async () => {
    const { client, transport } = await connect(['--browser', 'wpe']);
    try {
      await callOk(client, 'goto', { url: `${site.base}/login.html` });
      const before = descendants(transport.pid);
      const driver = before.find((p) => /WPEWebDriver/.test(p.args));
      assert.ok(driver, 'lscope started WPEWebDriver');
      assert.ok(before.some((p) => /\bcog\b/.test(p.args)), 'and WPEWebDriver started cog');
      process.kill(driver.pid, 'SIGKILL');
      const lost = await client.callTool({ name: 'observe', arguments: {} });
      assert.equal(lost.isError, true, text(lost));
      // Dropping the dead session also ends the browser the driver left behind.
      await waitUntil(() => before.every((p) => !alive(p.pid)), 'the old driver and cog are gone');
      const again = await callOk(client, 'goto', { url: `${site.base}/dashboard.html` });
      assert.match(again, /Dashboard · Fixture/);
    } finally {
      await client.close();
    }
  });
});

describe('no orphans: drivers and browsers end with lscope', () => {
  const backends = { chromedriver: ['--backend', 'webdriver'], wpe: ['--browser', 'wpe'] };
  for (const [name, args] of Object.entries(backends)) {
    for (const how of ['EOF', 'SIGTERM']) {
      it(`${name}, after ${how}`, async () => {
        const { child, lines, browser, profile } = await startWithBrowser(`${site.base}/login.html`, args);
        assert.ok(browser.some((p) => /chromedriver|WPEWebDriver/.test(p.args)), 'a driver was started');
        assert.ok(browser.some((p) => /chromium|\bcog\b/.test(p.args)), 'and a browser');
        if (how === 'EOF') child.stdin.end();
        else child.kill(how);
        const { code, signal } = await waitExit(child);
        assert.equal(signal, null, 'exits by itself, not killed by the signal');
        assert.equal(code, how === 'EOF' ? 0 : 143);
        for (const p of browser) assert.equal(alive(p.pid), false, `pid ${p.pid} (${p.args.slice(0, 60)}) is gone`);
        if (profile) assert.equal(fs.existsSync(profile), false, `the browser's profile ${profile} is removed`);
        for (const l of lines) assert.equal(JSON.parse(l).jsonrpc, '2.0');
      });
    }
    it(`${name}, after SIGKILL: the driver and the browser it started end too`, async () => {
      // PR_SET_PDEATHSIG reaches only the driver; the browser it launched is ended by the watchdog.
      const { child, browser, profile } = await startWithBrowser(`${site.base}/login.html`, args);
      assert.ok(browser.some((p) => /chromium|\bcog\b/.test(p.args)), 'a browser was started');
      child.kill('SIGKILL');
      assert.equal((await waitExit(child)).signal, 'SIGKILL');
      await goneAfterKill(browser, profile);
    });
  }
});

describe('names and options', () => {
  const script = (url) => `goto ${url}\ntitle\n`;

  it('lscope-e drives WPE WebKit over WebDriver', async () => {
    const r = await runLscope(['run', '-', '--log-level', 'info'],
      { input: script(`${site.base}/login.html`), bin: path.join(path.dirname(lscopeBin), 'lscope-e') });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /ok title "Sign in · Fixture"/);
    assert.match(r.stderr, /webdriver session ready: webdriver cog /);
  });

  it('lscope-r is the extension backend: with no extension paired it says so, how to pair, and exits non-zero', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'lscope-r-home-'));
    try {
      const r = await runLscope(['run', '-', '--extension-port', '0', '--timeout', '2'], {
        input: script(`${site.base}/login.html`), env: { ...process.env, HOME: home },
        bin: path.join(path.dirname(lscopeBin), 'lscope-r') });
      assert.notEqual(r.status, 0);
      assert.match(r.stderr, /waiting for the Lemmascope extension \(chrome-extension:\/\/[a-p]{32}\) on 127\.0\.0\.1:\d+/);
      assert.match(r.stdout, /error goto: no Lemmascope extension is connected to 127\.0\.0\.1:\d+/);
      assert.match(r.stdout, /lscope pair/);
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  it('a missing driver binary is named, with how to install one', async () => {
    const r = await runLscope(['run', '-', '--webdriver-binary', 'no-such-driver'], { input: script(`${site.base}/login.html`) });
    assert.notEqual(r.status, 0);
    assert.match(r.stdout, /error goto: no WebDriver binary found: no-such-driver is not on PATH/);
    assert.match(r.stdout, /apt install chromium-driver/);
  });
});

// Polls a condition the test cannot be told about (a process exiting, the grid's bookkeeping).
async function waitUntil(check, what, ms = 15000) {
  const end = Date.now() + ms;
  for (;;) {
    if (await check()) return;
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
