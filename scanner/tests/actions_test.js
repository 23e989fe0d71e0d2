// End-to-end tests of the scanner's commands through the real backend (`lscope scanner`): each
// test acts through the protocol and asserts what a user would check on the page.
'use strict';
const assert = require('assert');
const { test: nodeTest, before, after } = require('node:test');
const { serve, Browser, RESOLVE_DEEP, LATE_REGISTRY, conform } = require('./harness');
// Known backend differences (tests/e2e/backends/expectations.json) are skipped with their reason.
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

/** Opens a fixture page in the shared browser; returns the browser (t in the tests). */
async function open(file) {
  await browser.goto(site.base + file);
  return browser;
}

/** Runs a command and asserts it succeeded; returns data. */
async function ok(t, command) {
  const r = await t.cmd(command);
  assert.ok(r.ok, `${command.cmd} failed: ${r.code} ${r.error}`);
  assert.strictEqual(typeof r.timing.ms, 'number');
  return r.data;
}

/** Runs a command and asserts it failed with `code`; returns the message. */
async function err(t, command, code) {
  const r = await t.cmd(command);
  assert.strictEqual(r.ok, false, `${command.cmd} should fail with ${code}`);
  assert.strictEqual(r.code, code, `expected ${code}, got ${r.code}: ${r.error}`);
  return r.error;
}

const byText = (scan, text) => {
  const e = scan.elements.find((x) => x.text === text);
  assert.ok(e, `no element with text "${text}" in scan`);
  return e.id;
};
const pageText = (t, selector) => t.evalTest(`(s) => { ${RESOLVE_DEEP}; const e = resolveDeep(s)[0]; return e ? e.textContent : null; }`, selector);
const title = (t) => t.evalTest('() => document.title');

test('response shape, version and errors for bad commands', async () => {
  const t = await open('playground.html');
  const v = await ok(t, { cmd: 'version' });
  assert.strictEqual(v.protocol, '1.0.0');
  assert.ok(v.features.includes('point') && v.features.includes('wait_for'));
  const unknown = await err(t, { cmd: 'fly' }, 'UNKNOWN_COMMAND');
  assert.ok(unknown.includes('scan') && unknown.includes('click'), unknown);
  await err(t, { cmd: 'exists', selector: 'div[' }, 'SELECTOR_INVALID');
  await err(t, { cmd: 'click', id: 1 }, 'ELEMENT_NOT_FOUND');
  const script = await err(t, { cmd: 'execute', script: 'throw new TypeError("boom")' }, 'SCRIPT_ERROR');
  assert.ok(script.includes('boom'), script);
  const value = await ok(t, { cmd: 'execute', script: 'return [arguments[0] + 1, document.getElementById("target"), {a: null}]', args: [41] });
  assert.deepStrictEqual(value.value, [42, { element: '#target' }, { a: null }]);
  const expr = await ok(t, { cmd: 'execute', script: 'document.title' });
  assert.strictEqual(expr.value, 'Playground');
});

test('handle accepts JSON strings and never rejects', async () => {
  const t = await open('playground.html');
  assert.strictEqual((await t.handleRaw('\'{"cmd":"version"}\'')).ok, true);
  assert.strictEqual((await t.handleRaw('{ cmd: "version" }')).ok, true);
  assert.strictEqual((await t.handleRaw('"{not json"')).code, 'SCRIPT_ERROR');
  assert.strictEqual((await t.handleRaw('[1, 2]')).code, 'SCRIPT_ERROR');
  assert.strictEqual((await t.handleRaw('undefined')).code, 'SCRIPT_ERROR');
  assert.strictEqual((await t.handleRaw('{ cmd: "scan", max_elements: "lots" }')).ok, true);
});

test('click dispatches a realistic sequence; double, right, modifiers, offset', async () => {
  const t = await open('playground.html');
  const s = await ok(t, { cmd: 'scan' });
  const id = byText(s, 'Event target');
  const c = await ok(t, { cmd: 'click', id });
  assert.strictEqual(c.action, 'click');
  assert.strictEqual(c.selector, '#target');
  let log = await pageText(t, '#log');
  const order = log.trim().split('\n').map((l) => l.split(' ')[0]);
  assert.deepStrictEqual(order.filter((x) => ['pointerdown', 'mousedown', 'focus', 'pointerup', 'mouseup', 'click'].includes(x)),
    ['pointerdown', 'mousedown', 'focus', 'pointerup', 'mouseup', 'click']);
  assert.ok(c.changes.modified >= 1, 'the log changed');
  await t.evalTest('() => { document.getElementById("log").textContent = ""; }');
  await ok(t, { cmd: 'click', id, click_count: 2, modifiers: ['Control', 'Shift'], offset: { x: -20, y: 0 } });
  log = await pageText(t, '#log');
  assert.ok(/click button=0 detail=2 ctrl=true shift=true/.test(log), log);
  assert.ok(/dblclick button=0 detail=2/.test(log), log);
  const xs = [...log.matchAll(/^click .* x=(\d+)/gm)].map((m) => +m[1]);
  const width = await t.evalTest('() => document.getElementById("target").getBoundingClientRect().width');
  assert.ok(Math.abs(xs[0] - (width / 2 - 20)) <= 1, `offset applied: ${xs[0]} vs ${width / 2 - 20}`);
  await t.evalTest('() => { document.getElementById("log").textContent = ""; }');
  await ok(t, { cmd: 'click', id, button: 'right' });
  log = await pageText(t, '#log');
  assert.ok(/contextmenu button=2/.test(log) && !/^click/m.test(log), log);
  await err(t, { cmd: 'click', id, button: 'side' }, 'SCRIPT_ERROR');
});

test('point returns top-level coordinates that native input can use', async () => {
  const t = await open('playground.html');
  const s = await ok(t, { cmd: 'scan' });
  const p = await ok(t, { cmd: 'point', id: byText(s, 'Event target') });
  await t.click(p.x, p.y); // trusted (CDP) input at the scanner's point
  const log = await pageText(t, '#log');
  assert.ok(/click button=0 detail=1 .*trusted=true/.test(log), log);
  assert.ok(p.rect.width > 0 && p.selector === '#target');
  const wrapped = await ok(t, { cmd: 'point', id: byText(s, 'a link whose text wraps over two lines') });
  const hit = await t.evalTest('(x, y) => document.elementFromPoint(x, y).id', wrapped.x, wrapped.y);
  assert.strictEqual(hit, 'wrapped', 'a wrapped inline link is hit on its first line box');
});

test('point with reads: an element the page drew something else into since the scan is stale', async () => {
  // A list that reuses its rows by position (Carbon's MultiSelect re-sorts its options as they
  // are chosen): the row found as one option may show another by the time it is pressed.
  const t = await open('playground.html');
  const s = await ok(t, { cmd: 'scan' });
  const id = byText(s, 'Event target');
  await ok(t, { cmd: 'point', id, reads: 'Event target' });
  await ok(t, { cmd: 'point', id, reads: 'event TARGET' });
  await t.evalTest('() => { document.querySelector("#target").textContent = "Another row"; }');
  const why = await err(t, { cmd: 'point', id, reads: 'Event target' }, 'ELEMENT_STALE');
  assert.match(why, /now reads "Another row", not "Event target"/);
  await ok(t, { cmd: 'point', id });
});

test('watched with a still window sees what the page draws in its next frames', async () => {
  const t = await open('playground.html');
  const s = await ok(t, { cmd: 'scan' });
  const id = byText(s, 'Event target');
  // The page does nothing: no change counted, and the still window ends with none.
  await ok(t, { cmd: 'point', id, watch: true });
  const calm = await ok(t, { cmd: 'watched', quiet: 5, frames: 2 });
  assert.deepStrictEqual([calm.armed, calm.changes, calm.still && calm.still.changes], [true, 0, 0], JSON.stringify(calm));
  // A change two frames after the action, as a widget that renders in requestAnimationFrame
  // makes: a 1 ms window alone ends before it; the two frames the window spans see it.
  await ok(t, { cmd: 'point', id, watch: true });
  await t.evalTest(() => { requestAnimationFrame(() => requestAnimationFrame(() => { document.body.dataset.drawn = '1'; })); });
  const drawn = await ok(t, { cmd: 'watched', quiet: 1, frames: 2 });
  assert.ok(drawn.changes + (drawn.still ? drawn.still.changes : 0) >= 1, JSON.stringify(drawn));
  // The same when the page's first frame takes 100 ms (a loaded machine draws as late): the next
  // frame comes after the window's time, and is waited for all the same.
  await ok(t, { cmd: 'point', id, watch: true });
  await t.evalTest(() => {
    requestAnimationFrame(() => {
      const until = performance.now() + 100;
      while (performance.now() < until) { /* a long frame */ }
      requestAnimationFrame(() => { document.body.dataset.late = '1'; });
    });
  });
  const late = await ok(t, { cmd: 'watched', quiet: 1, frames: 2 });
  assert.ok(late.changes + (late.still ? late.still.changes : 0) >= 1, JSON.stringify(late));
  // No watch armed: nothing to report, and no window waited for.
  assert.deepStrictEqual(await ok(t, { cmd: 'watched', quiet: 5 }), { armed: false, changes: 0 });
});

test('watched with unheard_ok: no still window only when no listener of the page heard the action', async () => {
  // Focus on a field with the page's own click (the scanner's point), the text in one step, then
  // watched as the engine asks after typing plain text.
  const fieldId = async (t, label) => {
    const field = (await ok(t, { cmd: 'scan' })).elements.find((e) => e.label === label || e.text === label);
    assert.ok(field, `no field "${label}"`);
    return field.id;
  };
  const typeWatched = async (t, label) => {
    const p = await ok(t, { cmd: 'point', id: await fieldId(t, label), check: 'type', watch: true });
    await t.click(p.x, p.y);
    await t.op('commit', { text: 'abc' });
    return ok(t, { cmd: 'watched', quiet: 5, frames: 2, unheard_ok: true });
  };
  let t = await open('heard.html');
  const plain = await typeWatched(t, 'Plain');
  // A registry that came after the page's first scripts cannot know: it says heard, and the still
  // window runs. One in time knows nothing listens: unheard, and no still window.
  const safeSide = !plain.unheard && !!plain.still;
  const precise = plain.changes === 0 && plain.unheard === true && plain.still === undefined;
  if (LATE_REGISTRY === true) assert.ok(safeSide, JSON.stringify(plain));
  else if (LATE_REGISTRY === 'sometimes') assert.ok(safeSide || precise, JSON.stringify(plain));
  else assert.ok(precise, JSON.stringify(plain));
  assert.strictEqual(await t.evalTest('() => document.getElementById("plain").value'), 'abc');
  // A mousedown listener that draws a hint in the next frame: heard, and the frame it asked for is
  // followed (pending: the engine waits for it, as here), or the still window sees the hint (a
  // listener for the focus is heard the same way; the extension's script mode cannot always give
  // a synthesized focus its events).
  const focused = await typeWatched(t, 'Hinted');
  assert.ok(!focused.unheard && (focused.timers || focused.changes + (focused.still ? focused.still.changes : 0) >= 1), JSON.stringify(focused));
  if (focused.timers) assert.strictEqual((await ok(t, { cmd: 'wait_timers', timeout: 3000 })).settled, true);
  assert.strictEqual(await pageText(t, '#hint'), 'Hinted has the focus');
  // The field the focus leaves listens to blur: heard. The extension's script mode cannot always
  // give a synthesized focus its events (a tab without the window's focus): where the blur never
  // fired, nothing of the page heard the action, and unheard is the right answer.
  await ok(t, { cmd: 'focus', id: await fieldId(t, 'Checked on leaving') });
  const leaving = await typeWatched(t, 'Plain');
  const blurred = await t.evalTest('() => document.getElementById("leaving").dataset.blurred === "1"');
  assert.ok(blurred ? !leaving.unheard : LATE_REGISTRY === 'sometimes', `the blur listener of the field left: ${JSON.stringify(leaving)}`);
  // The focus leaves a field in a frame, whose blur listener (which changes no DOM) this window
  // cannot see: heard.
  await t.evalTest(() => document.getElementById('frame').contentDocument.getElementById('card').focus());
  const left = await typeWatched(t, 'Plain');
  assert.ok(!left.unheard && left.changes === 0, JSON.stringify(left));
  // Behind a closed shadow root (the slot's listeners cannot be seen), and in a custom element
  // (which may hold a declarative closed root): heard.
  assert.ok(!(await typeWatched(t, 'In a closed box')).unheard, 'closed shadow root');
  await typeWatched(t, 'Plain'); // the mouse leaves the box (heard, as its pointerout passes the host)
  assert.ok(!(await typeWatched(t, 'In a custom element')).unheard, 'custom element');
  // Without unheard_ok the still window runs as before.
  await ok(t, { cmd: 'point', id: await fieldId(t, 'Plain'), check: 'type', watch: true });
  const asked = await ok(t, { cmd: 'watched', quiet: 5, frames: 2 });
  assert.ok(asked.still && !asked.unheard, JSON.stringify(asked));
  // One click listener on the document: the press is heard on every field.
  t = await open('heard.html?click');
  assert.ok(!(await typeWatched(t, 'Plain')).unheard, 'a document click listener');
});

