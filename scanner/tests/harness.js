// Test harness for scanner.js: serves the fixtures, launches Chromium and injects the scanner the
// way the backends do (CDP isolated world, or the page world like WebDriver Execute Script).
'use strict';
const fs = require('fs');
const http = require('http');
const path = require('path');

const PLAYWRIGHT = process.env.PLAYWRIGHT_CORE || 'playwright-core';
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const SCANNER = path.join(__dirname, '..', 'scanner.js');
const FIXTURES = path.join(__dirname, '..', 'fixtures');
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css' };

/** Serves `root` on 127.0.0.1:<random port>; fixtures reach a second origin via "localhost". */
function serve(root = FIXTURES) {
  const server = http.createServer((req, res) => {
    const file = path.join(root, path.normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)));
    if (!file.startsWith(root)) { res.writeHead(403); res.end(); return; }
    fs.readFile(file, (err, data) => {
      if (err) { res.writeHead(404); res.end('not found'); return; }
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream' });
      res.end(data);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    resolve({ server, base: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() });
  }));
}

function launch() {
  const { chromium } = require(PLAYWRIGHT);
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
}

/**
 * Opens `url` and injects the scanner. world "isolated" (default, like lscope-h) or "page" (like
 * WebDriver). Returns {page, cmd(command) -> response object, inject(), evalTest(fnSource, ...args)}.
 * evalTest runs test-side helpers in a separate clean isolated world.
 */
async function open(browser, url, { world = 'isolated', viewport = { width: 1280, height: 800 } } = {}) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await page.goto(url);
  const src = fs.readFileSync(SCANNER, 'utf8');
  let scannerCtx = null;
  let testCtx = null;
  const evaluate = async (params) => {
    const r = await cdp.send('Runtime.evaluate', params);
    if (r.exceptionDetails) throw new Error('evaluate failed: ' + JSON.stringify(r.exceptionDetails).slice(0, 500));
    return r.result.value;
  };
  const worldFor = async (name) => {
    const { frameTree } = await cdp.send('Page.getFrameTree');
    return (await cdp.send('Page.createIsolatedWorld', { frameId: frameTree.frame.id, worldName: name })).executionContextId;
  };
  async function inject() {
    scannerCtx = world === 'page' ? undefined : await worldFor('lemmascope');
    testCtx = await worldFor('lemmascope-test');
    await evaluate({ expression: `globalThis.__lemmascope || (globalThis.__lemmascope = ${src}); 1`, contextId: scannerCtx });
  }
  async function cmd(command) {
    const json = await evaluate({ expression: `__lemmascope.handle(${JSON.stringify(JSON.stringify(command))})`,
      contextId: scannerCtx, awaitPromise: true, returnByValue: true });
    if (typeof json !== 'string') throw new Error('handle did not return a string: ' + json);
    return JSON.parse(json);
  }
  /** handle() with a raw JavaScript argument expression, e.g. '"{not json"' or '[1, 2]'. */
  async function handleRaw(argExpression) {
    return JSON.parse(await evaluate({ expression: `__lemmascope.handle(${argExpression})`,
      contextId: scannerCtx, awaitPromise: true, returnByValue: true }));
  }
  function evalTest(fn, ...args) {
    return evaluate({ expression: `(${fn})(...${JSON.stringify(args)})`, contextId: testCtx, awaitPromise: true, returnByValue: true });
  }
  await inject();
  return { page, context, cdp, cmd, handleRaw, inject, evalTest, close: () => context.close() };
}

/** Test-side resolver of the "A >>> B" notation, independent of the scanner's own. */
const RESOLVE_DEEP = `function resolveDeep(selector) {
  let roots = [document];
  const parts = selector.split('>>>').map((s) => s.trim());
  let found = [];
  parts.forEach((part, i) => {
    found = [];
    roots.forEach((r) => found.push(...r.querySelectorAll(part)));
    roots = found.map((el) => el.shadowRoot || el.contentDocument).filter(Boolean);
  });
  return found;
}`;

module.exports = { serve, launch, open, RESOLVE_DEEP, FIXTURES };
