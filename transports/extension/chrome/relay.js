// Lemmascope relay: the extension's service worker.
//
// After pairing it keeps one WebSocket to the Lemmascope server on 127.0.0.1 and relays DevTools
// Protocol messages between the server and the agent's own tabs through chrome.debugger. The
// browser-level Target domain the server speaks (create, attach, close, list tabs; browser
// contexts) is emulated over the tabs API: a "browser context" is a tab group of the agent's
// own, and only tabs the agent opened (or that they opened) are ever attached or listed. The
// user's other tabs are never touched, unless the user shares one from the popup ("Share this
// tab with the agent"): it joins the agent's latest context, is never closed by the agent (closing
// or disposing releases it), and "Stop sharing" or closing the debugging bar takes it back.
//
// Wire format (JSON text frames), CDP-shaped:
//   server -> extension  {id, method, params, sessionId?}
//   extension -> server  {id, result} | {id, error: {code, message}} | {method, params, sessionId?}
// A tab's session id is "tab-<tabId>"; out-of-process iframes keep the browser's own session ids.
'use strict';

const PROTOCOL = 1;
const KEEPALIVE_MS = 20000;  // a message every 20 s keeps an MV3 service worker alive
const GROUP_TITLE = 'Lemmascope';
// Commands that set a tab session up; replayed in order when the debugger is attached again
// (after the service worker was suspended and the browser dropped its debugger session).
const SETUP = new Set(['Page.enable', 'Network.enable', 'Runtime.enable', 'DOM.enable',
  'Page.addScriptToEvaluateOnNewDocument', 'Target.setAutoAttach']);

let ws = null;
let wsState = 'not paired';
let lastError = '';
let retryMs = 250;
let retryTimer = null;

// State that must survive the service worker's suspension lives in chrome.storage.session:
//   contexts: contextId -> {groupId}      tabs: tabId -> contextId
//   setup: tabId -> [[method, params]]     children: child session id -> tabId
//   shared: tabId -> true (a user's tab)   latest: the context the server made last
//   scripted: tabId -> {reason, channel}: tabs driven without the debugger (script.js)
let S = { contexts: {}, tabs: {}, setup: {}, children: {}, shared: {}, latest: null, scripted: {} };
const attached = new Set();  // tabs our debugger is attached to, as far as this worker knows
const chains = new Map();    // session id -> promise: commands are issued in arrival order
const loaded = chrome.storage.session.get('relay').then((got) => { if (got.relay) S = { shared: {}, latest: null, scripted: {}, ...got.relay }; });
const save = () => chrome.storage.session.set({ relay: S }).catch(() => {});

// --- the connection ---------------------------------------------------------------------------

function parseCode(code) {
  const m = /^lsx1:(\d{1,5}):([0-9a-f]{32,128})$/.exec(String(code || '').trim());
  return m ? { port: Number(m[1]), token: m[2] } : null;
}

// The pairing the user made in the popup; else the one a launcher wrote into this copy of the
// extension as pairing.json (lscope --extension-launch: a browser of lscope's own).
async function pairing() {
  const { pairing: stored, unpaired } = await chrome.storage.local.get(['pairing', 'unpaired']);
  if (stored || unpaired) return stored || null;
  const shipped = await fetch(chrome.runtime.getURL('pairing.json')).then((r) => r.json()).catch(() => null);
  const p = shipped && parseCode(shipped.code);
  if (p) await chrome.storage.local.set({ pairing: p });
  return p;
}

let connecting = null;  // one connection attempt at a time
function connect() {
  if (!connecting) connecting = openSocket().finally(() => { connecting = null; });
  return connecting;
}

async function openSocket() {
  if (ws && ws.readyState <= WebSocket.OPEN) return;  // connecting or open
  const p = await pairing();
  if (!p) { wsState = 'not paired'; return; }
  clearTimeout(retryTimer);
  wsState = 'connecting';
  let sock;
  try {
    sock = new WebSocket(`ws://127.0.0.1:${p.port}/lemmascope?token=${p.token}`);
  } catch (e) {
    lastError = String(e);
    schedule();
    return;
  }
  ws = sock;
  sock.onopen = () => {
    wsState = 'connected';
    retryMs = 250;
    lastError = '';
    send({ method: 'Lemmascope.hello', params: {
      protocol: PROTOCOL, version: chrome.runtime.getManifest().version, userAgent: navigator.userAgent } });
  };
  sock.onmessage = (e) => { onMessage(e.data); };
  sock.onerror = () => { lastError = `cannot reach Lemmascope on 127.0.0.1:${p.port}`; };
  sock.onclose = (e) => {
    if (ws !== sock) return;
    ws = null;
    wsState = 'disconnected';
    if (e.code === 4001 || e.code === 4003) lastError = e.reason;
    schedule();
  };
}