test('wait_timers: the short timers an action starts are waited for, a polling loop and later ones are not', async () => {
  const t = await open('timers.html');
  const s = await ok(t, { cmd: 'scan' });
  const field = s.elements.find((e) => e.label === 'Filter' || e.text === 'Filter');
  assert.ok(field, 'no Filter field');
  // A long text's worth of input, each key restarting the page's 300 ms debounce (however many
  // keys: each clears the last timer).
  const text = 'a filter long enough to type more keys than the registry follows in one chain';
  await ok(t, { cmd: 'point', id: field.id, check: 'type', watch: true });
  await t.evalTest((v) => {
    const f = document.getElementById('filter');
    for (let i = 1; i <= v.length; i++) {
      f.value = v.slice(0, i);
      f.dispatchEvent(new Event('input', { bubbles: true }));
    }
  }, text);
  const typed = await ok(t, { cmd: 'watched', quiet: 5, frames: 2 });
  assert.strictEqual(typed.timers, true, JSON.stringify(typed));
  assert.strictEqual(await pageText(t, '#results'), 'all', 'the debounce has not run yet');
  // The page's 50 ms polling loop runs throughout: the wait still ends when the filter has run.
  const ran = await ok(t, { cmd: 'wait_timers', timeout: 3000 });
  assert.strictEqual(ran.settled, true, JSON.stringify(ran));
  assert.strictEqual(await pageText(t, '#results'), `matching "${text}"`);
  assert.strictEqual(await pageText(t, '#args'), 'true', "the callback's arguments and this are the page's");
  // A menu shown 200 ms after a native click.
  const p = await ok(t, { cmd: 'point', id: byText(s, 'Open menu'), watch: true });
  await t.click(p.x, p.y);
  assert.strictEqual((await ok(t, { cmd: 'watched' })).timers, true);
  assert.strictEqual((await ok(t, { cmd: 'wait_timers', timeout: 3000 })).settled, true);
  assert.strictEqual(await t.evalTest(() => document.getElementById('menu').hidden), false);
  // A reminder 5 s later is not the click's result: nothing pending, nothing waited.
  const r = await ok(t, { cmd: 'point', id: byText(s, 'Remind me in 5 s'), watch: true });
  await t.click(r.x, r.y);
  const later = await ok(t, { cmd: 'watched' });
  assert.ok(!later.timers, JSON.stringify(later));
  assert.strictEqual((await ok(t, { cmd: 'wait_timers', timeout: 3000 })).settled, true);
  assert.strictEqual(await pageText(t, '#reminder'), '');
});

test('wait_quiet with done_quiet: the short spell only when the action\'s work was followed to its end', async () => {
  const t = await open('work.html');
  const s = await ok(t, { cmd: 'scan' });
  // The engine's settle after a click: watched, wait_timers, then the spell.
  const clickAndSettle = async (text) => {
    const p = await ok(t, { cmd: 'point', id: byText(s, text), watch: true });
    await t.click(p.x, p.y);
    await ok(t, { cmd: 'watched' });
    const timers = await ok(t, { cmd: 'wait_timers', timeout: 3000 });
    const spell = await ok(t, { cmd: 'wait_quiet', quiet: 80, done_quiet: 5, done_frames: 2, timeout: 3000 });
    return { timers, spell, out: await pageText(t, '#out') };
  };
  // Followed to the end: what the page shows once the timers are waited for is its last word.
  for (const [text, shown] of [['Now', 'now'], ['By message', 'message drawn'], ['In two frames', 'two frames'],
    ['After a promise', 'after a promise'], ['After a pause', 'after a pause'], ['Fetch and draw', 'fetched and drawn'],
    ['Load by XHR', 'loaded by xhr'], ['Reopen a request', 'reopened'], ['Fetch and read', 'read true']]) {
    const r = await clickAndSettle(text);
    assert.strictEqual(r.out, shown, `${text}: ${JSON.stringify(r)}`);
    assert.strictEqual(r.timers.settled, true, `${text}: ${JSON.stringify(r)}`);
    // A registry that came late cannot know what the page captured before it: never done.
    if (LATE_REGISTRY === true) assert.ok(!r.spell.done, `${text}: ${JSON.stringify(r)}`);
    else if (LATE_REGISTRY !== 'sometimes') assert.strictEqual(r.spell.done, true, `${text}: ${JSON.stringify(r)}`);
  }
  // The short spell waits for the transition a click started; its end's handler sets a timer:
  // that is waited for too, and then the long spell (the work came during the short one). A late
  // registry has no short spell (the engine waits for animations before the long one).
  if (LATE_REGISTRY === false) {
    const faded = await clickAndSettle('Fade in');
    assert.strictEqual(faded.out, 'faded in', JSON.stringify(faded));
    // On a loaded machine the 50 ms transition can end before the timers are waited for: its
    // end's timers are then waited for there, and the spell finds nothing to do (no change, no
    // animation in it). Work that came during the spell is never a short one.
    if (faded.spell.changes > 0 || faded.spell.animated > 0) assert.ok(!faded.spell.done, JSON.stringify(faded));
    // The transition ended after the timers were waited for and before the spell was asked for
    // (seen on a loaded machine): the work its end set is open when the spell starts, and its
    // timers are waited for all the same.
    await t.evalTest(`() => { const f = document.getElementById('faded'); f.style.transition = 'none'; f.style.opacity = '0.2';
      f.getBoundingClientRect(); f.style.transition = 'opacity 50ms linear'; document.getElementById('out').textContent = ''; }`);
    const p = await ok(t, { cmd: 'point', id: byText(s, 'Fade in'), watch: true });
    await t.click(p.x, p.y);
    await ok(t, { cmd: 'watched' });
    await ok(t, { cmd: 'wait_timers', timeout: 3000 });
    await t.evalTest(`() => new Promise((resolve) => { const f = document.getElementById('faded');
      if (!f.getAnimations().length) resolve(true); else f.addEventListener('transitionend', () => resolve(true), { once: true }); })`);
    const open = await ok(t, { cmd: 'wait_quiet', quiet: 80, done_quiet: 5, done_frames: 2, timeout: 3000 });
    assert.strictEqual(await pageText(t, '#out'), 'faded in', JSON.stringify(open));
    assert.ok(!open.done, JSON.stringify(open));
  }
  // Work it cannot follow to its end: the long spell, everywhere, and nothing left pending (a
  // port whose partner went to the window as the page loaded delivers elsewhere: its message is
  // not waited for until the cap).
  for (const text of ['Frame loop', 'In a second', 'Every 20 ms', 'By window message', 'By a moved port',
    'In a shadow tree']) {
    const r = await clickAndSettle(text);
    assert.ok(!r.spell.done, `${text}: ${JSON.stringify(r)}`);
    assert.strictEqual(r.timers.settled, true, `${text}: ${JSON.stringify(r)}`);
  }
  // The second's timer is not waited for: it may say its word after any later click, so the
  // port's relay is read once it has.
  await ok(t, { cmd: 'wait_for', condition: 'exists', selector: 'body[data-slow]', timeout: 5000 });
  assert.strictEqual((await clickAndSettle('By a moved port')).out, 'relayed hi');
  // The focus in a frame when the action starts: the frame's listeners hear it leave, unseen.
  await t.evalTest(() => document.getElementById('frame').contentDocument.getElementById('card').focus());
  assert.ok(!(await clickAndSettle('Now')).spell.done, 'the focus was in a frame');
  // Without done_quiet the spell is as asked, whatever the registry knows.
  await clickAndSettle('Now');
  assert.ok(!(await ok(t, { cmd: 'wait_quiet', quiet: 5, timeout: 1000 })).done);
  // A port whose partner went to a cross-origin frame (through the browser's own postMessage,
  // which no registry sees) never delivers here: a post to it is open, not pending.
  await open('work.html?xo');
  await ok(t, { cmd: 'wait_for', condition: 'exists', selector: 'body[data-moved]', timeout: 10000 });
  const again = await ok(t, { cmd: 'scan' });
  const p = await ok(t, { cmd: 'point', id: byText(again, "To a frame's port"), watch: true });
  await t.click(p.x, p.y);
  await ok(t, { cmd: 'watched' });
  const timers = await ok(t, { cmd: 'wait_timers', timeout: 3000 });
  const spell = await ok(t, { cmd: 'wait_quiet', quiet: 80, done_quiet: 5, done_frames: 2, timeout: 3000 });
  assert.strictEqual(timers.settled, true, JSON.stringify(timers));
  assert.ok(!spell.done, JSON.stringify(spell));
  assert.strictEqual(await pageText(t, '#out'), 'posted away');
});

test('the page\'s own polling loop is not the action\'s work, even when its timer runs right after the action\'s', async () => {
  const t = await open('polling.html');
  const s = await ok(t, { cmd: 'scan' });
  // Each click's drawing is a followed timer; the loop's timer, due every 4 ms, often runs in the
  // task right after it, before the drawing's code has finished lingering. Twenty clicks.
  for (let i = 1; i <= 20; i++) {
    const text = i % 2 ? 'Show' : 'Show in a frame';
    const p = await ok(t, { cmd: 'point', id: byText(s, text), watch: true });
    await t.click(p.x, p.y);
    await ok(t, { cmd: 'watched' });
    const timers = await ok(t, { cmd: 'wait_timers', timeout: 3000 });
    const spell = await ok(t, { cmd: 'wait_quiet', quiet: 80, done_quiet: 5, done_frames: 2, timeout: 3000 });
    const r = JSON.stringify({ i, timers, spell });
    assert.strictEqual(await pageText(t, '#out'), `${i % 2 ? 'shown' : 'framed'} ${i}`, r);
    assert.strictEqual(timers.settled, true, r);
    if (LATE_REGISTRY === true) assert.ok(!spell.done, r);
    else if (LATE_REGISTRY !== 'sometimes') assert.strictEqual(spell.done, true, r);
  }
});

/**
 * A stable point on the element named `text`, then a native click there; returns the page's title
 * (these pages set it in their handlers). `defined`: a selector whose element must be defined
 * when the point answers (the wait came before it).
 */
async function pointThenClick(t, s, text, defined) {
  const p = await ok(t, { cmd: 'point', id: byText(s, text), stable: true });
  if (defined) {
    assert.strictEqual(await t.evalTest((sel) => document.querySelector(sel).matches(':defined'), defined), true,
      `${defined} was defined when the point answered`);
  }
  await t.click(p.x, p.y);
  return t.evalTest(() => document.title);
}

test('a stable point waits for the animation that moves its target, even one not started yet', async () => {
  // A toast that slides in after a short delay (SweetAlert2 adds its animation class 10 ms after
  // showing the popup): during the delay its box is the same in every frame, so two frames alone
  // would answer with the place it is about to leave, and a release landing after it moves misses.
  const t = await open('playground.html');
  await t.evalTest(() => {
    const style = document.createElement('style');
    style.textContent = '@keyframes slide-in { from { transform: translateX(-400px); } to { transform: none; } }' +
      '#sliding { position: fixed; top: 120px; left: 600px; } #sliding.in { animation: slide-in 400ms ease-out 250ms both; }';
    document.head.append(style);
    const toast = document.createElement('div');
    toast.id = 'sliding';
    toast.innerHTML = '<button type="button">Close the sliding toast</button>';
    toast.querySelector('button').addEventListener('click', () => { document.title = 'slid and clicked'; });
    document.body.append(toast);
  });
  const s = await ok(t, { cmd: 'scan' });
  const rest = await t.evalTest(() => document.querySelector('#sliding button').getBoundingClientRect().left);
  await t.evalTest(() => document.querySelector('#sliding').classList.add('in'));  // away, and back in 250 ms
  const p = await ok(t, { cmd: 'point', id: byText(s, 'Close the sliding toast'), stable: true });
  assert.ok(Math.abs(p.rect.x - rest) < 1, `the point is where the button comes to rest (x ${rest}), not x ${p.rect.x}`);
  await t.click(p.x, p.y);
  assert.strictEqual(await t.evalTest(() => document.title), 'slid and clicked');
});

