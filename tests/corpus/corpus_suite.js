// The real-library corpus (tests/fixtures/corpus, lib/corpus.js): every task is one `lscope run`
// script that names only what a person reads; it passes when the script succeeds and the page
// itself recorded the outcome. Runs on every backend (LSCOPE_BACKEND); known differences are
// listed in tests/e2e/backends/expectations.json as "corpus <task name>".
// Every task attaches to one Chromium the test starts: launching a browser per task was half of the
// corpus's time on 2 cores (the e2e suites still cover launching). On CDP (--cdp-url) each lscope
// works in a browser context of its own (cookies, storage and tabs apart, gone when it exits);
// chromedriver attaches through goog:chromeOptions.debuggerAddress and drives the default context,
// which the test resets before each task (one blank tab, no cookies or site data).
// LSCOPE_CORPUS_OWN_BROWSER=1: each task launches its own browser, as lscope does by default.
// LSCOPE_CORPUS_SAMPLE=per-page: every consent and intent task, and one reach task per page (the
// one with the most commands); ctest's chromedriver run takes this sample, the CDP run takes all.
// The tasks are dealt page by page to the corpus-*.test.js files (shards): node's test runner
// times each file, and the whole corpus in one file came near its limit on 2 cores. Run one task
// with `node --test --test-name-pattern reach/select2` here (every shard looks; one has it).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startFixtureServer, startCrossOriginServer } from '../e2e/lib/fixture_server.js';
import { loadTasks, runTask, samplePerPage, dealByPage } from '../e2e/lib/corpus.js';
import { unsupported, backendName, backendArgs } from '../e2e/lib/lscope.js';
import { startChromium } from '../e2e/lib/chromium.js';

const sample = process.env.LSCOPE_CORPUS_SAMPLE || '';
if (!['', 'per-page'].includes(sample)) throw new Error(`LSCOPE_CORPUS_SAMPLE="${sample}": use per-page, or leave it unset for every task`);
let tasks = [];
let site;
let xsite;
let shared = null;
const sharing = ['cdp', 'chromedriver'].includes(backendName) && !process.env.LSCOPE_CORPUS_OWN_BROWSER;

// The shared browser's switches for lscope; a browser that died (it should not) is started again,
// so one crash fails one task, not the rest of the corpus.
async function browserArgs() {
  if (!sharing) return backendArgs;
  if (!shared?.alive()) {
    await shared?.close();
    shared = await startChromium();
  }
  if (backendName === 'cdp') return [...backendArgs, '--cdp-url', shared.httpUrl];
  await shared.reset([site.base, site.xbase].map((u) => new URL(u).origin));
  // lscope's own switches and prefs are for a browser it launches: an attached one has its own.
  const chrome = { debuggerAddress: new URL(shared.httpUrl).host, args: null, prefs: null };
  return [...backendArgs, '--webdriver-capabilities', JSON.stringify({ 'goog:chromeOptions': chrome })];
}

export function corpusSuite(shard, of) {
  const all = sample ? samplePerPage(loadTasks()) : loadTasks();
  tasks = dealByPage(all, shard, of);

  before(async () => {
    site = await startFixtureServer();
    // Reports from frames on the other origin count as the page's own: one list for both.
    xsite = await startCrossOriginServer({ reports: site.reports });
    site.xbase = xsite.base;
  });
  after(async () => {
    await shared?.close();
    await site.close();
    await xsite.close();
  });

  describe(`real-library corpus (${shard} of ${of})`, () => {
    it('has tasks', () => assert.ok(tasks.length > 0));
    for (const task of tasks) {
      const name = `corpus ${task.name}`;
      // A known gap (`# gap:`) runs as todo: its failure is reported, and fails no run.
      it(name, { skip: unsupported(name), todo: task.gap || false }, async () => {
        const r = await runTask(task, site, { extraArgs: await browserArgs() });
        assert.ok(r.ok, `${task.title || task.name}: ${r.why}\n--- lscope run ---\n${r.output}`);
      });
    }
  });
}
