// The page's code for connections (bridge WebSockets, Streamable HTTP, real models'
// requests, the bridge's server list) is a split chunk, split_mcpg_links, fetched
// right after the first tool list or on first need. A chunk that cannot be fetched
// fails what waited for it in words the learner can act on, never the page, and the
// next attempt fetches it again.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { expectNoSeriousA11y } from './axe.mjs';
import { baseUrl, closeBrowser, connected, launch, tid, urlWith } from './support.mjs';

const resumableUrl = process.env.MCPG_E2E_RESUMABLE_URL;
const PROVIDER = process.env.MCPG_E2E_PROVIDER_URL;

/** The connections' chunk as `cargo xtask dist` names it. */
const LINKS = /\/split_mcpg_links-[^/]*\.wasm$/;

/** A page (no service worker: it would answer from its cache) whose links chunk is refused. */
async function refusedPage() {
  const browser = await launch();
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, serviceWorkers: 'block' });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  const state = { refused: 0 };
  await context.route(LINKS, (route) => {
    state.refused += 1;
    return route.abort('internetdisconnected');
  });
  await page.goto(baseUrl);
  await connected(page, 'mcpg-demo');
  // The prefetch right after the first tool list is refused, quietly.
  await page.waitForFunction(() => document.body.dataset.firstToolListMs !== undefined);
  const end = Date.now() + 10_000;
  while (state.refused === 0) {
    if (Date.now() > end) assert.fail('the links chunk was never asked for after the first tool list');
    await new Promise((r) => setTimeout(r, 20));
  }
  return { page, context, errors };
}

/** Page errors other than the split loader's unhandled rejection of a refused fetch. */
const unexpected = (errors) => errors.filter((e) => e !== 'page error: Failed to fetch');

describe('the connections chunk', () => {
  after(closeBrowser);

  it('refused: a Streamable HTTP URL says its code could not be loaded, then connects once it can', async () => {
    assert.ok(resumableUrl, 'MCPG_E2E_RESUMABLE_URL is set by the e2e stage');
    const { page, context, errors } = await refusedPage();
    try {
      await page.selectOption(tid('source-select'), 'url');
      await page.fill(tid('url-input'), resumableUrl);
      await page.click(tid('connect-button'));
      await page.waitForFunction(
        (sel) => /code for connections could not be loaded/.test(document.querySelector(sel)?.textContent ?? ''),
        tid('conn-status'),
      );
      // (The connection may have waited for the refused prefetch, or asked again: the
      // fetch after the route is lifted, below, shows a failure is not remembered.)
      assert.match(await page.textContent(tid('notice')), /code for connections could not be loaded.*connect again/);
      await expectNoSeriousA11y(page, 'connections chunk refused');
      // The page keeps working: the embedded server needs no chunk.
      await page.selectOption(tid('source-select'), 'demo');
      await page.click(tid('connect-button'));
      await connected(page, 'mcpg-demo');
      await page.waitForSelector(tid('tool-row'));
      // Once the chunk can be fetched, the same URL connects.
      await context.unroute(LINKS);
      await page.selectOption(tid('source-select'), 'url');
      await page.fill(tid('url-input'), resumableUrl);
      await page.click(tid('connect-button'));
      await connected(page, 'resumable-http');
      await page.waitForSelector(tid('tool-row'));
      assert.deepEqual(unexpected(errors), []);
    } finally {
      await context.close();
    }
  });

  it('refused: a real model\'s request fails in step 3 with the reason, then the loop runs once it can', async () => {
    assert.ok(PROVIDER, 'MCPG_E2E_PROVIDER_URL is set by the e2e stage');
    const { page, context, errors } = await refusedPage();
    try {
      await page.selectOption(tid('provider-select'), 'openai-chat');
      await page.selectOption(tid('model-select'), 'real');
      await page.fill(tid('model-base'), `${PROVIDER}/openai`);
      await page.fill(tid('model-name'), 'fake-model');
      await page.fill(tid('model-key'), 'test-key-0001');
      const run = async () => {
        await page.click(tid('reset-button'));
        await page.fill(tid('prompt'), "What's the weather in Austin?");
        await page.click(tid('run-button'));
        await page.waitForSelector(`${tid('answer')}, [data-testid=step][data-status=failed][data-side=host]`);
      };
      await run();
      const why = await page.$$eval('[data-step="3"] [data-testid=step-explanation]', (els) => els.at(-1).textContent);
      assert.match(why, /code for reaching models could not be loaded/);
      assert.equal(await page.locator(tid('answer')).count(), 0);
      await context.unroute(LINKS);
      await run();
      assert.match(await page.textContent(tid('answer')), /Austin/);
      assert.deepEqual(unexpected(errors), []);
    } finally {
      await context.close();
    }
  });
});