test('a stable point waits for a menu that takes no pointer events while it fades in', async () => {
  // Vuetify's VDialogTransition: the menu takes `pointer-events: none` and animates from its
  // opener (Web Animations, 225 ms) and only then takes clicks. A hit test during the animation
  // finds the field under the menu; a person waits for the menu to come to rest.
  const t = await open('playground.html');
  await t.evalTest(() => {
    const menu = document.createElement('div');
    menu.id = 'fading';
    menu.style.cssText = 'position: fixed; top: 150px; left: 500px; width: 200px; background: white;';
    menu.innerHTML = '<div role="listbox"><div role="option" tabindex="-1">Medium crust</div></div>';
    menu.querySelector('[role=option]').addEventListener('click', () => { document.title = 'picked while faded in'; });
    document.body.append(menu);
  });
  const s = await ok(t, { cmd: 'scan' });
  await t.evalTest(() => {
    const menu = document.querySelector('#fading');
    menu.style.pointerEvents = 'none';
    menu.animate([{ transform: 'translateY(-30px) scale(0.9)', opacity: 0 }, {}], { duration: 400 })
      .finished.then(() => menu.style.removeProperty('pointer-events'));
  });
  const p = await ok(t, { cmd: 'point', id: byText(s, 'Medium crust'), stable: true });
  await t.click(p.x, p.y);
  assert.strictEqual(await t.evalTest(() => document.title), 'picked while faded in');
});

test('a target made inert while a list is open elsewhere is covered by that open list', async () => {
  // Headless UI's Combobox makes the rest of the page inert while its list is open: the field
  // below takes no click (the hit test finds its nearest ancestor that is not inert), and a
  // person's first click closes the list. The point says so, as for a list drawn over it.
  const t = await open('playground.html');
  await t.evalTest(() => {
    const box = document.createElement('div');
    box.innerHTML = '<div id="people"><input aria-label="People" value="Em"><div role="listbox" style="border:1px solid">' +
      '<div role="option">Emma Dorsey</div></div></div><div id="rest"><input aria-label="Country"></div>';
    document.body.prepend(box);
    document.querySelector('#rest').inert = true;
  });
  const s = await ok(t, { cmd: 'scan' });
  const country = s.elements.find((e) => e.text === 'Country');
  const message = await err(t, { cmd: 'point', id: country.id }, 'ELEMENT_NOT_INTERACTABLE');
  assert.match(message, /is covered by an open list \(div "Emma Dorsey"[^)]*, click away at \(\d+, \d+\)/);
  await t.evalTest(() => { document.querySelector('#rest').inert = false; });
  await ok(t, { cmd: 'point', id: country.id });
});

test('a stable point waits for a web component that is not defined yet', async () => {
  const t = await open('late_component.html');
  const s = await ok(t, { cmd: 'scan' });
  await t.evalTest(() => document.dispatchEvent(new CustomEvent('define-late', { detail: 300 })));
  assert.strictEqual(await pointThenClick(t, s, 'Publish', '#publish'), 'published');
  // A custom tag that is never defined is acted on after the bounded wait.
  assert.strictEqual(await pointThenClick(t, s, 'Styled'), 'styled clicked');
});

test('an action waits while the page\'s web components keep being defined, then gives up on a tag never defined', async () => {
  const t = await open('late_component.html');
  const s = await ok(t, { cmd: 'scan' });
  // late-a, late-b, late-c defined 200 ms apart: each definition is progress, so the wait lasts
  // until the last one, and the plain button's handler finds late-c upgraded.
  await t.evalTest(() => document.dispatchEvent(new CustomEvent('define-chain', { detail: 200 })));
  assert.strictEqual(await pointThenClick(t, s, 'Open notes', 'late-c'), 'notes open');
  // Only never-defined tags are left (late-button and plain-tag): given up on after the lull, so
  // the next wait reports nothing pending and returns at once, without waiting out a lull
  // (300 ms); a check round may take a millisecond on a slower engine (WPE measured 1 ms).
  const w = await ok(t, { cmd: 'wait_upgrades', timeout: 3000 });
  assert.deepStrictEqual(w.pending, []);
  assert.ok(w.waited_ms < 100, `waited ${w.waited_ms} ms`);
});

test('an option below the box of a list that hides its overflow is listed and chosen by a click', async () => {
  // MUI X's time lists: overflow hidden, scrolling only under the pointer. A person reaches "04".
  const t = await open('visibility.html');
  const s = await ok(t, { cmd: 'scan' });
  await ok(t, { cmd: 'click', id: byText(s, '04') });
  assert.strictEqual(await t.evalTest('() => document.getElementById("h4").getAttribute("aria-selected")'), 'true');
  // What a box that is no list hides stays out of reach, and so does a menu folded away.
  for (const hidden of ['Clipped away', 'Folded away', 'Folded too']) assert.ok(!s.elements.some((e) => e.text === hidden), hidden);
});

test('disabled, read-only, pointer-events:none and hover', async () => {
  const t = await open('playground.html');
  const s = await ok(t, { cmd: 'scan' });
  const msg = await err(t, { cmd: 'click', id: byText(s, 'Disabled action') }, 'ELEMENT_DISABLED');
  assert.ok(msg.includes('Disabled action') && msg.includes('enabled'), msg);
  await err(t, { cmd: 'type', id: byText(s, 'Read only field'), text: 'x' }, 'ELEMENT_NOT_INTERACTABLE');
  const pe = await err(t, { cmd: 'click', id: byText(s, 'No pointer events') }, 'ELEMENT_NOT_INTERACTABLE');
  assert.ok(pe.includes('pointer events'), pe);
  const h = await ok(t, { cmd: 'hover', id: byText(s, 'Account') });
  assert.ok(h.changes.modified >= 1, 'the menu opened (class changed)');
  const again = await ok(t, { cmd: 'scan' });
  assert.ok(again.elements.some((e) => e.text === 'Profile'), 'menu items are visible after hover');
});

test('wait_for is event driven: appear, transition, enable, gone, timeout', async () => {
  const t = await open('playground.html');
  let s = await ok(t, { cmd: 'scan' });
  await ok(t, { cmd: 'click', id: byText(s, 'Spawn later') });
  const w = await ok(t, { cmd: 'wait_for', condition: 'visible', selector: '#spawned', timeout: 5000 });
  // (how long it waited depends on the machine: the element comes 200 ms after the click began)
  assert.ok(w.met && Number.isFinite(w.waited_ms), JSON.stringify(w));
  await ok(t, { cmd: 'click', id: byText(s, 'Fade in') });
  const f = await ok(t, { cmd: 'wait_for', condition: 'visible', selector: '#faded', timeout: 5000 });
  assert.ok(f.met, 'visible after the opacity transition ends');
  await ok(t, { cmd: 'click', id: byText(s, 'Enable the next button') });
  s = await ok(t, { cmd: 'scan' });
  const later = byText(s, 'Enabled later');
  await ok(t, { cmd: 'wait_for', condition: 'enabled', id: later, timeout: 5000 });
  await ok(t, { cmd: 'click', id: later });
  const removeId = byText(s, 'Remove me');
  await ok(t, { cmd: 'click', id: removeId });
  await ok(t, { cmd: 'wait_for', condition: 'gone', selector: '#remove-me', timeout: 1000 });
  await ok(t, { cmd: 'wait_for', condition: 'hidden', id: removeId, timeout: 1000 });
  const stale = await err(t, { cmd: 'click', id: removeId }, 'ELEMENT_STALE');
  assert.ok(stale.includes('scan'), stale);
  const to = await err(t, { cmd: 'wait_for', condition: 'exists', selector: '#never', timeout: 100 }, 'TIMEOUT');
  assert.ok(to.includes('#never') && to.includes('100'), to);
  await err(t, { cmd: 'wait_for', condition: 'sideways', selector: '#x' }, 'SCRIPT_ERROR');
});

test('submit without id uses the focused field; click on a link navigates', async () => {
  const t = await open('playground.html');
  const s = await ok(t, { cmd: 'scan' });
  await ok(t, { cmd: 'type', id: byText(s, 'City'), text: 'Oslo' });
  const sub = await ok(t, { cmd: 'submit' });
  assert.strictEqual(sub.submitted, true);
  assert.strictEqual(sub.form, '#f2');
  assert.ok((await pageText(t, '#log')).includes('f2 submitted city=Oslo'));
  const c = await ok(t, { cmd: 'click', id: byText(s, 'Go to page 2') });
  assert.strictEqual(c.navigated, true);
  assert.ok((await t.waitUrl('page2.html')).endsWith('/page2.html'));
});

test('login form: type, check, click submit; passwords masked', async () => {
  const t = await open('login_form.html');
  const s = await ok(t, { cmd: 'scan' });
  const lf = s.patterns.find((p) => p.name === 'login_form');
  const typed = await ok(t, { cmd: 'type', id: lf.email, text: 'me@example.com' });
  assert.deepStrictEqual([typed.typed, typed.value], ['me@example.com', 'me@example.com']);
  const pw = await ok(t, { cmd: 'type', id: lf.password, text: 'hunter2' });
  assert.ok(!JSON.stringify(pw).includes('hunter2'), 'password never echoed');
  const masked = await ok(t, { cmd: 'get_value', id: lf.password });
  // Masked, but how many characters it holds is told (the page shows as many dots).
  assert.deepStrictEqual([masked.value, masked.length], ['••••••••', 'hunter2'.length]);
  const again = await ok(t, { cmd: 'scan' });
  assert.ok(!JSON.stringify(again).includes('hunter2'), 'password not in scan');
  assert.deepStrictEqual(await ok(t, { cmd: 'check', id: lf.remember }), { action: 'check', id: lf.remember, checked: true, changed: true });
  assert.strictEqual((await ok(t, { cmd: 'check', id: lf.remember })).changed, false);
  assert.strictEqual((await ok(t, { cmd: 'get_value', id: lf.remember })).value, true);
  await ok(t, { cmd: 'click', id: lf.submit });
  assert.strictEqual(await pageText(t, '#result'), 'submitted me@example.com remember');
  assert.strictEqual((await ok(t, { cmd: 'get_text', selector: '#result' })).text, 'submitted me@example.com remember');
  await ok(t, { cmd: 'uncheck', id: lf.remember });
  assert.strictEqual(await t.evalTest('() => document.getElementById("remember").checked'), false);
  const ex = await ok(t, { cmd: 'exists', selector: '#email' });
  assert.deepStrictEqual([ex.exists, ex.count, ex.id], [true, 1, lf.email]);
});

test('query by CSS and XPath returns map ids; document token per load', async () => {
  const t = await open('login_form.html');
  const s = await ok(t, { cmd: 'scan' });
  const email = s.elements.find((e) => e.role === 'email');
  const q = await ok(t, { cmd: 'query', selector: '#login input' });
  assert.deepStrictEqual([q.count, q.ids], [4, [4, 5, 6]]);
  // The fourth match, a hidden input, was not in the map: it is registered after the last id.
  assert.strictEqual(q.added.length, 1);
  assert.strictEqual(q.added[0].id, s.elements.length + 1);
  assert.strictEqual(q.added[0].attributes.type, 'hidden');
  assert.strictEqual(q.added[0].state.visible, false);
  assert.deepStrictEqual((await ok(t, { cmd: 'query', selector: '#login input' })).ids, [4, 5, 6, s.elements.length + 1]);
  assert.deepStrictEqual((await ok(t, { cmd: 'query', xpath: email.xpath })).ids, [email.id]);
  await err(t, { cmd: 'query', xpath: '//input[' }, 'SELECTOR_INVALID');
  const again = await ok(t, { cmd: 'scan' });
  assert.ok(s.page.document && again.page.document === s.page.document, 'same document, same token');
  await t.evalTest('() => history.pushState({}, "", "?step=2")');
  assert.strictEqual((await ok(t, { cmd: 'scan' })).page.document, s.page.document);
  await t.reload();
  assert.notStrictEqual((await ok(t, { cmd: 'scan' })).page.document, s.page.document, 'new load, new token');
});

test('stable keys survive a re-render; old ids go stale', async () => {
  const t = await open('login_form.html');
  const before = await ok(t, { cmd: 'scan' });
  // Re-render the form as frameworks do: brand-new nodes, framework-generated ids changed.
  await t.evalTest(`() => {
    const f = document.getElementById('login');
    f.outerHTML = f.outerHTML.replace('id="remember"', 'id=":r7:"');
  }`);
  await err(t, { cmd: 'click', id: before.elements[3].id }, 'ELEMENT_STALE');
  const after = await ok(t, { cmd: 'scan' });
  assert.deepStrictEqual(after.elements.map((e) => e.key), before.elements.map((e) => e.key));
  assert.deepStrictEqual(after.patterns, before.patterns);
});