function schedule() {
  clearTimeout(retryTimer);
  retryTimer = setTimeout(connect, retryMs);
  retryMs = Math.min(retryMs * 2, 5000);
}

function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
}

const emit = (method, params, sessionId) => send(sessionId ? { method, params, sessionId } : { method, params });

setInterval(() => send({ method: 'Lemmascope.keepalive', params: {} }), KEEPALIVE_MS);
chrome.alarms.create('lemmascope-reconnect', { periodInMinutes: 0.5 });
chrome.alarms.onAlarm.addListener(() => { connect(); });
chrome.runtime.onStartup.addListener(() => { connect(); });
chrome.runtime.onInstalled.addListener(() => { connect(); });
connect();

// --- commands ---------------------------------------------------------------------------------

function toError(e) {
  const text = e && typeof e.message === 'string' ? e.message : String(e);
  try {
    const j = JSON.parse(text);  // chrome.debugger rejects with the protocol's error as JSON
    if (j && typeof j.message === 'string') return { code: j.code || -32000, message: j.message };
  } catch (_) { /* not JSON */ }
  return { code: (e && e.code) || -32000, message: text };
}

async function onMessage(data) {
  let msg;
  try { msg = JSON.parse(data); } catch (_) { return; }
  if (!msg || typeof msg.id !== 'number' || typeof msg.method !== 'string') return;
  await loaded;
  try {
    const params = msg.params && typeof msg.params === 'object' ? msg.params : {};
    const result = msg.sessionId ? await sessionCommand(String(msg.sessionId), msg.method, params)
                                 : await browserCommand(msg.method, params);
    send({ id: msg.id, result: result || {} });
  } catch (e) {
    send({ id: msg.id, error: toError(e) });
  }
}

const fail = (message, code = -32000) => { const e = new Error(message); e.code = code; return e; };
const tabIdOf = (targetId) => Number(String(targetId).replace(/^tab-/, ''));

function ownedTab(targetId) {
  const tabId = tabIdOf(targetId);
  if (!(tabId in S.tabs)) throw fail('No target with given id found: ' + targetId);
  return tabId;
}

function info(tab, ctx) {
  return { targetId: 'tab-' + tab.id, type: 'page', url: tab.url || tab.pendingUrl || '', title: tab.title || '',
           attached: attached.has(tab.id), browserContextId: ctx, canAccessOpener: false };
}

// Issues `start` after every earlier command of the same session was issued; the replies are
// awaited independently (a dialog must be answerable while an evaluation waits on it).
function inOrder(key, start) {
  const prev = chains.get(key) || Promise.resolve();
  const step = prev.then(start);
  chains.set(key, step.then(() => {}, () => {}));
  return step.then((r) => r.reply);
}

async function ensureAttached(tabId) {
  if (attached.has(tabId) || S.scripted[tabId]) return;
  watchRequests(tabId);
  try {
    await chrome.debugger.attach({ tabId }, '1.3');
  } catch (e) {
    // Ours already, from before this worker was suspended? Then a command goes through.
    const ours = await chrome.debugger.sendCommand({ tabId }, 'Runtime.evaluate', { expression: '1' })
      .then(() => true, () => false);
    if (!ours) {
      // Refused (a page that embeds another extension's frame, a policy): drive it with scripts.
      const why = toError(e).message;
      const refusal = /No tab with/.test(why) ? why : await scriptModeRefusal(tabId);
      if (refusal) throw fail('cannot control this tab: ' + why + ' (and without the debugger: ' + refusal + ')');
      await enterScriptMode(tabId, why);
      return;
    }
    attached.add(tabId);
    return;
  }
  attached.add(tabId);
  // The user may be typing in another window: the agent's tab behaves as if it had the focus
  // (focus and blur events, :focus styles, document.hasFocus()).
  await chrome.debugger.sendCommand({ tabId }, 'Emulation.setFocusEmulationEnabled', { enabled: true }).catch(() => {});
  for (const [method, params] of S.setup[tabId] || []) {
    await chrome.debugger.sendCommand({ tabId }, method, params).catch(() => {});
  }
}

