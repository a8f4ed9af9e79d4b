// The parts of the page split off the first load are fetched when first used (step
// 2's reshaping, the play box, a real model's settings, tool form, Result, Server,
// wire log, presenter mode, Share/Export/Import) or right after the first tool list
// (first the tool loop's code with its controls and steps, then the lessons, the
// loop's picture, the share bar; the code for
// connections and real models, see links_chunk.test.mjs). A chunk that cannot be
// fetched (the network dropped before the service worker kept it) must not take the
// page down: the part says so and offers to try again, and everything else keeps
// working.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { expectNoSeriousA11y } from './axe.mjs';
import {
  WORKSHOP_LINK, baseUrl, closeBrowser, coldPage, connected, launch, openPage, runLoop, stepsSettled, tid,
  urlWith,
} from './support.mjs';

/** Waits until `cond()` holds (checked every 20 ms), failing after 10 s with `why()`. */
async function until(cond, why) {
  const end = Date.now() + 10_000;
  while (!cond()) {
    if (Date.now() > end) assert.fail(why());
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * The split-off chunks as `cargo xtask dist` names them, and the split's link module
 * that loads them (the glue imports only a shim of it, which imports it when a
 * split-off part is first needed).
 */
const CHUNK = /\/(?:(?:split_[^/]*|chunk_[^/]*)\.wasm|__wasm_split_chunks-[0-9a-f]{16}\.js)(?:\?.*)?$/;

describe('split-off parts of the page', () => {
  after(closeBrowser);

  it('the first tool list needs no chunk: every chunk is held until it shows', async () => {
    const browser = await launch();
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, serviceWorkers: 'block' });
    const page = await context.newPage();
    let release;
    const shown = new Promise((r) => { release = r; });
    const held = [];
    await context.route(CHUNK, async (route) => {
      held.push(new URL(route.request().url()).pathname.split('/').pop());
      await shown;
      return route.continue();
    });
    try {
      await page.goto(baseUrl);
      // Were a chunk needed, the list would never show (the fetch is held).
      await page.waitForSelector(tid('tool-row'));
      await connected(page, 'mcpg-demo');
      await page.waitForFunction(() => document.body.dataset.firstToolListMs !== undefined);
      // Right after the list, the split's link module is asked for (and held):
      // nothing before the list needed it either.
      await until(() => held.some((n) => n.startsWith('__wasm_split_chunks-')), () => `held: ${held}`);
      release();
      // Then the first pack: the loop's code and its controls.
      await until(() => held.some((n) => n.startsWith('split_mcpg_later-')), () => `held: ${held}`);
      // The second pack (the lessons, the picture, the share bar) is asked for only
      // once the first is in: the two never share the link.
      const [firstIn, restAsked] = await page.waitForFunction(() => {
        const entries = performance.getEntriesByType('resource');
        const first = entries.find((e) => /\/split_mcpg_later-/.test(e.name));
        const rest = entries.find((e) => /\/split_mcpg_later_rest-/.test(e.name));
        return first && rest && [first.responseEnd, rest.startTime];
      }).then((h) => h.jsonValue());
      assert.ok(restAsked >= firstIn, `second pack asked at ${restAsked} ms, the first in at ${firstIn} ms`);
      // So is the code for connections (links, real models, the bridge's list).
      await until(() => held.some((n) => n.startsWith('split_mcpg_links-')), () => `held: ${held}`);
      // Its fetch started after the first tool list showed (the list's time is
      // rounded to 0.1 ms, hence the 1 ms of slack).
      const [listMs, linksMs] = await page.waitForFunction(() => {
        const entry = performance.getEntriesByType('resource').find((e) => /\/split_mcpg_links-/.test(e.name));
        return entry && [Number(document.body.dataset.firstToolListMs), entry.startTime];
      }).then((h) => h.jsonValue());
      assert.ok(linksMs >= listMs - 1, `links chunk asked at ${linksMs} ms, first tool list at ${listMs} ms`);
      // Then the first screen's later parts appear without a click.
      await page.waitForSelector(tid('lessons'));
      await page.waitForSelector(tid('diagram'));
      await runLoop(page, "What's the weather in Austin?");
      assert.match(await page.textContent(tid('answer')), /Austin: 91F, sunny/);
      // Share's own code is split off too: it says why there is no link.
      await context.route(/\/split_mcpg_share-[^/]*\.wasm$/, (route) => route.abort('internetdisconnected'));
      await page.click(tid('share-button'));
      await page.waitForFunction(
        (sel) => /could not be loaded/.test(document.querySelector(sel)?.textContent ?? ''),
        tid('share-message'),
      );
      assert.equal(await page.locator(tid('share-link')).count(), 0);
    } finally {
      release();
      await context.close();
    }
  });

  it('on a slow link the packs come in the order a learner reaches them', async () => {
    // The workshop link: on localhost every fetch is over before the next could
    // start, so an order would prove nothing.
    const { context, page, cdp } = await coldPage(WORKSHOP_LINK);
    /** Each pack's (and the connections' chunk's) fetch: [start, end] in ms, or absent. */
    const packs = () => page.evaluate(() => Object.fromEntries(
      performance.getEntriesByType('resource')
        .map((e) => [/\/(split_mcpg_(?:later|later_rest|loop_rest|links))-[0-9a-f]{16}\.wasm$/.exec(e.name)?.[1], e])
        .filter(([name]) => name)
        .map(([name, e]) => [name, [e.startTime, e.responseEnd]]),
    ));
    try {
      await page.goto(baseUrl);
      await page.waitForSelector(tid('step-button'), { timeout: 60_000 });
      await page.waitForSelector(tid('lessons'), { timeout: 60_000 });
      const got = await packs();
      const first = got.split_mcpg_later;
      const rest = got.split_mcpg_later_rest;
      assert.ok(first && rest, JSON.stringify(got));
      // The lessons' pack is asked for once the loop's pack is in, never beside it
      // (neither by its own loader nor by the connections' code fetched meanwhile).
      assert.ok(rest[0] >= first[1], `second pack asked at ${rest[0]} ms, the first in at ${first[1]} ms`);
      // So is the connections' code, though the bridge's server list waits for it
      // (this page came from `mcpg serve`, so it has a bridge).
      await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => /\/split_mcpg_links-/.test(e.name)));
      const links = (await packs()).split_mcpg_links;
      assert.ok(links[0] >= first[1], `connections' code asked at ${links[0]} ms, the first pack in at ${first[1]} ms`);
      // Steps 2 to 6's pack waits for step 2.
      assert.equal(got.split_mcpg_loop_rest, undefined, JSON.stringify(got));
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
      await page.fill(tid('prompt'), "What's the weather in Austin?");
      await page.click(tid('step-button'));
      await stepsSettled(page, 1);
      assert.equal((await packs()).split_mcpg_loop_rest, undefined, 'a first Step needs only the first pack');
      await page.click(tid('step-button'));
      await stepsSettled(page, 2);
      await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => /\/split_mcpg_loop_rest-/.test(e.name)));
    } finally {
      await context.close();
    }
  });

  it('a chunk that cannot be fetched leaves a notice in its place, and the loop runs once it can', async () => {
    const browser = await launch();
    // No service worker: it would answer from its cache, which is the point of it,
    // but here the network itself must fail.
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, serviceWorkers: 'block' });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
    let refused = 0;
    await context.route(CHUNK, (route) => {
      refused += 1;
      return route.abort('internetdisconnected');
    });
    try {
      await page.goto(baseUrl);
      await connected(page, 'mcpg-demo');
      await page.waitForSelector(tid('tool-row'));
      // The first screen's later parts (the loop's controls and steps, lessons,
      // picture, share bar) say so in place.
      await page.waitForFunction((sel) => document.querySelectorAll(sel).length >= 4, tid('chunk-failed'));
      assert.equal(await page.locator(tid('lessons')).count(), 0);
      assert.equal(await page.locator(tid('share-bar')).count(), 0);
      assert.equal(await page.locator(tid('step-button')).count(), 0);
      await page.waitForSelector(`#loop ${tid('chunk-failed')}`);
      await page.click(tid('tab-result'));
      await page.waitForSelector(`#panel-result ${tid('chunk-failed')}`);
      assert.ok(refused > 0);
      assert.match(await page.textContent(tid('chunk-failed')), /could not be loaded/);
      // Trying again while the network is still down says so again.
      const before = refused;
      await page.click(`#loop ${tid('chunk-retry')}`);
      await until(() => refused > before, () => `no new fetch after "Try again" (${refused} refused)`);
      await page.waitForSelector(`#loop ${tid('chunk-failed')}`);
      await expectNoSeriousA11y(page, 'chunks refused');
      // Once the network is back, "Try again" brings the loop's controls and the
      // whole loop runs, and a part not tried yet loads.
      await context.unroute(CHUNK);
      await page.click(`#loop ${tid('chunk-retry')}`);
      await page.waitForSelector(tid('step-button'));
      await runLoop(page, "What's the weather in Austin?");
      assert.match(await page.textContent(tid('answer')), /Austin: 91F, sunny/);
      await page.click(tid('tab-server'));
      await page.waitForSelector(tid('server-panel'));
      // The split runtime's loader (generated by wasm_split_cli_support 0.2.3) starts a
      // chunk's fetch beside its dependencies' and never awaits it when a dependency
      // fails first, so the browser also reports that refused fetch as an unhandled
      // rejection. The failure itself reached the page (the notices above); nothing
      // else may be reported.
      assert.deepEqual(errors.filter((e) => e !== 'page error: Failed to fetch'), []);
    } finally {
      await context.close();
    }
  });
});

describe('a page opened on a server of its own', () => {
  after(closeBrowser);

  it('holds its later parts back for that server\'s first listing, but not for a server that never answers', async () => {
    // The loop's controls come while the silent server's handshake still waits (it
    // would time out only after a minute).
    const p = await openPage(urlWith({ server: 'hostile-silent' }));
    try {
      await p.page.waitForSelector(tid('step-button'));
      assert.match(await p.page.textContent(tid('conn-status')), /connecting/);
      assert.deepEqual(p.errors, []);
    } finally {
      await p.close();
    }
  });
});
