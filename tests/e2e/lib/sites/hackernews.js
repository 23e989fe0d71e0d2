// news.ycombinator.com: front page, item pages with the comment tree and form, login (and
// the "Create Account" form below it), upvote/unvote, comments. Account: pg / correct-horse.
// Cookie `user` ("<name>&<token>") remembers the sign-in.
import { render, html, redirect, cookie, clearCookie, token, digest, esc } from './common.js';

const HOST = 'news.ycombinator.com';
const SECRET = token();

const stories = [
  { id: 43500101, title: 'The Analytical Engine’s first program, reconstructed', url: 'https://www.computerhistory.org/babbage/notes-g/', site: 'computerhistory.org', points: 421, by: 'adalove', age: '5 hours ago', time: '2025-04-02T07:12:40' },
  { id: 43500102, title: 'Show HN: A static site generator in 500 lines of Go', url: 'https://github.com/mlk/tinysite', site: 'github.com/mlk', points: 188, by: 'mlk', age: '3 hours ago', time: '2025-04-02T09:03:11' },
  { id: 43500103, title: 'Ask HN: What are you working on? (April 2025)', url: '', site: '', points: 97, by: 'throwaway42', age: '6 hours ago', time: '2025-04-02T06:00:00', text: 'What are you working on? Any new ideas that you’re excited about?' },
  { id: 43500104, title: 'SQLite is not a toy database', url: 'https://antonz.org/sqlite-is-not-a-toy-database/', site: 'antonz.org', points: 256, by: 'nalgeon', age: '8 hours ago', time: '2025-04-02T04:20:00' },
  { id: 43500105, title: 'Rust 1.86.0 released', url: 'https://blog.rust-lang.org/2025/04/03/Rust-1.86.0.html', site: 'rust-lang.org', points: 301, by: 'steveklabnik', age: '1 hour ago', time: '2025-04-02T11:02:00' },
];
// Comments that came with the copy: [id, story, parent, by, age, text].
const seedComments = [
  [43500201, 43500101, 43500101, 'dang', '4 hours ago', 'Related: <a href="item?id=39000001">The first computer program</a> (2024, 212 comments)'],
  [43500202, 43500101, 43500201, 'jcs', '3 hours ago', 'Note G still reads well. The table of operations is the part people skip, and it is the best part.'],
  [43500203, 43500101, 43500101, 'patio11', '2 hours ago', 'Worth reading the Menabrea paper first; Lovelace’s notes are three times its length.'],
  [43500204, 43500103, 43500103, 'mlk', '5 hours ago', 'A tiny static site generator, mostly to learn Go’s html/template.'],
];

