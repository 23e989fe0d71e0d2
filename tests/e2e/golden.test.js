// Golden observations: the observe text of every fixture page, exactly. A change in what the
// scanner finds or how the engine prints it shows up here as a diff to review.
// LSCOPE_UPDATE_GOLDEN=1 rewrites the files (then read the diff before committing it).
import { test as nodeTest, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, text, conform } from './lib/lscope.js';
import { startFixtureServer, fixturesDir } from './lib/fixture_server.js';

// The backend conformance suite: known differences come from backends/expectations.json.
const test = conform(nodeTest);

const here = path.dirname(fileURLToPath(import.meta.url));
const goldenDir = path.join(here, 'golden', 'observe');
const update = process.env.LSCOPE_UPDATE_GOLDEN === '1';
const pages = fs.readdirSync(fixturesDir).filter((f) => f.endsWith('.html')).sort();

let site;
let client;
before(async () => {
  site = await startFixtureServer();
  ({ client } = await connect());
});
after(async () => {
  await client.close();
  await site.close();
});

// Ports differ per run; everything else must not.
const normalize = (s) => s.replaceAll(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT');

// Pages whose content comes late, loaded with a delay no loaded machine's goto reaches: the
// observation's ids (those goto's own scan gave keep theirs) do not depend on the machine's speed.
// (slow.html's 800 ms default was reached by goto over chromedriver while three suites ran.)
const queries = { 'slow.html': '?ms=3000' };

for (const page of pages) {
  test(`observe ${page}`, async () => {
    const go = await client.callTool({ name: 'goto', arguments: { url: `${site.base}/${page}${queries[page] || ''}` } });
    assert.equal(go.isError, false, text(go));
    // Pages that load content late settle first: no request for 500 ms.
    const idle = await client.callTool({ name: 'wait', arguments: { condition: 'idle', timeout: '10s' } });
    assert.equal(idle.isError, false, text(idle));
    const obs = await client.callTool({ name: 'observe', arguments: {} });
    assert.equal(obs.isError, false, text(obs));
    const got = normalize(text(obs));
    const file = path.join(goldenDir, page.replace(/\.html$/, '.txt'));
    if (update) {
      fs.writeFileSync(file, got);
      return;
    }
    assert.ok(fs.existsSync(file), `no golden for ${page}: run with LSCOPE_UPDATE_GOLDEN=1 and review it`);
    assert.equal(got, fs.readFileSync(file, 'utf8'));
  });
}
