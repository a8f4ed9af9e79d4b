// A hosted page with a local bridge, across two origins on this machine: the built
// page served by a plain static file server at http://localhost:A/playground/, and a
// second bridge, `mcpg serve --page-origin http://localhost:A/playground/`, at
// http://127.0.0.1:B. The printed link carries the bridge's address and token in its
// fragment; the page lists and uses the bridge's stdio servers and its relay, and the
// token never shows in the address bar, the DOM, the wire view, the share link, or
// any request to the static host. The same page from a third origin
// (http://127.0.0.1:A) is refused by the bridge, and the page says so.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  closeBrowser, connected, distDir, launch, runLoop, shot, tid,
} from './support.mjs';
import { expectNoSeriousA11y } from './axe.mjs';
import {
  freePort, httpsStatic, launchAsPublic, startUntil, stopAll,
} from './hosted_support.mjs';
import { startStaticHost } from './static_host.mjs';

const mcpg = process.env.MCPG_E2E_MCPG;
const config = process.env.MCPG_E2E_CONFIG;
if (!mcpg || !config) {
  throw new Error('MCPG_E2E_MCPG and MCPG_E2E_CONFIG are not set: run this with `cargo xtask e2e`');
}

/** The line `mcpg serve` prints per `--page-origin`. */
const HOSTED_LINE = /^MCP Playground \(hosted page, (\S+)\): open (\S+)$/;

/** A fresh context at `url`; records console errors and every request's and WebSocket's URL. */
async function open(url, browser) {
  const b = browser ?? await launch();
  const context = await b.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const errors = [];
  const requests = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.on('request', (r) => requests.push(r.url()));
  page.on('response', (r) => {
    if (r.status() >= 400) errors.push(`HTTP ${r.status()} for ${r.request().method()} ${r.url().replace(/token=[^&]*/, 'token=…')}`);
  });
  // WebSockets are not `request` events.
  page.on('websocket', (w) => requests.push(w.url()));
  await page.goto(url);
  await page.waitForSelector(tid('share-bar'));
  return { page, errors, requests, close: () => context.close() };
}

/** Waits for the notice and returns its text. */
async function noticeText(page, re) {
  await page.waitForFunction(
    (src) => new RegExp(src).test(document.querySelector('[data-testid=notice]')?.textContent ?? ''),
    re.source,
  );
  return page.textContent(tid('notice'));
}

/** The source chooser's option values. */
const options = (page) => page.$$eval(`${tid('source-select')} option`, (els) => els.map((e) => e.value));

