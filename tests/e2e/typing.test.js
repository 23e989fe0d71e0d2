// Typing (issue 17): a field nothing listens to key events on gets its text in one step (one
// Input.insertText, no key events: the page could not tell keys from a paste; an input handler
// runs once); a page with a key handler gets every key, as from a person. Over CDP, where one-step commits exist; --log-level trace
// shows the protocol's methods (never their params).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runLscope } from './lib/lscope.js';
import { startFixtureServer } from './lib/fixture_server.js';

const here = path.dirname(fileURLToPath(import.meta.url));
let site;
before(async () => {
  site = await startFixtureServer({ extraRoots: { '/e2e-pages/': path.join(here, 'pages') } });
});
after(async () => {
  await site.close();
});

const logged = (stderr, text) => stderr.split('\n').filter((l) => l.includes(text)).length;
const unheard = (stderr) => logged(stderr, 'no listener of the page heard the action');

/** Clicks each of `targets` on settle.html in one `lscope run` with debug logs: each click's response, and the log. */
async function clickSettlePage(targets) {
  const r = await runLscope(['--log-level', 'debug', 'run', '-'], {
    input: `goto ${site.base}/settle.html\n${targets.map((t) => `click "${t}"\n`).join('')}`,
  });
  assert.equal(r.status, 0, r.stdout + r.stderr.slice(-2000));
  const clicks = r.stdout.split(/\n(?=ok |error )/).filter((b) => b.startsWith('ok click'));
  assert.equal(clicks.length, targets.length, r.stdout);
  return { clicks, stderr: r.stderr };
}
const sent = (stderr, method) => stderr.split('\n').filter((l) => new RegExp(`cdp > \\d+ ${method} `).test(l)).length;

test('a field nothing listens to gets its text in one step, and the form sends it', async () => {
  const r = await runLscope(['--log-level', 'trace', 'run', '-'], {
    input: `goto ${site.base}/e2e-pages/typing.html\ntype Query "grace hopper 1906"\ntype Notes "a, b & c"\nclick "Search"\nurl\n`,
  });
  assert.equal(r.status, 0, r.stdout + r.stderr.slice(-2000));
  assert.match(r.stdout, /ok url .*typing\.html\?q=grace\+hopper\+1906&notes=a%2C\+b\+%26\+c/);
  assert.equal(sent(r.stderr, 'Input.insertText'), 2, 'one commit per field');
  assert.equal(sent(r.stderr, 'Input.dispatchKeyEvent'), 0, 'no key events');
  assert.ok(!r.stderr.includes('grace hopper'), 'the trace carries no typed text');
});

test('a field the page would not hear pressed takes the focus without the press; a page that hears presses gets one', async () => {
  // Nothing listens to the press or the keys: the scanner focuses the field and selects its text
  // in its point call, and the text typed replaces it, with no mouse event sent. Appending keeps
  // the press (the caret goes where a person's click puts it). With a mousedown listener on the
  // document, the page gets the trusted press a person's click gives.
  const clicks = (stderr) => stderr.split('\n').filter((l) => l.includes('cdp click at ')).length;
  const quiet = await runLscope(['--log-level', 'trace', 'run', '-'], {
    input: `goto ${site.base}/e2e-pages/typing.html\ntype Query "first"\ntype Query "second"\ntype Notes "one"\n` +
      `type Notes " two" --append\nclick "Search"\nurl\n`,
  });
  assert.equal(quiet.status, 0, quiet.stdout + quiet.stderr.slice(-2000));
  assert.match(quiet.stdout, /ok url .*typing\.html\?q=second&notes=one\+two/);
  assert.equal(clicks(quiet.stderr), 2, 'a press only to append and on the button');
  assert.equal(sent(quiet.stderr, 'Input.insertText'), 4, 'one commit per typing');
  assert.equal(quiet.stderr.split('\n').filter((l) => l.includes('focused without the press')).length, 3, 'the debug log says which');
  const pressed = await runLscope(['--log-level', 'trace', 'run', '-'], {
    input: `goto ${site.base}/e2e-pages/typing.html?press\ntype Query "ada"\ntext css(#log)\n`,
  });
  assert.equal(pressed.status, 0, pressed.stdout + pressed.stderr.slice(-2000));
  assert.match(pressed.stdout, /presses 1 trusted true/);
  assert.equal(clicks(pressed.stderr), 1);
});

test('a page that listens to keys gets every key and every input event', async () => {
  const r = await runLscope(['--log-level', 'trace', 'run', '-'], {
    input: `goto ${site.base}/e2e-pages/typing.html?keys\ntype Query "ada"\ntext css(#log)\n`,
  });
  assert.equal(r.status, 0, r.stdout + r.stderr.slice(-2000));
  assert.match(r.stdout, /keys 3 inputs 3/);
  assert.equal(sent(r.stderr, 'Input.insertText'), 0);
  assert.ok(sent(r.stderr, 'Input.dispatchKeyEvent') >= 6, 'a key down and up per character');
});