test('an element keeps its key when an alike one is inserted above it (a toast stack, newest on top)', async () => {
  const t = await open('playground.html');
  const close = () => `(() => { const b = document.createElement('button'); b.type = 'button'; b.textContent = '×'; return b; })()`;
  await t.evalTest(`() => {
    const stack = document.createElement('div');
    stack.id = 'toast-stack';
    stack.setAttribute('role', 'region');
    stack.setAttribute('aria-label', 'Notifications');
    stack.style.cssText = 'display: flex; flex-direction: column; align-items: start';
    stack.append(${close()});
    document.body.prepend(stack);
  }`);
  const before = await ok(t, { cmd: 'scan' });
  const first = before.elements.filter((e) => e.text === '×');
  assert.strictEqual(first.length, 1);
  await t.evalTest(`() => document.getElementById('toast-stack').prepend(${close()})`);
  const after = await ok(t, { cmd: 'scan' });
  const both = after.elements.filter((e) => e.text === '×');
  assert.strictEqual(both.length, 2);
  const kept = both.find((e) => e.key === first[0].key);
  const added = both.find((e) => e.key !== first[0].key);
  assert.ok(kept && added, `keys ${both.map((e) => e.key)}`);
  assert.ok(kept.rect.y > added.rect.y, 'the key stayed with the older button, now the lower one');
  // Removing the older one leaves the new one its own key, not the older one's.
  await t.evalTest(`() => document.querySelector('#toast-stack > button:last-child').remove()`);
  const last = (await ok(t, { cmd: 'scan' })).elements.filter((e) => e.text === '×');
  assert.deepStrictEqual(last.map((e) => e.key), [added.key]);
});

test('a control renamed in place keeps its key; the next page of a list in the same nodes does not', async () => {
  const t = await open('playground.html');
  await t.evalTest(`() => {
    const box = document.createElement('section');
    box.setAttribute('aria-label', 'Renames');
    box.innerHTML = '<label>Secret <input id="pw" type="password"></label>' +
      '<button type="button" id="toggle" aria-label="Show password">👁</button>' +
      '<a id="more" href="#more">Read more</a>' +
      '<table><tbody>' + ['Alice', 'Bob', 'Carol'].map((n) =>
        '<tr class="person"><td>' + n + '</td><td><button type="button" class="del">Delete ' + n + '</button></td></tr>').join('') +
      '</tbody></table>';
    document.body.prepend(box);
  }`);
  const keyOf = (scan, text) => scan.elements.find((e) => e.text === text)?.key;
  const before = await ok(t, { cmd: 'scan' });
  await t.evalTest(`() => {
    document.getElementById('toggle').setAttribute('aria-label', 'Hide password');
    document.getElementById('more').textContent = 'Read less';
    const next = ['Dave', 'Erin', 'Frank'];
    document.querySelectorAll('tr.person').forEach((tr, i) => {
      tr.cells[0].textContent = next[i];
      tr.querySelector('button').textContent = 'Delete ' + next[i];
    });
  }`);
  const after = await ok(t, { cmd: 'scan' });
  assert.ok(keyOf(before, 'Show password'), 'the toggle is listed');
  assert.strictEqual(keyOf(after, 'Hide password'), keyOf(before, 'Show password'), 'the toggle, renamed, keeps its key');
  // A link is where it leads, and a row's button is its entry: renamed, they are new elements.
  assert.notStrictEqual(keyOf(after, 'Read less'), keyOf(before, 'Read more'));
  const oldKeys = ['Alice', 'Bob', 'Carol'].map((n) => keyOf(before, 'Delete ' + n));
  const newKeys = ['Dave', 'Erin', 'Frank'].map((n) => keyOf(after, 'Delete ' + n));
  assert.ok(oldKeys.every(Boolean) && newKeys.every(Boolean), `${oldKeys} ${newKeys}`);
  for (const k of newKeys) assert.ok(!oldKeys.includes(k), `the next page's button took a key of the last page's: ${k}`);
});

test('seek scrolls a list that draws only the rows in view to a text, and puts it back when none shows it', async () => {
  const t = await open('virtual_list.html');
  const top = () => t.evalTest('() => document.getElementById("virtual").scrollTop');
  const first = await ok(t, { cmd: 'scan' });
  assert.ok(!first.elements.some((e) => e.text === 'Person 350'), 'not drawn before the seek');
  // Only the list drawn in part is scrolled: not the one drawn whole, not the empty rail.
  const hit = await ok(t, { cmd: 'seek', text: 'person 350', timeout_ms: 5000 });
  assert.deepStrictEqual([hit.found, hit.boxes], [true, 1]);
  const after = await ok(t, { cmd: 'scan' });
  const row = after.elements.find((e) => e.text === 'Person 350');
  assert.ok(row && row.in_viewport, 'the row is drawn and in view');
  await ok(t, { cmd: 'click', id: row.id });
  assert.strictEqual(await t.evalTest('() => document.body.dataset.chosen'), 'Person 350');
  // From there to the end, then from the top: a row above where it stands is found too.
  assert.strictEqual((await ok(t, { cmd: 'seek', text: 'Person 012', timeout_ms: 5000 })).found, true);
  const where = await top();
  assert.ok(where < 30 * 12, `scrolled back up to row 12 (scrollTop ${where})`);
  // Text no row shows: every row was looked at, and the list is where it was.
  await t.evalTest('() => { document.dispatchEvent(new Event("reset-drawn")); }');
  const miss = await ok(t, { cmd: 'seek', text: 'Person 999', timeout_ms: 5000 });
  assert.deepStrictEqual([miss.found, miss.timed_out, miss.boxes], [false, false, 1]);
  assert.strictEqual(await t.evalTest('() => document.getElementById("virtual").dataset.drawn'), '500', 'no row was passed over undrawn');
  // A step goes on past the two rows the list draws below its box: fewer steps than box-heights.
  assert.ok(miss.steps < 500 * 30 / 200 - 2, `steps ${miss.steps}`);
  assert.strictEqual(await top(), where);
  await err(t, { cmd: 'seek' }, 'SCRIPT_ERROR');
});

test('reveal names the control that brings a carousel\'s hidden slide in; a wizard\'s steps and a shown text get none', async () => {
  const t = await open('carousels.html');
  const s = await ok(t, { cmd: 'scan' });
  // The track that listens for swipes and the grid that delegates its clicks are not buttons of
  // their own; a lone card that listens is, named by its own text.
  assert.deepStrictEqual(s.elements.filter((e) => /Lyon|Nantes|Plan A/.test(e.text)).map((e) => e.text), []);
  assert.ok(s.elements.some((e) => e.text === 'Alone with a link'), 'the lone card is a unit');
  // A slide moved out by a transform: the French "Suivant" brings it, a slide at a time.
  const far = await ok(t, { cmd: 'reveal', text: 'oslo' });
  assert.deepStrictEqual([far.control.text, far.toward, far.away], ['Suivant', 'next', 2]);
  await ok(t, { cmd: 'click', id: far.control.id });
  const nearer = await ok(t, { cmd: 'reveal', text: 'Oslo' });
  assert.deepStrictEqual([nearer.control.text, nearer.away], ['Suivant', 1]);
  await ok(t, { cmd: 'click', id: nearer.control.id });
  assert.deepStrictEqual(await ok(t, { cmd: 'reveal', text: 'Oslo' }), { shown: true });
  const back = await ok(t, { cmd: 'reveal', text: 'Lyon' });
  assert.deepStrictEqual([back.control.text, back.toward, back.away], ['Précédent', 'previous', 2]);
  // An item hidden with display:none beside the one shown; the control says "next" in its data.
  const quote = await ok(t, { cmd: 'reveal', text: 'Deuxième avis' });
  assert.deepStrictEqual([quote.control.text, quote.toward, quote.away], ['Next', 'next', 1]);
  await ok(t, { cmd: 'click', id: quote.control.id });
  assert.deepStrictEqual(await ok(t, { cmd: 'reveal', text: 'Deuxième avis' }), { shown: true });
  // A wizard's next step holds fields: its "Suivant" is no carousel's. Text on no slide: nothing.
  assert.deepStrictEqual(await ok(t, { cmd: 'reveal', text: 'Ville de naissance' }), {});
  // "Next ›" that leads to another page moves no carousel.
  assert.deepStrictEqual(await ok(t, { cmd: 'reveal', text: 'Old news' }), {});
  assert.deepStrictEqual(await ok(t, { cmd: 'reveal', text: 'Nowhere at all' }), {});
  await err(t, { cmd: 'reveal' }, 'SCRIPT_ERROR');
});

test('reveal points at a carousel whose arrows show under the pointer, presses dots where arrows are off, counts slides by where they lie', async () => {
  const t = await open('carousels.html');
  await ok(t, { cmd: 'scan' });
  // The arrow is there but shows only on :hover: the carousel to point at, not the arrow.
  const dusk = await ok(t, { cmd: 'reveal', text: 'Dusk' });
  assert.deepStrictEqual([dusk.control, dusk.toward, dusk.away], [undefined, 'next', 2]);
  assert.ok(dusk.hover.selector.includes('gallery'), dusk.hover.selector);
  // Pointed at already (and still not shown): nothing more to do there.
  assert.deepStrictEqual(await ok(t, { cmd: 'reveal', text: 'Dusk', hovered: true }), {});
  // Arrows display:none (no pointer shows them): the dot after the current one, named by its place.
  const winter = await ok(t, { cmd: 'reveal', text: 'Winter' });
  assert.deepStrictEqual([winter.label, winter.toward, winter.away, winter.control.tag], ['dot 2 of 4', 'next', 3, 'button']);
  await ok(t, { cmd: 'click', id: winter.control.id });
  const nearer = await ok(t, { cmd: 'reveal', text: 'Winter' });
  assert.deepStrictEqual([nearer.label, nearer.away], ['dot 3 of 4', 2]);
  // Omega comes first in the DOM's last place: it lies before the shown slide, one away.
  await ok(t, { cmd: 'scan' });
  const omega = await ok(t, { cmd: 'reveal', text: 'Omega' });
  assert.deepStrictEqual([omega.control.text, omega.toward, omega.away], ['‹ Back', 'previous', 1]);
  const beta = await ok(t, { cmd: 'reveal', text: 'Beta' });
  assert.deepStrictEqual([beta.control.text, beta.toward, beta.away], ['Next ›', 'next', 1]);
  // Filter chips named by what they filter are no dots: nothing to press for the clipped card.
  assert.deepStrictEqual(await ok(t, { cmd: 'reveal', text: 'Croissant' }), {});
  // Slides stacked as a fading carousel's: by their order.
  const storm = await ok(t, { cmd: 'reveal', text: 'Storm' });
  assert.deepStrictEqual([storm.control.text, storm.toward, storm.away], ['Next quote', 'next', 1]);
  // Right to left: the slide on the left is the next one.
  const tsadi = await ok(t, { cmd: 'reveal', text: 'Tsadi' });
  assert.deepStrictEqual([tsadi.control.text, tsadi.toward, tsadi.away], ['Next', 'next', 1]);
  // No arrows, no dots, a row that says it takes drags: the drag that brings the next slide, from
  // its right-hand part back by 80% of the 300 px it shows, started where no button is.
  const lathe = await ok(t, { cmd: 'reveal', text: 'Lathe' });
  assert.deepStrictEqual([lathe.toward, lathe.away, lathe.swipe.dx, lathe.swipe.dy], ['next', 2, -240, 0]);
  const under = await t.evalTest(`(x, y) => {
    const v = document.querySelector('#swiped .viewport').getBoundingClientRect();
    const at = document.elementFromPoint(x, y);
    return { inside: x > v.left + 240 && x < v.right && y > v.top && y < v.bottom, slide: !!at.closest('#strack'), button: !!at.closest('button') };
  }`, lathe.swipe.x, lathe.swipe.y);
  assert.deepStrictEqual(under, { inside: true, slide: true, button: false });
  // Moved on to the last slide: the first one is dragged back, the other way.
  await t.evalTest("() => { document.getElementById('strack').style.transform = 'translateX(-600px)'; }");
  const kiln = await ok(t, { cmd: 'reveal', text: 'Kiln' });
  assert.deepStrictEqual([kiln.toward, kiln.away, kiln.swipe.dx], ['previous', 2, 240]);
  // Text selection turned off far around (inherited, not set by the row's own boxes): not dragged.
  assert.deepStrictEqual(await ok(t, { cmd: 'reveal', text: 'Quince' }), {});
  // Every slide a link: a drag would start on one and might follow it.
  assert.deepStrictEqual(await ok(t, { cmd: 'reveal', text: 'Medlar' }), {});
});

test('reveal names what opens a closed section around a text: a summary, a collapsed toggle (outermost first), a tab', async () => {
  const t = await open('sections.html');
  await ok(t, { cmd: 'scan' });
  const faq = await ok(t, { cmd: 'reveal', text: 'refund policy' });
  assert.deepStrictEqual([faq.control.text, faq.toward, faq.away], ['Refunds', 'open', 1]);
  // Closed inside a closed block: the outer toggle first (the inner one does not show yet).
  const outer = await ok(t, { cmd: 'reveal', text: 'Reset cache' });
  assert.deepStrictEqual([outer.control.text, outer.away], ['More options', 2]);
  await ok(t, { cmd: 'click', id: outer.control.id });
  const inner = await ok(t, { cmd: 'reveal', text: 'Reset cache' });
  assert.deepStrictEqual([inner.control.text, inner.away], ['Expert', 1]);
  await ok(t, { cmd: 'click', id: inner.control.id });
  assert.deepStrictEqual(await ok(t, { cmd: 'reveal', text: 'Reset cache' }), { shown: true });
  const tab = await ok(t, { cmd: 'reveal', text: 'Download invoices' });
  assert.deepStrictEqual([tab.control.text, tab.toward], ['Billing', 'open']);
  // By its opener's name (a target near a tab's or a header's text): that section or none.
  assert.strictEqual((await ok(t, { cmd: 'reveal', text: 'Download invoices', by: 'billing' })).control.text, 'Billing');
  assert.deepStrictEqual(await ok(t, { cmd: 'reveal', text: 'Download invoices', by: 'account' }), {});
  assert.deepStrictEqual(await ok(t, { cmd: 'reveal', text: 'Account details', by: 'account' }), {});
  // A toggle that leads to another page, a disabled one: nothing to press.
  assert.deepStrictEqual(await ok(t, { cmd: 'reveal', text: 'Only on another page' }), {});
  assert.deepStrictEqual(await ok(t, { cmd: 'reveal', text: 'Locked item' }), {});
});