describe('a hosted page with a local bridge', () => {
  const children = [];
  let staticPort;
  let hosted; // http://localhost:A/playground/
  let link; // what the bridge printed for it
  let token;
  let bridgeBase; // http://127.0.0.1:B
  let host; // the static host (python's http.server), with its request log

  before(async () => {
    // The page under a path prefix, served by a static file server that knows
    // nothing about the playground.
    host = await startStaticHost(distDir);
    staticPort = new URL(host.url).port;
    hosted = `http://localhost:${staticPort}/playground/`;
    const [m] = await startUntil(
      mcpg,
      ['serve', '--config', config, '--port', '0', '--dist', join(host.site, 'no-page-here'), '--page-origin', hosted],
      HOSTED_LINE,
      children,
    );
    assert.equal(m[1], `http://localhost:${staticPort}`);
    link = m[2];
    const fragment = new URLSearchParams(link.split('#')[1]);
    token = fragment.get('token');
    bridgeBase = fragment.get('bridge');
    assert.ok(link.startsWith(`${hosted}#bridge=http://127.0.0.1:`), link);
    assert.match(token, /^[0-9a-f]{64}$/);
  });

  after(async () => {
    await closeBrowser();
    await stopAll(children);
    await host?.stop();
  });

  it('opens from the printed link, uses the stdio servers and the relay, and keeps the token out of sight', async () => {
    const { page, errors, requests, close } = await open(link);
    // The fragment is gone from the address bar at once.
    await page.waitForFunction(() => !location.hash);
    assert.equal(page.url(), hosted);
    await page.waitForFunction(
      () => [...document.querySelectorAll('[data-testid=source-select] option')].some((o) => o.value === 'bridge:everything'),
    );
    const offered = await options(page);
    for (const v of ['demo', 'bridge:everything', 'bridge:hostile', 'relay:everything-http']) {
      assert.ok(offered.includes(v), `${v} in ${offered}`);
    }

    // server-everything over stdio, through the bridge on the other origin.
    await page.selectOption(tid('source-select'), 'bridge:everything');
    await page.click(tid('connect-button'));
    await connected(page, 'mcp-servers/everything');
    await runLoop(page, 'get the sum of 2 and 3');
    await page.click(tid('tab-result'));
    assert.match(await page.textContent(tid('result-content')), /The sum of 2 and 3 is 5/);
    assert.match(await page.textContent('[data-step="4"] [data-testid=json]'), /"name": "get-sum"/);
    await page.click(tid('tab-wire'));
    // The wire log's code loads when its tab first opens (a lazy wasm chunk).
    await page.waitForSelector(tid('wire-row'));
    assert.ok(await page.locator(tid('stderr-row')).count() > 0, 'the side channel reached the page');
    await shot(page, 'hosted-bridge.png');
    await expectNoSeriousA11y(page, 'hosted page, a bridge server connected');

    // A remote through the bridge's relay (preflighted POSTs from the other origin).
    await page.selectOption(tid('source-select'), 'relay:everything-http');
    await page.click(tid('connect-button'));
    await connected(page, 'mcp-servers/everything');
    await page.click(tid('tab-tools'));
    await page.waitForSelector(tid('tool-row'));

    // Nowhere to be seen: the address bar, the DOM (text and attributes), the wire
    // view, the share link.
    assert.ok(!page.url().includes(token));
    const html = await page.evaluate(() => document.documentElement.outerHTML);
    assert.ok(!html.includes(token), 'the token is not in the DOM');
    await page.click(tid('tab-wire'));
    assert.ok(!(await page.textContent(tid('wire-log'))).includes(token));
    await page.click(tid('share-button'));
    const share = await page.inputValue(tid('share-link'));
    assert.ok(share.startsWith(`${hosted}#s1.`), share);
    assert.ok(!share.includes(token) && !share.includes('bridge='), share);

    // Requests: the token goes to the bridge only, never to the static host.
    const toHost = requests.filter((u) => u.startsWith(`http://localhost:${staticPort}/`));
    assert.ok(toHost.length > 0);
    assert.deepEqual(toHost.filter((u) => u.includes(token)), []);
    // And as the host itself logged them.
    assert.ok(host.requests.length > 0);
    assert.deepEqual(host.requests.filter((r) => r.path.includes(token)), []);
    const bridgeHost = new URL(bridgeBase).host;
    const toBridge = requests.filter((u) => new URL(u).host === bridgeHost);
    for (const path of ['/api/servers', '/ws', '/api/events', '/relay/everything-http']) {
      assert.ok(toBridge.some((u) => new URL(u).pathname === path), `a request to ${path}: ${toBridge}`);
    }
    // server-everything answers the 2026-07-28 probe (`server/discover`) with 400,
    // after which the page falls back to `initialize`: the only error expected.
    const probe = (e) => /status of 400|HTTP 400 for POST .*\/relay\/everything-http/.test(e);
    assert.deepEqual(errors.filter((e) => !probe(e)), []);
    errors.length = 0;

    // A reload in the same tab finds the bridge again (sessionStorage), still with
    // nothing in the address bar.
    await page.reload();
    await page.waitForFunction(
      () => [...document.querySelectorAll('[data-testid=source-select] option')].some((o) => o.value === 'bridge:everything'),
    );
    assert.equal(page.url(), hosted);
    assert.deepEqual(errors, []);
    await close();
  });

  it('a page from a third origin is refused by the bridge, says so, and keeps the embedded server', async () => {
    const third = `http://127.0.0.1:${staticPort}/playground/`;
    const { page, errors, close } = await open(`${third}#${link.split('#')[1]}`);
    await page.waitForFunction(() => !location.hash);
    const text = await noticeText(page, /refused this page/);
    assert.ok(text.includes(`mcpg serve --page-origin ${third}`), text);
    assert.ok(text.includes(`origin http://127.0.0.1:${staticPort}`), text);
    assert.ok(!text.includes(token));
    assert.deepEqual(await options(page).then((o) => o.filter((v) => v.startsWith('bridge:'))), []);
    await shot(page, 'hosted-bridge-refused.png');
    await expectNoSeriousA11y(page, 'hosted page, the bridge refused it');
    // The embedded server still runs the loop.
    await connected(page, 'mcpg-demo');
    await runLoop(page, "What's the weather in Austin?");
    assert.match(await page.textContent(tid('answer')), /Austin: 91F, sunny/);
    // Only the refused request's own complaints reached the console.
    assert.deepEqual(errors.filter((e) => !/CORS|Failed to load resource|net::ERR_FAILED/.test(e)), []);
    await close();
  });

  it('a bridge that is not running gets one notice naming the command to run', async () => {
    const nobody = await freePort();
    const { page, errors, close } = await open(`${hosted}#bridge=http://127.0.0.1:${nobody}&token=${token}`);
    await page.waitForFunction(() => !location.hash);
    const text = await noticeText(page, /cannot be reached/);
    assert.ok(text.includes(`mcpg serve --page-origin ${hosted}`), text);
    await connected(page, 'mcpg-demo');
    assert.deepEqual(errors.filter((e) => !/Failed to load resource|net::ERR_/.test(e)), []);
    await close();
  });

  it('a link naming another machine as the bridge is refused before any request', async () => {
    const { page, requests, close } = await open(`${hosted}#bridge=http://evil.example&token=${token}`);
    await page.waitForFunction(() => !location.hash);
    const text = await noticeText(page, /not on this machine/);
    assert.ok(text.includes(`mcpg serve --page-origin ${hosted}`), text);
    assert.deepEqual(requests.filter((u) => u.includes('evil.example')), []);
    await close();
  });
});