test('a page that listens only to input gets the text in one step, into a field and into an editing host', async () => {
  // No key listener anywhere on the path: keys and one commit differ only in how many input
  // events come (one, as for a paste), so the text goes in one step and the page's handler runs
  // once, with the whole text.
  const r = await runLscope(['--log-level', 'trace', 'run', '-'], {
    input: `goto ${site.base}/e2e-pages/typing.html?input\ntype Query "ada"\ntype Comment "two words"\ntext css(#log)\n`,
  });
  assert.equal(r.status, 0, r.stdout + r.stderr.slice(-2000));
  assert.match(r.stdout, /ok text\n\ninputs 2 query ada comment two words\n/);
  assert.equal(sent(r.stderr, 'Input.insertText'), 2, 'one commit per field');
  assert.equal(sent(r.stderr, 'Input.dispatchKeyEvent'), 0, 'no key events');
});

test("work a handler leaves to a short timer is in the action's response", async () => {
  // Suggestions come 400 ms after the last key, a menu 250 ms after the click: each response
  // shows them, and the next command acts on them at once.
  const r = await runLscope(['run', '-'], {
    input: `goto ${site.base}/e2e-pages/debounce.html\ntype Country "ver"\nclick "Vermont"\nclick "More actions"\nclick "Cancel order"\ntext css(#chosen)\n`,
  });
  assert.equal(r.status, 0, r.stdout + r.stderr.slice(-2000));
  const blocks = r.stdout.split(/\n(?=ok |error )/);
  const typed = blocks.find((b) => b.startsWith('ok type'));
  assert.match(typed, /\+ \[\d+\] option "Vermont"/, typed);
  assert.match(typed, /\+ \[\d+\] option "Verona"/, typed);
  assert.doesNotMatch(typed, /Sweden/, typed);
  const opened = blocks.find((b) => b.startsWith('ok click') && b.includes('More actions'));
  assert.match(opened, /menuitem "Cancel order"/, opened);
  assert.match(r.stdout, /ok text\n\nCancel order\n/);
});

test('typing into a field the page hears waits for its reaction; one nothing hears answers at once', async () => {
  // The name field has no listener anywhere on its path: no code of the page runs, so the
  // response comes without a still window (the debug log says so once). The coupon field's
  // focus listener draws a hint two frames later: heard, so the response waits and shows it.
  const r = await runLscope(['--log-level', 'debug', 'run', '-'], {
    input: `goto ${site.base}/e2e-pages/heard.html\ntype Name "Ada"\ntype Coupon "SAVE10"\n`,
  });
  assert.equal(r.status, 0, r.stdout + r.stderr.slice(-2000));
  const blocks = r.stdout.split(/\n(?=ok |error )/);
  const name = blocks.find((b) => b.startsWith('ok type') && b.includes('"Name"'));
  assert.match(name, /value "Ada"/, name);
  assert.doesNotMatch(name, /case-sensitive/, name);
  const coupon = blocks.find((b) => b.startsWith('ok type') && b.includes('"Coupon"'));
  assert.match(coupon, /"Codes are case-sensitive"/, coupon);
  assert.equal(unheard(r.stderr), 1, 'only the name field was unheard');
});

test('a click on a checkbox the page hears waits for its reaction; one nothing hears answers at once', async () => {
  // The same for a native checkbox, which only toggles: its change listener draws two frames later.
  const r = await runLscope(['--log-level', 'debug', 'run', '-'], {
    input: `goto ${site.base}/e2e-pages/heard.html\nclick "Remember me"\ncheck "Gift wrap"\n`,
  });
  assert.equal(r.status, 0, r.stdout + r.stderr.slice(-2000));
  const blocks = r.stdout.split(/\n(?=ok |error )/);
  const remember = blocks.find((b) => b.startsWith('ok click') && b.includes('Remember me'));
  assert.match(remember, /checked/, remember);
  assert.doesNotMatch(remember, /Gift wrap adds/, remember);
  const gift = blocks.find((b) => b.startsWith('ok check') && b.includes('Gift wrap'));
  assert.match(gift, /"Gift wrap adds 3 euros"/, gift);
  assert.equal(unheard(r.stderr), 1, 'only the remember box was unheard');
});

