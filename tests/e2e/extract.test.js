// extract (issue 13) end to end: the official MCP client, the real lscope binary, real headless
// Chromium, pages built with real libraries (DataTables, Vue) that report what they show; each
// extract is checked against the page's own report, not against a copy of the answer.
import { describe, it as nodeTest, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, text, conform } from './lib/lscope.js';
import { startFixtureServer } from './lib/fixture_server.js';

const it = conform(nodeTest);
const here = path.dirname(fileURLToPath(import.meta.url));

let site;
let client;
const call = async (name, args = {}) => client.callTool({ name, arguments: args });
const ok = async (name, args = {}) => {
  const r = await call(name, args);
  assert.equal(r.isError, false, `${name} ${JSON.stringify(args)} failed:\n${text(r)}`);
  return r;
};
const fails = async (name, args = {}) => {
  const r = await call(name, args);
  assert.equal(r.isError, true, `${name} ${JSON.stringify(args)} should fail:\n${text(r)}`);
  return text(r);
};
// The last report of `event` the page sent (tests/fixtures/corpus/report.js).
const lastReport = (event) => {
  const r = site.reports.filter((x) => x.event === event).at(-1);
  assert.ok(r, `the page reported no ${event}`);
  return r.data;
};

before(async () => {
  site = await startFixtureServer({ extraRoots: { '/e2e-pages/': path.join(here, 'pages') } });
  ({ client } = await connect(['--tools', 'all']));
});
after(async () => {
  await client.close();
  await site.close();
});