// A page the browser takes for a public https site (as GitHub Pages would be), whose
// requests to the bridge on 127.0.0.1 fall under Chromium's Local Network Access:
// refused until the user allows the site to reach this device, then working,
// WebSocket included. (Headless Chromium cannot show the prompt: a denial is what it
// does without the permission, and the test grants it as the user's click would.)
describe('a public https page and Local Network Access (Chromium)', () => {
  const children = [];
  let tmp;
  let https;
  let browser;
  let link;

  before(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'mcpg-https-'));
    https = await httpsStatic(distDir, tmp);
    const hosted = `https://localhost:${https.port}/playground/`;
    const [m] = await startUntil(
      mcpg,
      ['serve', '--config', config, '--port', '0', '--dist', join(tmp, 'no-page-here'), '--page-origin', hosted],
      HOSTED_LINE,
      children,
    );
    link = m[2];
    browser = await launchAsPublic(https.port);
  });

  after(async () => {
    await browser?.close();
    https?.server.close();
    await stopAll(children);
    rmSync(tmp, { recursive: true, force: true });
  });

  /**
   * A context that accepts the throwaway certificate, with `permissions` granted.
   * Service workers are blocked: Chromium refuses to register one from a page whose
   * certificate is not trusted, whatever `ignoreHTTPSErrors` says, and this test is
   * about the bridge, not offline use.
   */
  async function openPublic(permissions) {
    const context = await browser.newContext({
      ignoreHTTPSErrors: true, serviceWorkers: 'block', viewport: { width: 1280, height: 720 },
    });
    const page = await context.newPage();
    if (permissions.length > 0) {
      const cdp = await context.newCDPSession(page);
      const { targetInfo } = await cdp.send('Target.getTargetInfo');
      await cdp.send('Browser.grantPermissions', { permissions, browserContextId: targetInfo.browserContextId });
    }
    const errors = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(msg.text());
    });
    await page.goto(link);
    await page.waitForSelector(tid('share-bar'));
    return { page, errors, close: () => context.close() };
  }

  it('without the local network permission the bridge is out of reach, and the page says what to allow', async () => {
    const { page, errors, close } = await openPublic([]);
    const text = await noticeText(page, /cannot be reached/);
    assert.match(text, /access devices on your local network, allow it/);
    assert.ok(errors.some((e) => /Permission was denied for this request to access the .loopback. address space/.test(e)), errors.join('\n'));
    await connected(page, 'mcpg-demo');
    await close();
  });

  it('with it, the https page lists and uses the stdio servers over ws://127.0.0.1', async () => {
    const { page, errors, close } = await openPublic(['loopbackNetwork']);
    assert.equal(await page.evaluate(() => window.isSecureContext), true);
    await page.waitForFunction(
      () => [...document.querySelectorAll('[data-testid=source-select] option')].some((o) => o.value === 'bridge:everything'),
    );
    await page.selectOption(tid('source-select'), 'bridge:everything');
    await page.click(tid('connect-button'));
    await connected(page, 'mcp-servers/everything');
    await runLoop(page, 'get the sum of 2 and 3');
    await page.click(tid('tab-result'));
    assert.match(await page.textContent(tid('result-content')), /The sum of 2 and 3 is 5/);
    assert.deepEqual(errors, []);
    await close();
  });
});
