// `do` and `capabilities` (issue 19) through the official MCP client: a sentence runs the intent
// it means with the values it gives (the fixture server records what the page sent), secrets
// stay masked in the response, an unsure reading runs nothing and lists candidates, and a client
// that offers sampling lets its model choose among them.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { connect, text } from './lib/lscope.js';
import { startFixtureServer, accounts } from './lib/fixture_server.js';

const EMAIL = 'ada@example.com';
const PASSWORD = accounts[EMAIL];

let site;
before(async () => { site = await startFixtureServer(); });
after(async () => { await site.close(); });

describe('do, with the default tools', () => {
  let client;
  let stderr;
  before(async () => { ({ client, stderr } = await connect(['--log-level', 'debug'])); });
  after(async () => { await client.close(); });
  const call = (name, args = {}) => client.callTool({ name, arguments: args });

  it('is listed with capabilities in the default profile', async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes('do') && names.includes('capabilities'), names.join(' '));
  });

  it('"log in as … with password …" signs in; the password never comes back', async () => {
    await call('goto', { url: `${site.base}/login.html` });
    const before = site.received.length;
    const r = await call('do', { sentence: `log in as ${EMAIL} with password "${PASSWORD}"` });
    const t = text(r);
    assert.equal(r.isError, false, t);
    assert.match(t, /^ok login /);
    assert.match(t, /# do\nran login username="ada@example\.com" password="••••••••"/);
    assert.match(t, /authenticated: true/);
    assert.ok(!JSON.stringify(r).includes(PASSWORD), 'the password is masked in text and structuredContent');
    assert.ok(!stderr().includes(PASSWORD), 'and in the logs');
    assert.equal(r.structuredContent.do.ran, true);
    assert.equal(r.structuredContent.do.chosen, 'login');
    const sent = site.received.slice(before).filter((x) => x.method === 'POST' && x.path === '/login');
    assert.equal(sent.length, 1);
    assert.equal(sent[0].form.email ?? sent[0].form.username, EMAIL);
    assert.equal(sent[0].form.password, PASSWORD);
  });

  it('"look up …" searches for the words after the phrase', async () => {
    await call('goto', { url: `${site.base}/search.html` });
    const r = await call('do', { sentence: 'look up wireless headphones' });
    assert.equal(r.isError, false, text(r));
    assert.match(text(r), /ran search query="wireless headphones"/);
    assert.match(text(r), /search\.html\?q=wireless\+headphones/);
  });

  it('"get rid of the cookie popup" accepts the banner; --dry_run only says so', async () => {
    await call('goto', { url: `${site.base}/consent-custom.html` });
    const dry = await call('do', { sentence: 'get rid of the cookie popup', dry_run: true });
    assert.match(text(dry), /^ok do would run accept_cookies \(dry run\)\n\n# do\n- accept_cookies \(1\.00: phrase "get rid of the cookie popup"; ready here\)/);
    assert.equal(dry.structuredContent.do.ran, false);
    assert.match(text(await call('observe')), /cookie_banner/, 'nothing ran');
    const r = await call('do', { sentence: 'get rid of the cookie popup' });
    assert.equal(r.isError, false, text(r));
    assert.match(text(r), /click \[\d+\] "Accept all"/);
  });

  it('"fill the … form with {…}" fills from the JSON object', async () => {
    await call('goto', { url: `${site.base}/signup.html` });
    const r = await call('do', { sentence: 'fill the signup form with {"First name": "Grace", "Last name": "Hopper"}' });
    assert.equal(r.isError, false, text(r));
    assert.match(text(r), /ran fill_form data=\{"First name":"Grace","Last name":"Hopper"\}/);
    const first = (await call('text', { target: 'css(input[name=first_name], #first-name, input)' })).structuredContent;
    assert.ok(first, 'text answered');
  });

  it('unsure: nothing runs, three candidates with their values and reasons', async () => {
    await call('goto', { url: `${site.base}/login.html` });
    const before = site.received.length;
    const r = await call('do', { sentence: 'log in as grace' });
    const t = text(r);
    assert.equal(r.isError, false, t);
    assert.match(t, /^ok do not sure which intent: nothing ran/);
    assert.match(t, /# candidates\n- login username="grace" \(0\.\d+: phrase "log in".*no value for password/);
    assert.equal(r.structuredContent.do.ran, false);
    assert.ok(r.structuredContent.do.candidates.length >= 1 && r.structuredContent.do.candidates.length <= 3);
    assert.deepEqual(r.structuredContent.do.candidates[0].missing, ['password']);
    assert.equal(site.received.slice(before).filter((x) => x.method === 'POST').length, 0, 'nothing was sent');
    const none = await call('do', { sentence: 'what a lovely afternoon' });
    assert.match(text(none), /^ok do no intent matches: nothing ran/);
  });

  it('capabilities: the intents here, compact', async () => {
    await call('goto', { url: `${site.base}/login.html` });
    const r = await call('capabilities');
    const t = text(r);
    assert.equal(r.isError, false, t);
    assert.match(t, /# ready here\n(- .*\n)*- login <username> <password>: Sign in with a username or email and a password \("log in"\)\n/);
    assert.match(t, /# not ready here\n(- .*\n)*- logout: Sign out \("log out"\)\n/);
    assert.ok(encode(t).length <= 400, `${encode(t).length} tokens:\n${t}`);
    const login = r.structuredContent.intents.find((i) => i.name === 'login');
    assert.deepEqual([login.ready, login.example], [true, 'log in']);
  });
});

describe('capabilities follow the intents that load', () => {
  let client;
  before(async () => { ({ client } = await connect()); });
  after(async () => { await client.close(); });
  const names = async () => (await client.callTool({ name: 'capabilities', arguments: {} })).structuredContent.intents.map((i) => i.name);

  it('a session intent and a site pack\'s intents are listed once loaded, and do reaches them', async () => {
    await client.callTool({ name: 'goto', arguments: { url: `${site.base}/signup.html` } });
    const before = await names();
    assert.ok(!before.includes('greet_team') && !before.includes('search_repositories'), before.join(' '));
    const definition = { intent: 'greet_team', version: '1.0.0', description: 'Say hello to the team',
      phrases: ['greet the team', 'say hello to everyone'], steps: [{ action: 'observe' }] };
    const defined = await client.callTool({ name: 'run', arguments: { script: `define ${JSON.stringify(definition)}` } });
    assert.equal(defined.isError, false, text(defined));
    const packed = await client.callTool({ name: 'run', arguments: { script: 'pack load github.com' } });
    assert.equal(packed.isError, false, text(packed));
    const after = await names();
    assert.ok(after.includes('greet_team'), after.join(' '));
    assert.ok(after.includes('search_repositories'), after.join(' '));
    const r = await client.callTool({ name: 'do', arguments: { sentence: 'please say hello to everyone', dry_run: true } });
    assert.match(text(r), /would run greet_team/);
  });
});

describe('do, with a client that offers sampling', () => {
  let client;
  const asked = [];
  before(async () => {
    ({ client } = await connect([], { capabilities: { sampling: {} } }));
    client.setRequestHandler(CreateMessageRequestSchema, async (req) => {
      asked.push(req.params);
      const prompt = req.params.messages[0].content.text;
      // The "model": a sentence about a banner means accept_cookies; else the first candidate.
      const sentence = (prompt.match(/said: "([^"]*)"/) || [])[1] || '';
      const pick = /banner|cookie/.test(sentence) ? 'accept_cookies' : (prompt.match(/^- (\w+)/m) || [])[1] || 'none';
      return { role: 'assistant', content: { type: 'text', text: pick }, model: 'test-model' };
    });
  });
  after(async () => { await client.close(); });

  it("an unsure reading goes to the client's model, which chooses", async () => {
    await client.callTool({ name: 'goto', arguments: { url: `${site.base}/consent-custom.html` } });
    // "make the banner go away": accept_cookies, but only by "banner"; other readings are as weak.
    const r = await client.callTool({ name: 'do', arguments: { sentence: 'make the banner go away' } });
    const t = text(r);
    assert.equal(r.isError, false, t);
    assert.equal(asked.length, 1, 'the model was asked once');
    const prompt = asked[0].messages[0].content.text;
    assert.match(prompt, /make the banner go away/);
    assert.match(prompt, /^- accept_cookies /m);
    assert.match(prompt, /The page shows: .*cookie_banner/);
    assert.match(t, /# do\nran accept_cookies .*, chosen by the client's model/);
    assert.equal(r.structuredContent.do.chosen_by, 'model');
    assert.match(t, /click \[\d+\] "Accept all"/);
  });

  it('a sentence holding a password reaches the model masked; the chosen login runs', async () => {
    await client.callTool({ name: 'goto', arguments: { url: `${site.base}/login.html` } });
    // A demanding threshold: a reading that would run by default (0.6) asks the model.
    const set = await client.callTool({ name: 'run', arguments: { script: 'config set resolution.do_threshold 0.9' } });
    assert.equal(set.isError, false, text(set));
    asked.length = 0;
    const before = site.received.length;
    const r = await client.callTool({ name: 'do', arguments: { sentence: `get me in with ${EMAIL} / "${PASSWORD}"` } });
    assert.equal(r.isError, false, text(r));
    assert.equal(asked.length, 1, text(r) + JSON.stringify(r.structuredContent));
    assert.match(asked[0].messages[0].content.text, /login username="ada@example\.com" password="••••••••"/);
    assert.ok(!JSON.stringify(asked).includes(PASSWORD), JSON.stringify(asked));
    assert.ok(!JSON.stringify(r).includes(PASSWORD));
    assert.match(text(r), /chosen by the client's model/);
    const sent = site.received.slice(before).filter((x) => x.method === 'POST' && x.path === '/login');
    assert.equal(sent.length, 1, text(r));
    assert.equal(sent[0].form.password, PASSWORD);
  });
});
