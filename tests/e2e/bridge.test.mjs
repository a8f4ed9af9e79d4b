// Servers through the bridge: server-everything over stdio, and a hostile server
// whose every string carries markup that would run script if it were rendered as HTML.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runLoop, shot, suitePage, tid, urlWith } from './support.mjs';

describe('server-everything through the bridge', () => {
  const p = suitePage(urlWith({ server: 'everything' }), 'mcp-servers/everything');

  it('get-sum', async () => {
    const { page } = p;
    await runLoop(page, 'get the sum of 2 and 3');
    await page.click(tid('tab-result'));
    assert.equal(await page.getAttribute(tid('result-kind'), 'data-kind'), 'ok');
    assert.match(await page.textContent(tid('result-content')), /The sum of 2 and 3 is 5/);
    assert.match(await page.textContent('[data-step="4"] [data-testid=json]'), /"name": "get-sum"/);
    assert.deepEqual(p.errors, []);
  });

  it('get-tiny-image', async () => {
    const { page } = p;
    await runLoop(page, 'show me the tiny image');
    await page.click(tid('tab-result'));
    const img = page.locator(tid('content-image'));
    await img.waitFor();
    const natural = await img.evaluate((e) => (e.complete ? e.naturalWidth : 0));
    assert.ok(natural > 0, 'the image decoded');
    assert.match(await page.textContent('[data-step="4"] [data-testid=json]'), /"name": "get-tiny-image"/);
    await shot(page, 'bridge-tiny-image.png');
    assert.deepEqual(p.errors, []);
  });

  it('shows the server process in the wire log (spawned, stderr)', async () => {
    const { page } = p;
    await page.click(tid('tab-wire'));
    // The wire log's code loads when its tab first opens (a lazy wasm chunk).
    await page.waitForSelector(tid('wire-row'));
    assert.ok(await page.locator(tid('stderr-row')).count() > 0);
    assert.ok(await page.locator(tid('wire-row')).count() > 4);
    assert.deepEqual(p.errors, []);
  });
});

describe('a hostile server', () => {
  const p = suitePage(urlWith({ server: 'hostile' }), 'hostile');

  it('shows <img src=x onerror=...> in a tool description as text and runs nothing', async () => {
    const { page } = p;
    await page.waitForSelector(tid('tool-row'));
    const desc = await page.textContent(tid('tool-description'));
    assert.ok(desc.includes('<img src=x onerror="window.__pwned=(window.__pwned||0)+1">'), desc);
    assert.ok(desc.includes('<script>'), desc);
    await runLoop(page, 'call describe_me');
    await page.click(tid('tab-result'));
    assert.match(await page.textContent(tid('result-content')), /Result <img src=x onerror=/);
    await page.click(tid('tab-server'));
    await page.click(tid('tab-wire'));
    await page.waitForSelector(tid('wire-row'));
    // Give any injected handler every chance to fire.
    await page.waitForFunction(() => document.readyState === 'complete');
    const state = await page.evaluate(() => ({
      pwned: window.__pwned ?? null,
      imgX: document.querySelectorAll('img[src="x"]').length,
      bold: document.querySelectorAll('.tool b').length,
      scripts: [...document.querySelectorAll('script')].filter((s) => s.textContent.includes('__pwned')).length,
      jsLinks: document.querySelectorAll('a[href^="javascript:"]').length,
    }));
    assert.deepEqual(state, { pwned: null, imgX: 0, bold: 0, scripts: 0, jsLinks: 0 });
    assert.ok(await page.locator(tid('stderr-row')).count() > 0);
    assert.match(await page.textContent(tid('wire-log')), /hostile server started <img src=x/);
    await shot(page, 'hostile.png');
    assert.deepEqual(p.errors, []);
  });
});
