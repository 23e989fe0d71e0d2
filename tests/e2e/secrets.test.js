// Secrets never enter the model's context: the agent names them (secret:NAME) and the value
// comes from --secrets, the environment, or the user through URL-mode elicitation.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ElicitRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { connect, text } from './lib/lscope.js';
import { startFixtureServer, accounts } from './lib/fixture_server.js';

let site;
let dir;
before(async () => {
  site = await startFixtureServer();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lscope-secrets-'));
});
after(async () => {
  await site.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const password = accounts['ada@example.com'];

// Everything the client saw: results and notifications, as one string.
function recorder(client) {
  const seen = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => seen.push(JSON.stringify(n)));
  return { seen, add: (r) => { seen.push(JSON.stringify(r)); return r; } };
}

async function signIn(client, rec, passwordArg) {
  rec.add(await client.callTool({ name: 'goto', arguments: { url: `${site.base}/login.html` } }));
  rec.add(await client.callTool({ name: 'type', arguments: { target: 'email', text: 'ada@example.com' } }));
  const typed = rec.add(await client.callTool({ name: 'type', arguments: { target: 'password', text: passwordArg } }));
  if (typed.isError) return typed;
  return rec.add(await client.callTool({ name: 'click', arguments: { target: 'Sign in' } }));
}

test('--secrets FILE: the page gets the value, the client only ever sees the mask', async () => {
  const file = path.join(dir, 'secrets');
  fs.writeFileSync(file, `# test secrets\nfixture = "${password}"\n`, { mode: 0o600 });
  const { client } = await connect(['--secrets', file]);
  try {
    await client.setLoggingLevel('debug');
    const rec = recorder(client);
    const r = await signIn(client, rec, 'secret:fixture');
    assert.equal(r.isError, false, text(r));
    assert.match(text(r), /dashboard\.html/);
    assert.equal(site.posts('/login').at(-1).form.password, password);
    assert.ok(!rec.seen.join('\n').includes(password), 'the value never reached the client');
    assert.ok(rec.seen.join('\n').includes('••••••••'));
  } finally {
    await client.close();
  }
});

test('LSCOPE_SECRET_<NAME> from the environment; a missing secret says where to put it', async () => {
  const { client } = await connect([], { env: { LSCOPE_SECRET_FIXTURE_PW: password } });
  try {
    const rec = recorder(client);
    const r = await signIn(client, rec, 'secret:fixture_pw');
    assert.equal(r.isError, false, text(r));
    assert.ok(!rec.seen.join('\n').includes(password));
    const missing = await client.callTool({ name: 'type', arguments: { target: 'email', text: 'secret:nope' } });
    assert.equal(missing.isError, true);
    assert.match(text(missing), /^error type: secret 'nope' is not set\n\n# hint\nadd nope=\.\.\. to the --secrets file, or set LSCOPE_SECRET_NOPE/);
  } finally {
    await client.close();
  }
});

test('URL-mode elicitation: the user types the secret on a local page, never through the client', async () => {
  const { client } = await connect([], { capabilities: { elicitation: { url: {} } } });
  try {
    const rec = recorder(client);
    const asked = [];
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(req.params);
      assert.equal(req.params.mode, 'url');
      const url = new URL(req.params.url);
      assert.equal(url.hostname, '127.0.0.1');
      // The "user" opens the page and submits the form.
      const form = await (await fetch(url)).text();
      assert.match(form, /type="password"/);
      const token = form.match(/name="t" value="([0-9a-f]+)"/)[1];
      const sent = await fetch(`${url.origin}${url.pathname}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ t: token, value: password }).toString(),
      });
      assert.equal(sent.status, 200);
      // A used link is gone.
      assert.equal((await fetch(url)).status, 404);
      return { action: 'accept' };
    });
    const r = await signIn(client, rec, 'secret:portal');
    assert.equal(r.isError, false, text(r));
    assert.equal(asked.length, 1);
    assert.match(asked[0].message, /secret 'portal'/);
    assert.equal(site.posts('/login').at(-1).form.password, password);
    assert.ok(!rec.seen.join('\n').includes(password));
    // Asked once per session: the next use does not ask again.
    await signIn(client, rec, 'secret:portal');
    assert.equal(asked.length, 1);
  } finally {
    await client.close();
  }
});

test('a declined elicitation is an error the agent can act on', async () => {
  const { client } = await connect([], { capabilities: { elicitation: { url: {} } } });
  try {
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'decline' }));
    await client.callTool({ name: 'goto', arguments: { url: `${site.base}/login.html` } });
    const r = await client.callTool({ name: 'type', arguments: { target: 'password', text: 'secret:declined' } });
    assert.equal(r.isError, true);
    assert.match(text(r), /the user did not give secret 'declined' \(decline\)/);
  } finally {
    await client.close();
  }
});
