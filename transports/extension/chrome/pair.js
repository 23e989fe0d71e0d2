// The popup and pair.html: pairing goes through the relay (relay.js), which keeps the code.
// pair.html#lsx1:PORT:TOKEN pairs at once: `lscope pair` prints that link, and a browser that
// lscope launches itself (--extension-launch) opens it, doing what the user does in the popup.
'use strict';

const stateEl = document.getElementById('state');

function show(r) {
  const s = r && r.status;
  if (!r || (!r.ok && r.error)) {
    stateEl.textContent = (r && r.error) || 'no answer from the extension';
    stateEl.className = 'error';
    return;
  }
  if (!s.paired) {
    stateEl.textContent = 'Not paired. Run `lscope pair` and paste the code below.';
    stateEl.className = '';
  } else if (s.state === 'connected') {
    stateEl.textContent = `Connected to Lemmascope on port ${s.port}; the agent has ${s.tabs} tab(s).`;
    stateEl.className = 'connected';
  } else {
    stateEl.textContent = `Paired with port ${s.port}, ${s.state}` + (s.error ? `: ${s.error}` : ' (is lscope running?)');
    stateEl.className = s.error ? 'error' : '';
  }
  document.body.dataset.state = s.paired ? s.state : 'not paired';
  showSharing(s);
}

// The popup's share buttons, for the active tab of the window the popup belongs to.
async function showSharing(s) {
  const shareEl = document.getElementById('share');
  const unshareEl = document.getElementById('unshare');
  if (!shareEl || !unshareEl) return;
  const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true }).catch(() => []);
  const mine = tab && tab.url && tab.url.startsWith(chrome.runtime.getURL(''));
  const shared = tab && s.shared && s.shared.includes(tab.id);
  shareEl.hidden = !tab || mine || shared || s.state !== 'connected';
  unshareEl.hidden = !shared;
}

const ask = (msg) => chrome.runtime.sendMessage(msg).then(show, (e) => show({ ok: false, error: String(e) }));

const form = document.getElementById('pair');
if (form) {
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    ask({ type: 'pair', code: document.getElementById('code').value });
  });
  document.getElementById('unpair').addEventListener('click', () => ask({ type: 'unpair' }));
  document.getElementById('share')?.addEventListener('click', () => ask({ type: 'share' }));
  document.getElementById('unshare')?.addEventListener('click', () => ask({ type: 'unshare' }));
}

const code = decodeURIComponent(location.hash.slice(1));
if (code) ask({ type: 'pair', code }); else ask({ type: 'status' });
setInterval(() => ask({ type: 'status' }), 1000);
