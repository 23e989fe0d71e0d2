// extract (scanner/README.md) through the real backend: tables with spanned cells and two header
// rows, ARIA grids, a heading's section, a list in a shadow root, paging, and a hostile page.
'use strict';
const assert = require('assert');
const { test: nodeTest, before, after } = require('node:test');
const { serve, Browser, conform } = require('./harness');

const test = conform(nodeTest);

let site;
let browser;

before(async () => {
  site = await serve();
  browser = new Browser();
});

after(async () => {
  await browser.close();
  await site.close();
});

async function extract(command) {
  const r = await browser.cmd({ cmd: 'extract', ...command });
  assert.ok(r.ok, `extract ${JSON.stringify(command)} failed: ${r.code} ${r.error}`);
  return r.data;
}

test('extract tables: spans fill their slots, two header rows name a column, layout tables and hidden rows are left out', async () => {
  await browser.goto(site.base + 'extract_content.html');
  const d = await extract({ kind: 'tables' });
  assert.strictEqual(d.total, 2, JSON.stringify(d));
  const [schedule, grid] = d.tables;
  assert.deepStrictEqual(schedule.columns, ['Day', 'Session Morning', 'Session Afternoon']);
  assert.deepStrictEqual(schedule.rows, [
    { Day: 'Monday', 'Session Morning': 'Yoga', 'Session Afternoon': 'Chess' },
    { Day: 'Monday', 'Session Morning': 'Excursion', 'Session Afternoon': 'Excursion' },
    { Day: 'Tuesday', 'Session Morning': 'Swim', 'Session Afternoon': 'checked' },
  ]);
  assert.strictEqual(grid.name, 'Scores');
  assert.deepStrictEqual(grid.rows, [{ Player: 'Ann', Score: '7' }, { Player: 'Bob', Score: '9' }]);
  const page = await extract({ kind: 'tables', table: 1, offset: 2, max: 5 });
  assert.deepStrictEqual(page.tables.map((t) => [t.index, t.total_rows, t.offset, t.rows.length]), [[1, 3, 2, 1]]);
  const none = await browser.cmd({ cmd: 'extract', kind: 'tables', table: 3 });
  assert.strictEqual(none.code, 'ELEMENT_NOT_FOUND');
});

test('extract links within a heading: its section up to the next heading of its rank, each link once', async () => {
  await browser.goto(site.base + 'extract_content.html');
  const d = await extract({ kind: 'links', text: 'Links of the team' });
  assert.strictEqual(d.scope, 'the section under "Links of the team"');
  assert.deepStrictEqual(d.items.map((l) => [l.text, new URL(l.href).pathname]),
    [['Ada', '/team/ada'], ['Grace', '/team/grace'], ['Linus', '/team/linus']]);
  const all = await extract({ kind: 'links' });
  assert.ok(!all.items.some((l) => l.text === 'Script' || l.text === 'Hidden'), 'no script or hidden links');
  const two = await extract({ kind: 'links', max: 2, offset: 1 });
  assert.deepStrictEqual(two.items, all.items.slice(1, 3));
  assert.strictEqual(two.total, all.total);
});

test('extract list: items of a web component\'s shadow list from one of them', async () => {
  await browser.goto(site.base + 'extract_content.html');
  const d = await extract({ kind: 'list', text: 'Toaster' });
  assert.deepStrictEqual(d.items.map((i) => [i.title, new URL(i.href).pathname, i.text]),
    [['Kettle', '/p/0', 'Kettle · $10'], ['Toaster', '/p/1', 'Toaster · $11'], ['Blender', '/p/2', 'Blender · $12']]);
  const byCss = await extract({ kind: 'list', selector: 'product-list li' });
  assert.deepStrictEqual(byCss.items, d.items);
  const lonely = await browser.cmd({ cmd: 'extract', kind: 'list', text: 'Report' });
  assert.strictEqual(lonely.code, 'ELEMENT_NOT_FOUND', JSON.stringify(lonely));
});

test('extract on the hostile page: its replaced builtins change nothing', async () => {
  await browser.goto(site.base + 'hostile.html');
  const d = await extract({ kind: 'forms' });
  assert.deepStrictEqual(d.items.map((f) => f.fields.map((x) => x.label)), [['Username', 'Password']]);
  const meta = await extract({ kind: 'meta' });
  assert.deepStrictEqual(meta.items[0], { name: 'title', content: 'Hostile page' });
});
