// The navigation policy (issue 16): schemes that would read local files or run script are
// refused; --allowed-origins / --blocked-origins hold on goto, redirects, links, new tabs and
// frames. The fixture servers: the page's origin (127.0.0.1) and a second one (127.0.0.2) that
// records every request it gets, so "never reached" is checked where it is received.
import { describe, it as nodeTest, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mcpSession, text, conform, runLscope } from './lib/lscope.js';
import { startFixtureServer, startCrossOriginServer } from './lib/fixture_server.js';

const it = conform(nodeTest);

let site;
let xsite;
before(async () => {
  site = await startFixtureServer();
  xsite = await startCrossOriginServer();
});
after(async () => {
  await site.close();
  await xsite.close();
});

const session = mcpSession;

describe('navigation policy: schemes', () => {
  const s = session([]);
  it('file:, javascript:, chrome:, devtools: and view-source: are refused; nothing is read, nothing runs', async () => {
    await s.ok('goto', { url: `${site.base}/article.html` });
    const file = await s.fails('goto', { url: 'file:///etc/passwd' });
    assert.match(file, /^error goto: refused file:\/\/\/etc\/passwd: file: URLs are refused.*--allow-file-access/);
    for (const url of ['javascript:alert(document.domain)', ' JavaScript:alert(1)', 'chrome://version',
      'devtools://devtools/bundled/inspector.html', `view-source:${site.base}/article.html`, 'about:version']) {
      assert.match(await s.fails('goto', { url }), /^error goto: refused /, url);
    }
    // Still on the article; no dialog ever opened, no local file in the page.
    const page = await s.ok('text');
    assert.ok(!/root:x:0:0/.test(page));
    const url = await s.ok('url');
    assert.match(url, /article\.html/);
    assert.ok(!/dialog/.test(url));
  });
  it('tabs new refuses the same URLs', async () => {
    assert.match(await s.fails('tabs', { action: 'new', tab: 'file:///etc/hostname' }), /refused file:/);
  });
});

describe('navigation policy: --allow-file-access', () => {
  const s = session(['--allow-file-access']);
  it('opens local files for local use', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lscope-file-'));
    const page = path.join(dir, 'notes.html');
    fs.writeFileSync(page, '<!doctype html><title>Notes</title><p>Local notes, page one.</p>');
    await s.ok('goto', { url: `file://${page}` });
    assert.match(await s.ok('text'), /Local notes, page one\./);
    assert.match(await s.fails('goto', { url: 'javascript:alert(1)' }), /refused javascript:/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('navigation policy: --blocked-origins', () => {
  const s = session(['--blocked-origins', '127.0.0.2']);
  const xoRequests = () => xsite.received.filter((r) => r.path !== '/favicon.ico').length;

  it('goto a blocked origin is refused before anything is sent', async () => {
    const before = xoRequests();
    const r = await s.fails('goto', { url: `${xsite.base}/opened.html` });
    assert.match(r, /refused http:\/\/127\.0\.0\.2:\d+\/opened\.html: 127\.0\.0\.2 is blocked \(--blocked-origins 127\.0\.0\.2\)/);
    assert.equal(xoRequests(), before);
  });

  it('a redirect into a blocked origin stops, says where, and leaves the tab blank', async () => {
    const to = `${xsite.base}/opened.html`;
    const r = await s.fails('goto', { url: `${site.base}/redirect?to=${encodeURIComponent(to)}` });
    assert.match(r, /stopped at http:\/\/127\.0\.0\.2:\d+\/opened\.html: 127\.0\.0\.2 is blocked/);
    assert.match(r, /about:blank/);
    assert.match(await s.ok('url'), /^ok url about:blank/);
  });

  it('the browser stops the request itself: a blocked origin never receives it (redirect, link, frame)', async () => {
    const before = xoRequests();
    const to = `${xsite.base}/opened.html`;
    const hop = await s.fails('goto', { url: `${site.base}/redirect?to=${encodeURIComponent(to)}` });
    assert.match(hop, /redirected from http:\/\/127\.0\.0\.1:\d+\/redirect/);
    // A frame from the blocked origin is not loaded; the page around it is.
    const framed = await s.ok('goto', { url: `${site.base}/iframe.html?xo=${xsite.base}` });
    assert.match(framed, /# events\n(.*\n)*blocked 127\.0\.0\.2:\d+\/iframe-form\.html\?frame=cross: 127\.0\.0\.2 is blocked/);
    assert.equal(xoRequests(), before);
  });

  it('a link to a blocked origin: the click fails with where it stopped', async () => {
    await s.ok('goto', { url: `${site.base}/policy-links.html?xo=${xsite.base}` });
    const r = await s.fails('click', { target: 'Partner page' });
    assert.match(r, /^error click: stopped at http:\/\/127\.0\.0\.2:\d+\/opened\.html: 127\.0\.0\.2 is blocked/);
    assert.match(await s.ok('url'), /^ok url about:blank/);
  });

  it('a new tab or a window.open to a blocked origin is closed and reported', async () => {
    await s.ok('goto', { url: `${site.base}/policy-links.html?xo=${xsite.base}` });
    for (const target of ['Partner page in a new tab', 'Open the partner window']) {
      const r = await s.ok('click', { target });
      assert.match(r, /# events\n(.*\n)*blocked 127\.0\.0\.2:\d+\/opened\.html: 127\.0\.0\.2 is blocked .*the new tab was closed/, target);
      assert.ok(!/new tab \[/.test(r), r);
      const tabs = await s.ok('tabs');
      assert.equal((tabs.match(/^\[\d+\]/gm) || []).length, 1, tabs);
    }
  });

  it('pages of other origins are untouched', async () => {
    await s.ok('goto', { url: `${site.base}/policy-links.html` });
    await s.ok('click', { target: 'Partner page through a redirect' });
    assert.match(await s.ok('url'), /127\.0\.0\.1:\d+\/opened\.html/);
  });
});

describe('navigation policy: --allowed-origins', () => {
  const s = session(['--allowed-origins', 'http://127.0.0.1:*']);
  it('only the listed origins open', async () => {
    await s.ok('goto', { url: `${site.base}/article.html` });
    assert.match(await s.fails('goto', { url: `${xsite.base}/opened.html` }), /127\.0\.0\.2 is not in --allowed-origins/);
    assert.match(await s.fails('goto', { url: `https://127.0.0.1:1/` }), /not in --allowed-origins/);
  });
});

it('a malformed origin list stops lscope at start with what to write', async () => {
  const r = await runLscope(['run', '-', '--blocked-origins', 'https://a.example/path'], { input: 'url\n' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--blocked-origins: origin pattern "https:\/\/a\.example\/path" is not an origin/);
});
