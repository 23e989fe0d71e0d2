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
//   # gap: <what lscope lacks>                                   (optional: a known gap, not yet
//   #                                                             fixed; the task still runs and
//   #                                                             its result is reported as todo)
//   goto $BASE/corpus/reach/jqueryui-autocomplete.html        ($XBASE: a cross-site origin;
//                                                             $CORPUS: this directory, for upload)
//   type "Language" "ja"
//   click "Java"
//
// Several "# expect:" lines may follow one another: each event's latest report must hold its
// fields. Event names have no spaces. A page reports in the handler of the user's own action
// (the click, the library's select/change callback, Bootstrap's hide.* rather than hidden.*):
// lscope exits, and the browser with it, right after the script's last command, so a report
// sent after a transition may never arrive. Lint: no element ids, no css()/xpath(), goto only
// to $BASE/$XBASE and to a page that exists. Line numbers in failures are the file's. A page
// may be an app: <page>.jsx, bundled by the fixture server as <page>.bundle.js (lib/bundle.js).
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { lscopeBin, backendArgs } from './lscope.js';
import { fixturesDir } from './fixture_server.js';

export const corpusDir = path.join(fixturesDir, 'corpus');

// Every task file under the corpus directory (sorted), parsed. `only`: keep the tasks whose name
// (e.g. "reach/select2--country") contains this string or matches this RegExp.
export function loadTasks(dir = corpusDir, { only } = {}) {
  const out = [];
  const walk = (d) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.name.endsWith('.oil')) out.push(parseTask(p));
    }
  };
  walk(dir);
  if (!only) return out;
  return out.filter((t) => (only instanceof RegExp ? only.test(t.name) : t.name.includes(only)));
}

// One reach task per page, the one with the most commands (the first of those by name), and every
// consent and intent task: each library's richest interaction, for a second backend whose run of
// the whole corpus would double the suite's longest job (LSCOPE_CORPUS_SAMPLE=per-page).
export function samplePerPage(tasks) {
  const steps = (t) => t.script.split('\n').filter((l) => l.trim() && !l.trim().startsWith('#')).length;
  const best = new Map();
  for (const t of tasks) {
    if (t.kind !== 'reach') continue;
    const page = t.name.split('--')[0];
    if (!best.has(page) || steps(t) > steps(best.get(page))) best.set(page, t);
  }
  const kept = new Set(best.values());
  return tasks.filter((t) => t.kind !== 'reach' || kept.has(t));
}

// The tasks of shard `shard` (1-based) of `of`: whole pages, dealt largest first to the shard with
// the fewest tasks so far, so the shards come out near equal and a page's tasks stay together.
export function dealByPage(tasks, shard, of) {
  if (!(shard >= 1 && shard <= of)) throw new Error(`shard ${shard} of ${of}`);
  const pages = new Map();
  for (const t of tasks) {
    const page = t.name.split('--')[0];
    if (!pages.has(page)) pages.set(page, []);
    pages.get(page).push(t);
  }
  const order = [...pages.keys()].sort((a, b) => pages.get(b).length - pages.get(a).length || a.localeCompare(b));
  const load = new Array(of).fill(0);
  const mine = new Set();
  for (const page of order) {
    const least = load.indexOf(Math.min(...load));
    load[least] += pages.get(page).length;
    if (least === shard - 1) mine.add(page);
  }
  return tasks.filter((t) => mine.has(t.name.split('--')[0]));
}

