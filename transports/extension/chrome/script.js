// Script mode: a tab the browser will not let chrome.debugger attach to (a page that embeds
// another extension's frame, as password managers and translators add; a policy), driven with
// chrome.scripting instead. The relay answers the DevTools Protocol subset the server speaks to a
// tab itself (relay.js: scriptCommand), so the server's page code stays one:
//   - the scanner runs in this extension's isolated world of the top document (scanner-world.js,
//     written by the build), the listener registry in the page's main world (registry-fn.js);
//   - navigation goes through the tabs API, and webNavigation reports it as Page events;
//   - requests are seen through webRequest (Network events), for the tab alone;
//   - input is synthesized in the page: DOM events whose isTrusted is false. The server says so
//     in its answers; a page that checks isTrusted may ignore them;
//   - dialogs (alert, confirm, prompt) are answered as the debugger would (accepted) and reported;
//   - a cross-origin frame of the top document becomes a frame session of its own (sframe-…), as
//     the debugger's out-of-process frames do: scanned in its own document, input forwarded to it.
// Not available in script mode: frames nested in cross-origin frames, file uploads
// (DOM.setFileInputFiles), stopping a page's endless loop.
'use strict';

try {
  importScripts('registry-fn.js');  // self.lemmascopeRegistry (absent in a copy without the build's files)
} catch (_) { /* script mode then says what is missing */ }

const MAIN_FRAME = (tabId) => 'script-' + tabId;  // the top document's frame id in script mode

// Why a tab cannot go to script mode, or '' when it can.
async function scriptModeRefusal(tabId) {
  if (typeof self.lemmascopeRegistry !== 'function') {
    return 'this copy of the extension lacks the scanner files: load it from build/extension or share/lemmascope/extension';
  }
  try {
    await chrome.scripting.executeScript({ target: { tabId, frameIds: [0] }, func: () => 1, injectImmediately: true });
    return '';
  } catch (e) {
    return toError(e).message;
  }
}

function randomChannel() {
  const a = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return 'ls' + Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => a[b % 36]).join('');
}

// --- what goes into each document of a scripted tab -------------------------------------------

// Main world: dialogs answered as the debugger answers them (accepted; a prompt gets its default)
// and reported on the channel, and a window.open the browser's popup blocker stopped (it wants a
// user's gesture, and synthesized input is none) reported too. Runs with the page's own
// privileges: nothing here is secret.
function installDialogs(channel) {
  if (window[channel + 'Dialogs']) return;
  Object.defineProperty(window, channel + 'Dialogs', { value: true });
  const report = (type, message) => document.dispatchEvent(new CustomEvent(channel + '-dialog', {
    detail: JSON.stringify({ type, message: String(message === undefined ? '' : message) }) }));
  window.alert = function alert(message) { report('alert', message); };
  window.confirm = function confirm(message) { report('confirm', message); return true; };
  window.prompt = function prompt(message, value) { report('prompt', message); return value === undefined ? '' : String(value); };
  const open = window.open;
  window.open = function open_(...args) {
    const opened = open.apply(this, args);
    if (!opened) report('popup', args.length && args[0] !== undefined ? new URL(String(args[0]), location.href).href : 'about:blank');
    return opened;
  };
}

// Isolated world: passes the main world's dialog reports to the relay.
function bridgeDialogs(channel) {
  if (globalThis.__lemmascopeBridge) return;
  globalThis.__lemmascopeBridge = true;
  document.addEventListener(channel + '-dialog', (e) => {
    try {
      const d = JSON.parse(e.detail);
      chrome.runtime.sendMessage({ type: 'dialog', channel, dialog: d.type, message: d.message });
    } catch (_) { /* not ours */ }
  });
}

async function prepareDocument(tabId) {
  const st = S.scripted[tabId];
  if (!st) return;
  const target = { tabId, frameIds: [0] };
  const run = (world, func, channel) => chrome.scripting.executeScript({ target, world, func, args: [channel], injectImmediately: true })
    .catch(() => {});  // an error page, or the document went already: its successor gets them
  await Promise.all([run('MAIN', self.lemmascopeRegistry, st.channel), run('MAIN', installDialogs, st.dialogs),
    run('ISOLATED', bridgeDialogs, st.dialogs)]);
}

// --- entering and leaving ---------------------------------------------------------------------

// The origins whose pages refused the debugger in a tab (S.refusing: tabId -> [origin]).
const originOf = (url) => { try { return new URL(url).origin; } catch (_) { return ''; } };
function refusedHere(tabId, url) {
  return ((S.refusing || {})[tabId] || []).includes(originOf(url));
}

