// github.com: sign-in, repository search, a repository page, the classic new-issue form.
// Account: octocat / hunter2-correct. Cookie user_session remembers the sign-in.
import { render, html, redirect, cookie, clearCookie, token, esc, thousands } from './common.js';

const HOST = 'github.com';
const account = { login: 'octocat', password: 'hunter2-correct', name: 'The Octocat' };

const repos = [
  { full: 'octo-org/hello-world', description: 'My first repository on GitHub!', language: 'HTML', color: '#e34c26', stars: 1938, forks: 2174, issues: 12, pulls: 4, updated: 'Mar 3, 2025' },
  { full: 'octo-org/spoon-knife', description: 'This repo is for demonstration purposes only.', language: 'HTML', color: '#e34c26', stars: 12843, forks: 153201, issues: 0, pulls: 9, updated: 'Feb 11, 2025' },
  { full: 'octocat/Hello-World', description: 'My first repository on GitHub!', language: '', color: '', stars: 2921, forks: 2652, issues: 1102, pulls: 1597, updated: 'Jan 24, 2025' },
  { full: 'torvalds/linux', description: 'Linux kernel source tree', language: 'C', color: '#555555', stars: 190412, forks: 56210, issues: 0, pulls: 331, updated: 'Apr 2, 2025' },
  { full: 'microsoft/vscode', description: 'Visual Studio Code', language: 'TypeScript', color: '#3178c6', stars: 171502, forks: 31204, issues: 9876, pulls: 512, updated: 'Apr 2, 2025' },
  { full: 'nodejs/node', description: 'Node.js JavaScript runtime', language: 'JavaScript', color: '#f1e05a', stars: 110318, forks: 30112, issues: 1540, pulls: 502, updated: 'Apr 1, 2025' },
];
const findRepo = (owner, name) => repos.find((r) => r.full.toLowerCase() === `${owner}/${name}`.toLowerCase());

// 1938 -> "1.9k", as GitHub's counters show.
const short = (n) => (n >= 1000 ? `${(n / 1000).toFixed(n >= 100000 ? 0 : 1).replace(/\.0$/, '')}k` : String(n));

