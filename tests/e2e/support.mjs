// Shared helpers for the e2e tests: one headless Chromium (the system one), pages
// that record every console error and page error, and screenshots.
import { after, before } from 'node:test';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const here = dirname(fileURLToPath(import.meta.url));
export const root = resolve(here, '..', '..');
// playwright-core lives with the other npm peers.
const require = createRequire(join(root, 'tests', 'peers', 'node', 'package.json'));
const { chromium } = require('playwright-core');

/** The page URL with its token, as `mcpg serve` printed it. */
export const baseUrl = process.env.MCPG_E2E_URL;
if (!baseUrl) {
  throw new Error('MCPG_E2E_URL is not set: run the e2e tests with `cargo xtask test` (e2e stage)');
}
export const distDir = process.env.MCPG_E2E_DIST ?? join(root, 'dist');
export const shotsDir = process.env.MCPG_E2E_SHOTS ?? join(root, 'target', 'e2e-screenshots');
mkdirSync(shotsDir, { recursive: true });

/** The URL with extra query parameters (e.g. `{ server: 'everything' }`). */
export function urlWith(params = {}) {
  const u = new URL(baseUrl);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.toString();
}

let browser;
/** One browser for the whole file. */
export async function launch() {
  browser ??= await chromium.launch({
    executablePath: process.env.MCPG_CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
      '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--disable-quic', '--no-first-run',
    ],
  });
  return browser;
}

export async function closeBrowser() {
  await browser?.close();
  browser = undefined;
}

/**
 * A fresh page (own context) at `url`; `errors` collects console errors and
 * uncaught page errors, which every test expects to stay empty.
 */
export async function openPage(url, viewport = { width: 1280, height: 720 }) {
  const b = await launch();
  const context = await b.newContext({ viewport });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  await page.goto(url);
  return { page, errors, close: () => context.close() };
}

/**
 * The page a suite shares: opened at `url` before its tests and connected to the
 * server `name`, closed (with the browser) after them. The returned object gets the
 * fields of `openPage` (`page`, `errors`, `close`) when the suite starts.
 */
export function suitePage(url, name) {
  const p = {};
  before(async () => {
    Object.assign(p, await openPage(url));
    await connected(p.page, name);
  });
  after(async () => {
    await p.close();
    await closeBrowser();
  });
  return p;
}

/** Waits until the connection status says the page is connected to `name`. */
export async function connected(page, name) {
  await page.waitForFunction(
    (n) => document.querySelector('[data-testid=conn-status]')?.textContent.includes(`connected to ${n}`),
    name,
  );
}

export const tid = (id) => `[data-testid="${id}"]`;

/** The steps shown, as `{n, side, status}`. */
export async function steps(page) {
  return page.$$eval(tid('step'), (els) =>
    els.map((e) => ({ n: Number(e.dataset.step), side: e.dataset.side, status: e.dataset.status })),
  );
}

/** Waits until `count` steps are shown and none is running. */
export async function stepsSettled(page, count) {
  await page.waitForFunction(
    (c) => {
      const s = [...document.querySelectorAll('[data-testid="step"]')];
      return s.length === c && s.every((e) => e.dataset.status !== 'running');
    },
    count,
  );
}

/** Types a message and runs the whole loop, waiting for the model's answer. */
export async function runLoop(page, message) {
  await page.click(tid('reset-button'));
  await page.fill(tid('prompt'), message);
  await page.click(tid('run-button'));
  await page.waitForSelector(tid('answer'));
}

export async function shot(page, name) {
  const path = join(shotsDir, name);
  await page.screenshot({ path });
  return path;
}

/** The slow link of issue #33's figures: 1.6 Mbps down, 150 ms round trip. */
export const WORKSHOP_LINK = {
  offline: false,
  latency: 150,
  downloadThroughput: 1_600_000 / 8,
  uploadThroughput: 750_000 / 8,
};

/**
 * A first visit's page: no cache, no service worker, and the network as
 * `conditions` says (CDP's emulation; `null`: as it is). Returns the context, the
 * page and its CDP session.
 */
export async function coldPage(conditions) {
  const browser = await launch();
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, serviceWorkers: 'block' });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (conditions) await cdp.send('Network.emulateNetworkConditions', conditions);
  return { context, page, cdp };
}