// A debugger command refused because the page holds another extension's frame: the tab goes to
// script mode, if scripting may reach it. Whether it is in script mode now.
async function toScriptMode(tabId, error, loading) {
  if (!/Cannot access a chrome-extension:\/\//.test(toError(error).message)) return false;
  if (!S.scripted[tabId]) {
    if (await scriptModeRefusal(tabId)) return false;
    await enterScriptMode(tabId, toError(error).message, loading);
  }
  return true;
}

// `loading`: whether the top document still loads (default: what the tabs API says).
async function enterScriptMode(tabId, reason, loading) {
  if (S.scripted[tabId]) return;
  // Set before anything is awaited: a second caller (a refused command and the load probe at
  // once) finds the tab scripted already. Two channels: the registry's (the scanner's, kept from
  // the page) and the dialogs' (a mark the page can find on its window: it may fake a dialog's
  // report, nothing more).
  S.scripted[tabId] = { reason, channel: randomChannel(), dialogs: randomChannel() };
  attached.delete(tabId);
  save();
  // Let go of the debugger: out-of-process frames it attached are told to run (each is a target
  // of its own, which may still answer), then it detaches, which Chromium may refuse as well on
  // such a page (it then stays attached, unheard: relay.js drops its events for this tab).
  for (const [session, owner] of Object.entries(S.children)) {
    if (owner !== tabId) continue;
    delete S.children[session];
    await chrome.debugger.sendCommand({ tabId, sessionId: session }, 'Runtime.runIfWaitingForDebugger').catch(() => {});
  }
  chrome.debugger.detach({ tabId }).catch(() => {});
  watchRequests(tabId);
  const tab = await chrome.tabs.get(tabId).catch(() => null);
  const origin = originOf(tab ? tab.url : '');
  if (origin && origin !== 'null') {
    S.refusing = S.refusing || {};
    const list = S.refusing[tabId] || (S.refusing[tabId] = []);
    if (!list.includes(origin)) list.push(origin);
    save();
  }
  if (loading === undefined) {
    // The document's own word: the tabs API's status lags behind webNavigation's onCompleted,
    // and a load said to run after it ended would be waited for in vain.
    loading = await inTab(tabId, 'ISOLATED', () => document.readyState !== 'complete', [])
      .catch(() => !!tab && tab.status === 'loading');
  }
  emit('Lemmascope.scripted', { reason, frameId: MAIN_FRAME(tabId), url: tab ? tab.url : '', loading: !!loading }, 'tab-' + tabId);
  announceRunningRequests(tabId);
  await prepareDocument(tabId);
  await announceFrames(tabId);  // the frames the document has already
}

// Attaches the debugger to a scripted tab again, if the browser allows it now, and tells the
// server (Lemmascope.debugger: the document's frame id and whether it still loads).
async function backToDebugger(tabId) {
  if (!S.scripted[tabId]) return false;
  const cmd = (method, params = {}) => chrome.debugger.sendCommand({ tabId }, method, params);
  try {
    await chrome.debugger.attach({ tabId }, '1.3');
  } catch (_) {
    // Still attached, if the refused page did not let it detach: usable again if it answers.
    if (!(await cmd('Runtime.evaluate', { expression: '1' }).then(() => true, () => false))) return false;
  }
  try {
    await cmd('Runtime.evaluate', { expression: '1' });  // refused commands say so here
    await cmd('Emulation.setFocusEmulationEnabled', { enabled: true }).catch(() => {});
    for (const [method, params] of S.setup[tabId] || []) await cmd(method, params).catch(() => {});
    const tree = await cmd('Page.getFrameTree');
    const state = await cmd('Runtime.evaluate', { expression: 'document.readyState', returnByValue: true });
    attached.add(tabId);
    leaveScriptMode(tabId);
    save();
    emit('Lemmascope.debugger', { frameId: tree.frameTree.frame.id, url: tree.frameTree.frame.url,
      loading: state.result.value !== 'complete' }, 'tab-' + tabId);
    return true;
  } catch (_) {
    chrome.debugger.detach({ tabId }).catch(() => {});
    return false;
  }
}

function leaveScriptMode(tabId) {
  if (!S.scripted[tabId]) return;
  delete S.scripted[tabId];
}

// --- requests: Network events for the scripted tab alone --------------------------------------

// Each tab the agent drives has its requests watched from its first command (ensureAttached):
// those still running when the tab goes to script mode are told to the server then, as the
// debugger's reports of them went with it (a wait for a quiet network ended before a fetch the
// page began under the debugger). Events are sent only while the tab is scripted.
const requestWatchers = new Map();  // tabId -> { listeners, running: Map(requestId -> its event) }
function watchRequests(tabId) {
  if (requestWatchers.has(tabId) || !chrome.webRequest) return;
  const filter = { urls: ['<all_urls>'], tabId };
  const session = 'tab-' + tabId;
  const running = new Map();
  // An end is told even of a request this worker did not see begin (one woken again lost its
  // list): the server may have heard of its start.
  const ended = (d) => { running.delete(d.requestId); return !!S.scripted[tabId]; };
  const w = {
    running,
    start: (d) => {
      // A WebSocket is no request the server waits for (the debugger reports none either).
      if (d.type === 'websocket') return;
      // A video or sound buffers as long as it plays: the server waits for no such request.
      const event = { requestId: 'r' + d.requestId, request: { url: d.url, method: d.method }, type: d.type === 'media' ? 'Media' : 'Other' };
      running.set(d.requestId, event);
      if (S.scripted[tabId]) emit('Network.requestWillBeSent', event, session);
    },
    done: (d) => { if (ended(d)) emit('Network.loadingFinished', { requestId: 'r' + d.requestId }, session); },
    failed: (d) => { if (ended(d)) emit('Network.loadingFailed', { requestId: 'r' + d.requestId, errorText: d.error }, session); },
  };
  chrome.webRequest.onBeforeRequest.addListener(w.start, filter);
  chrome.webRequest.onCompleted.addListener(w.done, filter);
  chrome.webRequest.onErrorOccurred.addListener(w.failed, filter);
  requestWatchers.set(tabId, w);
}
// The requests of a tab that just went to script mode that are running still, as the server
// would have heard of them from the beginning.
function announceRunningRequests(tabId) {
  const w = requestWatchers.get(tabId);
  for (const event of w ? w.running.values() : []) emit('Network.requestWillBeSent', event, 'tab-' + tabId);
}
function unwatchRequests(tabId) {
  const w = requestWatchers.get(tabId);
  if (!w) return;
  chrome.webRequest.onBeforeRequest.removeListener(w.start);
  chrome.webRequest.onCompleted.removeListener(w.done);
  chrome.webRequest.onErrorOccurred.removeListener(w.failed);
  requestWatchers.delete(tabId);
}
// A worker woken again lost its listeners: the tabs it keeps in storage get them back.
loaded.then(() => { for (const id of Object.keys(S.tabs)) watchRequests(Number(id)); });

// --- navigation: webNavigation as Page events -------------------------------------------------

function onTopFrame(handler) {
  return async (d) => {
    await loaded;
    if (d.frameId !== 0 || !S.scripted[d.tabId]) return;
    handler(d, 'tab-' + d.tabId, MAIN_FRAME(d.tabId));
  };
}
chrome.webNavigation.onBeforeNavigate.addListener(onTopFrame((d, s, frameId) => {
  emit('Page.frameStartedLoading', { frameId }, s);
}));
chrome.webNavigation.onCommitted.addListener(onTopFrame((d, s, frameId) => {
  dropFrames(d.tabId);  // the old document's frames went with it
  emit('Page.frameNavigated', { frame: { id: frameId, url: d.url, loaderId: '', securityOrigin: '', mimeType: 'text/html' } }, s);
  // A document of another origin than those that refused the debugger in this tab may be one
  // the debugger can have: trusted input again (a frame arriving later sends it back here).
  // Where a refusal was seen, the tab stays in script mode: no back and forth on every page.
  if (refusedHere(d.tabId, d.url)) {
    prepareDocument(d.tabId);
    return;
  }
  inOrder(s, async () => ({ reply: await backToDebugger(d.tabId) })).then((back) => { if (!back) prepareDocument(d.tabId); },
    () => prepareDocument(d.tabId));
}));
chrome.webNavigation.onCompleted.addListener(onTopFrame((d, s, frameId) => {
  emit('Page.frameStoppedLoading', { frameId }, s);
  announceFrames(d.tabId);
}));
// A child frame of a scripted tab's top document loaded (or navigated): the frame list changes.
chrome.webNavigation.onCompleted.addListener(async (d) => {
  await loaded;
  if (d.frameId !== 0 && d.parentFrameId === 0 && S.scripted[d.tabId]) announceFrames(d.tabId);
});
// A page that took in another extension's frame while it loaded leaves the debugger attached
// but deaf (its load events stop): asked once it has loaded, it says so, and the tab goes on in
// script mode before the server waits for a load it would never hear of.
chrome.webNavigation.onCompleted.addListener(async (d) => {
  await loaded;
  if (d.frameId !== 0 || !(d.tabId in S.tabs) || S.scripted[d.tabId] || !attached.has(d.tabId)) return;
  debuggerCommand({ tabId: d.tabId }, 'Runtime.evaluate', { expression: '1' }).catch((e) => toScriptMode(d.tabId, e, false));
});
chrome.webNavigation.onErrorOccurred.addListener(onTopFrame((d, s, frameId) => {
  emit('Page.frameStoppedLoading', { frameId }, s);
}));
for (const event of ['onHistoryStateUpdated', 'onReferenceFragmentUpdated']) {
  chrome.webNavigation[event].addListener(onTopFrame((d, s, frameId) => {
    emit('Page.navigatedWithinDocument', { frameId, url: d.url }, s);
  }));
}

// The next top-level navigation of a tab to `url`: committed (its URL) or failed (its error). An
// earlier navigation that ours cancels fails too (net::ERR_ABORTED): not ours, not an answer.
function nextNavigation(tabId, url, ms) {
  const same = (u) => { try { return new URL(u).href === new URL(url).href; } catch (_) { return u === url; } };
  return new Promise((resolve) => {
    const done = (r) => {
      chrome.webNavigation.onCommitted.removeListener(committed);
      chrome.webNavigation.onErrorOccurred.removeListener(failed);
      clearTimeout(timer);
      resolve(r);
    };
    const committed = (d) => { if (d.tabId === tabId && d.frameId === 0) done({ url: d.url }); };
    const failed = (d) => {
      if (d.tabId === tabId && d.frameId === 0 && (same(d.url) || !/ERR_ABORTED/.test(d.error))) done({ error: d.error });
    };
    const timer = setTimeout(() => done({}), ms);
    chrome.webNavigation.onCommitted.addListener(committed);
    chrome.webNavigation.onErrorOccurred.addListener(failed);
  });
}

// --- cross-origin frames: sessions of their own ----------------------------------------------

const FRAME_SESSION = (tabId, frameId) => `sframe-${tabId}-${frameId}`;

// Tells the server which cross-origin frames the top document has now (Target.attachedToTarget
// and detachedFromTarget on the tab's session, as the debugger's auto-attach does).
async function announceFrames(tabId) {
  const st = S.scripted[tabId];
  if (!st) return;
  const all = (await chrome.webNavigation.getAllFrames({ tabId }).catch(() => null)) || [];
  const top = all.find((f) => f.frameId === 0);
  if (!top) return;
  const topOrigin = originOf(top.url);
  st.frames = st.frames || {};
  const now = new Set();
  for (const f of all) {
    const origin = originOf(f.url);
    if (f.parentFrameId !== 0 || !origin || origin === 'null' || origin === topOrigin || !/^https?:/.test(f.url)) continue;
    const session = FRAME_SESSION(tabId, f.frameId);
    now.add(session);
    if (st.frames[session] !== undefined) continue;
    st.frames[session] = f.frameId;
    S.children[session] = tabId;
    emit('Target.attachedToTarget', { sessionId: session, waitingForDebugger: false,
      targetInfo: { targetId: session, type: 'iframe', url: f.url, title: '', attached: true } }, 'tab-' + tabId);
  }
  for (const session of Object.keys(st.frames)) {
    if (now.has(session)) continue;
    dropFrame(tabId, session);
  }
  save();
}

function dropFrame(tabId, session) {
  const st = S.scripted[tabId];
  if (st && st.frames) delete st.frames[session];
  delete S.children[session];
  emit('Target.detachedFromTarget', { sessionId: session }, 'tab-' + tabId);
}

function dropFrames(tabId) {
  const st = S.scripted[tabId];
  for (const session of Object.keys((st && st.frames) || {})) dropFrame(tabId, session);
}

// Where a cross-origin frame's document sits in the top document's viewport: the frame says
// who it is (a message to its parent, with a token), and the top document finds the <iframe>
// whose window sent it. Remembered there (frame id by element), for input forwarding.
async function frameBox(tabId, frameId) {
  const token = 'lsprobe-' + randomChannel();
  await inTab(tabId, 'ISOLATED', (t, id) => {
    const probes = globalThis.__lemmascopeProbes || (globalThis.__lemmascopeProbes = {});
    const ids = globalThis.__lemmascopeFrameIds || (globalThis.__lemmascopeFrameIds = new WeakMap());
    probes[t] = null;
    const on = (e) => {
      if (e.data !== t) return;
      e.stopImmediatePropagation();
      removeEventListener('message', on, true);
      const el = Array.from(document.querySelectorAll('iframe,frame')).find((f) => f.contentWindow === e.source) || null;
      if (el) ids.set(el, id);
      probes[t] = el;
    };
    addEventListener('message', on, true);
  }, [token, frameId]);
  await chrome.scripting.executeScript({ target: { tabId, frameIds: [frameId] }, world: 'ISOLATED',
    func: (t) => parent.postMessage(t, '*'), args: [token], injectImmediately: true }).catch(() => {});
  return inTab(tabId, 'ISOLATED', (t) => new Promise((resolve) => {
    const probes = globalThis.__lemmascopeProbes;
    const end = Date.now() + 1000;
    const look = () => {
      const el = probes[t];
      if (el || Date.now() > end) {
        delete probes[t];
        if (!el) return resolve(null);
        const r = el.getBoundingClientRect();
        const cs = getComputedStyle(el);
        const x = r.left + el.clientLeft + parseFloat(cs.paddingLeft || '0');
        const y = r.top + el.clientTop + parseFloat(cs.paddingTop || '0');
        const w = el.clientWidth - parseFloat(cs.paddingLeft || '0') - parseFloat(cs.paddingRight || '0');
        const h = el.clientHeight - parseFloat(cs.paddingTop || '0') - parseFloat(cs.paddingBottom || '0');
        return resolve(el.getClientRects().length ? [x, y, w, h] : null);
      }
      setTimeout(look, 5);
    };
    look();
  }), [token]);
}

// A frame session's commands: the scanner in the frame's own document, nothing else to do.
async function frameCommand(tabId, session, method, params) {
  const st = S.scripted[tabId];
  const frameId = st && st.frames ? st.frames[session] : undefined;
  if (frameId === undefined) throw fail('Session with given id not found: ' + session);
  switch (method) {
    case 'Page.enable': case 'Runtime.runIfWaitingForDebugger': case 'Target.setAutoAttach':
      return {};
    case 'Page.addScriptToEvaluateOnNewDocument':
      await chrome.scripting.executeScript({ target: { tabId, frameIds: [frameId] }, world: 'MAIN', func: self.lemmascopeRegistry,
        args: [st.channel], injectImmediately: true }).catch(() => {});
      return { identifier: 'script-mode' };
    case 'Lemmascope.scanner':
      return scannerCommand(tabId, params.command, frameId);
    default:
      throw fail(method + ' needs the debugger, which Chromium refuses on this tab (' + st.reason + ')');
  }
}

// --- input, synthesized in the page (isolated world) ------------------------------------------

// The element at a viewport point, through same-origin frames and open shadow roots, with the
// point in that element's own document.
function synthesizeMouse(p) {
  let doc = document;
  let x = p.x;
  let y = p.y;
  let el = doc.elementFromPoint(x, y);
  for (;;) {
    while (el && el.shadowRoot) {
      const root = el.shadowRoot;
      let inner = root.elementFromPoint(x, y);
      if (!inner || inner === el) {
        // The point is on light-DOM content the shadow tree slots in (a button's label text):
        // retargeted, that is the host; the event's path runs through the slot and the tree's
        // own elements around it (where a component listens), so it starts there.
        inner = Array.from(root.elementsFromPoint(x, y)).find((e) => e !== el && root.contains(e)) || null;
      }
      if (!inner || inner === el) break;
      el = inner;
    }
    if (!el || !/^(IFRAME|FRAME)$/.test(el.tagName)) break;
    let inner = null;
    try { inner = el.contentDocument; } catch (_) { /* cross-origin */ }
    // The frame's document starts at its content box: inside the border and the padding.
    const r = el.getBoundingClientRect();
    const cs = el.ownerDocument.defaultView.getComputedStyle(el);
    const dx = r.left + el.clientLeft + parseFloat(cs.paddingLeft || '0');
    const dy = r.top + el.clientTop + parseFloat(cs.paddingTop || '0');
    if (!inner) {
      // A cross-origin frame the relay knows: the event goes on there (relay: frame sessions).
      const id = doc === document && globalThis.__lemmascopeFrameIds ? globalThis.__lemmascopeFrameIds.get(el) : undefined;
      if (id !== undefined) return { frame: id, x: x - dx, y: y - dy };
      break;
    }
    x -= dx;
    y -= dy;
    doc = inner;
    el = doc.elementFromPoint(x, y);
  }
  el = el || doc.body || doc.documentElement;
  const state = globalThis.__lemmascopeMouse || (globalThis.__lemmascopeMouse = {});
  const m = p.modifiers || 0;
  const button = { left: 0, middle: 1, right: 2 }[p.button] ?? 0;
  const view = doc.defaultView;
  const init = { bubbles: true, cancelable: true, composed: true, view, clientX: x, clientY: y,
    screenX: x, screenY: y, button, buttons: p.buttons || 0, detail: p.clickCount || 0,
    altKey: !!(m & 1), ctrlKey: !!(m & 2), metaKey: !!(m & 4), shiftKey: !!(m & 8) };
  // The scanner's click guard (same world) weighs the events named here as a user's own.
  const named = globalThis.__lemmascopeSynthesized || (globalThis.__lemmascopeSynthesized = new WeakSet());
  const send = (target, ev) => { named.add(ev); return target.dispatchEvent(ev); };
  const pointer = (type, extra = {}) => send(el, new view.PointerEvent(type,
    { ...init, pointerId: 1, pointerType: 'mouse', isPrimary: true, ...extra }));
  const mouse = (type, target = el, extra = {}) => send(target, new view.MouseEvent(type, { ...init, ...extra }));
  // `node` and the elements that hold it, innermost first, through shadow hosts and the frames of
  // same-origin documents (the mouse over an element of a frame is over the frame too). Inside:
  // this function runs in the page as its source, without the service worker's helpers.
  function lineage(node) {
    const out = [];
    for (let n = node, guard = 0; n && guard < 4096; guard++) {
      if (n.nodeType === 1) out.push(n);
      if (n.parentNode) n = n.parentNode;
      else if (n.host) n = n.host;  // a shadow root
      else if (n.nodeType === 9) {
        try { n = n.defaultView && n.defaultView.frameElement; } catch (_) { n = null; }
      } else n = null;
    }
    return out;
  }
  if (p.type === 'mouseMoved') {
    if (state.over !== el) {
      // As a browser moves the mouse from one element to another (UI Events §4.3.4.1): out and
      // leave on what it left, over and enter on what it entered. Enter and leave go to each
      // element on the way that the move entered or left (through shadow hosts and same-origin
      // frames), do not bubble, leave from the inside out and enter from the outside in.
      const old = state.over && state.over.isConnected ? state.over : null;
      const from = lineage(old);
      const to = lineage(el);
      const left = from.filter((e) => !to.includes(e));
      const entered = to.filter((e) => !from.includes(e)).reverse();
      const edge = (type, target, related, Ctor) => {
        const v = target.ownerDocument.defaultView || view;
        const own = { ...init, view: v, bubbles: false, cancelable: false, composed: false, relatedTarget: related };
        send(target, Ctor === 'pointer' ? new v.PointerEvent(type, { ...own, pointerId: 1, pointerType: 'mouse', isPrimary: true })
          : new v.MouseEvent(type, own));
      };
      // Chromium's order: the pointer's four kinds, then the mouse's.
      if (old) {
        send(old, new view.PointerEvent('pointerout', { ...init, pointerId: 1, pointerType: 'mouse', isPrimary: true, relatedTarget: el }));
        for (const e of left) edge('pointerleave', e, el, 'pointer');
      }
      pointer('pointerover', { relatedTarget: old });
      for (const e of entered) edge('pointerenter', e, old, 'pointer');
      if (old) {
        mouse('mouseout', old, { relatedTarget: el });
        for (const e of left) edge('mouseleave', e, el, 'mouse');
      }
      mouse('mouseover', el, { relatedTarget: old });
      for (const e of entered) edge('mouseenter', e, old, 'mouse');
      state.over = el;
    }
    pointer('pointermove');
    mouse('mousemove');
    return;
  }
  if (p.type === 'mousePressed') {
    const go = pointer('pointerdown') & mouse('mousedown');
    state.down = el;
    if (go) {
      // What a press does by default: focus what it pressed (or the nearest focusable ancestor).
      const focusable = el.closest('a[href],area[href],button,input,select,textarea,summary,[tabindex],[contenteditable=""],[contenteditable=true]');
      if (focusable && !focusable.disabled) focusable.focus({ preventScroll: true });
      else if (doc.activeElement && doc.activeElement !== doc.body && doc.activeElement.blur) doc.activeElement.blur();
    }
    return;
  }
  if (p.type === 'mouseReleased') {
    pointer('pointerup', { buttons: 0 });
    mouse('mouseup', el, { buttons: 0 });
    const down = state.down;
    state.down = null;
    // The click goes to the nearest element that holds both ends of the press.
    let target = el;
    while (down && target && !target.contains(down)) target = target.parentElement;
    if (!target) return;
    if (button === 0) {
      // A synthetic click runs the element's activation (a checkbox toggles, a link follows).
      mouse('click', target, { buttons: 0 });
      if ((p.clickCount || 0) === 2) mouse('dblclick', target, { buttons: 0 });
    } else if (button === 2) {
      mouse('contextmenu', target, { buttons: 0 });
    } else {
      mouse('auxclick', target, { buttons: 0 });
    }
  }
}

// A key as Input.dispatchKeyEvent describes it (keyDown with text types it), or Input.insertText
// (p.insert: the text alone, no key events).
function synthesizeKey(p) {
  let el = document.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
  while (el && /^(IFRAME|FRAME)$/.test(el.tagName)) {
    let inner = null;
    try { inner = el.contentDocument; } catch (_) { /* cross-origin */ }
    if (!inner) {
      // Focus is in a cross-origin frame the relay knows: the keys go on there.
      const id = el.ownerDocument === document && globalThis.__lemmascopeFrameIds ? globalThis.__lemmascopeFrameIds.get(el) : undefined;
      if (id !== undefined) return { frame: id };
      break;
    }
    if (!inner.activeElement) break;
    el = inner.activeElement;
  }
  el = el || document.body;
  const doc = el.ownerDocument;
  const view = doc.defaultView;
  const field = el.isContentEditable || el.tagName === 'TEXTAREA' ||
    (el.tagName === 'INPUT' && !/^(checkbox|radio|button|submit|reset|image|file|color|range|hidden)$/i.test(el.type));
  const insert = (text) => {
    if (!field || el.readOnly || el.disabled) return;
    // execCommand inserts at the caret as typing does: beforeinput and input fire, undo works,
    // and a framework's own value tracking sees the change.
    if (doc.execCommand('insertText', false, text)) return;
    const at = typeof el.selectionStart === 'number' ? el.selectionStart : el.value.length;
    const end = typeof el.selectionEnd === 'number' ? el.selectionEnd : at;
    el.value = el.value.slice(0, at) + text + el.value.slice(end);
    el.dispatchEvent(new view.InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', data: text }));
  };
  if (p.insert !== undefined) {
    insert(p.insert);
    return;
  }
  const m = p.modifiers || 0;
  const init = { key: p.key, code: p.code, keyCode: p.keyCode, which: p.keyCode, bubbles: true, cancelable: true,
    composed: true, view, altKey: !!(m & 1), ctrlKey: !!(m & 2), metaKey: !!(m & 4), shiftKey: !!(m & 8) };
  if (p.type === 'keyUp') {
    el.dispatchEvent(new view.KeyboardEvent('keyup', init));
    // A space released on a button, checkbox or radio activates it.
    if (p.key === ' ' && /^(BUTTON|SUMMARY)$/.test(el.tagName) || (el.tagName === 'INPUT' && /^(checkbox|radio|button|submit|reset)$/i.test(el.type) && p.key === ' ')) el.click();
    return;
  }
  if (!el.dispatchEvent(new view.KeyboardEvent('keydown', init))) return;  // the page took it
  if (m & (2 | 4) && !(m & 1) && String(p.key).toLowerCase() === 'a') {
    // Select all: the field's text, else the document's.
    if (field && el.select) el.select();
    else doc.execCommand('selectAll');
    return;
  }
  if (m & (1 | 2 | 4)) return;  // another shortcut: no text, no default here
  if (p.key === 'Enter') {
    if (el.tagName === 'TEXTAREA' || el.isContentEditable) {
      if (el.dispatchEvent(new view.KeyboardEvent('keypress', { ...init, charCode: 13 }))) doc.execCommand('insertLineBreak');
    } else if (el.dispatchEvent(new view.KeyboardEvent('keypress', { ...init, charCode: 13 }))) {
      if (el.tagName === 'INPUT' && el.form) {
        // Implicit submission: the form's default button is clicked, or the form submitted.
        const button = el.form.querySelector('button:not([type]),button[type=submit],input[type=submit],input[type=image]');
        if (button) button.click();
        else el.form.requestSubmit();
      } else if (/^(A|BUTTON)$/.test(el.tagName)) {
        el.click();
      }
    }
    return;
  }
  if (p.text && p.key !== ' ' || (p.key === ' ' && field)) {
    if (!el.dispatchEvent(new view.KeyboardEvent('keypress', { ...init, charCode: p.text.charCodeAt(0) }))) return;
    insert(p.text);
    return;
  }
  if ((p.key === 'Backspace' || p.key === 'Delete') && field) {
    doc.execCommand(p.key === 'Backspace' ? 'delete' : 'forwardDelete');
  } else if (p.key === 'Tab') {
    const all = Array.from(doc.querySelectorAll('a[href],button,input,select,textarea,[tabindex],[contenteditable=""],[contenteditable=true]'))
      .filter((e) => !e.disabled && e.tabIndex >= 0 && e.getClientRects().length && e.type !== 'hidden');
    const i = all.indexOf(el);
    const next = all[(i + ((m & 8) ? -1 : 1) + all.length) % all.length];
    if (next) next.focus();
  }
}

// --- the DevTools Protocol subset, answered here ----------------------------------------------

const scanned = (tabId, frameId = 0) => ({ tabId, frameIds: [frameId] });

// A script call in a document that went away (navigation) reads as the protocol's own words,
// so the server retries what is safe to retry in the new document.
function scriptError(e) {
  const text = toError(e).message;
  if (/Frame with ID|frame was removed|No frame|document|navigat/i.test(text)) {
    return fail('Execution context was destroyed (' + text + ')');
  }
  return e;
}

// Input whose own effect ends the document (Enter submits the form, a click follows a link): the
// event was delivered, the script's answer went with the document.
async function inputInTab(tabId, func, args, frameId = 0) {
  try {
    return await inTab(tabId, 'ISOLATED', func, args, frameId);
  } catch (e) {
    if (/Execution context was destroyed/.test(toError(e).message)) return undefined;
    throw e;
  }
}

async function inTab(tabId, world, func, args, frameId = 0) {
  try {
    const [r] = await chrome.scripting.executeScript({ target: scanned(tabId, frameId), world, func, args, injectImmediately: true });
    return r ? r.result : undefined;
  } catch (e) {
    throw scriptError(e);
  }
}

// The scanner's `execute` (a script of a trusted pack's step, a test's helper) in the page's main
// world: this extension's isolated world may not compile code (Manifest V3), the page's may
// unless its Content-Security-Policy forbids eval. Elements come back as {element: tag}.
function executeInPage(script, args) {
  const answer = (r) => JSON.stringify(r);
  let fn;
  try {
    try {
      fn = new Function('return (\n' + script + '\n);');
    } catch (_) {
      fn = new Function(script);
    }
  } catch (e) {
    return answer({ ok: false, code: 'SCRIPT_ERROR', error: 'script does not compile: ' + e +
      (/unsafe-eval|Content Security Policy|EvalError/i.test(String(e)) ? ' (the page forbids eval)' : '') });
  }
  const plain = (k, v) => (v instanceof Node ? (v.nodeType === 1 ? { element: v.tagName.toLowerCase() } : v.textContent) : v);
  return Promise.resolve().then(() => fn.apply(null, args)).then((v) => {
    let value;
    try {
      value = v === undefined ? null : JSON.parse(JSON.stringify(v, plain));
    } catch (_) {
      value = String(v);
    }
    return answer({ ok: true, data: { value } });
  }, (e) => answer({ ok: false, code: 'SCRIPT_ERROR', error: 'script threw ' + (e && e.message ? e.message : e) }));
}

async function scannerCommand(tabId, command, frameId = 0) {
  const st = S.scripted[tabId];
  if (command && command.cmd === 'execute' && typeof command.script === 'string') {
    const args = Array.isArray(command.args) ? command.args : [];
    return { result: { type: 'string', value: await inTab(tabId, 'MAIN', executeInPage, [command.script, args], frameId) } };
  }
  const call = (channel, cmd) => {
    globalThis.__lemmascope_channel = channel;
    return globalThis.__lemmascope ? globalThis.__lemmascope.handle(cmd) : null;
  };
  let value = await inTab(tabId, 'ISOLATED', call, [st.channel, command], frameId);
  if (value === null) {
    try {
      await chrome.scripting.executeScript({ target: scanned(tabId, frameId), world: 'ISOLATED', files: ['scanner-world.js'], injectImmediately: true });
    } catch (e) {
      throw scriptError(e);
    }
    value = await inTab(tabId, 'ISOLATED', call, [st.channel, command], frameId);
  }
  if (typeof value !== 'string') throw fail('the scanner did not load in this tab');
  return { result: { type: 'string', value } };
}

const ok = async () => ({});
const scriptCommands = {
  'Page.enable': ok, 'Network.enable': ok, 'Runtime.enable': ok, 'DOM.enable': ok, 'Target.setAutoAttach': ok,
  'Page.addScriptToEvaluateOnNewDocument': async () => ({ identifier: 'script-mode' }),  // ours goes in on commit
  'Emulation.setFocusEmulationEnabled': ok, 'Runtime.runIfWaitingForDebugger': ok, 'Runtime.releaseObject': ok,
  'Page.handleJavaScriptDialog': ok,  // answered already, in the page
  'Page.getFrameTree': async (tabId) => {
    const tab = await chrome.tabs.get(tabId);
    return { frameTree: { frame: { id: MAIN_FRAME(tabId), url: tab.url || '', loaderId: '', securityOrigin: '', mimeType: 'text/html' } } };
  },
  'Page.navigate': async (tabId, { url }) => {
    const next = nextNavigation(tabId, url, 30000);
    await chrome.tabs.update(tabId, { url });
    const r = await next;
    if (r.error) return { frameId: MAIN_FRAME(tabId), errorText: r.error };
    // Committed: its load is reported by webNavigation (frameStoppedLoading); a same-document
    // navigation never commits a new document and has no loader.
    return r.url ? { frameId: MAIN_FRAME(tabId), loaderId: 'script-' + Date.now() } : { frameId: MAIN_FRAME(tabId) };
  },
  'Page.reload': async (tabId) => { await chrome.tabs.reload(tabId); return {}; },
  // History as three entries: back, here, forward (the tabs API moves, it does not list).
  'Page.getNavigationHistory': async (tabId) => {
    const tab = await chrome.tabs.get(tabId);
    return { currentIndex: 1, entries: [{ id: -1, url: '' }, { id: 0, url: tab.url || '' }, { id: 1, url: '' }] };
  },
  'Page.navigateToHistoryEntry': async (tabId, { entryId }) => {
    if (entryId === 0) return {};
    const back = entryId < 0;
    try {
      await (back ? chrome.tabs.goBack(tabId) : chrome.tabs.goForward(tabId));
      return {};
    } catch (_) {
      // The browser skips entries whose page navigated away without a user's gesture, and a
      // synthesized click is none: the page's own history still goes there (same origin).
    }
    const moved = await inTab(tabId, 'ISOLATED', (b) => {
      const nav = globalThis.navigation;
      if (!nav || !(b ? nav.canGoBack : nav.canGoForward)) return false;
      if (b) history.back(); else history.forward();
      return true;
    }, [back]);
    if (!moved) {
      emit('Page.frameStoppedLoading', { frameId: MAIN_FRAME(tabId) }, 'tab-' + tabId);  // nothing moves
      throw fail(back ? 'no previous page in history' : 'no next page in history');
    }
    return {};
  },
  'Page.captureScreenshot': async (tabId) => {
    const tab = await chrome.tabs.get(tabId);
    if (!tab.active) await chrome.tabs.update(tabId, { active: true });
    const url = await chrome.tabs.captureVisibleTab(tab.windowId, { format: 'png' });
    return { data: url.slice(url.indexOf(',') + 1) };
  },
  // The renderer answers (the server's "is the page's script stuck?" probe).
  'Runtime.evaluate': async (tabId, { expression }) => {
    if (expression !== '0') throw fail('Runtime.evaluate needs the debugger, which this tab refuses: ' + S.scripted[tabId].reason);
    return { result: { type: 'number', value: await inTab(tabId, 'ISOLATED', () => 0, []) } };
  },
  'Lemmascope.scanner': async (tabId, { command }) => scannerCommand(tabId, command),
  // The server is about to list frames: the cross-origin ones there are now (announced before
  // this answer, on the same socket).
  'Lemmascope.frames': async (tabId) => { await announceFrames(tabId); return {}; },
  // A cross-origin frame's <iframe> (frames() asks the owner, then its box).
  'DOM.getFrameOwner': async (tabId, { frameId }) => {
    const st = S.scripted[tabId];
    const id = st && st.frames ? st.frames[frameId] : undefined;
    if (id === undefined) throw fail('Frame with given id not found');
    return { backendNodeId: id };
  },
  'DOM.getBoxModel': async (tabId, { backendNodeId }) => {
    const box = await frameBox(tabId, backendNodeId);
    if (!box) throw fail('Could not compute box model.');
    const [x, y, w, h] = box;
    const quad = [x, y, x + w, y, x + w, y + h, x, y + h];
    return { model: { content: quad, padding: quad, border: quad, margin: quad, width: w, height: h } };
  },
  // Input goes to the top document, or on into the cross-origin frame it lands on (the top
  // document answers where, in that frame's own coordinates).
  'Input.dispatchMouseEvent': async (tabId, p) => {
    const event = { type: p.type, x: p.x, y: p.y, button: p.button, buttons: p.buttons, clickCount: p.clickCount, modifiers: p.modifiers };
    const on = await inputInTab(tabId, synthesizeMouse, [event]);
    if (on && on.frame !== undefined) await inputInTab(tabId, synthesizeMouse, [{ ...event, x: on.x, y: on.y }], on.frame);
    return { synthesized: true };
  },
  'Input.dispatchKeyEvent': async (tabId, p) => {
    const event = { type: p.type === 'keyUp' ? 'keyUp' : 'keyDown', key: p.key, code: p.code,
      keyCode: p.windowsVirtualKeyCode, text: p.text || '', modifiers: p.modifiers };
    const on = await inputInTab(tabId, synthesizeKey, [event]);
    if (on && on.frame !== undefined) await inputInTab(tabId, synthesizeKey, [event], on.frame);
    return { synthesized: true };
  },
  'Input.insertText': async (tabId, { text }) => {
    const on = await inputInTab(tabId, synthesizeKey, [{ insert: String(text) }]);
    if (on && on.frame !== undefined) await inputInTab(tabId, synthesizeKey, [{ insert: String(text) }], on.frame);
    return { synthesized: true };
  },
};

function scriptCommand(tabId, method, params) {
  const f = scriptCommands[method];
  if (f) return f(tabId, params);
  if (method === 'Page.createIsolatedWorld') {
    // Sent before the server heard that this tab went to script mode: its world is gone.
    return Promise.reject(fail('Execution context was destroyed (the tab is in script mode now)'));
  }
  return Promise.reject(fail(method + ' needs the debugger, which Chromium refuses on this tab (' + S.scripted[tabId].reason + ')'));
}