function recordSetup(tabId, method, params) {
  const list = S.setup[tabId] || (S.setup[tabId] = []);
  const text = JSON.stringify([method, params]);
  if (!list.some((x) => JSON.stringify(x) === text)) {
    list.push([method, params]);
    save();
  }
}

function sessionCommand(sessionId, method, params) {
  let tabId;
  let child = null;
  if (sessionId.startsWith('tab-')) {
    tabId = tabIdOf(sessionId);
  } else {
    tabId = S.children[sessionId];
    child = sessionId;
  }
  if (tabId === undefined || !(tabId in S.tabs)) throw fail('Session with given id not found: ' + sessionId);
  if (method === 'Target.setAutoAttach') {
    // Frames never wait for this debugger: a page that takes in another extension's frame
    // refuses it every command, detaching included (Chromium's rule), and an out-of-process
    // frame held for it would then never load, in the page the user sees too. The listener
    // registry may reach such a frame a moment after its first script.
    params = { ...params, waitForDebuggerOnStart: false };
  }
  if (child && child.startsWith('sframe-')) {
    // A cross-origin frame of a tab in script mode (script.js).
    return inOrder(sessionId, async () => ({ reply: frameCommand(tabId, child, method, params) }));
  }
  return inOrder(sessionId, async () => {
    if (!child) {
      await ensureAttached(tabId);
      // Kept in script mode too: the debugger gets them when it may attach again (script.js).
      if (SETUP.has(method)) recordSetup(tabId, method, params);
      if (S.scripted[tabId]) return { reply: scriptCommand(tabId, method, params) };
    }
    const target = child ? { tabId, sessionId: child } : { tabId };
    let reply = debuggerCommand(target, method, params);
    if (!child) reply = reply.catch((e) => refused(tabId, method, params, e));
    return { reply };
  });
}

// Chromium refuses to let an extension debug a page that embeds another extension's page (a
// password manager's or a translator's frame, or a hostile page on purpose): the debugger stays
// attached but its commands fail. The tab goes on in script mode (script.js), where this command
// is answered as well; without scripting either, the agent can still leave the page.
async function refused(tabId, method, params, error) {
  if (await toScriptMode(tabId, error)) return scriptCommand(tabId, method, params);
  if (method === 'Page.navigate') return navigateAnyway(tabId, params, error);
  // The browser let go of the tab while a command that only sets up the session ran (a tab the
  // page opened, switched to at once: Page.enable met "target_closed"): once attached again, or
  // in script mode, it is asked once more. Not an input event or a script: it may have run.
  if (RETRIED.test(method) && /^Detached while handling command/.test(toError(error).message) &&
      await chrome.tabs.get(tabId).catch(() => null)) {
    await ensureAttached(tabId).catch(() => {});
    if (S.scripted[tabId]) return scriptCommand(tabId, method, params);
    // (Attached again while the page took in the other extension's frame: refused now.)
    return debuggerCommand({ tabId }, method, params).catch(async (e) => {
      if (await toScriptMode(tabId, e)) return scriptCommand(tabId, method, params);
      throw e;
    });
  }
  throw error;
}
const RETRIED = /\.(enable|disable)$|^Page\.(getFrameTree|setLifecycleEventsEnabled)$|^Emulation\.|^Target\.setAutoAttach$/;

// The agent leaves a page it cannot control: navigate through the tabs API. The load is then
// reported by the events of the page it arrives at.
async function navigateAnyway(tabId, params, error) {
  if (!/Cannot access/.test(toError(error).message) || !/^(https?|about|data):/.test(String(params.url))) throw error;
  const loaded = new Promise((resolve) => {
    const done = () => { chrome.tabs.onUpdated.removeListener(listener); clearTimeout(timer); resolve(); };
    const listener = (id, change) => { if (id === tabId && change.status === 'complete') done(); };
    const timer = setTimeout(done, 30000);
    chrome.tabs.onUpdated.addListener(listener);
  });
  await chrome.tabs.update(tabId, { url: params.url });
  await loaded;
  return { frameId: '' };  // loaded already: no loaderId, so the caller does not wait again
}

