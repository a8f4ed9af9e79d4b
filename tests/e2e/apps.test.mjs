// MCP Apps (issue 29) on the embedded demo: get_weather links a view, which the
// host reads over MCP and runs in a sandboxed frame next to step 5; the view gets
// the call's input and result, calls a tool back through the host, is refused what
// it may not do, and is torn down on reset. Every app message is a row of the wire
// log's app ↔ host lane.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { baseUrl, shot, stepsSettled, suitePage, tid } from './support.mjs';
import { expectNoSeriousA11y } from './axe.mjs';

/** Steps the loop of "What's the weather in Austin?" up to step 5. */
async function toStepFive(page) {
  await resetLoop(page);
  await page.fill(tid('prompt'), "What's the weather in Austin?");
  for (const count of [1, 2, 3, 5]) {
    await page.click(tid('step-button'));
    await stepsSettled(page, count);
  }
}

/**
 * Resets the loop from the keyboard: a view that resizes itself (size-changed)
 * shifts the layout, and a pointer click computed before the shift can land in
 * its frame.
 */
async function resetLoop(page) {
  await page.focus(tid('reset-button'));
  await page.keyboard.press('Enter');
}

async function appRows(page) {
  // data-dir: "sent" by the host to the view, "received" from it.
  return page.$$eval('[data-testid=app-row]', (rows) => rows.map((r) => `${r.dataset.dir === 'sent' ? 'to-view' : 'from-view'} ${r.querySelector('summary')?.textContent ?? ''}`));
}

describe('MCP Apps on the embedded demo', () => {
  const p = suitePage(baseUrl, 'mcpg-demo');

  it('the weather card renders with step 5, gets input and result, and calls back', async () => {
    const { page } = p;
    await toStepFive(page);
    await page.waitForSelector('[data-testid=app-view][data-status=ready]', { timeout: 15000 });
    const card = page.frameLocator(tid('app-frame'));
    await card.locator('#city').filter({ hasText: 'Austin' }).waitFor();
    await card.locator('#now').filter({ hasText: 'Austin: 91F, sunny' }).waitFor();
    // The frame is sandboxed with scripts only, and loads the page's frame file.
    const frame = await page.$eval(tid('app-frame'), (f) => ({ sandbox: f.getAttribute('sandbox'), src: f.getAttribute('src') }));
    assert.deepEqual(frame, { sandbox: 'allow-scripts', src: 'app-frame.html' });
    // A button in the view calls get_forecast through the host.
    await card.locator('#forecast').click();
    await card.locator('#days li').first().waitFor();
    assert.equal(await card.locator('#days li').count(), 3);
    await page.click(tid('tab-wire'));
    const rows = await appRows(page);
    for (const want of ['from-view', 'to-view']) assert.ok(rows.some((r) => r.startsWith(want)), rows.join('\n'));
    const text = rows.join('\n');
    for (const m of ['ui/initialize', 'result of ui/initialize', 'ui/notifications/initialized',
      'ui/notifications/tool-input', 'ui/notifications/tool-result', 'tools/call', 'result of tools/call']) {
      assert.ok(text.includes(m), `${m} in\n${text}`);
    }
    // The view's call went to the server as the host's own request.
    const wire = await page.$$eval('[data-testid=wire-row] summary', (s) => s.map((e) => e.textContent));
    assert.ok(wire.some((w) => w.includes('resources/read')), wire.join('\n'));
    assert.ok(wire.filter((w) => w.includes('tools/call')).length >= 2, wire.join('\n'));
    await page.$eval(tid('app-view'), (e) => e.scrollIntoView({ block: 'center' }));
    await shot(page, 'app-view.png');
    await expectNoSeriousA11y(page, 'a view open in the loop');
    assert.deepEqual(p.errors, []);
  });

  it('reset asks the view to tear down, then its frame goes', async () => {
    const { page } = p;
    await toStepFive(page);
    await page.waitForSelector('[data-testid=app-view][data-status=ready]', { timeout: 15000 });
    await resetLoop(page);
    await page.waitForSelector(tid('app-view'), { state: 'detached', timeout: 5000 });
    const rows = await appRows(page);
    assert.ok(rows.some((r) => r.includes('ui/resource-teardown')), rows.join('\n'));
    assert.ok(rows.some((r) => r.includes('result of ui/resource-teardown')), rows.join('\n'));
  });
});
