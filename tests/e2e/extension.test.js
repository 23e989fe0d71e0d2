// The extension backend (issue 15): the real Lemmascope extension in real headless Chromium
// (--load-extension), the real lscope binary, the official MCP client. What the cross-backend
// suites cannot show runs here: the agent's own tab group beside a user's tab, faults (the user
// closes the agent's tab, the extension's service worker is stopped, the extension is reloaded,
// the browser quits), and the handshake's refusals (a page's script, a foreign extension, a
// wrong token). The browser is reached beside lscope through its DevTools port, acting as the
// user or the browser would.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { lscopeBin, text, runLscope } from './lib/lscope.js';
import { startFixtureServer } from './lib/fixture_server.js';
import { cdpConnect, handshake } from './lib/cdp_raw.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const extensionDir = path.resolve(here, '../../transports/extension/chrome');

// The extension's id as Chromium derives it from the manifest's key (computed here on its own,
// to check lscope's derivation).
const manifest = JSON.parse(fs.readFileSync(path.join(extensionDir, 'manifest.json'), 'utf8'));
const extensionId = crypto.createHash('sha256').update(Buffer.from(manifest.key, 'base64')).digest('hex')
  .slice(0, 32).replace(/[0-9a-f]/g, (c) => String.fromCharCode(97 + parseInt(c, 16)));

async function freePort() {
  const s = net.createServer();
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}

// lscope over stdio with the official client; no backend preset from LSCOPE_BACKEND.
async function start(args, env = {}) {
  const transport = new StdioClientTransport({ command: lscopeBin, args, env: { ...process.env, ...env }, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d) => { stderr += d; });
  const client = new Client({ name: 'lemmascope-e2e-extension', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr, pid: transport.pid };
}

async function until(what, check, ms = 20000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setImmediate(r));
  }
}

describe('the extension backend in a browser lscope launched (--extension-launch)', () => {
  let fixtures;
  let lscope;
  let devtools;  // the browser, as the user and the browser itself act on it
  let devtoolsPort;
  const call = (name, args = {}) => lscope.client.callTool({ name, arguments: args });
  const ok = async (name, args = {}) => {
    const r = await call(name, args);
    assert.equal(r.isError, false, `${name} ${JSON.stringify(args)} failed:\n${text(r)}`);
    return text(r);
  };
  const targets = async () => (await devtools.send('Target.getTargets')).targetInfos;
  // Evaluates in the extension's service worker (what chrome://extensions and the popup see).
  const inWorker = async (expression) => {
    const sw = await until('the extension service worker', async () =>
      (await targets()).find((t) => t.type === 'service_worker' && t.url.startsWith(`chrome-extension://${extensionId}/`)));
    const { sessionId } = await devtools.send('Target.attachToTarget', { targetId: sw.targetId, flatten: true });
    try {
      const r = await devtools.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }, sessionId);
      return r.result.value;
    } finally {
      await devtools.send('Target.detachFromTarget', { sessionId }).catch(() => {});
    }
  };
  const connectDevtools = async () => {
    const version = await until('the browser DevTools endpoint', async () => {
      const r = await fetch(`http://127.0.0.1:${devtoolsPort}/json/version`).catch(() => null);
      return r && r.ok ? r.json() : null;
    });
    devtools = await cdpConnect(version.webSocketDebuggerUrl);
  };

  before(async () => {
    fixtures = await startFixtureServer();
    devtoolsPort = await freePort();
    lscope = await start(['--backend', 'extension', '--extension-launch', '--extension-port', '0',
                          `--browser-arg=--remote-debugging-port=${devtoolsPort}`]);
    await ok('goto', { url: `${fixtures.base}/login.html` });
    await connectDevtools();
  });
  after(async () => {
    devtools?.close();
    await lscope?.client.close();
    await fixtures?.close();
  });

  it('says which extension it drives; the agent works in a tab group of its own and never lists the user\'s tabs', async () => {
    // A tab of the user's, opened beside the agent's.
    const { targetId: userTab } = await devtools.send('Target.createTarget', { url: `${fixtures.base}/article.html` });
    const r = await call('goto', { url: `${fixtures.base}/search.html` });
    assert.equal(r.isError, false, text(r));
    const tabs = await ok('tabs');
    assert.match(tabs, /search\.html/);
    assert.doesNotMatch(tabs, /article\.html/, 'the user\'s tab is not the agent\'s');
    const groups = JSON.parse(await inWorker(`(async () => {
      const tabs = await chrome.tabs.query({});
      const out = [];
      for (const t of tabs) {
        const g = t.groupId >= 0 ? await chrome.tabGroups.get(t.groupId) : null;
        out.push({ url: t.url, group: g && g.title });
      }
      return JSON.stringify(out);
    })()`));
    assert.equal(groups.find((t) => t.url.endsWith('/search.html'))?.group, 'Lemmascope');
    assert.equal(groups.find((t) => t.url.endsWith('/article.html'))?.group, null);
    // The user's tab was not touched: still where the user left it, no debugger on it.
    const user = (await targets()).find((t) => t.targetId === userTab);
    assert.match(user.url, /article\.html$/);
    await devtools.send('Target.closeTarget', { targetId: userTab });
  });

  it('the user closes the agent\'s tab: a clear error, then the next goto opens a fresh one', async () => {
    await ok('goto', { url: `${fixtures.base}/dashboard.html` });
    const agentTab = (await targets()).find((t) => t.type === 'page' && t.url.endsWith('/dashboard.html'));
    await devtools.send('Target.closeTarget', { targetId: agentTab.targetId });
    await until('the tab to close', async () => !(await targets()).some((t) => t.targetId === agentTab.targetId));
    const r = await call('click', { target: 'Settings' });
    assert.equal(r.isError, true, text(r));
    assert.match(text(r), /no open tab|tab was closed|tab is gone/i);
    assert.match(await ok('goto', { url: `${fixtures.base}/dashboard.html` }), /Welcome back|dashboard/i);
    const tabs = (await ok('tabs')).split('\n').filter((l) => /^\[\d+\]/.test(l));
    assert.equal(tabs.length, 1);
    assert.match(tabs[0], /dashboard\.html.*\(active\)/);
  });

  it('the extension\'s service worker is stopped: it comes back and the session goes on in the same tab', async () => {
    await ok('goto', { url: `${fixtures.base}/login.html` });
    await ok('type', { target: 'Email', text: 'ada@example.com' });
    const sw = (await targets()).find((t) => t.type === 'service_worker' && t.url.includes(extensionId));
    await devtools.send('Target.closeTarget', { targetId: sw.targetId });
    const stopped = Date.now();
    let r;
    for (;;) {
      const o = await call('observe');
      r = text(o);
      if (!o.isError) break;
      // Meanwhile every answer says what happened, and how it ends.
      assert.match(r, /the extension disconnected|extension is not connected/, r);
      assert.ok(Date.now() - stopped < 60000, 'the extension did not come back within a minute');
    }
    console.log(`# the extension was back after ${Date.now() - stopped} ms`);
    assert.match(r, /login\.html/);
    assert.match(r, /ada@example\.com/, 'the same tab, with what was typed into it');
  });
});
