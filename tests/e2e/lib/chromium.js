// A headless Chromium that the tests start themselves, for lscope to attach to (--cdp-url,
// --cdp-endpoint): with the switches lscope's own launch uses (transports/common/find_browser.cpp), so
// pages see the same window, in its own process group and a fresh profile, both gone on close().
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cdpConnect } from './cdp_raw.js';

export async function startChromium({ width = 1280, height = 800 } = {}) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'lscope-chromium-'));
  const child = spawn('chromium', ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
    '--no-default-browser-check', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--disable-dev-shm-usage', '--disable-features=Translate,MediaRouter,OptimizationHints',
    '--mute-audio', '--hide-scrollbars', `--window-size=${width},${height}`,
    // A desktop's mouse, as lscope tells a headless browser it starts (launchSwitches).
    '--blink-settings=primaryPointerType=4,availablePointerTypes=4,primaryHoverType=2,availableHoverTypes=2',
    `--user-data-dir=${profile}`, '--remote-debugging-port=0', 'about:blank'],
  // Its own process group, so the whole browser (zygotes, renderers) can be ended at once.
  { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let gone = false;
  exited.then(() => { gone = true; });
  const wsUrl = await new Promise((resolve, reject) => {
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
      const m = err.match(/DevTools listening on (ws:\/\/\S+)/);
      if (m) {
        child.stderr.destroy();  // helpers keep the pipe open; do not let it hold the test
        resolve(m[1]);
      }
    });
    exited.then(() => reject(new Error(`chromium exited before it listened: ${err}`)));
  });
  child.unref();
  return {
    pid: child.pid,
    wsUrl,
    httpUrl: `http://${new URL(wsUrl).host}`,
    alive: () => !gone,
    // For clients that drive the browser's own default context (chromedriver attached through
    // goog:chromeOptions.debuggerAddress): one blank tab, and no cookies or site data left from
    // the last client on `origins`, as a freshly launched browser has.
    async reset(origins = []) {
      const cdp = await cdpConnect(wsUrl);
      try {
        // A closed tab is gone when the browser says so (Target.closeTarget answers as closing
        // starts): a chromedriver attaching before that took it for its window, 1 time in 15.
        const destroyed = new Set();
        let wake = () => {};
        cdp.onEvent((m) => {
          if (m.method === 'Target.targetDestroyed') { destroyed.add(m.params.targetId); wake(); }
        });
        await cdp.send('Target.setDiscoverTargets', { discover: true });
        const { targetId: keep } = await cdp.send('Target.createTarget', { url: 'about:blank' });
        const { targetInfos } = await cdp.send('Target.getTargets');
        const closing = [];
        for (const t of targetInfos) {
          if (t.type === 'page' && t.targetId !== keep) {
            closing.push(t.targetId);
            await cdp.send('Target.closeTarget', { targetId: t.targetId }).catch(() => {});
          }
        }
        while (closing.some((id) => !destroyed.has(id))) await new Promise((resolve) => { wake = resolve; });
        await cdp.send('Storage.clearCookies', {});
        // Site data is cleared through a page's session (the browser's own answers "Internal error").
        const { sessionId } = await cdp.send('Target.attachToTarget', { targetId: keep, flatten: true });
        for (const origin of origins) await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' }, sessionId);
        await cdp.send('Target.detachFromTarget', { sessionId });
      } finally {
        cdp.close();
      }
    },
    async close() {
      if (!gone) {
        try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
        await exited;
      }
      // Helpers of the group may still be closing files in the profile for a moment.
      fs.rmSync(profile, { recursive: true, force: true, maxRetries: 10 });
    },
  };
}