test('the quiet window after work is configurable: a reaction in steps lscope cannot follow is waited for when asked', async () => {
  // The count comes 250 ms after the click from a frame loop (no timer, no request): the 80 ms
  // quiet window after work does not wait for it; --settle-quiet 400 makes the window longer.
  const r = await runLscope(['--settle-quiet', '400', 'run', '-'], {
    input: `goto ${site.base}/settle.html\nclick "Count orders"\n`,
  });
  assert.equal(r.status, 0, r.stdout + r.stderr.slice(-2000));
  const clicked = r.stdout.split(/\n(?=ok |error )/).find((b) => b.startsWith('ok click'));
  assert.match(clicked, /Counted 42 orders/, clicked);
});

test("a reaction followed to its end gets the short still window; one lscope cannot follow, the quiet window after work", async () => {
  // "Refresh totals" renders from a MessageChannel message (React's scheduler) in the next frame,
  // "Archive orders" from a timer set in a promise callback: the listener registry follows both to
  // their end, and the response comes a still window after it. "Check status" ticks from an
  // interval, which it does not follow: the quiet window after work waits for the last tick. Every
  // response shows the page's last step.
  const { clicks, stderr } = await clickSettlePage(['Refresh totals', 'Archive orders', 'Check status']);
  assert.match(clicks[0], /Totals refreshed: 3 orders, 120 EUR/, clicks[0]);
  assert.match(clicks[1], /Archived 3 orders/, clicks[1]);
  assert.match(clicks[2], /Status checked 3 times/, clicks[2]);
  assert.equal(logged(stderr, "the action's work was followed to its end"), 2, 'the two followed reactions, not the interval');
});

test('requests the page makes for a click are followed to their end: no network quiet spell, and the response shows what they brought', async () => {
  // "Load orders" renders a 400 ms request's answer, "Load history" two requests in a row,
  // "Load invoices" a request a timer makes 15 ms after the click: the listener registry follows
  // each (fetch, its body read, the code after them) to its end, so the response needs no network
  // quiet spell after it; the answer shows what came back.
  const { clicks, stderr } = await clickSettlePage(['Load orders', 'Load history', 'Load invoices']);
  assert.match(clicks[0], /Order 1003 paid/, clicks[0]);
  assert.match(clicks[1], /History of 2024 loaded/, clicks[1]);
  assert.match(clicks[2], /Invoice 77 due/, clicks[2]);
  assert.equal(logged(stderr, "the action's requests were followed to their end"), 3, "each click's requests were followed");
});

test('Enter after typing into a field nothing hears: the response waits for the form it submits', async () => {
  // The text goes in unheard, but Enter submits the form: the action is no longer one the page
  // cannot react to, so the still window and the navigation are waited for.
  const r = await runLscope(['--log-level', 'debug', 'run', '-'], {
    input: `goto ${site.base}/e2e-pages/typing.html\ntype Query "ada lovelace" --enter\n`,
  });
  assert.equal(r.status, 0, r.stdout + r.stderr.slice(-2000));
  const typed = r.stdout.split(/\n(?=ok |error )/).find((b) => b.startsWith('ok type'));
  assert.match(typed, /~ url: .*typing\.html → .*typing\.html\?q=ada\+lovelace/, typed);
  assert.equal(unheard(r.stderr), 0, 'typing then Enter is not an unheard action');
});