test('a press on a button covered in part lands on the part a person sees; one covered whole is refused', async () => {
  const t = await open('carousels.html');
  const s = await ok(t, { cmd: 'scan' });
  await ok(t, { cmd: 'click', id: byText(s, 'Half covered') });
  assert.strictEqual(await t.evalTest('() => document.body.dataset.half'), 'pressed');
  const why = await err(t, { cmd: 'click', id: byText(s, 'Wholly covered') }, 'ELEMENT_NOT_INTERACTABLE');
  assert.match(why, /is covered by/);
  assert.strictEqual(await t.evalTest('() => document.body.dataset.whole || "not pressed"'), 'not pressed');
});

test('controlled inputs see every value (trackers, mask, maxlength, number, date, selects, radios)', async () => {
  const t = await open('controlled_inputs.html');
  const s = await ok(t, { cmd: 'scan' });
  const id = (text) => byText(s, text);
  await ok(t, { cmd: 'type', id: id('Name'), text: 'Ada' });
  await ok(t, { cmd: 'type', id: id('Quantity'), text: '12' });
  assert.strictEqual((await ok(t, { cmd: 'type', id: id('ZIP code'), text: '1234567' })).value, '12345');
  assert.strictEqual((await ok(t, { cmd: 'type', id: id('Phone'), text: '5551234567' })).value, '(555) 123-4567');
  await ok(t, { cmd: 'type', id: id('Notes'), text: 'a\nb' });
  await ok(t, { cmd: 'type', id: id('Date'), text: '2024-05-06' });
  const sel = await ok(t, { cmd: 'select', id: id('Size'), text: 'medium' });
  assert.deepStrictEqual([sel.value, sel.text, sel.previous.value], ['m', 'Medium', '']);
  await ok(t, { cmd: 'select', id: id('Size'), index: 3 });
  await ok(t, { cmd: 'select', id: id('Toppings'), value: ['ch', 'mu'] });
  const missing = await err(t, { cmd: 'select', id: id('Size'), text: 'Huge' }, 'ELEMENT_NOT_FOUND');
  assert.ok(missing.includes('"Small"') && missing.includes('"Large"'), missing);
  await ok(t, { cmd: 'check', id: id('Express') });
  await err(t, { cmd: 'uncheck', id: id('Express') }, 'ELEMENT_NOT_INTERACTABLE');
  const state = JSON.parse(await pageText(t, '#state'));
  assert.deepStrictEqual(state, { name: 'Ada', qty: '12', zip: '12345', phone: '(555) 123-4567', notes: 'a\nb',
    when: '2024-05-06', size: 'l', toppings: ['ch', 'mu'], ship: 'exp' });
  assert.deepStrictEqual((await ok(t, { cmd: 'get_value', id: id('Toppings') })).value, ['ch', 'mu']);
  await ok(t, { cmd: 'clear', id: id('Name') });
  assert.strictEqual(JSON.parse(await pageText(t, '#state')).name, '');
  await ok(t, { cmd: 'type', id: id('Name'), text: ' Lovelace', clear: false });
  assert.strictEqual((await ok(t, { cmd: 'get_value', id: id('Name') })).value, ' Lovelace');
  // A press the page holds back (a modal's focus trap cancels mousedown outside it) leaves the
  // focus where it was, as a browser does: clear empties the field without taking the focus.
  await ok(t, { cmd: 'focus', id: id('Quantity') });
  await t.evalTest(() => document.addEventListener('mousedown', (e) => e.preventDefault(), true));
  await ok(t, { cmd: 'clear', id: id('Name') });
  assert.strictEqual((await ok(t, { cmd: 'get_value', id: id('Name') })).value, '');
  assert.strictEqual(await t.evalTest(() => document.activeElement.id), 'qty');
});

test('covered elements: error names the cover, force works, popups dismissed in order', async () => {
  const t = await open('stacked_popups.html');
  let s = await ok(t, { cmd: 'scan' });
  const buy = byText(s, 'Buy now');
  const msg = await err(t, { cmd: 'click', id: buy }, 'ELEMENT_NOT_INTERACTABLE');
  assert.ok(msg.includes('covered by div#veil'), msg);
  await err(t, { cmd: 'point', id: buy }, 'ELEMENT_NOT_INTERACTABLE');
  assert.deepStrictEqual(s.patterns.map((p) => p.name), ['notification_toast', 'promo_popup', 'overlay']);
  for (const p of s.patterns) await ok(t, { cmd: 'click', id: p.close });
  s = await ok(t, { cmd: 'scan' });
  assert.deepStrictEqual(s.patterns, []);
  await ok(t, { cmd: 'click', id: byText(s, 'Buy now') });
  assert.strictEqual(await title(t), 'bought');
});

test('a cover that is an open list of choices says so (a person closes it with Escape), unless a modal is open', async () => {
  const t = await open('open_list.html');
  const s = await ok(t, { cmd: 'scan' });
  const listed = await err(t, { cmd: 'click', id: byText(s, 'Continue') }, 'ELEMENT_NOT_INTERACTABLE');
  assert.ok(listed.includes('is covered by an open list (div.head'), listed);
  const plain = await err(t, { cmd: 'click', id: byText(s, 'Under') }, 'ELEMENT_NOT_INTERACTABLE');
  assert.ok(plain.includes('is covered by div#veil') && !plain.includes('open list'), plain);
  // A text field's focusing press lands wherever it may, except on an open list: there it would
  // pick an option (PrimeReact's Dropdown panel, fading out over the next field).
  const typing = await err(t, { cmd: 'point', id: byText(s, 'City'), check: 'type' }, 'ELEMENT_NOT_INTERACTABLE');
  assert.ok(typing.includes('is covered by an open list (div "Green"'), typing);
  await ok(t, { cmd: 'point', id: byText(s, 'Note'), check: 'type' });
  await t.evalTest(() => { document.getElementById('modal').hidden = false; });
  const modal = await err(t, { cmd: 'click', id: byText(s, 'Continue') }, 'ELEMENT_NOT_INTERACTABLE');
  assert.ok(modal.includes('is covered by div.head') && !modal.includes('open list'), modal);
  assert.strictEqual(await title(t), 'open list');
});

test('force click reaches a covered element', async () => {
  const t = await open('stacked_popups.html');
  const s = await ok(t, { cmd: 'scan' });
  await ok(t, { cmd: 'click', id: byText(s, 'Buy now'), force: true });
  assert.strictEqual(await title(t), 'bought');
});

test('cookie banner accept removes the banner', async () => {
  const t = await open('cookie_banner.html');
  const s = await ok(t, { cmd: 'scan' });
  const cb = s.patterns.find((p) => p.name === 'cookie_banner');
  const c = await ok(t, { cmd: 'click', id: cb.accept });
  assert.ok(c.changes.removed >= 1);
  assert.strictEqual((await ok(t, { cmd: 'exists', selector: '#consent-bar' })).exists, false);
  assert.deepStrictEqual((await ok(t, { cmd: 'scan' })).patterns, []);
});

test('modal: select inside, submit, close; stale ids', async () => {
  const t = await open('modal_dialog.html');
  const s = await ok(t, { cmd: 'scan' });
  await ok(t, { cmd: 'select', id: byText(s, 'Country'), value: 'fr' });
  await ok(t, { cmd: 'click', id: byText(s, 'Save') });
  assert.strictEqual(await title(t), 'saved fr');
  const modal = s.patterns.find((p) => p.name === 'modal_dialog');
  await ok(t, { cmd: 'click', id: modal.close });
  await err(t, { cmd: 'type', id: byText(s, 'Full name'), text: 'x' }, 'ELEMENT_STALE');
  await err(t, { cmd: 'click', id: 999 }, 'ELEMENT_NOT_FOUND');
});

test('same-origin iframes: type, click, nested check, native click at point', async () => {
  const t = await open('iframes.html');
  const s = await ok(t, { cmd: 'scan' });
  await ok(t, { cmd: 'type', id: byText(s, 'Card number'), text: '4111111111111111' });
  await ok(t, { cmd: 'click', id: byText(s, 'Pay now') });
  assert.strictEqual(await pageText(t, '#pay >>> #status'), 'paid 4111111111111111');
  await ok(t, { cmd: 'check', id: byText(s, 'I agree to the terms') });
  assert.strictEqual(await t.evalTest(`() => { ${RESOLVE_DEEP}; return resolveDeep('#pay >>> #terms >>> #agree')[0].checked; }`), true);
  await ok(t, { cmd: 'type', id: byText(s, 'Card number'), text: '5500' });
  const p = await ok(t, { cmd: 'point', id: byText(s, 'Pay now') });
  await t.click(p.x, p.y);
  assert.strictEqual(await pageText(t, '#pay >>> #status'), 'paid 5500');
  assert.strictEqual((await ok(t, { cmd: 'get_text', selector: '#pay >>> #status' })).text, 'paid 5500');
  const cross = s.frames.find((f) => f.cross_origin);
  assert.ok(cross && cross.selector === '#ads' && cross.src.includes('frame_cross.html'));
});

test('shadow DOM: type and click inside open shadow roots; notation in queries', async () => {
  const t = await open('shadow_dom.html');
  const s = await ok(t, { cmd: 'scan' });
  const lf = s.patterns.find((p) => p.name === 'login_form');
  await ok(t, { cmd: 'type', id: lf.email, text: 'sh@dow.dom' });
  await ok(t, { cmd: 'click', id: lf.submit });
  await ok(t, { cmd: 'click', id: byText(s, 'Bold') });
  assert.strictEqual(await pageText(t, '#log'), 'login:sh@dow.dom[Bold]');
  assert.strictEqual((await ok(t, { cmd: 'exists', selector: '#card >>> #u' })).id, lf.email);
  assert.strictEqual((await ok(t, { cmd: 'get_text', selector: '#card >>> label' })).text, 'Email');
  await ok(t, { cmd: 'wait_for', condition: 'visible', selector: '#toolbar >>> fancy-button >>> button', timeout: 1000 });
});

test('contenteditable, hidden custom checkbox via its label, ARIA switch', async () => {
  const t = await open('widgets.html');
  const s = await ok(t, { cmd: 'scan' });
  const typed = await ok(t, { cmd: 'type', id: byText(s, 'Message body'), text: 'Hello world' });
  assert.strictEqual(typed.value, 'Hello world');
  await ok(t, { cmd: 'type', id: byText(s, 'Message body'), text: '!', clear: false });
  await ok(t, { cmd: 'check', id: byText(s, 'Notify followers') });
  await ok(t, { cmd: 'click', id: byText(s, 'Publish') });
  assert.strictEqual(await pageText(t, '#log'), 'published:Hello world!:true');
});

test('ARIA checkbox and switch toggle through clicks', async () => {
  const t = await open('aria_labels.html');
  const s = await ok(t, { cmd: 'scan' });
  assert.strictEqual((await ok(t, { cmd: 'uncheck', id: byText(s, 'Email notifications') })).checked, false);
  assert.strictEqual((await ok(t, { cmd: 'check', id: byText(s, 'I accept the terms') })).checked, true);
  assert.strictEqual((await ok(t, { cmd: 'check', id: byText(s, 'Pro') })).checked, true);
  assert.strictEqual(await t.evalTest('() => document.querySelector("[role=radio]").getAttribute("aria-checked")'), 'false');
  await err(t, { cmd: 'type', id: byText(s, 'Save changes'), text: 'x' }, 'ELEMENT_NOT_INTERACTABLE');
  await err(t, { cmd: 'select', id: byText(s, 'Language'), value: 'fr' }, 'ELEMENT_DISABLED');
});

