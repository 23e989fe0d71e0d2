// The MCP front end with real clients: the official SDK over Streamable HTTP (and stdio),
// several isolated sessions at once, progress, cancellation, logging, output schemas, and
// malformed input that never takes the server down.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import Ajv2020 from 'ajv/dist/2020.js';
import { lscopeBin, connect, text, waitExit } from './lib/lscope.js';
import { startHttpServer, httpClient } from './lib/http_server.js';
import { startFixtureServer } from './lib/fixture_server.js';

let site;
let server;
before(async () => {
  site = await startFixtureServer();
  server = await startHttpServer(['--tools', 'all']);
});
after(async () => {
  await server.stop();
  await site.close();
});

describe('Streamable HTTP with the official client', () => {
  it('several sessions at once, each with its own browser context', async () => {
    const sessions = await Promise.all([0, 1, 2].map(() => httpClient(server.url)));
    try {
      const ids = new Set(sessions.map((s) => s.transport.sessionId));
      assert.equal(ids.size, 3, 'each session has its own id');
      await Promise.all(sessions.map(async ({ client }, i) => {
        const r = await client.callTool({ name: 'goto', arguments: { url: `${site.base}/login.html` } });
        assert.equal(r.isError, false, text(r));
        const t = await client.callTool({ name: 'type', arguments: { target: 'email', text: `user${i}@example.com` } });
        assert.match(text(t), new RegExp(`value "user${i}@example\\.com"`));
      }));
      for (const [i, { client }] of sessions.entries()) {
        const obs = text(await client.callTool({ name: 'observe', arguments: {} }));
        assert.match(obs, new RegExp(`= "user${i}@example\\.com"`), 'a session sees only its own typing');
      }
      // Cookies are per session: accepting the banner in one leaves it up in another.
      const [a, b] = sessions;
      await a.client.callTool({ name: 'goto', arguments: { url: `${site.base}/consent-custom.html` } });
      await a.client.callTool({ name: 'click', arguments: { target: 'Accept all' } });
      await a.client.callTool({ name: 'goto', arguments: { url: `${site.base}/consent-custom.html` } });
      assert.ok(!/cookie_banner/.test(text(await a.client.callTool({ name: 'observe', arguments: {} }))));
      await b.client.callTool({ name: 'goto', arguments: { url: `${site.base}/consent-custom.html` } });
      assert.match(text(await b.client.callTool({ name: 'observe', arguments: {} })), /cookie_banner/);
    } finally {
      await Promise.all(sessions.map(async (s) => { await s.transport.terminateSession(); await s.client.close(); }));
    }
  });

  it('progress arrives during multi-step work: monotonic, with the current step', async () => {
    const { client, transport } = await httpClient(server.url);
    try {
      const progress = [];
      const script = [`goto ${site.base}/login.html`, 'type email a@b.c', 'type password secret-pw', 'click "Remember me"', 'url'].join('\n');
      const r = await client.callTool({ name: 'run', arguments: { script } }, undefined, {
        onprogress: (p) => progress.push(p),
      });
      assert.equal(r.isError, false, text(r));
      assert.ok(progress.length >= 2, `progress notifications: ${JSON.stringify(progress)}`);
      for (let i = 1; i < progress.length; i++) assert.ok(progress[i].progress > progress[i - 1].progress);
      assert.ok(progress.every((p) => /^line \d+: \w+$|starting the browser|loading|scanning/.test(p.message)), JSON.stringify(progress));
      assert.ok(!JSON.stringify(progress).includes('secret-pw'), 'progress never carries arguments');
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  });

  it('cancellation stops a running call; no response comes; the next call works at once', async () => {
    const { client, transport } = await httpClient(server.url);
    try {
      await client.callTool({ name: 'goto', arguments: { url: `${site.base}/login.html` } });
      const controller = new AbortController();
      const t0 = Date.now();
      const waiting = client.callTool({ name: 'wait', arguments: { condition: 'visible', target: '"Never shown"', timeout: '20s' } },
        undefined, { signal: controller.signal });
      setTimeout(() => controller.abort('changed my mind'), 500);
      await assert.rejects(waiting);
      const next = await client.callTool({ name: 'url', arguments: {} });
      assert.equal(next.isError, false);
      assert.ok(Date.now() - t0 < 5000, `the session was free again after ${Date.now() - t0} ms`);
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  });

  it('logging/setLevel filters notifications/message', async () => {
    const { client, transport } = await httpClient(server.url);
    try {
      const logs = [];
      client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => logs.push(n.params));
      await client.setLoggingLevel('info');
      // A GET stream carries messages that belong to no request; tool-call logs ride the call's stream.
      const r = await client.callTool({ name: 'goto', arguments: { url: `${site.base}/login.html` } });
      assert.equal(r.isError, false);
      assert.ok(logs.some((l) => l.level === 'info' && /browser ready/.test(l.data)), JSON.stringify(logs));
      await client.setLoggingLevel('error');
      logs.length = 0;
      await client.callTool({ name: 'goto', arguments: { url: `${site.base}/dashboard.html` } });
      assert.equal(logs.filter((l) => l.level === 'info').length, 0);
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  });

  it('structuredContent validates against every tool\'s outputSchema', async () => {
    const { client, transport } = await httpClient(server.url);
    try {
      const { tools } = await client.listTools();
      const ajv = new Ajv2020({ strict: false });
      const args = {
        goto: { url: `${site.base}/signup.html` }, back: {}, forward: {}, refresh: {}, url: {}, observe: {}, text: {},
        title: {}, screenshot: {}, click: { target: 'Pro' }, type: { target: 'First name', text: 'Ada' },
        clear: { target: 'First name' }, press: { key: 'Tab' }, select: { target: 'Country', option: 'France' },
        check: { target: 'Send me the newsletter' }, uncheck: { target: 'Send me the newsletter' },
        hover: { target: 'Email' }, drag: { target: 'Pro', to: 'Email' }, focus: { target: 'Email' }, scroll: { direction: 'down' },
        upload: { target: 'Email', path: '/etc/hostname' }, tabs: {}, wait: { condition: 'load' },
        run: { script: 'url\ntitle' },
        intent: { name: 'scroll_to', params: { target: 'Email' } }, intents: {}, config: {},
        define: { definition: 'intent: probe\nversion: 1\nsteps: [{ action: observe }]' }, undefine: { name: 'probe' },
        login: { username: 'a@b.c', password: 'x', no_submit: true }, logout: { wait: '200ms' },
        search: { query: 'x', wait: '200ms' }, accept_cookies: { wait: '100ms' }, dismiss_popups: {},
        fill_form: { data: { first_name: 'Ada' } }, submit_form: { wait: '500ms' }, scroll_to: { target: 'Email' },
        extract: { kind: 'links' }, dismiss: { target: 'popup', wait: '100ms' }, submit: { wait: '500ms' },
        export: { name: 'next_page', to: path.join(os.tmpdir(), `lscope-http-export-${process.pid}.yaml`) },
        pack: { action: 'load', name: 'github.com' },
        do: { sentence: 'fill the form with {"First name": "Ada"}', dry_run: true },
        // The learner's (off over HTTP: each answers that it is off, in the envelope).
        accept: { name: 'probe' }, reject: { name: 'probe' }, refine: { name: 'probe' }, forget: { domain: 'example.com' },
      };
      // Shipped YAML intents take their defaults; a failure still answers with the envelope. What
      // has a deadline gets a short one: most of these find nothing to act on in signup.html, and
      // the envelope of a timed-out call is what is checked then.
      for (const t of tools) {
        if (!args[t.name] && !(t.inputSchema.required || []).length) args[t.name] = {};
        if (!args[t.name] && t.name === 'search_and_open_first') args[t.name] = { query: 'x' };
        if (t.inputSchema.properties?.timeout && args[t.name] && !('timeout' in args[t.name])) args[t.name].timeout = '1s';
      }
      await client.callTool({ name: 'goto', arguments: args.goto });
      for (const tool of tools) {
        assert.ok(tool.outputSchema, `${tool.name} has an outputSchema`);
        assert.ok(args[tool.name], `the test knows how to call ${tool.name}`);
        const validate = ajv.compile(tool.outputSchema);
        const r = await client.callTool({ name: tool.name, arguments: args[tool.name] });
        assert.ok(r.structuredContent, `${tool.name} returns structuredContent`);
        assert.ok(validate(r.structuredContent), `${tool.name}: ${ajv.errorsText(validate.errors)}`);
        await client.callTool({ name: 'goto', arguments: args.goto });
      }
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  });

  it('argument validation names the field and why, before anything runs', async () => {
    const { client, transport } = await httpClient(server.url);
    try {
      const r = await client.callTool({ name: 'click', arguments: { target: 3, double: 'twice' } });
      assert.equal(r.isError, true);
      assert.match(text(r), /^error click: 'double' must be true or false/);
      const miss = await client.callTool({ name: 'type', arguments: { target: 1 } });
      assert.match(text(miss), /^error type: type needs 'text'/);
      await assert.rejects(client.callTool({ name: 'fly', arguments: {} }), /Unknown tool: fly/);
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  });
});

// fetch() may not set Host; node:http can.
function rawStatus(url, body, headers) {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST',
      headers: { 'content-type': 'application/json', ...headers } }, (res) => { res.resume(); resolve(res.statusCode); });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('the transport rules, with raw requests', () => {
  const post = (body, headers = {}) => fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

  it('session ids, 202, 400, 404, 403 and DELETE', async () => {
    const r = await post(init);
    assert.equal(r.status, 200);
    const sid = r.headers.get('mcp-session-id');
    assert.match(sid, /^[0-9a-f]{32}$/);
    const h = { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
    assert.equal((await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, h)).status, 202);
    assert.equal((await post({ jsonrpc: '2.0', id: 2, method: 'ping' }, h)).status, 200);
    assert.equal((await post({ jsonrpc: '2.0', id: 3, method: 'ping' })).status, 400, 'no session id');
    assert.equal((await post({ jsonrpc: '2.0', id: 3, method: 'ping' }, { 'mcp-session-id': 'f'.repeat(32) })).status, 404);
    assert.equal((await post({ jsonrpc: '2.0', id: 4, method: 'ping' }, { ...h, 'mcp-protocol-version': '1999-01-01' })).status, 400);
    assert.equal((await post('{not json', h)).status, 400);
    // Nested 100,000 levels deep (the copy of such a value overflowed the stack): refused.
    const deep = await post(`{"jsonrpc":"2.0","id":7,"method":"ping","params":${'{"a":'.repeat(100000)}1${'}'.repeat(100000)}}`, h);
    assert.equal(deep.status, 400);
    assert.match(JSON.stringify(await deep.json()), /nested more than 128 levels deep/);
    assert.equal((await post({ jsonrpc: '2.0', id: 8, method: 'ping' }, h)).status, 200, 'the session goes on');
    assert.equal((await post({ jsonrpc: '2.0', id: 5, method: 'ping' }, { ...h, origin: 'http://evil.example' })).status, 403);
    assert.equal(await rawStatus(server.url, init, { host: 'evil.example:80' }), 403, 'DNS rebinding: foreign Host');
    assert.equal((await fetch(server.url, { method: 'PUT' })).status, 405);
    assert.equal((await fetch(server.url, { method: 'DELETE', headers: h })).status, 200);
    assert.equal((await post({ jsonrpc: '2.0', id: 6, method: 'ping' }, h)).status, 404, 'ended sessions are gone');
    // ... and the server is still fine.
    assert.equal((await post(init)).status, 200);
  });

  it('a connection kept open between calls is still served after the client idled on it for seconds', async () => {
    // A client decides to reuse its idle connection before it has read that the server closed
    // it; a client starved of the CPU for a few seconds (a loaded machine) does exactly that, and
    // its call failed ("fetch failed": the sanitizers' HTTP suite, under load). The server keeps an
    // idle connection longer than clients do theirs.
    const u = new URL(server.url);
    const sock = net.connect(Number(u.port), u.hostname);
    await new Promise((resolve, reject) => { sock.once('connect', resolve); sock.once('error', reject); });
    let got = '';
    sock.on('data', (d) => { got += d; });
    const closed = new Promise((resolve) => sock.once('close', resolve));
    const exchange = async (body) => {
      got = '';
      const text = JSON.stringify(body);
      sock.write(`POST ${u.pathname} HTTP/1.1\r\nHost: ${u.host}\r\nContent-Type: application/json\r\n` +
        `Accept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`);
      // The answer's status line, or the connection's end.
      const status = await Promise.race([
        new Promise((resolve) => { const on = () => { const m = /^HTTP\/1\.1 (\d+)/.exec(got); if (m) { sock.off('data', on); resolve(Number(m[1])); } }; sock.on('data', on); }),
        closed.then(() => 'closed'),
      ]);
      return status;
    };
    assert.equal(await exchange(init), 200);
    // Idle as long as a busy client may (longer than the 5 s some servers keep a connection): the
    // wait is for the server closing it, which ends it at once; 7 s of idling is the condition.
    let idle;
    const kept = await Promise.race([closed.then(() => false), new Promise((resolve) => { idle = setTimeout(resolve, 7000, true); })]);
    clearTimeout(idle);
    assert.ok(kept, 'the server closed the idle connection');
    assert.equal(await exchange({ ...init, id: 2 }), 200, 'the connection is still open and served');
    sock.destroy();
  });

  it('a non-loopback bind needs --auth-token; with it, requests need the bearer token', async () => {
    const refused = spawn(lscopeBin, ['serve', '--http', '0.0.0.0:0'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    refused.stderr.on('data', (d) => { err += d; });
    const { code } = await waitExit(refused);
    assert.equal(code, 2);
    assert.match(err, /refusing to listen on 0\.0\.0\.0 without --auth-token/);

    const guarded = await startHttpServer(['--auth-token', 's3cret']);
    try {
      const noToken = await fetch(guarded.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(init) });
      assert.equal(noToken.status, 401);
      const { client, transport } = await httpClient(guarded.url, { requestInit: { headers: { Authorization: 'Bearer s3cret' } } });
      assert.deepEqual(await client.ping(), {});
      await transport.terminateSession();
      await client.close();
    } finally {
      await guarded.stop();
    }
  });
});

describe('stdio', () => {
  it('garbage on stdin never kills the server; cancellation and progress work there too', async () => {
    const { client, transport } = await connect();
    try {
      // Raw garbage straight onto the server's stdin, between real requests.
      transport._process.stdin.write('this is not json\n{"jsonrpc":"2.0","id":"x"}\n[]\n');
      assert.deepEqual(await client.ping(), {});
      // Nested 100,000 levels deep, as a message and inside an OIL line's JSON argument (copies of
      // such values overflowed the stack: the server ended).
      const deep = `${'{"a":'.repeat(100000)}1${'}'.repeat(100000)}`;
      transport._process.stdin.write(`{"jsonrpc":"2.0","id":"deep","method":"ping","params":${deep}}\n`);
      const oil = await client.callTool({ name: 'run', arguments: { script: `fill_form ${deep}` } });
      assert.equal(oil.isError, true);
      assert.match(text(oil), /must be a JSON object/);
      assert.deepEqual(await client.ping(), {});
      // slow.html keeps a request open for 10 s: network idle cannot come sooner.
      await client.callTool({ name: 'goto', arguments: { url: `${site.base}/slow.html?ms=10000` } });
      const controller = new AbortController();
      const t0 = Date.now();
      const pending = client.callTool({ name: 'wait', arguments: { condition: 'idle', timeout: '20s' } },
        undefined, { signal: controller.signal });
      setTimeout(() => controller.abort(), 500);
      await assert.rejects(pending);
      assert.equal((await client.callTool({ name: 'title', arguments: {} })).isError, false);
      assert.ok(Date.now() - t0 < 5000, `free again after ${Date.now() - t0} ms`);
    } finally {
      await client.close();
    }
  });
});
