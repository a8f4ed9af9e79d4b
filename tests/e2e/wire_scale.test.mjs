// The wire log at scale (10,000 messages through the embedded demo server: the log
// is a bounded ring in the page's driver and the view shows a window of it), its JSON
// export, and the revision chooser (2025-11-25 ↔ 2026-07-28 changes the wire).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { baseUrl, connected, suitePage, tid } from './support.mjs';

describe('the wire log at scale, and pinning a revision', () => {
  const p = suitePage(baseUrl, 'mcpg-demo');

  it('appends 10,000 messages, keeps the newest 5,000, shows a window, exports JSON', async () => {
    const { page } = p;
    await page.click(tid('tab-wire'));
    // The wire log's code loads when its tab first opens (a lazy wasm chunk).
    await page.waitForSelector(tid('wire-row'));
    const before = await page.$$eval(tid('wire-row'), (els) => els.length);
    assert.ok(before > 0);
    // 1,000 listings of the demo's five pages: 10,000 messages.
    const figures = await page.evaluate(async () => {
      const t0 = performance.now();
      window.wasmBindings.mcpg_list_tools_times(1000);
      const t1 = performance.now();
      // Shown: the summary counts them and the window has re-rendered.
      await new Promise((resolve) => {
        const check = () => {
          const s = document.querySelector('[data-testid="wire-summary"]')?.textContent ?? '';
          const n = Number((s.match(/^(\d+) messages/) ?? [])[1] ?? 0);
          if (n >= 10000) requestAnimationFrame(() => resolve());
          else requestAnimationFrame(check);
        };
        check();
      });
      const t2 = performance.now();
      return { append: t1 - t0, shown: t2 - t0 };
    });
    console.log(`figure: 10,000 wire messages: appended in ${figures.append.toFixed(0)} ms, shown in ${figures.shown.toFixed(0)} ms`);
    const summary = await page.textContent(tid('wire-summary'));
    assert.match(summary, /^\d+ messages/);
    assert.match(await page.textContent(tid('wire-dropped')), /older messages dropped/);
    const rows = await page.$$eval(tid('wire-row'), (els) => els.length);
    assert.ok(rows > 0 && rows <= 200, `a window of rows, not all of them (${rows})`);
    await page.click(tid('wire-older'));
    const more = await page.$$eval(tid('wire-row'), (els) => els.length);
    assert.ok(more > rows, `"Show older" shows more (${more} > ${rows})`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(tid('wire-export'))]);
    assert.equal(download.suggestedFilename(), 'mcp-wire-log.json');
    const exported = JSON.parse(readFileSync(await download.path(), 'utf8'));
    assert.equal(exported.kept, 5000);
    assert.ok(exported.dropped > 5000, `dropped ${exported.dropped}`);
    assert.equal(exported.rows.length, 5000);
    assert.deepEqual(p.errors, []);
  });

  it('the revision chooser: 2025-11-25 handshakes, 2026-07-28 discovers', async () => {
    const { page } = p;
    await page.click(tid('tab-server'));
    await page.selectOption(tid('revision-select'), '2025-11-25');
    await connected(page, 'mcpg-demo');
    assert.equal(await page.textContent(tid('server-protocol')), '2025-11-25');
    await page.click(tid('tab-wire'));
    let log = await page.textContent(tid('wire-log'));
    assert.match(log, /→ initialize/);
    assert.doesNotMatch(log, /server\/discover/);
    await page.click(tid('tab-server'));
    await page.selectOption(tid('revision-select'), '2026-07-28');
    await connected(page, 'mcpg-demo');
    assert.equal(await page.textContent(tid('server-protocol')), '2026-07-28');
    await page.click(tid('tab-wire'));
    log = await page.textContent(tid('wire-log'));
    assert.match(log, /server\/discover/);
    assert.doesNotMatch(log, /→ initialize/);
    await page.click(tid('tab-server'));
    await page.selectOption(tid('revision-select'), 'auto');
    await connected(page, 'mcpg-demo');
    assert.deepEqual(p.errors, []);
  });
});