test('a popup that takes the focusing press is seen, not typed behind: type fails, fill_form closes it and fills', async () => {
  // The tour opens on the first press, after the last look at the page: the press never reaches
  // the field. Typing then would put the text nowhere (or, focused by script, behind the tour).
  const page = `${site.base}/e2e-pages/tour-on-press.html`;
  const typed = await runLscope(['run', '-'], { input: `goto ${page}\ntype Email "ada@example.com"\n` });
  assert.notEqual(typed.status, 0, typed.stdout);
  assert.match(typed.stdout, /error type: \[1\] "Email" is covered by a modal_dialog "Quick tour"/);
  assert.match(typed.stdout, /# hint\ndismiss_popups clears it/);
  const filled = await runLscope(['run', '-'], {
    input: `goto ${page}\nfill_form {"Email": "ada@example.com", "Password": "correct horse"}\nclick "Sign in"\ntext\n`,
  });
  assert.equal(filled.status, 0, filled.stdout + filled.stderr.slice(-2000));
  assert.match(filled.stdout, /dismiss_popups/);
  assert.match(filled.stdout, /signed in as ada@example\.com \(password 13 characters\)/);
});

test('a code split over boxes is one field: typed key by key into the first box, the page moving the focus on', async () => {
  // code-boxes.html: six boxes behind one <label for> whose input handler moves the focus (a
  // text in one step would land whole in the first box, which keeps one digit), and four
  // password boxes in a role=group whose keydown handler writes each digit. Small boxes that are
  // fields of their own (R, G, B; month, day, year; hours, minutes, seconds) stay fields.
  const r = await runLscope(['--log-level', 'trace', 'run', '-'], {
    input: `goto ${site.base}/e2e-pages/code-boxes.html\nobserve\ntype "Verification code" "482913"\n` +
      `type "Recovery PIN" "7391"\ntext css(#log)\ntype "Verification code" "105"\ntext css(#log)\n`,
  });
  assert.equal(r.status, 0, r.stdout + r.stderr.slice(-2000));
  const observed = r.stdout.split('\nok observe\n')[1].split('\nok type')[0];
  assert.match(observed, /\[1\] input "Verification code"\n\[2\] input\/password "Recovery PIN"\n\[3\] input "R"\n\[4\] input "G"\n\[5\] input "B"\n\[6\] input "Month"\n\[7\] input "Day"\n\[8\] input "Year"\n\[9\] input "Hours"\n\[10\] input "Minutes"\n\[11\] input "Seconds"\n/);
  assert.doesNotMatch(observed, /Digit/, 'the other boxes are not listed');
  assert.match(r.stdout, /~ \[1\] input "Verification code": value "482913"/);
  assert.match(r.stdout, /ok text\n\ncode 482913 pin \*\*\*\* pin-digits 4 pin-ok\n/);
  assert.ok(!r.stdout.includes('7391') && !r.stderr.includes('7391'), 'the PIN, a password, is masked');
  assert.match(r.stdout, /ok text\n\ncode 105___ pin/, 'typed again over a code: the boxes emptied first');
  assert.equal(sent(r.stderr, 'Input.insertText'), 0, 'a key per box');
});

test('a field that keeps its value a task behind the keys is typed again at a typist\'s pace, and holds the text', async () => {
  // typing.html?lagging: each key's input event puts the old value back and the new one is
  // written by a zero timer (a component syncing its state from its props in an effect, as
  // Carbon's NumberInput does). Keys sent back to back land on the old value; the field is
  // typed again with the page's work for each key done before the next.
  const r = await runLscope(['--log-level', 'debug', 'run', '-'], {
    input: `goto ${site.base}/e2e-pages/typing.html?lagging\ntype Query "grace"\ntext css(#log)\ntype Query "ada lovelace"\ntext css(#log)\n`,
  });
  assert.equal(r.status, 0, r.stdout + r.stderr.slice(-2000));
  assert.match(r.stdout, /ok type \[1\] "Query" "grace"\n/);
  assert.match(r.stdout, /ok text\n\nquery grace\n/);
  assert.match(r.stdout, /ok text\n\nquery ada lovelace\n/);
  assert.doesNotMatch(r.stdout, /the field reads/);
  assert.ok(logged(r.stderr, "typed again at a typist's pace") >= 1, 'the retyping is in the debug log');
});

test('a field that writes its value only after the keys stop is not answered as typed when it reads otherwise', async () => {
  // typing.html?lagging=30: each key's value is written 30 ms later, so keys a few ms apart all
  // land on the old value and the field reads empty right after them. Once its work has run it
  // holds the last key's letter, not the text: the answer must say what it reads, never a bare ok.
  const r = await runLscope(['--log-level', 'debug', 'run', '-'], {
    input: `goto ${site.base}/e2e-pages/typing.html?lagging=30\ntype Query "grace"\ntext css(#log)\n`,
  });
  assert.equal(r.status, 0, r.stdout + r.stderr.slice(-2000));
  const answer = r.stdout.match(/ok type \[1\] "Query" "grace"[^\n]*/)?.[0];
  assert.ok(answer, r.stdout);
  const held = r.stdout.match(/ok text\n\nquery (.*)\n/)?.[1];
  assert.ok(held !== undefined, r.stdout);
  if (held === 'grace') assert.doesNotMatch(answer, /the field reads/);
  else assert.match(answer, new RegExp(`the field reads "${held}"`), `the field holds "${held}": ${answer}`);
});

test('a field that rewrites every key, even at a typist\'s pace, gets the text as a paste, and says so', async () => {
  // typing.html?fallback: a colour field (bootstrap-colorpicker's way) writes the last colour back
  // on each keyup until the value is a whole colour, so "#e83e8c" typed key by key reads "#000000".
  // A person pastes it: one step, one input event; the field's change handler keeps it.
  const r = await runLscope(['--log-level', 'debug', 'run', '-'], {
    input: `goto ${site.base}/e2e-pages/typing.html?fallback\ntype Query "#e83e8c"\nclick "Search"\nurl\n`,
  });
  assert.equal(r.status, 0, r.stdout + r.stderr.slice(-2000));
  assert.match(r.stdout, /ok type \[1\] "Query" "#e83e8c" \(pasted: the field rewrote the keys\)/);
  assert.match(r.stdout, /ok url .*typing\.html\?q=%23E83E8C/, 'the form sends the colour the field kept');
  assert.equal(logged(r.stderr, 'entered in one step, as a paste'), 1);
});