// A debugger command that fails, not hangs, when the debugger lets go of the tab meanwhile (a
// frame of another extension appeared in the page: Chromium detaches us).
const pending = new Map();  // tabId -> Set of rejecters
function debuggerCommand(target, method, params) {
  return new Promise((resolve, reject) => {
    const set = pending.get(target.tabId) || new Set();
    pending.set(target.tabId, set);
    const gone = (why) => reject(fail('Detached while handling command (' + why + ')'));
    set.add(gone);
    chrome.debugger.sendCommand(target, method, params).then(resolve, reject).finally(() => set.delete(gone));
  });
}

async function groupTab(tab, ctx) {
  const c = S.contexts[ctx];
  if (!c || !chrome.tabGroups) return;
  try {
    if (c.groupId !== null && c.groupId !== undefined) {
      try {
        await chrome.tabs.group({ groupId: c.groupId, tabIds: [tab.id] });
        return;
      } catch (_) { /* the group is gone (the user closed it): make a new one */ }
    }
    c.groupId = await chrome.tabs.group({ tabIds: [tab.id] });
    await chrome.tabGroups.update(c.groupId, { title: GROUP_TITLE, color: 'purple' });
    save();
  } catch (_) {
    // Popup windows cannot hold groups; the tab is still the agent's.
  }
}

// The window the context's tabs live in: its group's, else the last focused normal window.
async function windowFor(ctx) {
  const c = S.contexts[ctx];
  if (c && c.groupId !== null && c.groupId !== undefined && chrome.tabGroups) {
    const g = await chrome.tabGroups.get(c.groupId).catch(() => null);
    if (g) return g.windowId;
  }
  const w = await chrome.windows.getLastFocused({ windowTypes: ['normal'] }).catch(() => null);
  return w ? w.id : null;
}

function defaultContext() {
  if (!S.contexts.default) S.contexts.default = { groupId: null };
  return 'default';
}

const browserCommands = {
  'Target.setDiscoverTargets': async () => ({}),
  'Target.createBrowserContext': async () => {
    const id = 'lemmascope-' + crypto.randomUUID().slice(0, 8);
    S.contexts[id] = { groupId: null };
    S.latest = id;
    await save();
    return { browserContextId: id };
  },
  'Target.disposeBrowserContext': async ({ browserContextId }) => {
    const ids = Object.keys(S.tabs).filter((t) => S.tabs[t] === browserContextId).map(Number);
    const own = ids.filter((id) => !S.shared[id]);  // a tab the user shared goes back to the user, open
    for (const id of ids) release(id);
    delete S.contexts[browserContextId];
    if (S.latest === browserContextId) S.latest = null;
    await save();
    if (own.length) await chrome.tabs.remove(own).catch(() => {});
    return {};
  },
  'Target.createTarget': async ({ url, browserContextId }) => {
    const ctx = browserContextId in S.contexts ? browserContextId : defaultContext();
    const windowId = await windowFor(ctx);
    let tab;
    if (windowId === null) {
      const w = await chrome.windows.create({ url: url || 'about:blank', focused: false });
      tab = w.tabs[0];
    } else {
      tab = await chrome.tabs.create({ url: url || 'about:blank', active: true, windowId });
    }
    S.tabs[tab.id] = ctx;
    await save();
    await groupTab(tab, ctx);
    emit('Target.targetCreated', { targetInfo: info(tab, ctx) });
    return { targetId: 'tab-' + tab.id };
  },
  'Target.attachToTarget': async ({ targetId }) => {
    const tabId = ownedTab(targetId);
    await inOrder('tab-' + tabId, async () => { await ensureAttached(tabId); return { reply: null }; });
    const scripted = S.scripted[tabId];
    return scripted ? { sessionId: 'tab-' + tabId, scripted: scripted.reason, frameId: MAIN_FRAME(tabId) } : { sessionId: 'tab-' + tabId };
  },
  'Target.closeTarget': async ({ targetId }) => {
    const tabId = ownedTab(targetId);
    if (S.shared[tabId]) {
      // The user's tab: the agent lets go of it, it stays open.
      release(tabId);
      emit('Target.targetDestroyed', { targetId: 'tab-' + tabId });
      return { success: true };
    }
    await chrome.tabs.remove(tabId);
    return { success: true };
  },
  'Target.activateTarget': async ({ targetId }) => {
    await chrome.tabs.update(ownedTab(targetId), { active: true });
    return {};
  },
  'Target.getTargets': async () => {
    const targetInfos = [];
    for (const id of Object.keys(S.tabs)) {
      const tab = await chrome.tabs.get(Number(id)).catch(() => null);
      if (tab) targetInfos.push(info(tab, S.tabs[id]));
    }
    return { targetInfos };
  },
  // Only asked for in a browser lscope launched itself: a window of the user's is never resized.
  'Browser.getWindowForTarget': async ({ targetId }) => {
    const tab = await chrome.tabs.get(ownedTab(targetId));
    const w = await chrome.windows.get(tab.windowId);
    return { windowId: w.id, bounds: { left: w.left, top: w.top, width: w.width, height: w.height, windowState: w.state } };
  },
  'Browser.setWindowBounds': async ({ windowId, bounds }) => {
    const agents = Object.keys(S.tabs).map(Number);
    const tabs = await chrome.tabs.query({ windowId });
    if (!tabs.some((t) => agents.includes(t.id))) throw fail('not a window of the agent');
    await chrome.windows.update(windowId, { width: bounds.width, height: bounds.height });
    return {};
  },
  'Lemmascope.status': async () => ({ tabs: Object.keys(S.tabs).length, attached: attached.size,
    scripted: Object.keys(S.scripted).length }),
};

