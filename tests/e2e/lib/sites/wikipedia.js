// en.wikipedia.org: the Main Page, two articles and Special:Search ("go" to an exact title,
// otherwise a results list). Nothing to sign in to.
import { render, html, redirect, esc } from './common.js';

const HOST = 'en.wikipedia.org';

// Pages that exist (title -> template) and what the search index knows (title, snippet, size).
const pages = { Main_Page: 'main_page.html', Ada_Lovelace: 'ada_lovelace.html', Alan_Turing: 'alan_turing.html' };
const index = [
  { title: 'Ada Lovelace', snippet: 'Augusta Ada King, Countess of Lovelace (née Byron; 10 December 1815 – 27 November 1852) was an English mathematician and writer, chiefly known for her work on Charles Babbage\'s proposed mechanical general-purpose computer, the Analytical Engine.', size: '88 KB (10,102 words)' },
  { title: 'Alan Turing', snippet: 'Alan Mathison Turing (23 June 1912 – 7 June 1954) was an English mathematician, computer scientist, logician, cryptanalyst, philosopher and theoretical biologist.', size: '140 KB (15,877 words)' },
  { title: 'Charles Babbage', snippet: 'Charles Babbage (26 December 1791 – 18 October 1871) was an English polymath. A mathematician, philosopher, inventor and mechanical engineer, Babbage originated the concept of a digital programmable computer. Ada Lovelace translated and annotated a paper on his Analytical Engine.', size: '71 KB (8,120 words)' },
  { title: 'Analytical Engine', snippet: 'The Analytical Engine was a proposed digital mechanical general-purpose computer designed by English mathematician and computer pioneer Charles Babbage. Ada Lovelace wrote the first published program for it.', size: '47 KB (5,601 words)' },
  { title: 'Turing machine', snippet: 'A Turing machine is a mathematical model of computation describing an abstract machine that manipulates symbols on a strip of tape according to a table of rules. Alan Turing introduced it in 1936.', size: '75 KB (9,310 words)' },
  { title: 'Turing test', snippet: 'The Turing test, originally called the imitation game by Alan Turing in 1949, is a test of a machine\'s ability to exhibit intelligent behaviour equivalent to that of a human.', size: '82 KB (9,874 words)' },
  { title: 'Lovelace (surname)', snippet: 'Lovelace is an English surname. Notable people with the surname include Ada Lovelace, mathematician, and Linda Lovelace.', size: '3 KB (301 words)' },
];

const key = (s) => String(s).trim().replace(/[\s_]+/g, '_').toLowerCase();
const titleOf = (name) => name.replace(/_/g, ' ');

export function createWikipedia() {
  const reset = () => {};

  function search(ctx) {
    const q = ctx.query.get('search') ?? '';
    const fulltext = ctx.query.has('fulltext');
    ctx.record({ kind: 'search', q });
    const exact = Object.keys(pages).find((p) => key(p) === key(q));
    if (q.trim() && exact && !fulltext) return redirect(ctx.res, `/wiki/${exact}`);
    const words = q.toLowerCase().split(/\s+/).filter(Boolean);
    const hits = words.length ? index.filter((e) => words.every((w) => `${e.title} ${e.snippet}`.toLowerCase().includes(w))) : [];
    const mark = (text) => esc(text).replace(new RegExp(`\\b(${words.map((w) => w.replace(/[^\w]/g, '')).filter(Boolean).join('|') || '$^'})`, 'gi'),
      '<span class="searchmatch">$1</span>');
    const items = hits.map((e, i) => {
      const href = `/wiki/${encodeURIComponent(e.title.replace(/ /g, '_')).replace(/%2C/g, ',')}`;
      return `<li class="mw-search-result mw-search-result-ns-0" data-prefixedtext="${esc(e.title)}"><div class="mw-search-result-heading">`
        + `<a href="${href}" title="${esc(e.title)}" data-serp-pos="${i}">${mark(e.title)}</a></div>`
        + `<div class="searchresult">${mark(e.snippet)}</div><div class="mw-search-result-data">${esc(e.size)} - 12:04, 28 March 2025</div></li>`;
    }).join('\n');
    const results = hits.length
      ? `<div class="results-info" data-mw-num-results-offset="0" data-mw-num-results-total="${hits.length}">Results <strong>1 – ${hits.length}</strong> of <strong>${hits.length}</strong></div>`
        + `<div class="mw-search-results-container"><ul class="mw-search-results">\n${items}\n</ul></div>`
      : '<p class="mw-search-nonefound">There were no results matching the query.</p>';
    return html(ctx.res, 200, render(HOST, 'search.html', { q, results }));
  }

  async function handle(ctx) {
    const { method, path } = ctx;
    if (method !== 'GET') return html(ctx.res, 405, 'Method not allowed');
    if (path === '/') return redirect(ctx.res, '/wiki/Main_Page', 301);
    if (path === '/w/index.php' || path === '/wiki/Special:Search') {
      if (ctx.query.has('search')) return search(ctx);
      const title = ctx.query.get('title');
      if (title && pages[title.replace(/ /g, '_')]) return redirect(ctx.res, `/wiki/${title.replace(/ /g, '_')}`);
      return html(ctx.res, 200, render(HOST, 'search.html', { q: '', results: '' }));
    }
    const m = /^\/wiki\/(.+)$/.exec(path);
    if (m) {
      const name = decodeURIComponent(m[1]);
      if (pages[name]) return html(ctx.res, 200, render(HOST, pages[name], {}));
      return html(ctx.res, 404, render(HOST, 'missing.html', { title: titleOf(name) }));
    }
    return html(ctx.res, 404, render(HOST, 'missing.html', { title: titleOf(path.slice(1)) }));
  }

  return { host: HOST, reset, handle };
}
