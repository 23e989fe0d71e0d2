// Precision/recall of scan against the labelled fixture corpus (fixtures/*.expect.json), plus
// selector round trips, stable keys across scans and reloads, frames and scan time.
'use strict';
const fs = require('fs');
const path = require('path');
const { serve, launch, open, RESOLVE_DEEP, FIXTURES } = require('./harness');

const TARGET = 0.98;

function sameSet(a, b) {
  return a.length === b.length && a.every((x) => b.includes(x));
}

/** Compares one expected element with the scanned one; returns a list of differences. */
function elementDiffs(exp, got) {
  const diffs = [];
  for (const k of ['type', 'role', 'text']) {
    if (exp[k] !== undefined && exp[k] !== got[k]) diffs.push(`${k}: expected ${JSON.stringify(exp[k])}, got ${JSON.stringify(got[k])}`);
  }
  if (exp.modifiers && !sameSet(exp.modifiers, got.modifiers)) {
    diffs.push(`modifiers: expected ${JSON.stringify(exp.modifiers)}, got ${JSON.stringify(got.modifiers)}`);
  }
  return diffs;
}

async function idOf(t, selector) {
  const r = await t.cmd({ cmd: 'exists', selector });
  if (!r.ok) throw new Error(`ground truth selector ${selector}: ${r.error}`);
  return r.data.count ? (r.data.id || 0) : -1;
}

async function sameElement(t, a, b) {
  return t.evalTest(`(a, b) => { ${RESOLVE_DEEP}; const x = resolveDeep(a), y = resolveDeep(b); return x.length > 0 && x[0] === y[0]; }`, a, b);
}

/** True when the scanned pattern `got` matches the expected one (fields by element). */
async function patternMatches(t, exp, got) {
  if (exp.name !== got.name || !(await sameElement(t, exp.container, got.container))) return false;
  for (const [k, v] of Object.entries(exp)) {
    if (k === 'name' || k === 'container') continue;
    if (Array.isArray(v)) {
      const ids = [];
      for (const s of v) ids.push(await idOf(t, s));
      if (JSON.stringify(ids) !== JSON.stringify(got[k] || [])) return false;
    } else if (typeof v === 'string' && (k !== 'title' && k !== 'text')) {
      if ((await idOf(t, v)) !== got[k]) return false;
    } else if (v !== got[k]) {
      return false;
    }
  }
  for (const k of Object.keys(got)) if (!(k in exp) && typeof got[k] === 'number' && k !== 'current') return false;
  return true;
}

