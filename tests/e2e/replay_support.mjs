// Opening a shared session with no network: a fresh browser context that lets
// through only the page's own static files, and the replay's steps as shown
// (shared by session.test.mjs and loop_share.test.mjs).
import assert from 'node:assert/strict';
import { baseUrl, connected, launch, openPage, stepsSettled, tid } from './support.mjs';

const origin = new URL(baseUrl).origin;
// The page's own files, app-frame.html (where an MCP App's view runs) included.
const STATIC = /^\/($|index\.html$|app-frame\.html$|.*\.(js|wasm|css)$)/;

/** Every step as shown: number, status, explanation and the text of each JSON block. */
export async function shownSteps(page) {
  return page.$$eval('[data-testid="step"]', (els) => els.map((e) => ({
    n: Number(e.dataset.step),
    status: e.dataset.status,
    explanation: e.querySelector('[data-testid="step-explanation"]')?.textContent ?? '',
    json: [...e.querySelectorAll('[data-testid="json"]')].map((j) => j.textContent),
  })));
}

/** Clicks through the whole loop in step mode (step 5 arrives with step 4). */
export async function stepThrough(page) {
  for (const count of [1, 2, 3, 5, 6]) {
    await page.click(tid('step-button'));
    await stepsSettled(page, count);
  }
}

/**
 * A fresh context that lets through only the page's own static files: every other
 * request (another origin, or the page's origin outside its static files, e.g. the
 * bridge's API) is aborted and recorded, as is every WebSocket opened.
 */
export async function offlinePage() {
  const b = await launch();
  // No service worker: requests it answered would bypass `context.route`, and this
  // context exists to see every request (offline.test.mjs tests the worker).
  const context = await b.newContext({ viewport: { width: 1280, height: 720 }, serviceWorkers: 'block' });
  const blocked = [];
  await context.route('**/*', (route) => {
    const u = new URL(route.request().url());
    if (u.origin === origin && STATIC.test(u.pathname)) return route.continue();
    blocked.push(route.request().url());
    return route.abort();
  });
  const page = await context.newPage();
  const errors = [];
  const sockets = [];
  const dialogs = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.on('websocket', (ws) => sockets.push(ws.url()));
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    d.dismiss();
  });
  return { page, context, blocked, sockets, errors, dialogs, close: () => context.close() };
}

/**
 * Runs `body(rec, o)` with a recording page on the embedded demo (`rec`, connected)
 * and an offline page (`o`, from `offlinePage`), then checks the replay made no
 * request, opened no socket and neither page logged an error; closes both.
 */
export async function recordThenReplay(body) {
  const rec = await openPage(baseUrl);
  const o = await offlinePage();
  try {
    await connected(rec.page, 'mcpg-demo');
    await body(rec, o);
    assert.deepEqual(o.blocked, [], 'the replay made no request');
    assert.deepEqual(o.sockets, []);
    assert.deepEqual(o.errors, []);
    assert.deepEqual(rec.errors, []);
  } finally {
    await o.close();
    await rec.close();
  }
}