export function createGithub() {
  let sessions;  // user_session token -> login
  let issues;    // repo full name -> [{number, title, body, user}]
  let stars;     // Set of "login repo"
  const reset = () => { sessions = new Map(); issues = new Map(); stars = new Set(); };
  reset();

  const userOf = (ctx) => sessions.get(ctx.cookies.user_session) || null;
  const header = (user, q = '') => render(HOST, user ? '_header_in.html' : '_header_out.html', { user, q });
  const page = (ctx, status, name, vars) => {
    const user = userOf(ctx);
    return html(ctx.res, status, render(HOST, name, { ...vars, header: header(user, vars.q), user: user || '' }));
  };
  const loginUrl = (ctx) => `/login?return_to=${encodeURIComponent(`https://${HOST}${ctx.url.pathname}${ctx.url.search}`)}`;
  // Where to go after signing in: a path or a github.com address, nothing else.
  const safeReturn = (to) => {
    if (/^\/(?!\/)/.test(to || '')) return to;
    if (String(to || '').startsWith(`https://${HOST}/`)) return to.slice(`https://${HOST}`.length);
    return '/';
  };
  const notFound = (ctx) => page(ctx, 404, '404.html', {});

  const loginPage = (ctx, status, { returnTo = '', error = '', login = '' } = {}) =>
    html(ctx.res, status, render(HOST, 'login.html', {
      return_to: returnTo,
      login,
      flash: error ? render(HOST, '_flash_error.html', { message: error }) : '',
    }));

  const repoVars = (repo, user, tab = 'code') => {
    const [owner, name] = repo.full.split('/');
    const starred = user && stars.has(`${user} ${repo.full}`);
    return {
      owner, name, full: repo.full, description: repo.description, language: repo.language || 'None',
      stars: short(repo.stars + (starred ? 1 : 0)), stars_exact: thousands(repo.stars + (starred ? 1 : 0)),
      forks: short(repo.forks), issues: String(repo.issues + (issues.get(repo.full)?.length || 0)), pulls: String(repo.pulls),
      star_label: starred ? 'Unstar' : 'Star', star_action: starred ? 'unstar' : 'star',
      code_selected: tab === 'code' ? 'selected' : '', code_current: tab === 'code' ? 'aria-current="page"' : '',
      issues_selected: tab === 'issues' ? 'selected' : '', issues_current: tab === 'issues' ? 'aria-current="page"' : '',
    };
  };

  async function handle(ctx) {
    const { method, path, query, form } = ctx;
    const user = userOf(ctx);

    if (method === 'GET' && path === '/') {
      if (!user) return redirect(ctx.res, '/login');
      const top = repos.slice(0, 4).map((r) => `<li class="private source d-flex flex-items-center"><a class="color-fg-default lh-0 mb-2 markdown-title" href="/${esc(r.full)}" data-hovercard-type="repository">${esc(r.full)}</a></li>`).join('');
      return page(ctx, 200, 'dashboard.html', { top_repos: top });
    }
    if (method === 'GET' && path === '/login') {
      if (user) return redirect(ctx.res, safeReturn(query.get('return_to')));
      return loginPage(ctx, 200, { returnTo: query.get('return_to') || '' });
    }
    if (method === 'POST' && path === '/session') {
      const ok = form.login === account.login && form.password === account.password;
      ctx.record({ kind: 'login', login: String(form.login ?? ''), ok });
      if (!ok) return loginPage(ctx, 200, { returnTo: form.return_to || '', login: form.login || '', error: 'Incorrect username or password.' });
      const t = token();
      sessions.set(t, account.login);
      return redirect(ctx.res, safeReturn(form.return_to), 302, {
        'Set-Cookie': [cookie('user_session', t), cookie('logged_in', 'yes'), cookie('dotcom_user', account.login)],
      });
    }
    if (method === 'POST' && path === '/logout') {
      if (user) ctx.record({ kind: 'logout', login: user });
      sessions.delete(ctx.cookies.user_session);
      return redirect(ctx.res, '/', 302, { 'Set-Cookie': [clearCookie('user_session'), cookie('logged_in', 'no'), clearCookie('dotcom_user')] });
    }
    if (method === 'GET' && path === '/search') {
      const q = query.get('q') || '';
      const type = query.get('type') || 'repositories';
      ctx.record({ kind: 'search', q, type });
      const words = q.toLowerCase().replace(/[-_/]/g, ' ').split(/\s+/).filter(Boolean);
      const hits = words.length ? repos.filter((r) => {
        const text = `${r.full} ${r.description}`.toLowerCase().replace(/[-_/]/g, ' ');
        return words.every((w) => text.includes(w));
      }) : [];
      const results = hits.map((r) => render(HOST, '_search_result.html', {
        ...repoVars(r, user), updated: r.updated, lang_hidden: r.language ? '' : 'hidden', color: r.color || '#ccc',
      })).join('');
      return page(ctx, 200, 'search.html', {
        q, type, count: `${hits.length} ${hits.length === 1 ? 'result' : 'results'}`, results,
        empty: hits.length ? '' : render(HOST, '_search_empty.html', { q }),
      });
    }

    const m = /^\/([\w.-]+)\/([\w.-]+)(\/.*)?$/.exec(path);
    const repo = m && findRepo(m[1], m[2]);
    if (!repo) return notFound(ctx);
    const rest = m[3] || '';
    if (method === 'GET' && (rest === '' || rest === '/')) {
      return page(ctx, 200, 'repo.html', repoVars(repo, user));
    }
    if (method === 'POST' && (rest === '/star' || rest === '/unstar')) {
      if (!user) return redirect(ctx.res, `/login?return_to=${encodeURIComponent(`https://${HOST}/${repo.full}`)}`);
      if (rest === '/star') stars.add(`${user} ${repo.full}`); else stars.delete(`${user} ${repo.full}`);
      ctx.record({ kind: rest.slice(1), repo: repo.full, user });
      return redirect(ctx.res, `/${repo.full}`);
    }
    if (method === 'GET' && rest === '/issues') {
      const items = (issues.get(repo.full) || []).map((i) =>
        `<li><a class="Link--primary markdown-title" href="/${esc(repo.full)}/issues/${i.number}">${esc(i.title)}</a> <span class="color-fg-muted">#${i.number}</span></li>`).join('');
      return page(ctx, 200, 'issues.html', { ...repoVars(repo, user, 'issues'),
        issue_items: items || '<li class="blankslate">There aren\'t any open issues.</li>' });
    }
    if (method === 'GET' && rest === '/issues/new') {
      if (!user) return redirect(ctx.res, loginUrl(ctx));
      return page(ctx, 200, 'issue_new.html', { ...repoVars(repo, user, 'issues'), error: '' });
    }
    if (method === 'POST' && rest === '/issues') {
      if (!user) return redirect(ctx.res, loginUrl({ url: new URL(`https://${HOST}/${repo.full}/issues/new`) }));
      const title = String(form['issue[title]'] ?? '').trim();
      const body = String(form['issue[body]'] ?? '').replace(/\r\n/g, '\n');  // a form sends CRLF
      if (!title) {
        return page(ctx, 422, 'issue_new.html', { ...repoVars(repo, user, 'issues'),
          error: render(HOST, '_flash_error.html', { message: "Title can't be blank" }) });
      }
      const list = issues.get(repo.full) || [];
      issues.set(repo.full, list);
      const number = list.length + 1;
      list.push({ number, title, body, user });
      ctx.record({ kind: 'issue', repo: repo.full, title, body, number, user });
      return redirect(ctx.res, `/${repo.full}/issues/${number}`);
    }
    const im = /^\/issues\/(\d+)$/.exec(rest);
    if (method === 'GET' && im) {
      const issue = (issues.get(repo.full) || []).find((i) => i.number === Number(im[1]));
      if (!issue) return notFound(ctx);
      const bodyHtml = issue.body.trim()
        ? issue.body.split(/\n{2,}/).map((p) => `<p dir="auto">${esc(p).replace(/\n/g, '<br>')}</p>`).join('\n')
        : '<p class="color-fg-muted"><em>No description provided.</em></p>';
      return page(ctx, 200, 'issue.html', { ...repoVars(repo, user, 'issues'), number: String(issue.number),
        title: issue.title, author: issue.user, body_html: bodyHtml });
    }
    return notFound(ctx);
  }

  return { host: HOST, aliases: ['www.github.com'], reset, handle: (ctx) => (
    ctx.host === 'www.github.com'
      ? redirect(ctx.res, `https://${HOST}${ctx.url.pathname}${ctx.url.search}`, 301)
      : handle(ctx)) };
}