function browserCommand(method, params) {
  const f = browserCommands[method];
  if (!f) throw fail(`'${method}' wasn't found`, -32601);  // as the browser says it
  return f(params);
}

// Forgets a tab: it is no longer the agent's.
function release(tabId) {
  delete S.tabs[tabId];
  delete S.shared[tabId];
  delete S.setup[tabId];
  leaveScriptMode(tabId);
  unwatchRequests(tabId);
  if (S.refusing) delete S.refusing[tabId];
  for (const [s, t] of Object.entries(S.children)) if (t === tabId) delete S.children[s];
  chains.delete('tab-' + tabId);
  if (attached.delete(tabId)) chrome.debugger.detach({ tabId }).catch(() => {});
  save();
}

// --- browser events ---------------------------------------------------------------------------

chrome.debugger.onEvent.addListener((source, method, params) => {
  // A tab in script mode: what a debugger that may not even detach still says is not its story.
  if (!(source.tabId in S.tabs) || S.scripted[source.tabId]) return;
  if (method === 'Target.attachedToTarget' && params.sessionId) {
    S.children[params.sessionId] = source.tabId;
    save();
  } else if (method === 'Target.detachedFromTarget' && params.sessionId) {
    delete S.children[params.sessionId];
    save();
  }
  emit(method, params, source.sessionId || 'tab-' + source.tabId);
});

chrome.debugger.onDetach.addListener(async (source, reason) => {
  const tabId = source.tabId;
  attached.delete(tabId);
  for (const gone of pending.get(tabId) || []) gone('the debugger was detached: ' + reason);
  pending.delete(tabId);
  await loaded;
  if (!(tabId in S.tabs)) return;
  if (reason === 'canceled_by_user') {
    // The user took the tab back (the "cancel" of the debugging bar): it is no longer ours.
    release(tabId);
    emit('Target.targetDestroyed', { targetId: 'tab-' + tabId });
    return;
  }
  // Still open, so the browser let go of it (the page took in another extension's frame):
  // attach again, or go on in script mode. The server hears which (Lemmascope.scripted).
  if (!(await chrome.tabs.get(tabId).catch(() => null))) return;
  await inOrder('tab-' + tabId, async () => { await ensureAttached(tabId); return { reply: null }; }).catch(() => {});
});

// Only tabs that the agent's own pages open (window.open, target=_blank) become the agent's:
// webNavigation names the page that opened them, where a tab's opener can be any active tab.
chrome.webNavigation.onCreatedNavigationTarget.addListener(async ({ sourceTabId, tabId }) => {
  await loaded;
  const ctx = S.tabs[sourceTabId];
  if (ctx === undefined || tabId in S.tabs) return;
  const tab = await chrome.tabs.get(tabId).catch(() => null);
  if (!tab) return;
  S.tabs[tabId] = ctx;
  save();
  watchRequests(tabId);  // from its first load: it may go to script mode before any command
  groupTab(tab, ctx);
  emit('Target.targetCreated', { targetInfo: info(tab, ctx) });
});

