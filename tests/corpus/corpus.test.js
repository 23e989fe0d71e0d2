// The real-library corpus (tests/fixtures/corpus, lib/corpus.js): every task is one `lscope run`
// script that names only what a person reads; it passes when the script succeeds and the page
// itself recorded the outcome. Runs on every backend (LSCOPE_BACKEND); known differences are
// listed in tests/e2e/backends/expectations.json as "corpus <task name>".
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startFixtureServer, startCrossOriginServer } from '../e2e/lib/fixture_server.js';
import { loadTasks, runTask } from '../e2e/lib/corpus.js';
import { unsupported } from '../e2e/lib/lscope.js';

const tasks = loadTasks();
let site;
let xsite;

before(async () => {
  site = await startFixtureServer();
  // Reports from frames on the other origin count as the page's own: one list for both.
  xsite = await startCrossOriginServer({ reports: site.reports });
  site.xbase = xsite.base;
});
after(async () => {
  await site.close();
  await xsite.close();
});

describe('real-library corpus', () => {
  it('has tasks', () => assert.ok(tasks.length > 0));
  for (const task of tasks) {
    const name = `corpus ${task.name}`;
    it(name, { skip: unsupported(name) }, async () => {
      const r = await runTask(task, site);
      assert.ok(r.ok, `${task.title || task.name}: ${r.why}\n--- lscope run ---\n${r.output}`);
    });
  }
});