async function checkFixture(browser, base, name, expect, totals) {
  const problems = [];
  const t = await open(browser, base + name + '.html', { world: expect.world || 'isolated' });
  try {
    const scan = await t.cmd(Object.assign({ cmd: 'scan' }, expect.scan || {}));
    if (!scan.ok) throw new Error('scan failed: ' + scan.error);
    const d = scan.data;
    const byId = new Map(d.elements.map((e) => [e.id, e]));
    const matched = new Set();
    const c = { tp: 0, fp: 0, fn: 0, ptp: 0, pfp: 0, pfn: 0 };
    for (const exp of expect.elements) {
      const id = await idOf(t, exp.selector);
      if (id === -1) { problems.push(`ground truth selector matches nothing: ${exp.selector}`); c.fn++; continue; }
      const got = byId.get(id);
      if (!got) { problems.push(`missed ${exp.selector} (${exp.type} "${exp.text}")`); c.fn++; continue; }
      matched.add(id);
      const diffs = elementDiffs(exp, got);
      if (diffs.length) { problems.push(`[${id}] ${exp.selector}: ${diffs.join('; ')}`); c.fn++; c.fp++; } else c.tp++;
    }
    if (expect.exhaustive !== false) {
      for (const e of d.elements) if (!matched.has(e.id)) { problems.push(`unexpected [${e.id}] ${e.type}/${e.role} "${e.text}" ${e.selector}`); c.fp++; }
    }
    // Every returned selector must resolve, uniquely, to its own element.
    for (const e of d.elements) {
      const r = await t.cmd({ cmd: 'exists', selector: e.selector });
      if (!r.ok || r.data.count !== 1 || r.data.id !== e.id) problems.push(`selector of [${e.id}] does not round-trip: ${e.selector}`);
    }
    const used = new Set();
    for (const exp of expect.patterns) {
      let hit = -1;
      for (let i = 0; i < d.patterns.length; i++) {
        if (!used.has(i) && await patternMatches(t, exp, d.patterns[i])) { hit = i; break; }
      }
      if (hit >= 0) { used.add(hit); c.ptp++; } else { c.pfn++; problems.push(`pattern not found as expected: ${JSON.stringify(exp)}`); }
    }
    d.patterns.forEach((p, i) => { if (!used.has(i)) { c.pfp++; problems.push(`unexpected pattern ${JSON.stringify(p)}`); } });
    for (const f of expect.frames || []) {
      const got = d.frames.find((g) => g.selector === f.selector);
      if (!got || got.cross_origin !== f.cross_origin) problems.push(`frame ${JSON.stringify(f)} not reported as expected`);
    }
    if (expect.max_scan_ms && d.stats.scan_ms > expect.max_scan_ms) problems.push(`scan took ${d.stats.scan_ms} ms > ${expect.max_scan_ms}`);
    // Stable identity: the same keys on a second scan and after a reload.
    const keys = d.elements.map((e) => e.key);
    if (new Set(keys).size !== keys.length) problems.push('duplicate keys: ' + keys.filter((k, i) => keys.indexOf(k) !== i).join(', '));
    const again = await t.cmd(Object.assign({ cmd: 'scan' }, expect.scan || {}));
    if (JSON.stringify(again.data.elements.map((e) => e.key)) !== JSON.stringify(keys)) problems.push('keys differ between two scans');
    await t.page.reload();
    await t.inject();
    const reloaded = await t.cmd(Object.assign({ cmd: 'scan' }, expect.scan || {}));
    if (!sameSet(reloaded.data.elements.map((e) => e.key), keys)) problems.push('keys differ after a reload');
    for (const k of Object.keys(c)) totals[k] += c[k];
    return { c, problems, ms: d.stats.scan_ms, n: d.elements.length };
  } finally {
    await t.close();
  }
}

async function main() {
  const only = process.argv[2];
  const names = fs.readdirSync(FIXTURES).filter((f) => f.endsWith('.expect.json')).map((f) => f.replace('.expect.json', ''))
    .filter((n) => !only || n === only).sort();
  const site = await serve();
  const browser = await launch();
  const totals = { tp: 0, fp: 0, fn: 0, ptp: 0, pfp: 0, pfn: 0 };
  let failed = 0;
  try {
    for (const name of names) {
      const expect = JSON.parse(fs.readFileSync(path.join(FIXTURES, name + '.expect.json'), 'utf8'));
      const r = await checkFixture(browser, site.base, name, expect, totals);
      const mark = r.problems.length ? 'FAIL' : 'ok  ';
      if (r.problems.length) failed++;
      console.log(`${mark} ${name.padEnd(18)} elements ${r.c.tp}/${r.c.tp + r.c.fn} (fp ${r.c.fp})  patterns ${r.c.ptp}/${r.c.ptp + r.c.pfn} (fp ${r.c.pfp})  ${r.n} el in ${r.ms} ms`);
      for (const p of r.problems) console.log('       - ' + p);
    }
  } finally {
    await browser.close();
    site.close();
  }
  const ratio = (a, b) => (b ? a / b : 1);
  const ep = ratio(totals.tp, totals.tp + totals.fp), er = ratio(totals.tp, totals.tp + totals.fn);
  const pp = ratio(totals.ptp, totals.ptp + totals.pfp), pr = ratio(totals.ptp, totals.ptp + totals.pfn);
  console.log(`\nelements: precision ${ep.toFixed(3)} recall ${er.toFixed(3)}   patterns: precision ${pp.toFixed(3)} recall ${pr.toFixed(3)}   (${names.length} fixtures, ${failed} with problems)`);
  process.exitCode = [ep, er, pp, pr].every((x) => x >= TARGET) ? 0 : 1;
}

main().catch((e) => { console.error(e); process.exitCode = 1; });