chrome.tabs.onUpdated.addListener(async (tabId, change, tab) => {
  await loaded;
  if (!(tabId in S.tabs) || !(change.url || change.title)) return;
  emit('Target.targetInfoChanged', { targetInfo: info(tab, S.tabs[tabId]) });
});

chrome.tabs.onRemoved.addListener(async (tabId) => {
  await loaded;
  if (!(tabId in S.tabs)) return;
  release(tabId);
  emit('Target.targetDestroyed', { targetId: 'tab-' + tabId });
});

// --- the popup and the pairing page -----------------------------------------------------------

async function status() {
  const p = await pairing();
  return { paired: !!p, port: p ? p.port : null, state: wsState, error: lastError,
           tabs: Object.keys(S.tabs).length, shared: Object.keys(S.shared).map(Number) };
}

// The tab the popup is about: the one given, else the active tab of the last focused window.
async function tabFor(msg) {
  if (typeof msg.tabId === 'number') return chrome.tabs.get(msg.tabId).catch(() => null);
  const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
  return tab || null;
}

// The user gives the agent one of their tabs (§ issue 15: "unless the agent is asked to attach").
async function share(msg) {
  const tab = await tabFor(msg);
  if (!tab) return { ok: false, error: 'no tab to share' };
  if (tab.id in S.tabs) return { ok: true, tabId: tab.id, already: true };
  if (!/^(https?|file|data):/.test(tab.url || '')) return { ok: false, error: 'the agent cannot drive this page (' + (tab.url || 'no URL') + ')' };
  const ctx = S.latest && S.latest in S.contexts ? S.latest : null;
  if (!ctx || wsState !== 'connected') return { ok: false, error: 'no agent is connected: start lscope first' };
  S.tabs[tab.id] = ctx;
  S.shared[tab.id] = true;
  await save();
  emit('Target.targetCreated', { targetInfo: info(tab, ctx) });
  return { ok: true, tabId: tab.id };
}

async function unshare(msg) {
  const tab = await tabFor(msg);
  if (!tab || !S.shared[tab.id]) return { ok: false, error: 'this tab is not shared' };
  release(tab.id);
  emit('Target.targetDestroyed', { targetId: 'tab-' + tab.id });
  return { ok: true, tabId: tab.id };
}

chrome.runtime.onMessage.addListener((msg, sender, reply) => {
  // A dialog the page opened in a scripted tab, from this extension's isolated world there.
  if (msg && msg.type === 'dialog' && sender.id === chrome.runtime.id && sender.tab && sender.frameId === 0) {
    loaded.then(() => {
      const st = S.scripted[sender.tab.id];
      if (!st || msg.channel !== st.dialogs) return;
      if (msg.dialog === 'popup') {
        emit('Lemmascope.popupBlocked', { url: String(msg.message) }, 'tab-' + sender.tab.id);
        return;
      }
      emit('Page.javascriptDialogOpening', { type: String(msg.dialog), message: String(msg.message), defaultPrompt: '' },
        'tab-' + sender.tab.id);
    });
    return false;
  }
  // Only this extension's own pages (the popup, pair.html) talk to the relay.
  if (sender.id !== chrome.runtime.id || !String(sender.url || '').startsWith(chrome.runtime.getURL(''))) return false;
  (async () => {
    await loaded;
    if (msg.type === 'pair') {
      const p = parseCode(msg.code);
      if (!p) return { ok: false, error: 'not a pairing code: it looks like lsx1:PORT:TOKEN' };
      await chrome.storage.local.set({ pairing: p, unpaired: false });
      if (ws) ws.close(1000, 'paired again');
      ws = null;
      retryMs = 250;
      await connect();
      return { ok: true };
    }
    if (msg.type === 'share') return share(msg);
    if (msg.type === 'unshare') return unshare(msg);
    if (msg.type === 'unpair') {
      await chrome.storage.local.remove('pairing');
      await chrome.storage.local.set({ unpaired: true });
      clearTimeout(retryTimer);
      if (ws) ws.close(1000, 'unpaired');
      ws = null;
      for (const id of Object.keys(S.tabs)) release(Number(id));
      wsState = 'not paired';
      return { ok: true };
    }
    return { ok: true };
  })().then(async (r) => reply({ ...r, status: await status() }), (e) => reply({ ok: false, error: String(e) }));
  return true;  // the reply comes asynchronously
});

// Tabs the debugger may not attach to are driven with scripts instead (script.js).
importScripts('script.js');