test('scroll: page, directions, container, element; click scrolls into view', async () => {
  const t = await open('long_page.html');
  const vh = (await ok(t, { cmd: 'scan', max_elements: 0 })).page.viewport.height;
  const d = await ok(t, { cmd: 'scroll', direction: 'down' });
  assert.ok(Math.abs(d.y - 0.8 * vh) <= 1, `a page is 80% of the viewport: ${d.y} vs ${vh}`);
  assert.strictEqual((await ok(t, { cmd: 'scroll', direction: 'up', amount: 100 })).y, d.y - 100);
  const b = await ok(t, { cmd: 'scroll', direction: 'bottom' });
  assert.strictEqual(b.y, b.max_y);
  assert.strictEqual((await ok(t, { cmd: 'scroll', direction: 'top' })).y, 0);
  const box = await ok(t, { cmd: 'scroll', container: '#box', direction: 'down', amount: 60 });
  assert.deepStrictEqual([box.y, box.max_y], [60, 250]);
  const s = await ok(t, { cmd: 'scan' });
  const more = byText(s, 'Load more');
  const c = await ok(t, { cmd: 'click', id: more });
  assert.ok(c.y > 0 && c.y < vh, 'clicked inside the viewport');
  assert.strictEqual(await pageText(t, '#clicked'), 'more');
  const el = await ok(t, { cmd: 'scroll', element: byText(s, 'Read chapter 5') });
  assert.strictEqual(el.in_viewport, true);
  const sm = await ok(t, { cmd: 'scroll', direction: 'top', behavior: 'smooth' });
  assert.strictEqual(sm.y, 0);
  await err(t, { cmd: 'scroll', direction: 'sideways' }, 'SCRIPT_ERROR');
});

test('hostile page (isolated world): scan, type, click, wait, execute', async () => {
  const t = await open('hostile.html');
  const s = await ok(t, { cmd: 'scan' });
  const lf = s.patterns.find((p) => p.name === 'login_form');
  assert.ok(lf, 'login form detected despite replaced builtins');
  await ok(t, { cmd: 'type', id: lf.username, text: 'bob' });
  await ok(t, { cmd: 'click', id: lf.submit });
  await ok(t, { cmd: 'wait_for', condition: 'visible', selector: '#out', timeout: 1000 });
  assert.strictEqual((await ok(t, { cmd: 'get_text', selector: '#out' })).text, 'hello bob');
  const leftovers = await t.evalTest('() => document.querySelectorAll("iframe").length');
  assert.strictEqual(leftovers, 0, 'the pristine-realm iframe is gone');
});

test('detail_max: elements past it carry no selector or xpath; get_selector gives them', async () => {
  const t = await open('pagination.html');
  const full = await ok(t, { cmd: 'scan' });
  const s = await ok(t, { cmd: 'scan', detail_max: 5 });
  assert.strictEqual(s.elements.length, full.elements.length, 'max_elements keeps its meaning');
  const detailed = s.elements.filter((e) => e.selector !== undefined);
  assert.strictEqual(detailed.length, 5);
  assert.strictEqual(s.stats.detailed, 5);
  for (const e of detailed) assert.ok(e.xpath, `[${e.id}] has its xpath too`);
  // Pattern members come first (this page's pagination has more than five).
  const pagination = s.patterns.find((p) => p.name === 'pagination');
  const members = [pagination.prev, pagination.next, ...pagination.pages].filter(Boolean);
  assert.ok(members.length > 5);
  for (const e of detailed) assert.ok(members.includes(e.id), `[${e.id}] ${e.text} is a pattern member`);
  const bare = s.elements.find((e) => e.selector === undefined);
  assert.ok(bare.key && bare.rect && bare.state && bare.attributes, 'everything else is there');
  const sel = await ok(t, { cmd: 'get_selector', id: bare.id });
  assert.strictEqual((await ok(t, { cmd: 'exists', selector: sel.selector })).id, bare.id);
  assert.strictEqual((await ok(t, { cmd: 'query', xpath: sel.xpath })).ids[0], bare.id);
  assert.strictEqual(sel.selector, full.elements.find((e) => e.key === bare.key).selector);
  await err(t, { cmd: 'get_selector', id: 999 }, 'ELEMENT_NOT_FOUND');
});

test('query: combinators pierce open shadow roots and same-origin frames; xpath reaches frames', async () => {
  let t = await open('shadow_dom.html');
  let s = await ok(t, { cmd: 'scan' });
  const lf = s.patterns.find((p) => p.name === 'login_form');
  // #card is a shadow host: its input lives in the shadow root.
  assert.deepStrictEqual((await ok(t, { cmd: 'query', selector: '#card input' })).ids.slice(0, 1), [lf.email]);
  assert.deepStrictEqual((await ok(t, { cmd: 'query', selector: '#card >>> #u' })).ids, [lf.email]);
  const bold = byText(s, 'Bold');
  assert.ok((await ok(t, { cmd: 'query', selector: '#toolbar button' })).ids.includes(bold));
  assert.ok((await ok(t, { cmd: 'query', selector: 'fancy-button > button' })).ids.includes(bold), 'child combinator from a host');
  assert.deepStrictEqual((await ok(t, { cmd: 'query', selector: 'button:not(*)' })).count, 0);
  await err(t, { cmd: 'query', selector: 'div > > a' }, 'SELECTOR_INVALID');
  t = await open('iframes.html');
  s = await ok(t, { cmd: 'scan' });
  const card = byText(s, 'Card number');
  assert.deepStrictEqual((await ok(t, { cmd: 'query', selector: '#pay input[autocomplete=cc-number]' })).ids, [card]);
  assert.deepStrictEqual((await ok(t, { cmd: 'query', selector: 'input[autocomplete=cc-number]' })).ids, [card]);
  assert.deepStrictEqual((await ok(t, { cmd: 'query', xpath: '//input[@autocomplete="cc-number"]' })).ids, [card]);
});

test('query registers what is not in the map, with ids after the last; find_text acts through the nearest unit', async () => {
  const t = await open('clickables.html');
  const s = await ok(t, { cmd: 'scan' });
  const last = s.elements.length;
  const q = await ok(t, { cmd: 'query', selector: '#text-only' });
  assert.deepStrictEqual(q.ids, []);
  assert.strictEqual(q.added.length, 1);
  const text = q.added[0];
  assert.deepStrictEqual([text.id, text.type, text.interactive, text.text], [last + 1, 'text', false, 'Nothing to click here, only text to read.']);
  assert.ok(text.selector && text.key, 'registered elements are whole');
  // Existing ids never change; the new one works like any other.
  assert.strictEqual((await ok(t, { cmd: 'query', selector: '#upgrade' })).ids[0], byText(s, 'Upgrade plan'));
  assert.strictEqual((await ok(t, { cmd: 'get_value', id: text.id })).value, 'Nothing to click here, only text to read.');
  // Text inside a card: the card is what a press reaches.
  const inCard = await ok(t, { cmd: 'find_text', text: '12 GB' });
  assert.strictEqual(inCard.matches[0].via, 'ancestor');
  assert.strictEqual(inCard.matches[0].element.id, byText(s, 'Storage 12 GB of 15 GB used'));
  assert.strictEqual(inCard.matches[0].matched, '12 GB of 15 GB used');
  // Plain text: itself, registered (the same id as before).
  const plain = await ok(t, { cmd: 'find_text', text: 'only text to read' });
  assert.deepStrictEqual([plain.matches[0].via, plain.matches[0].element.id], ['self', text.id]);
  // Exact is whole and case-sensitive; contains is neither; regex.
  assert.strictEqual((await ok(t, { cmd: 'find_text', text: 'save', match: 'exact' })).matches.length, 0);
  const exact = await ok(t, { cmd: 'find_text', text: 'Save', match: 'exact' });
  assert.deepStrictEqual([exact.matches.length, exact.matches[0].element.id, exact.matches[0].via], [1, byText(s, 'Save'), 'self']);
  const re = await ok(t, { cmd: 'find_text', text: '/^inv/i', match: 'regex' });
  assert.strictEqual(re.matches[0].element.id, byText(s, 'Invoices 3 unpaid'));
  // Best first: the exact text before longer texts that contain it.
  const best = await ok(t, { cmd: 'find_text', text: 'profile' });
  assert.strictEqual(best.matches[0].element.text, 'Profile');
  await err(t, { cmd: 'find_text', text: '(', match: 'regex' }, 'SCRIPT_ERROR');
  assert.strictEqual((await ok(t, { cmd: 'find_text', text: 'no such words anywhere' })).matches.length, 0);
  // A label's text reaches its control.
  await open('unlabelled_fields.html');
  const f = await ok(t, { cmd: 'scan' });
  const agree = await ok(t, { cmd: 'find_text', text: 'I agree' });
  assert.deepStrictEqual([agree.matches[0].via, agree.matches[0].element.id], ['label', byText(f, 'I agree to the terms')]);
});

test('plain clickables act like controls: click a span link, a row, a delegated list item, a day', async () => {
  let t = await open('email_list.html');
  let s = await ok(t, { cmd: 'scan' });
  const rows = s.elements.filter((e) => e.type === 'row');
  assert.strictEqual(rows.length, 6);
  await ok(t, { cmd: 'click', id: rows[2].id });
  assert.strictEqual(await t.evalTest('() => location.hash'), '#mail-2');
  const star = s.elements.filter((e) => e.text === 'Star')[1];
  await ok(t, { cmd: 'click', id: star.id });
  assert.strictEqual(await pageText(t, '#mail-1 .star'), '\u2605');
  assert.strictEqual(await t.evalTest('() => location.hash'), '#mail-2', 'the star click did not open the row');
  t = await open('listeners.html');
  s = await ok(t, { cmd: 'scan' });
  await ok(t, { cmd: 'click', id: byText(s, 'Sent') });
  assert.strictEqual(await pageText(t, '#status'), 'folder Sent');
  const p = await ok(t, { cmd: 'point', id: byText(s, 'Empty trash') });
  await t.click(p.x, p.y);
  assert.strictEqual(await pageText(t, '#status'), 'emptied');
  // React: handlers in props, listeners at the root; rows added later are seen too.
  t = await open('react_list.html');
  await ok(t, { cmd: 'wait_for', condition: 'visible', selector: '#add', timeout: 5000 });
  s = await ok(t, { cmd: 'scan' });
  await ok(t, { cmd: 'click', id: byText(s, 'Write the report') });
  assert.strictEqual(await t.evalTest('() => document.getElementById("task-1").className'), 'task done');
  await ok(t, { cmd: 'click', id: byText(s, 'Add task') });
  s = await ok(t, { cmd: 'scan' });
  assert.strictEqual(s.elements.find((e) => e.text === 'New task').type, 'row');
  t = await open('datepicker_pikaday.html');
  s = await ok(t, { cmd: 'scan' });
  const day = s.elements.find((e) => e.text === '15');
  assert.deepStrictEqual(day.aliases, ['April 15, 2024']);
  await ok(t, { cmd: 'click', id: day.id });
  assert.strictEqual(await t.evalTest('() => document.getElementById("return").value'), 'Mon Apr 15 2024');
});

test('key_listeners: a field is known to need key by key typing when anything on its path listens to key events', async () => {
  const names = ['Plain', 'Notes', 'Attribute', 'Own listener', 'Delegated', 'Property', 'Change only', 'Key attribute',
    'Key property'];
  const keysOf = async (t) => {
    const s = await ok(t, { cmd: 'scan' });
    const out = {};
    for (const name of names) {
      const e = s.elements.find((x) => x.label === name || x.text === name || (x.name && x.name === name));
      assert.ok(e, `no field "${name}"`);
      await ok(t, { cmd: 'focus', id: e.id }); // the keys go where the focus is
      out[name] = (await ok(t, { cmd: 'key_listeners', id: e.id })).keys;
    }
    return out;
  };
  // Input and beforeinput listeners (an attribute, a property) hear the text committed in one
  // step too: no keys needed there. Key listeners, own or delegated, attribute or property: keys.
  const alone = {
    Plain: false, Notes: false, Attribute: false, 'Own listener': true, Delegated: true, Property: false,
    'Change only': false, 'Key attribute': true, 'Key property': true,
  };
  let t = await open('key_listeners.html');
  assert.deepStrictEqual(await keysOf(t), alone);
  // Nothing focused: the keys would go to the body, no field: typed key by key.
  await t.evalTest('() => document.activeElement.blur()');
  const plain = (await ok(t, { cmd: 'scan' })).elements.find((x) => x.label === 'Plain' || x.text === 'Plain');
  assert.strictEqual((await ok(t, { cmd: 'key_listeners', id: plain.id })).keys, true);
  // An input listener on window changes nothing; a keydown listener there: every field by keys.
  t = await open('key_listeners.html?window');
  assert.deepStrictEqual(await keysOf(t), alone);
  t = await open('key_listeners.html?windowkeys');
  const all = await keysOf(t);
  assert.ok(Object.values(all).every((k) => k === true), JSON.stringify(all));
});