describe('extract', () => {
  it('tables: a DataTables page reads as row objects keyed by its header, page by page as the page shows them', async () => {
    await ok('goto', { url: `${site.base}/extract-table.html` });
    const shown = lastReport('shown').rows;
    assert.equal(shown.length, 10, 'DataTables shows ten rows a page');
    const r = await ok('extract', { kind: 'tables' });
    const [table] = r.structuredContent.tables;
    assert.equal(r.structuredContent.total, 1, 'the pager and search box are no tables');
    assert.equal(table.name, 'Employees by office');
    assert.deepEqual(table.columns, ['Name', 'Position', 'Office', 'Age', 'Start date', 'Salary']);
    assert.deepEqual(table.rows, shown);
    // The text is aligned: the header and each row on a line, cells in one column each.
    const lines = text(r).split('\n');
    const header = lines.find((l) => l.startsWith('Name'));
    const first = lines.find((l) => l.startsWith(shown[0].Name));
    assert.ok(header && first, text(r));
    assert.equal(first.indexOf('| ' + shown[0].Position), header.indexOf('| Position'), text(r));
    // The next page of the table, as the page draws it.
    await ok('click', { target: 'Next' });
    const second = lastReport('shown').rows;
    assert.notDeepEqual(second, shown);
    const again = await ok('extract', { kind: 'tables', target: '"Staff directory"' });
    assert.deepEqual(again.structuredContent.tables[0].rows, second);
  });

  it('list: search results rendered by Vue read as items with their title and address', async () => {
    await ok('goto', { url: `${site.base}/extract-results.html` });
    const { results, related } = lastReport('rendered');
    // An agent names one result by its title; the list is every result like it.
    const r = await ok('extract', { kind: 'list', target: `"${results[1].title}"` });
    const items = r.structuredContent.items;
    assert.deepEqual(items.map((i) => ({ title: i.title, href: i.href })), results);
    assert.ok(items[2].text.includes('313 steps'), 'an item keeps its snippet');
    assert.match(text(r), /^1\. Lighthouse - Wikipedia · .* → https:\/\/en\.wikipedia\.org\/wiki\/Lighthouse$/m);
    assert.match(text(r), /^2\. Lighthouse keepers: a history · .* → \/articles\/keepers$/m, 'same-origin addresses by their path');
    // The list itself as the target gives the same items.
    const byCss = await ok('extract', { kind: 'list', target: 'css(ol.results)' });
    assert.deepEqual(byCss.structuredContent.items, items);
    // Links within a section named by its heading: that section's links, nothing from elsewhere.
    const links = await ok('extract', { kind: 'links', target: '"Related searches"' });
    assert.deepEqual(links.structuredContent.items, related);
    assert.ok(!text(links).includes('Terms'), text(links));
    // Paging: --max, then the offset the response names.
    const all = (await ok('extract', { kind: 'links' })).structuredContent.items;
    const first = await ok('extract', { kind: 'links', max: 4 });
    assert.deepEqual(first.structuredContent.items, all.slice(0, 4));
    assert.equal(first.structuredContent.more, all.length - 4);
    const next = first.structuredContent.next;
    assert.equal(next, 'extract links --max 4 --offset 4');
    const rest = await ok('extract', { kind: 'links', max: 4, offset: 4 });
    assert.deepEqual(rest.structuredContent.items, all.slice(4, 8));
  });

  it('meta, forms, text and images read what the document holds', async () => {
    await ok('goto', { url: `${site.base}/extract-results.html` });
    const meta = (await ok('extract', { kind: 'meta' })).structuredContent.meta;
    assert.equal(meta.description, 'Search results rendered by Vue from a JavaScript array');
    assert.equal(meta['og:title'], 'Lighthouse search');
    assert.equal(meta.lang, 'en');
    assert.match(meta.title, /lighthouse/);
    const forms = await ok('extract', { kind: 'forms' });
    const [form] = forms.structuredContent.items;
    assert.match(form.action, /\/search$/);
    assert.deepEqual(form.fields.map((f) => [f.label, f.value]), [['Search', 'lighthouse'], ['Time range', 'Past year']]);
    assert.deepEqual(form.buttons, ['Search']);
    const words = (await ok('extract', { kind: 'text', target: '"Related searches"' })).structuredContent.items;
    assert.deepEqual(words, ['Related searches', 'lighthouse keeper', 'fresnel lens', 'lighthouses near me']);
  });

  it('a 10,000-row table is counted whole and returned a bounded page at a time', async () => {
    await ok('goto', { url: `${site.base}/extract-big.html` });
    const r = await ok('extract', { kind: 'tables' });
    const [table] = r.structuredContent.tables;
    assert.equal(table.total_rows, 10000);
    assert.ok(table.rows.length > 0 && table.rows.length <= 50, `rows returned: ${table.rows.length}`);
    assert.ok(text(r).length < 10000, `text of ${text(r).length} characters`);
    assert.match(text(r), new RegExp(`${10000 - table.rows.length} more rows: extract tables --table 1 --offset ${table.rows.length}`));
    const last = await ok('extract', { kind: 'tables', offset: 9998 });
    assert.deepEqual(last.structuredContent.tables[0].rows, [
      { Invoice: 'INV-9999', Customer: `Customer ${9999 % 97}`, Amount: (9999 * 0.03).toFixed(2), Status: 'open' },
      { Invoice: 'INV-10000', Customer: `Customer ${10000 % 97}`, Amount: (10000 * 0.03).toFixed(2), Status: 'paid' },
    ]);
  });

  it('the hostile page (replaced builtins) still extracts its form', async () => {
    await ok('goto', { url: `${site.base}/hostile.html` });
    const [form] = (await ok('extract', { kind: 'forms' })).structuredContent.items;
    assert.deepEqual(form.fields.map((f) => [f.label, f.type]), [['Email', 'input/email'], ['Password', 'input/password']]);
    assert.deepEqual(form.buttons, ['Sign in']);
  });

  it('a page whose JSON answers 150 to 100,000 levels deep: its page or a clear error, and the server goes on', async () => {
    for (const depth of [150, 900, 5000, 100000]) {
      const go = await call('goto', { url: `${site.base}/e2e-pages/hostile-deep.html?depth=${depth}` });
      if (go.isError) {
        // WebDriver runs scripts in the page's world, where JSON.stringify is the page's.
        assert.match(text(go), /replaced JavaScript built-ins|replaced JSON.stringify|nested more than 1000 levels deep/, `depth ${depth}: ${text(go)}`);
      } else {
        assert.match(text(go), /button "Go on"/);
      }
    }
    assert.match(text(await ok('goto', { url: `${site.base}/login.html` })), /Sign in · Fixture/);
  });

  it('passwords and other sensitive values never appear; errors are one line with a hint', async () => {
    await ok('goto', { url: `${site.base}/login.html` });
    await ok('type', { target: 'password', text: 'hunter2-secret' });
    const forms = await ok('extract', { kind: 'forms' });
    assert.ok(!JSON.stringify(forms).includes('hunter2'), text(forms));
    assert.match(text(forms), /Password \(input\/password.*\) = "••••••••"/);
    const nothing = await fails('extract', { kind: 'links', target: '"No such heading anywhere"' });
    assert.match(nothing, /^error extract: no visible text "No such heading anywhere" on the page\n/);
    assert.match(nothing, /# hint\n/);
    const noList = await fails('extract', { kind: 'list' });
    assert.match(noList, /extract list needs a target/);
    const bad = await fails('extract', { kind: 'pictures' });
    assert.match(bad, /'kind' must be one of text, links, tables, images, meta, forms, list/);
  });
});