// {name, file, title, kind, expect: [{event, fields}], output: [RegExp], script, problems}
export function parseTask(file) {
  const text = fs.readFileSync(file, 'utf8');
  const name = path.relative(corpusDir, file).replace(/\.oil$/, '');
  const task = { name, file, title: '', kind: 'reach', expect: [], output: [], script: '', problems: [], gap: '' };
  const lines = [];
  for (const line of text.split('\n')) {
    const header = /^#\s*(task|kind|expect|expect-output|gap):\s*(.*)$/.exec(line);
    if (!header) {
      lines.push(line);
      continue;
    }
    lines.push('');  // keeps the script's line numbers those of the file
    const [, key, value] = header;
    if (key === 'task') task.title = value.trim();
    if (key === 'kind') task.kind = value.trim();
    if (key === 'gap') task.gap = value.trim();
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
  // Every page a task opens exists (a typo would fail as a "reach" problem otherwise).
  for (const m of task.script.matchAll(/^\s*goto\s+\$X?BASE\/(\S*)/gim)) {
    const page = path.join(fixturesDir, decodeURIComponent(m[1].replace(/[?#].*$/, '')));
    if (!fs.existsSync(page)) task.problems.push(`goto: no fixture page ${path.relative(fixturesDir, page)}`);
  }
  return task;
}

// Tasks use only names a person reads: no element ids, no CSS, no XPath; and they stay on the
// fixture servers ($BASE, $XBASE).
export function lint(script) {
  const problems = [];
  script.split('\n').forEach((line, i) => {
    const l = line.trim();
    if (!l || l.startsWith('#')) return;
    if (/\b(css|xpath)\(/i.test(l)) problems.push(`line ${i + 1}: css()/xpath() targets are not what a person reads`);
    if (/^(click|type|select|check|uncheck|hover|focus|clear|upload|scroll_to|wait\s+\w+)\s+\[?\d+\]?(\s|$)/i.test(l)) {
      problems.push(`line ${i + 1}: element ids are not what a person reads`);
    }
    if (/^goto\s/i.test(l) && !/^goto\s+\$X?BASE\//i.test(l)) problems.push(`line ${i + 1}: goto leaves the fixture servers ($BASE, $XBASE)`);
    // Files come from the corpus, wherever the checkout is: $CORPUS/reach/files/x.png.
    if (/^upload\s/i.test(l) && /(^|\s)\/(?!\/)/.test(l.replace(/"[^"]*"/g, ''))) {
      problems.push(`line ${i + 1}: upload paths start with $CORPUS (the corpus directory), not /`);
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

// The commands of a script, in order: [{line, text, name}] (blank lines and comments dropped).
export function commands(script) {
  const out = [];
  script.split('\n').forEach((raw, i) => {
    const text = raw.trim();
    if (!text || text.startsWith('#')) return;
    out.push({ line: i + 1, text, name: text.split(/\s+/)[0].toLowerCase() });
  });
  return out;
}

// OIL's atomic commands (lscope tools --tools all, less the intents): every other command name
// is an intent call (a built-in, a YAML intent, or `intent <name>`).
export const atomicCommands = new Set(['goto', 'back', 'forward', 'refresh', 'url', 'observe', 'text', 'title',
  'screenshot', 'click', 'type', 'clear', 'press', 'select', 'check', 'uncheck', 'hover', 'focus', 'scroll',
  'upload', 'tabs', 'intents', 'define', 'undefine', 'config', 'wait', 'run']);
export const isIntentCommand = (name) => !atomicCommands.has(name);

// Splits `lscope run` output into one response per command of `script`: each response starts
// on a line "ok <command>", "partial <command>: ..." or "error <command>: ..." (engine/response.cpp).
// The command's own name is looked for first; a command the engine answers under another name
// (an alias) takes the next status line. Returns [{line, text, name, ok, response}] for the
// commands that answered (a run stops at the first failure unless --keep-going); `ok` is false
// for error and partial.
export function responses(script, output) {
  const cmds = commands(script);
  const out = [];
  const lines = output.split('\n');
  const esc = (t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const anyHead = /^(ok|error|partial) \S/;
  let at = 0;
  for (const cmd of cmds) {
    const head = new RegExp(`^(ok|error|partial) ${esc(cmd.name)}(\\s|:|$)`, 'i');
    let start = -1;
    for (let j = at; j < lines.length && start < 0; j++) if (head.test(lines[j])) start = j;
    for (let j = at; j < lines.length && start < 0; j++) if (anyHead.test(lines[j])) start = j;
    if (start < 0) break;
    if (out.length) out.at(-1).response = lines.slice(out.at(-1).start, start).join('\n').trimEnd();
    out.push({ ...cmd, ok: lines[start].startsWith('ok'), start });
    at = start + 1;
  }
  if (out.length) {
    const end = lines.findIndex((l, j) => j > out.at(-1).start && l === '[stderr]');
    out.at(-1).response = lines.slice(out.at(-1).start, end < 0 ? lines.length : end).join('\n').trimEnd();
  }
  return out.map(({ start, ...r }) => r);
}

// Runs `lscope run -` over `script`, killing it (and its process group: the browser, the driver)
// after `timeoutMs`. Resolves {status, stdout, stderr, timedOut}.
function runScript(args, script, timeoutMs) {
  return new Promise((resolve, reject) => {
    const child = spawn(lscopeBin, args, { stdio: ['pipe', 'pipe', 'pipe'], detached: true, env: { LSCOPE_LEARN: 'off', ...process.env } });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try { process.kill(-child.pid, 'SIGTERM'); } catch { /* gone */ }
    }, timeoutMs);
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('error', (e) => { clearTimeout(timer); reject(e); });
    child.on('close', (status) => { clearTimeout(timer); resolve({ status, stdout, stderr, timedOut }); });
    child.stdin.end(script);
  });
}

const clip = (t, n) => (t.length > n ? `${t.slice(0, n - 1)}…` : t);

// A failed response in one line: its status line, and what a partial one skipped.
function summary(response) {
  const lines = response.split('\n');
  const at = lines.indexOf('# skipped');
  const skipped = [];
  for (let j = at + 1; at >= 0 && j < lines.length && lines[j].trim() && !lines[j].startsWith('#'); j++) skipped.push(lines[j].trim());
  return lines[0] + (skipped.length ? ` (skipped ${skipped.join('; ')})` : '');
}

// Runs one task against a fixture server ({base, reports, xbase}); resolves
// {ok, why, output, ms, reports, responses}. `why` is one line: the failed command and its error,
// or what the page did not report. `args`: lscope options (backend options come from
// LSCOPE_BACKEND unless `extraArgs` is given).
export async function runTask(task, site, { args = [], extraArgs = backendArgs, timeoutMs = 180000 } = {}) {
  if (task.problems.length) return { ok: false, why: task.problems.join('; '), output: '', ms: 0, reports: [], responses: [] };
  const since = site.reports.length;
  // $XBASE: the same fixtures on another site (127.0.0.2), for pages that embed a cross-origin
  // frame the way hosted consent managers do (page.html?xo=$XBASE).
  // $CORPUS: the corpus directory on this machine (files to upload).
  const script = task.script.replaceAll('$XBASE', site.xbase || site.base).replaceAll('$BASE', site.base)
    .replaceAll('$CORPUS', corpusDir);
  const t0 = Date.now();
  const run = await runScript(['run', '-', ...args, ...extraArgs], script, timeoutMs);
  const ms = Date.now() - t0;
  const output = run.stdout + (run.stderr ? `\n[stderr]\n${run.stderr}` : '');
  const answered = responses(script, run.stdout);
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
  const result = { ok: false, output, ms, reports, responses: answered };
  if (run.timedOut) return { ...result, why: `lscope run did not finish in ${timeoutMs / 1000} s` };
  if (run.status !== 0) {
    const failed = answered.find((r) => !r.ok);
    const why = failed
      ? `line ${failed.line} \`${clip(failed.text, 90)}\`: ${summary(failed.response)}`
      : `lscope run failed (exit status ${run.status}): ${(run.stderr.trim().split('\n').at(-1) || run.stdout.trim().split('\n').at(-1) || '').slice(0, 200)}`;
    return { ...result, why: `${why}${missing.length ? '; ' + missing.join('; ') : ''}` };
  }
  if (missing.length) {
    // lscope said it did what was asked, but the page disagrees: say what lscope acted on.
    const acted = answered.filter((r) => r.name !== 'goto').map((r) => clip(r.response.split('\n')[0], 90));
    return { ...result, why: `${missing.join('; ')} (lscope: ${acted.join(' | ') || 'nothing'})` };
  }
  return { ...result, ok: true, why: '' };
}