test('point with focus_quiet focuses a field itself only where the page would hear neither the press nor the keys', async () => {
  // Held: the listener registry of the extension's script mode, which races the parser, goes in
  // before the page's first script, as it does on a slow page.
  const t = await open('focus_quiet.html?hold=1500');
  const s = await ok(t, { cmd: 'scan' });
  const idOf = (label) => {
    const e = s.elements.find((x) => x.type !== 'button' && (x.label === label || x.text === label || x.name === label));
    assert.ok(e, `no field "${label}"`);
    return e.id;
  };
  const quietly = async (label) =>
    (await ok(t, { cmd: 'point', id: idOf(label), check: 'type', focus_quiet: true })).focused === true;
  const active = () => t.evalTest('() => document.activeElement.id');
  const loud = ['Pressed', 'Delegated press', 'Keys', 'Covered'];
  const plain = await quietly('Plain');
  // A registry that came after the page's first scripts cannot know what listens: never quiet.
  if (LATE_REGISTRY === true || (LATE_REGISTRY === 'sometimes' && !plain)) {
    assert.strictEqual(plain, false);
    for (const label of loud) assert.strictEqual(await quietly(label), false, label);
    assert.strictEqual(await active(), '', 'nothing was focused');
    return;
  }
  // Nothing listens: focused, its text selected, and the text committed next replaces it.
  assert.strictEqual(plain, true);
  assert.strictEqual(await active(), 'plain');
  assert.deepStrictEqual(await t.evalTest('() => [plain.selectionStart, plain.selectionEnd]'), [0, 8]);
  await t.op('commit', { text: 'new text' });
  assert.strictEqual(await t.evalTest('() => plain.value'), 'new text');
  assert.strictEqual(await quietly('Notes'), true);
  await t.op('commit', { text: 'new notes' });
  assert.strictEqual(await t.evalTest('() => notes.value'), 'new notes');
  // A press listener on the field or on its way (capture on an ancestor), a key listener, or a
  // field the press would not hit itself (an overlay takes it): nothing is done, the engine
  // presses as a person would.
  for (const label of loud) assert.strictEqual(await quietly(label), false, label);
  assert.strictEqual(await active(), 'notes', 'the focus did not move');
  // A focus listener hears the same focus either way.
  assert.strictEqual(await quietly('Focus only'), true);
  assert.strictEqual(await active(), 'focusonly');
  // The mouse is over an element that hears it leave: the press would be heard there.
  const menu = await t.evalTest('() => { const r = menu.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }');
  await t.op('move', { x: menu[0], y: menu[1] });
  assert.strictEqual(await quietly('Plain'), false, 'the menu would hear the mouse leave');
  // The mouse is over a frame: what listens inside it is not known here.
  const frame = await t.evalTest('() => { const r = document.getElementById("frame").getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }');
  await t.op('move', { x: frame[0], y: frame[1] });
  assert.strictEqual(await quietly('Plain'), false, 'the mouse over a frame');
  const p = await ok(t, { cmd: 'point', id: idOf('Plain'), check: 'type' });
  await t.op('move', { x: p.x, y: p.y });
  assert.strictEqual(await quietly('Plain'), true, 'the mouse over the field itself');
  // A document without the window's focus hears no focus event (the extension's script mode has
  // no focus emulation: a tab that navigated again, headless): then the log has no 'focus'.
  const heardFocus = await t.evalTest('() => document.hasFocus()');
  assert.strictEqual(await pageText(t, '#log'), (heardFocus ? 'focus true;' : '') + 'left menu;',
    'no press, key or pointer event was heard');
});

test('listener registry: late and removed listeners, invisible to the page, robust to its builtins', async () => {
  const t = await open('registry_probe.html');
  await ok(t, { cmd: 'wait_for', condition: 'exists', selector: 'body[data-ready=yes]', timeout: 5000 });
  const probe = JSON.parse((await ok(t, { cmd: 'get_text', selector: '#probe' })).text);
  assert.deepStrictEqual(probe.globals, [], 'no global names');
  assert.deepStrictEqual([probe.addName, probe.addLength, probe.addNative, probe.removeNative, probe.onclickNative],
    ['addEventListener', 2, true, true, true], 'the wrapped functions look native');
  assert.deepStrictEqual([probe.timers, probe.timersNative], ['setTimeout,1,clearTimeout', true], 'so do the timer functions');
  assert.deepStrictEqual([probe.workNative, probe.workNames], [true, 'requestAnimationFrame,MessageChannel,0,postMessage'],
    'and the frame, idle and message functions');
  assert.strictEqual(probe.channel, true, 'a MessageChannel is made as before');
  await ok(t, { cmd: 'wait_for', condition: 'exists', selector: '#message:not(:empty)', timeout: 5000 });
  assert.strictEqual(await pageText(t, '#message'), 'delivered', 'and its messages arrive');
  assert.strictEqual(probe.attachShadowNative, true, 'and attachShadow');
  const known = ['addEventListener', 'constructor', 'dispatchEvent', 'removeEventListener', 'when'];
  assert.deepStrictEqual(probe.expandos.split(',').filter((k) => !known.includes(k)), [], 'nothing added to EventTarget.prototype');
  assert.strictEqual(probe.ownEvents, 1);
  // The page broke WeakMap, Reflect.apply, Event and dispatchEvent after load, then added a listener.
  let s = await ok(t, { cmd: 'scan' });
  const late = s.elements.find((e) => e.text === 'Late tool');
  assert.ok(late, 'the late listener is seen');
  await ok(t, { cmd: 'click', id: late.id });
  assert.strictEqual(await pageText(t, '#late'), 'Late tool used');
  // Listeners come and go between scans (the page's own button adds and removes one).
  await open('listeners.html');
  s = await ok(t, { cmd: 'scan' });
  assert.ok(!s.elements.some((e) => e.text === 'Snooze'));
  await ok(t, { cmd: 'click', id: byText(s, 'Enable snooze') });
  s = await ok(t, { cmd: 'scan' });
  await ok(t, { cmd: 'click', id: byText(s, 'Snooze') });
  assert.strictEqual(await pageText(t, '#status'), 'snoozed');
  await ok(t, { cmd: 'click', id: byText(s, 'Disable snooze') });
  s = await ok(t, { cmd: 'scan' });
  assert.ok(!s.elements.some((e) => e.text === 'Snooze'), 'a removed listener no longer counts');
});

test('moving the mouse: out, leave, over and enter as a browser sends them, through a shadow tree', async () => {
  const t = await open('mouse_moves.html');
  const moveTo = async (id) => {
    const [x, y] = await t.evalTest(`() => {
      const el = document.getElementById(${JSON.stringify(id)}) || document.getElementById('host').shadowRoot.getElementById(${JSON.stringify(id)});
      const r = el.getBoundingClientRect();
      return [r.x + 5, r.y + 5];
    }`);
    await t.op('move', { x, y });
    const heard = await t.evalTest('() => { const log = document.getElementById("log"); const s = log.textContent; log.textContent = ""; return s; }');
    return heard.split('\n').filter(Boolean);
  };
  await moveTo('start');
  // Both the pointer's and the mouse's events, each in this order (engines interleave the two
  // kinds differently: Chromium sends the pointer's first, WebKit pairs them).
  const moves = async (id, expected) => {
    const heard = await moveTo(id);
    for (const kind of ['pointer', 'mouse']) {
      assert.deepStrictEqual(heard.filter((e) => e.startsWith(kind)).map((e) => e.slice(kind.length)), expected,
        `${kind} events moving to ${id}: ${heard.join(', ')}`);
    }
    assert.strictEqual(heard.length, 2 * expected.length, heard.join(', '));
  };
  // Into a nested element: over on it, enter on each element entered, outermost first.
  await moves('a1', ['over a1 start', 'enter area start', 'enter a start', 'enter a1 start']);
  // To a cousin: out and leave on what it left (innermost first), then over and enter; the area
  // it stays in hears neither.
  await moves('b1', ['out a1 b1', 'leave a1 b1', 'leave a b1', 'over b1 a1', 'enter b a1', 'enter b1 a1']);
  // Into a shadow tree: the host is entered too; outside the tree the element there is the host.
  await moves('deep', ['out b1 host', 'leave b1 host', 'leave b host', 'over deep b1', 'enter host b1', 'enter deep b1']);
  // Out of it to an element that holds another: that one is not entered.
  await moves('a', ['out deep a', 'leave deep a', 'leave host a', 'over a host', 'enter a host']);
  // Out of the area: what is outside it is not heard here.
  await moves('start', ['out a start', 'leave a start', 'leave area start']);
});

test('an option that shows its state as a checkbox of its own is one unit: the option, which says it is chosen', async () => {
  const t = await open('option_checkboxes.html');
  const d = await ok(t, { cmd: 'scan' });
  const named = (text) => d.elements.filter((e) => e.text === text);
  for (const text of ['Read', 'Write', 'Delete']) {
    assert.deepStrictEqual(named(text).map((e) => e.type), ['option'], `one unit for "${text}"`);
  }
  // A checkbox that says something else than its option is a unit of its own.
  assert.deepStrictEqual(named('Daily digest').map((e) => e.type), ['checkbox']);
  const read = named('Read')[0];
  await ok(t, { cmd: 'click', id: read.id });
  assert.strictEqual(await t.evalTest(() => document.getElementById('log').textContent), 'chosen Read');
  const after = await ok(t, { cmd: 'scan' });
  const again = after.elements.find((e) => e.text === 'Read');
  assert.ok(again.modifiers.includes('selected'), JSON.stringify(again));
  // The box keeps its name: the count its label gained is for screen readers only.
  assert.strictEqual(after.elements.find((e) => e.type === 'select').text, 'Permissions');
});

test('shadow parts: step buttons drawn as CSS masks are the field\'s Increase and Decrease; its asterisk and label part are no controls; a role=button box opening a listbox is a select; an option\'s hidden state words are no part of its name; an overlay showing slotted buttons is no control; a radio slotted through two shadows answers to its group', async () => {
  const t = await open('shadow_parts.html');
  const s = await ok(t, { cmd: 'scan' });
  const named = (text) => s.elements.filter((e) => e.text === text);
  assert.deepStrictEqual(named('Increase').map((e) => e.type), ['button']);
  assert.deepStrictEqual(named('Decrease').map((e) => e.type), ['button']);
  // The required asterisk and the label part only focus the field: the field is the one unit.
  assert.deepStrictEqual(s.elements.filter((e) => e.text === '*').map((e) => e.selector), []);
  assert.deepStrictEqual(named('Guests').map((e) => e.type), ['input']);
  assert.deepStrictEqual(s.elements.filter((e) => /^Travel class/.test(e.text)).map((e) => e.type), ['select']);
  assert.deepStrictEqual(s.elements.filter((e) => e.type === 'option').map((e) => e.text), ['Hotel', 'Rental car']);
  assert.deepStrictEqual(s.elements.filter((e) => /Today/.test(e.text)).map((e) => e.text), ['Today']);
  const card = named('Company card')[0];
  assert.ok(card && (card.aliases || []).includes('Paid with'), JSON.stringify(card));
  await ok(t, { cmd: 'click', id: named('Increase')[0].id });
  assert.strictEqual(await t.evalTest("() => document.querySelector('#guests input').value"), '2');
});

test('seek finds text a scroller draws through slots, in the shadow roots of what it shows', async () => {
  const t = await open('shadow_parts.html');
  await ok(t, { cmd: 'scan' });
  const scroller = "() => document.getElementById('months').shadowRoot.getElementById('scroller').scrollTop";
  const before = await t.evalTest(scroller);
  const hit = await ok(t, { cmd: 'seek', text: 'May 2026', timeout_ms: 3000 });
  assert.deepStrictEqual([hit.found, hit.moved], [true, true]);
  assert.ok(await t.evalTest(scroller) > before);
  assert.strictEqual((await ok(t, { cmd: 'seek', text: 'August 2026', timeout_ms: 1500 })).found, false);
});

test('a text field\'s open picker is no popup to dismiss; a click elsewhere while it takes every click is covered by it, to be clicked away from, not escaped (the field holds typed text)', async () => {
  const t = await open('shadow_parts.html');
  await t.evalTest(`() => {
    const date = document.getElementById('date');
    date.focus();
    date.value = '3/2/2026';
    date.dispatchEvent(new Event('input', { bubbles: true }));
  }`);
  const s = await ok(t, { cmd: 'scan' });
  // The field's own calendar is part of the field: no popup to dismiss.
  assert.deepStrictEqual(s.patterns.map((p) => p.name).filter((n) => n === 'modal_dialog'), []);
  const message = await err(t, { cmd: 'point', id: byText(s, 'Next step'), check: 'click' }, 'ELEMENT_NOT_INTERACTABLE');
  assert.match(message, /is covered by an open list \(.*click away at \(\d+, \d+\), no Escape\)/);
});

