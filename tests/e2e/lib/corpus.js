// The real-library corpus (tests/fixtures/corpus): pages built from UI libraries installed from
// npm, each with tasks written as OIL scripts that name only what a person reads on the screen.
// A task passes when `lscope run` finishes without a failed command AND the page itself
// recorded the outcome (report.js -> POST /report on the fixture server).
//
// A task file, <page>--<task>.oil:
//   # task: pick "Java" from the autocomplete's suggestions      (what a person would do)
//   # kind: reach | intent                                       (issue 11 reach, issue 12 intents)
//   # expect: picked {"value": "Java"}                           (the page's latest report of
//   #                                                             this event has these fields)
//   # expect-output: ^\W*Fax\W.*not found                        (optional: a line of lscope's
//   #                                                             answer matches this regex, for
//   #                                                             what only the answer can say)
//   goto $BASE/corpus/reach/jqueryui-autocomplete.html        ($XBASE: a cross-site origin)
//   type "Language" "ja"
//   click "Java"
import fs from 'node:fs';
import path from 'node:path';
import { runLscope, backendArgs } from './lscope.js';
import { fixturesDir } from './fixture_server.js';

export const corpusDir = path.join(fixturesDir, 'corpus');

// Every task file under the corpus directory (sorted), parsed.
export function loadTasks(dir = corpusDir) {
  const out = [];
  const walk = (d) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.name.endsWith('.oil')) out.push(parseTask(p));
    }
  };
  walk(dir);
  return out;
}

// {name, file, title, kind, expect: [{event, fields}], output: [RegExp], script, problems}
export function parseTask(file) {
  const text = fs.readFileSync(file, 'utf8');
  const name = path.relative(corpusDir, file).replace(/\.oil$/, '');
  const task = { name, file, title: '', kind: 'reach', expect: [], output: [], script: '', problems: [] };
  const lines = [];
  for (const line of text.split('\n')) {
    const header = /^#\s*(task|kind|expect|expect-output):\s*(.*)$/.exec(line);
    if (!header) {
      lines.push(line);
      continue;
    }
    const [, key, value] = header;
    if (key === 'task') task.title = value.trim();
    if (key === 'kind') task.kind = value.trim();
    if (key === 'expect-output') {
      try {
        task.output.push(new RegExp(value.trim(), 'im'));
      } catch (e) {
        task.problems.push(`expect-output: ${e.message}`);
      }
    }
    if (key === 'expect') {
      const m = /^(\S+)\s*(\{.*\})?\s*$/.exec(value.trim());
      if (!m) {
        task.problems.push(`bad expect line: ${value}`);
        continue;
      }
      let fields = {};
      try {
        fields = m[2] ? JSON.parse(m[2]) : {};
      } catch (e) {
        task.problems.push(`expect ${m[1]}: ${e.message}`);
      }
      task.expect.push({ event: m[1], fields });
    }
  }
  task.script = lines.join('\n');
  if (!task.expect.length) task.problems.push('no "# expect:" line: the page must record the outcome');
  task.problems.push(...lint(task.script));
  return task;
}

// Tasks use only names a person reads: no element ids, no CSS, no XPath.
export function lint(script) {
  const problems = [];
  script.split('\n').forEach((line, i) => {
    const l = line.trim();
    if (!l || l.startsWith('#')) return;
    if (/\b(css|xpath)\(/i.test(l)) problems.push(`line ${i + 1}: css()/xpath() targets are not what a person reads`);
    if (/^(click|type|select|check|uncheck|hover|focus|clear|upload|scroll_to|wait\s+\w+)\s+\[?\d+\]?(\s|$)/i.test(l)) {
      problems.push(`line ${i + 1}: element ids are not what a person reads`);
    }
  });
  return problems;
}

// Does `actual` hold every field of `want` (deep, arrays compared as wholes)?
export function holds(actual, want) {
  if (want === null || typeof want !== 'object' || Array.isArray(want)) {
    return JSON.stringify(actual) === JSON.stringify(want);
  }
  if (actual === null || typeof actual !== 'object') return false;
  return Object.entries(want).every(([k, v]) => holds(actual[k], v));
}

// Runs one task against a fixture server ({base, reports, xbase}); resolves
// {ok, why, output, ms}. `args`: lscope options (backend options come from LSCOPE_BACKEND).
export async function runTask(task, site, { args = [], extraArgs = backendArgs } = {}) {
  if (task.problems.length) return { ok: false, why: task.problems.join('; '), output: '', ms: 0 };
  const since = site.reports.length;
  // $XBASE: the same fixtures on another site (127.0.0.2), for pages that embed a cross-origin
  // frame the way hosted consent managers do (page.html?xo=$XBASE).
  const script = task.script.replaceAll('$XBASE', site.xbase || site.base).replaceAll('$BASE', site.base);
  const t0 = Date.now();
  const run = await runLscope(['run', '-', ...args, ...extraArgs], { input: script });
  const ms = Date.now() - t0;
  const output = run.stdout + (run.stderr ? `\n[stderr]\n${run.stderr}` : '');
  const reports = site.reports.slice(since);
  const missing = [];
  for (const re of task.output) {
    if (!re.test(run.stdout)) missing.push(`no line of the answer matches /${re.source}/`);
  }
  for (const { event, fields } of task.expect) {
    const last = reports.filter((r) => r.event === event).at(-1);
    if (!last) missing.push(`the page never reported "${event}"`);
    else if (!holds(last.data, fields)) {
      missing.push(`the page reported ${event} ${JSON.stringify(last.data)}, not ${JSON.stringify(fields)}`);
    }
  }
  if (run.status !== 0) {
    const failed = run.stdout.split('\n').find((l) => l.startsWith('error ')) || `exit status ${run.status}`;
    return { ok: false, why: `lscope run failed: ${failed}${missing.length ? '; ' + missing.join('; ') : ''}`, output, ms, reports };
  }
  if (missing.length) return { ok: false, why: missing.join('; '), output, ms, reports };
  return { ok: true, why: '', output, ms, reports };
}