export function createHackerNews() {
  let accounts;  // name -> password
  let sessions;  // cookie token -> name
  let votes;     // Set of "user id"
  let comments;  // [{id, story, parent, by, age, text}]
  let nextId;
  const reset = () => {
    accounts = new Map([['pg', 'correct-horse']]);
    sessions = new Map();
    votes = new Set();
    comments = seedComments.map(([id, story, parent, by, age, text]) => ({ id, story, parent, by, age, text }));
    nextId = 43500301;
  };
  reset();

  const userOf = (ctx) => {
    const [name, t] = String(ctx.cookies.user || '').split('&');
    return name && sessions.get(t) === name ? name : null;
  };
  const auth = (user, id) => digest(SECRET, 'auth', user, id).slice(0, 40);
  const hmac = (id) => digest(SECRET, 'hmac', id).slice(0, 40);
  const safeGoto = (g) => (g && /^[a-z]/i.test(g) && !/^[a-z][\w+.-]*:/i.test(g) ? g : 'news');
  const points = (s) => s.points + [...votes].filter((v) => v.endsWith(` ${s.id}`)).length;
  const commentCount = (s) => comments.filter((c) => c.story === s.id).length;

  const pagetop = (user, gotoPath) => (user
    ? `<a id="me" href="user?id=${esc(user)}">${esc(user)}</a> (<span id="karma">1</span>) | <a id="logout" rel="nofollow" href="logout?auth=${auth(user, 'logout')}&amp;goto=${encodeURIComponent(gotoPath)}">logout</a>`
    : `<a href="login?goto=${encodeURIComponent(gotoPath)}">login</a>`);

  const page = (ctx, title, gotoPath, content, extra = {}) => html(ctx.res, 200, render(HOST, 'page.html', {
    title, content, pagetop: pagetop(userOf(ctx), gotoPath), op: extra.op || 'news', ...extra,
  }));

  // Vote arrow, "unvote" link and vote href for an item, as the signed-in user sees them.
  const voteParts = (user, id, gotoPath) => {
    const voted = user && votes.has(`${user} ${id}`);
    const base = `vote?id=${id}&amp;how=up${user ? `&amp;auth=${auth(user, id)}` : ''}&amp;goto=${encodeURIComponent(gotoPath)}`;
    return {
      arrow: `<a id='up_${id}'${voted ? " class='clicky nosee'" : ''}${user ? ` onclick='return vote(event, this, "up")'` : ''} href='${base}'><div class='votearrow' title='upvote'></div></a>`,
      unvote: voted ? ` | <a id='un_${id}' class='clicky' onclick='return vote(event, this, "un")' href='vote?id=${id}&amp;how=un&amp;auth=${auth(user, id)}&amp;goto=${encodeURIComponent(gotoPath)}'>unvote</a>` : '',
    };
  };

  const storyRows = (user, s, rank, gotoPath) => {
    const v = voteParts(user, s.id, gotoPath);
    const n = commentCount(s);
    return render(HOST, '_story.html', {
      id: String(s.id), rank: rank ? `${rank}.` : '', arrow: v.arrow, unvote: v.unvote, title: s.title,
      href: s.url || `item?id=${s.id}`, sitebit: s.site ? ` <span class="sitebit comhead"> (<a href="from?site=${esc(s.site)}"><span class="sitestr">${esc(s.site)}</span></a>)</span>` : '',
      points: `${points(s)} points`, by: s.by, age: s.age, time: s.time,
      comments: n ? `${n}&nbsp;comment${n === 1 ? '' : 's'}` : 'discuss', goto: encodeURIComponent(gotoPath),
    });
  };

  const commentTree = (user, storyId, gotoPath) => {
    const rows = [];
    const walk = (parent, depth) => {
      for (const c of comments.filter((x) => x.parent === parent)) {
        const v = voteParts(user, c.id, gotoPath);
        rows.push(render(HOST, '_comment.html', {
          id: String(c.id), indent: String(depth), width: String(depth * 40), arrow: v.arrow, unvote: v.unvote,
          by: c.by, age: c.age, text: c.text, goto: encodeURIComponent(`${gotoPath}#${c.id}`),
        }));
        walk(c.id, depth + 1);
      }
    };
    walk(storyId, 0);
    return rows.join('\n');
  };

  const loginPage = (ctx, { message = '', gotoPath = 'news' } = {}) =>
    html(ctx.res, 200, render(HOST, 'login.html', { message: message ? `${esc(message)}<br><br>\n` : '', goto: gotoPath }));

  function front(ctx) {
    const user = userOf(ctx);
    const rows = stories.map((s, i) => storyRows(user, s, i + 1, 'news')).join('\n<tr class="spacer" style="height:5px"></tr>\n');
    return page(ctx, 'Hacker News', 'news',
      `<table border="0" cellpadding="0" cellspacing="0">\n${rows}\n<tr class="morespace" style="height:10px"></tr><tr><td colspan="2"></td><td class="title"><a href="?p=2" class="morelink" rel="next">More</a></td></tr></table>`);
  }

  function item(ctx) {
    const id = Number(ctx.query.get('id'));
    const s = stories.find((x) => x.id === id);
    if (!s) return html(ctx.res, 200, 'No such item.');
    const user = userOf(ctx);
    const gotoPath = `item?id=${id}`;
    return page(ctx, `${s.title} | Hacker News`, gotoPath, render(HOST, '_item.html', {
      story: storyRows(user, s, 0, gotoPath), toptext: s.text ? `<tr><td colspan="2"></td><td><div class="toptext">${esc(s.text)}</div></td></tr>` : '',
      parent: String(id), goto: gotoPath, hmac: hmac(id), tree: commentTree(user, id, gotoPath),
    }), { op: 'item' });
  }

  function login(ctx) {
    const { acct = '', pw = '', creating } = ctx.form;
    const gotoPath = safeGoto(ctx.form.goto);
    const signIn = (name) => {
      const t = token();
      sessions.set(t, name);
      return redirect(ctx.res, gotoPath, 302, { 'Set-Cookie': cookie('user', `${name}&${t}`, '; Max-Age=31536000') });
    };
    if (creating === 't') {
      let message = '';
      if (!/^[\w-]{2,15}$/.test(acct)) message = 'Usernames can only contain letters, digits, dashes and underscores, and should be between 2 and 15 characters long. Please choose another.';
      else if (accounts.has(acct)) message = 'That username is taken. Please choose another.';
      else if (pw.length < 8) message = 'Passwords should be a least 8 characters long. Please choose another.';
      ctx.record({ kind: 'create_account', acct, ok: !message });
      if (message) return loginPage(ctx, { message, gotoPath });
      accounts.set(acct, pw);
      return signIn(acct);
    }
    const ok = accounts.has(acct) && accounts.get(acct) === pw;
    ctx.record({ kind: 'login', acct, ok });
    if (!ok) return loginPage(ctx, { message: 'Bad login.', gotoPath });
    return signIn(acct);
  }

  function vote(ctx) {
    const user = userOf(ctx);
    const id = Number(ctx.query.get('id'));
    const how = ctx.query.get('how') === 'un' ? 'un' : 'up';
    const gotoPath = safeGoto(ctx.query.get('goto'));
    if (!user) {
      return loginPage(ctx, { message: 'You have to be logged in to vote.', gotoPath: `${ctx.url.pathname.slice(1)}${ctx.url.search}` });
    }
    const known = stories.some((s) => s.id === id) || comments.some((c) => c.id === id);
    // No auth: the vote link followed from the login page (HN votes after signing in).
    const given = ctx.query.get('auth');
    if (!known || (given !== null && given !== auth(user, id))) return html(ctx.res, 200, 'Can\'t make that vote.');
    if (how === 'up') votes.add(`${user} ${id}`); else votes.delete(`${user} ${id}`);
    ctx.record({ kind: 'vote', id, how, user });
    if (ctx.query.get('js') === 't') return html(ctx.res, 200, '');
    return redirect(ctx.res, gotoPath);
  }

  function comment(ctx) {
    const user = userOf(ctx);
    const parent = Number(ctx.form.parent);
    const text = String(ctx.form.text ?? '').replace(/\r\n/g, '\n');  // a form sends CRLF
    const story = stories.find((s) => s.id === parent)?.id ?? comments.find((c) => c.id === parent)?.story;
    if (!user) return loginPage(ctx, { message: 'You have to be logged in to comment.', gotoPath: `item?id=${story ?? parent}` });
    if (!story || ctx.form.hmac !== hmac(parent)) return html(ctx.res, 200, 'Please try again.');
    if (!text.trim()) return redirect(ctx.res, `item?id=${story}`);
    const id = nextId++;
    const escaped = text.trim().split(/\n\s*\n/).map((p) => esc(p)).join('<p>');
    comments.unshift({ id, story, parent, by: user, age: 'just now', text: escaped });
    ctx.record({ kind: 'comment', parent, text, user, id });
    return redirect(ctx.res, safeGoto(ctx.form.goto) === 'news' ? `item?id=${story}` : safeGoto(ctx.form.goto));
  }

  async function handle(ctx) {
    const { method, path } = ctx;
    if (method === 'GET' && (path === '/' || path === '/news')) return front(ctx);
    if (method === 'GET' && path === '/item') return item(ctx);
    if (method === 'GET' && path === '/login') return loginPage(ctx, { gotoPath: safeGoto(ctx.query.get('goto')) });
    if (method === 'POST' && path === '/login') return login(ctx);
    if (method === 'GET' && path === '/logout') {
      const user = userOf(ctx);
      if (user && ctx.query.get('auth') === auth(user, 'logout')) {
        sessions.delete(String(ctx.cookies.user).split('&')[1]);
        ctx.record({ kind: 'logout', user });
        return redirect(ctx.res, safeGoto(ctx.query.get('goto')), 302, { 'Set-Cookie': clearCookie('user') });
      }
      return redirect(ctx.res, safeGoto(ctx.query.get('goto')));
    }
    if (method === 'GET' && path === '/vote') return vote(ctx);
    if (method === 'POST' && path === '/comment') return comment(ctx);
    return html(ctx.res, 404, 'Unknown.');
  }

  return { host: HOST, reset, handle };
}