/**
 * A page opened on the bridge server `name` whose connections' code comes only
 * after `delayMs`: its socket, opened by the first load, fires meanwhile.
 */
async function lateLinksPage(name, delayMs) {
  const browser = await launch();
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, serviceWorkers: 'block' });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  await context.route(LINKS, async (route) => {
    await new Promise((r) => setTimeout(r, delayMs));
    await route.continue();
  });
  await page.goto(urlWith({ server: name }));
  return { page, context, errors };
}

describe('a bridge server\'s socket, opened before the connections\' code came', () => {
  after(closeBrowser);

  it('what it fired meanwhile reaches the driver in order: the server connects and lists', async () => {
    const { page, context, errors } = await lateLinksPage('demo', 1500);
    try {
      await connected(page, 'mcpg-demo');
      await page.waitForSelector(tid('tool-row'));
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  it('a server that floods it before the page read a message is cut off, saying why; the page keeps working', async () => {
    const { page, context, errors } = await lateLinksPage('hostile-flood', 1500);
    try {
      await page.waitForFunction(
        (sel) => /more than 1000 messages before the page read its first/.test(document.querySelector(sel)?.textContent ?? ''),
        tid('conn-status'),
      );
      await page.selectOption(tid('source-select'), 'demo');
      await page.click(tid('connect-button'));
      await connected(page, 'mcpg-demo');
      await page.waitForSelector(tid('tool-row'));
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  it('boot.js opens it before the page\'s wasm runs, and the page adopts that socket rather than opening another', async () => {
    const browser = await launch();
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
    await page.addInitScript(() => {
      window.__made = [];
      const Ws = window.WebSocket;
      window.WebSocket = class extends Ws {
        constructor(...a) {
          super(...a);
          window.__made.push(new Error().stack);
        }
      };
    });
    try {
      await page.goto(urlWith({ server: 'demo' }));
      await connected(page, 'mcpg-demo');
      await page.waitForSelector(tid('tool-row'));
      const made = await page.evaluate(() => window.__made);
      assert.equal(made.length, 1, 'one socket for the page\'s bridge link');
      assert.match(made[0], /\/boot-[0-9a-f]+\.js/, 'opened by boot.js');
      assert.doesNotMatch(made[0], /mcpg-web-[0-9a-f]+\.js/, 'not by the glue');
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  /**
   * A page at `url` whose `window.__mcpgEarlyWs` (what boot.js leaves for the page)
   * holds a socket to the bridge server `other` instead: boot.js's own socket, if
   * it opens one, is closed at once. `window.__injected` is that socket.
   */
  async function injectedPage(url, other) {
    const browser = await launch();
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
    await page.addInitScript((other) => {
      const token = new URLSearchParams(location.search).get('token');
      const ws = new WebSocket(`ws://${location.host}/ws?server=${other}&channel=injected-1&token=${token}`, 'mcp');
      window.__injected = ws;
      const held = { ws, channel: 'injected-1', fired: [], messages: 0, flooded: false };
      ws.onopen = ws.onmessage = ws.onclose = (e) => held.fired.push(e);
      Object.defineProperty(window, '__mcpgEarlyWs', {
        configurable: true,
        get: () => held,
        set: (mine) => mine.ws.close(),
      });
    }, other);
    await page.goto(url);
    return { page, context, errors };
  }

  it('a socket opened early for another server is closed, and the page opens its own', async () => {
    const { page, context, errors } = await injectedPage(urlWith({ server: 'demo' }), 'python');
    try {
      await connected(page, 'mcpg-demo');
      await page.waitForSelector(tid('tool-row'));
      await page.waitForFunction(() => window.__injected.readyState === WebSocket.CLOSED);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  it('a socket opened early that no link takes (the page opened the embedded demo) is closed', async () => {
    const { page, context, errors } = await injectedPage(baseUrl, 'demo');
    try {
      await connected(page, 'mcpg-demo');
      await page.waitForFunction(() => window.__injected.readyState === WebSocket.CLOSED);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
});