test('headless checkables: the role=radio/checkbox/switch box is the one unit, not also the aria-hidden input its label names; a named group is their question', async () => {
  const t = await open('headless_parts.html');
  const s = await ok(t, { cmd: 'scan' });
  const named = (text) => s.elements.filter((e) => e.text === text);
  for (const [text, type] of [['SSD', 'radio'], ['HDD', 'radio'], ['Restart on failure', 'checkbox'], ['HTTP', 'checkbox'], ['SSH', 'checkbox']]) {
    assert.deepStrictEqual(named(text).map((e) => [e.type, e.tag]), [[type, 'span']], text);
  }
  // A visually hidden input alone in its label (no ARIA box beside it) stays the control.
  assert.deepStrictEqual(named('Notify watchers').map((e) => e.tag), ['input']);
  assert.ok((named('SSH')[0].aliases || []).includes('Allowed network protocols'), JSON.stringify(named('SSH')[0]));
  assert.ok((named('HDD')[0].aliases || []).includes('Storage type'), JSON.stringify(named('HDD')[0]));
  await ok(t, { cmd: 'click', id: named('HDD')[0].id });
  assert.strictEqual(await t.evalTest("() => document.getElementById('hdd-input').checked"), true);
});

test('type on a range input takes the number a person reads: a percentage is that share from min to max, a unit is dropped', async () => {
  const t = await open('headless_parts.html');
  const s = await ok(t, { cmd: 'scan' });
  await ok(t, { cmd: 'type', id: byText(s, 'Minimum threshold'), text: '30%' });
  assert.strictEqual(await t.evalTest("() => document.getElementById('threshold').value"), '0.3');
  await ok(t, { cmd: 'type', id: byText(s, 'Distance'), text: '25 km' });
  assert.strictEqual(await t.evalTest("() => document.getElementById('distance').value"), '25');
  await ok(t, { cmd: 'type', id: byText(s, 'Distance'), text: '40%' });
  assert.strictEqual(await t.evalTest("() => document.getElementById('distance').value"), '40');
});

test('a select\'s open list in a "popup" box over a click-catching backdrop is no modal dialog; a click elsewhere is covered by the open list', async () => {
  const t = await open('headless_parts.html');
  let s = await ok(t, { cmd: 'scan' });
  await ok(t, { cmd: 'click', id: s.elements.find((e) => e.tag === 'button' && /Server type/.test(e.text)).id });
  s = await ok(t, { cmd: 'scan' });
  assert.deepStrictEqual(s.elements.filter((e) => e.type === 'option').map((e) => e.text), ['t1.small', 't1.medium', 't1.large']);
  assert.deepStrictEqual(s.patterns.map((p) => p.name).filter((n) => /dialog|overlay|popup/.test(n)), []);
  const message = await err(t, { cmd: 'point', id: byText(s, 'Launch server'), check: 'click' }, 'ELEMENT_NOT_INTERACTABLE');
  assert.match(message, /is covered by an open list \(/);
  assert.strictEqual(await t.evalTest("() => document.getElementById('other').dataset.clicks || '0'"), '0');
});

test('a custom label element naming its field by `for` is no button of its own; a picker is named by it, not by its placeholder label attribute', async () => {
  const t = await open('custom_labels.html');
  const s = await ok(t, { cmd: 'scan' });
  assert.deepStrictEqual(s.elements.filter((e) => e.tag === 'x-field-label').map((e) => e.text), []);
  assert.deepStrictEqual(s.elements.filter((e) => e.text === 'Department').map((e) => [e.type, e.tag]), [['select', 'button']]);
  assert.deepStrictEqual(s.elements.filter((e) => e.text === 'City').map((e) => e.tag), ['input']);
});

test('a slider drawn with no ARIA before a read-only input of no size is one slider named by the input\'s label, its value the input\'s; its handle, bar and tip are parts of it', async () => {
  const t = await open('drawn_slider.html');
  const s = await ok(t, { cmd: 'scan' });
  assert.deepStrictEqual(s.elements.map((e) => [e.type, e.text, e.state.value]), [['slider', 'Seats', '10']]);
  // Acted on at its handle: a press there focuses the line, whose arrow keys move it.
  const at = await ok(t, { cmd: 'point', id: s.elements[0].id, check: 'click' });
  const handle = await t.evalTest("() => { const r = document.querySelector('.handle').getBoundingClientRect(); return [r.left, r.right, r.top, r.bottom]; }");
  assert.ok(at.x >= handle[0] && at.x <= handle[1] && at.y >= handle[2] && at.y <= handle[3], JSON.stringify([at, handle]));
});

test('select says what was picked when the page moves the picked option out of the select on change (a dual list box)', async () => {
  const t = await open('dual_list.html');
  const s = await ok(t, { cmd: 'scan' });
  const picked = await ok(t, { cmd: 'select', id: byText(s, 'Available'), text: 'Grace Hopper' });
  assert.deepStrictEqual([picked.text, picked.moved], ['Grace Hopper', true]);
  assert.strictEqual(await t.evalTest("() => [...document.getElementById('chosen').options].map((o) => o.text).join()"), 'Grace Hopper');
});

test('a control alone in a table cell is named by its column\'s header: a header table of its own above (jsGrid), a thead\'s lowest row, an ARIA grid; not where the cell has words of its own or the table no header', async () => {
  const t = await open('grid_editing.html');
  const s = await ok(t, { cmd: 'scan' });
  const inGrid = s.elements.filter((e) => ['input', 'select', 'checkbox'].includes(e.type) && e.rect.y < 120);
  assert.deepStrictEqual(inGrid.map((e) => [e.type, e.text]),
    [['input', 'Name'], ['input', 'Age'], ['select', 'Country'], ['checkbox', 'Is Married'], ['checkbox', 'Is Married']]);
  assert.ok(byText(s, 'Units'), 'the thead\'s lowest row names the quantity field, not its group header "Quantity"');
  assert.ok(byText(s, 'Discount'), 'an ARIA grid\'s column header names its cell\'s field');
  assert.ok(byText(s, 'First name'), 'a layout table without a header row: the cell before names the field');
  assert.ok(byText(s, 'Subscribe'), 'a checkbox with words of its own in its cell keeps them');
  // A header cell holding a control names no row; a form laid out in a table keeps its row labels.
  assert.deepStrictEqual(s.elements.filter((e) => e.text === 'Select all').map((e) => e.tag), ['input']);
  assert.deepStrictEqual(s.elements.filter((e) => /Contact details|^Value$/.test(e.text)).map((e) => e.text), []);
  assert.ok(s.elements.find((e) => e.type === 'input' && /^Phone/.test(e.text)), 'the cell before names the phone field');
  assert.ok(byText(s, 'Time zone'), 'a row header names its field');
});

test('a button input with no value is named by its title, else by its class\'s action words; the last action word of a class names a chip\'s closer', async () => {
  const t = await open('grid_editing.html');
  const s = await ok(t, { cmd: 'scan' });
  const buttons = s.elements.filter((e) => e.tag === 'input' && e.type === 'button').map((e) => e.text);
  assert.deepStrictEqual(buttons, ['insert mode', 'Update', 'Edit']);
  assert.deepStrictEqual(s.elements.filter((e) => e.tag === 'a' && /close/.test(e.text)).map((e) => e.text), ['close']);
});

test('Chosen and bootstrap-select stand-ins are selects named by their hidden <select>\'s label; the wrapper and its chips are parts of them', async () => {
  const t = await open('grid_editing.html');
  const s = await ok(t, { cmd: 'scan' });
  for (const name of ['Country', 'Skills', 'Department']) {
    assert.deepStrictEqual(s.elements.filter((e) => e.text === name && e.rect.y > 200).map((e) => e.type), ['select'], name);
  }
  assert.deepStrictEqual(s.elements.filter((e) => e.text === 'Java' || e.text === 'Any department' || e.text === 'Choose a country...').map((e) => e.text), []);
});

test('a slider drawn in place of a hidden input is named by that input\'s label; the box around it that takes presses and shows the value is part of it', async () => {
  const t = await open('grid_editing.html');
  const s = await ok(t, { cmd: 'scan' });
  const volume = s.elements.filter((e) => e.type === 'slider');
  assert.deepStrictEqual(volume.map((e) => [e.text, e.state.value]), [['Volume', '40']]);
  assert.deepStrictEqual(s.elements.filter((e) => e.text === '40').map((e) => e.type), []);
});

test('type with paste puts the text in one step, one input event and no keys: a field that rewrites every key keeps it', async () => {
  const t = await open('grid_editing.html');
  const s = await ok(t, { cmd: 'scan' });
  await ok(t, { cmd: 'type', id: byText(s, 'Badge colour'), text: '#e83e8c' });
  assert.strictEqual(await t.evalTest("() => document.getElementById('colour').value"), '#000000', 'typed key by key, the field wrote black back');
  const inputs = "() => document.getElementById('colour').dataset.inputs.split(',').length";
  const typed = await t.evalTest(inputs);
  await ok(t, { cmd: 'type', id: byText(s, 'Badge colour'), text: '#e83e8c', paste: true });
  assert.deepStrictEqual(await t.evalTest("() => { const c = document.getElementById('colour'); return [c.value, c.dataset.keyups]; }"),
    ['#e83e8c', '7'], 'no key event, the text kept');
  // One input event for the text (and one for the clearing before it, as for any type).
  assert.ok(await t.evalTest(inputs) - typed <= 2, 'one input event for the paste');
});

test('a text field that is a shadow root\'s own child is listed (it has no parent element)', async () => {
  const t = await open('shadow_text.html');
  const s = await ok(t, { cmd: 'scan' });
  assert.deepStrictEqual(s.elements.map((e) => [e.type, e.text]), [['input', 'Plain'], ['input', 'Shadow field']]);
});

test('a box that hears its table rows\' clicks (through its table and tbody; spacer rows, striped classes) gives its rows as units', async () => {
  const t = await open('drawn_fields.html');
  const s = await ok(t, { cmd: 'scan' });
  const rows = s.elements.filter((e) => e.type === 'row').map((e) => e.text);
  assert.deepStrictEqual(rows, ['1001 Printer on floor 2 jams Normal', '1002 Refund for double charge High',
    '1003 Laptop battery swells Urgent', '1004 VPN drops every hour Normal']);
  await ok(t, { cmd: 'click', id: byText(s, '1004 VPN drops every hour Normal') });
  assert.strictEqual(await t.evalTest('() => document.body.dataset.clicked'), '4');
  // A card whose one inner box holds its lines stays one card.
  assert.ok(byText(s, 'Blue mug $12 In stock'));
  assert.deepStrictEqual(s.elements.filter((e) => e.text === 'Blue mug' || e.text === '$12').map((e) => e.text), []);
});

test('icon classes with a library\'s prefix name the glyph: "w2ui-icon w2ui-icon-search" is "search", a "w2ui-tb-icon" box no glyph', async () => {
  const t = await open('drawn_fields.html');
  const s = await ok(t, { cmd: 'scan' });
  assert.deepStrictEqual(s.elements.filter((e) => e.type === 'button' && e.rect.y < 40).map((e) => e.text), ['reload', 'search']);
});

test('drawn fields: a list input drawn as a select, an enum\'s box of chips over the field laid under it, a toggle drawn after a transparent checkbox', async () => {
  const t = await open('drawn_fields.html');
  const s = await ok(t, { cmd: 'scan' });
  const fields = s.elements.filter((e) => e.rect.y > 180 && e.rect.y < 300).map((e) => [e.type, e.text, e.state.value ?? null]);
  assert.deepStrictEqual(fields, [['select', 'Priority', ''], ['select', 'Tags', 'billing'], ['checkbox', 'VIP customer', null]]);
  await ok(t, { cmd: 'click', id: byText(s, 'VIP customer') });
  assert.strictEqual(await t.evalTest("() => document.getElementById('vip').checked"), true);
});

test('Webix\'s controls: a hidden native checkbox or radio beside the ARIA one that takes the clicks is one unit, a spinbutton box around its field is no unit, a slider\'s label that says its value names it without the value', async () => {
  const t = await open('drawn_fields.html');
  const s = await ok(t, { cmd: 'scan' });
  const webix = s.elements.filter((e) => e.rect.y > 300 && e.rect.y < 450).map((e) => [e.type, e.tag, e.text]);
  assert.deepStrictEqual(webix, [['checkbox', 'button', 'I accept the terms'], ['radio', 'button', 'Payment Card'],
    ['radio', 'button', 'Bank transfer'], ['button', 'button', 'Decrease value'], ['input', 'input', 'Quantity'],
    ['button', 'button', 'Increase value'], ['slider', 'div', 'Discount %']]);
});

test('what those rules leave alone: an icon class with a modifier names its glyph; a hidden checkbox in its label beside a switch stays listed', async () => {
  const t = await open('drawn_fields.html');
  const s = await ok(t, { cmd: 'scan' });
  assert.ok(s.elements.find((e) => e.selector === '#closer' && e.text === 'close'), 'close-icon close-icon--small: "close"');
  assert.deepStrictEqual(s.elements.filter((e) => e.text === 'Email me' || e.text === 'Push').map((e) => [e.type, e.text]),
    [['checkbox', 'Email me'], ['checkbox', 'Push']]);
});
