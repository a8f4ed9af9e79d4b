// MCP Apps (issue 29) on the embedded demo: get_weather links a view, which the
// host reads over MCP and runs in a sandboxed frame next to step 5; the view gets
// the call's input and result, calls a tool back through the host, is refused what
// it may not do, and is torn down on reset. Every app message is a row of the wire
// log's app ↔ host lane.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { baseUrl, root, runLoop, shot, stepsSettled, suitePage, tid, urlWith } from './support.mjs';
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
  await pressKey(page, 'reset-button');
}

/** Presses a page button from the keyboard (see `resetLoop`). */
async function pressKey(page, testid) {
  await page.focus(tid(testid));
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
    // The wire log's code loads when its tab first opens.
    await page.waitForSelector(tid('app-row'));
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
    await expectNoSeriousA11y(page, 'a view open in the loop');
    // The README's picture: step 5's result and the view beside it, JSON folded.
    await page.setViewportSize({ width: 1280, height: 1000 });
    await page.$$eval('.steps details', (ds) => ds.forEach((d) => { d.open = false; }));
    await page.$eval('[data-step="4"]', (e) => e.scrollIntoView({ block: 'start' }));
    const path = await shot(page, 'app-view.png');
    await page.setViewportSize({ width: 1280, height: 720 });
    if (process.env.MCPG_UPDATE_SCREENSHOT === '1') {
      copyFileSync(path, join(root, 'docs', 'app-view.png'));
    }
    assert.deepEqual(p.errors, []);
  });

  it('an app-only tool is withheld from the model and called for the view; the view\'s message goes on with the loop', async () => {
    const { page } = p;
    await toStepFive(page);
    // Step 2 says what it withheld from the model.
    assert.match(await page.textContent('[data-step="2"] [data-testid=step-explanation]'), /Withheld from the model: 1 \(get_weather_details\)/);
    await page.waitForSelector('[data-testid=app-view][data-status=ready]', { timeout: 15000 });
    const card = page.frameLocator(tid('app-frame'));
    await card.locator('#details').click();
    await card.locator('#more').filter({ hasText: 'Austin: humidity 35%, wind 5 mph' }).waitFor();
    // The view speaks for the user: held until the model has answered (step 6).
    await card.locator('#ask').click();
    await card.locator('#status').filter({ hasText: 'Sent to the conversation' }).waitFor();
    await page.waitForSelector(tid('app-note'));
    assert.match(await page.textContent(tid('app-view')), /once the model has answered/);
    await pressKey(page, 'step-button');
    await stepsSettled(page, 6);
    // Then the loop goes on from step 3, the view's words and its context in the request.
    // (a new loop would start over at step 1 instead).
    await pressKey(page, 'step-button');
    await stepsSettled(page, 7);
    const s3 = page.locator('[data-testid=step][data-step="3"]').last();
    await s3.locator('summary', { hasText: 'request to the model' }).click();
    await s3.locator('pre', { hasText: '3-day forecast' }).waitFor();
    const request = await s3.textContent();
    assert.match(request, /What's the 3-day forecast for Austin\?/);
    assert.match(request, /Context from the app the user sees: The card shows Austin: 91F, sunny; Austin: humidity 35%/);
    assert.match(request, /get_forecast/);
    // The picture draws the first answer, then the later message, before step 3 again.
    const pic = await page.$$eval('.side [data-testid=diagram-label]', (els) => els.map((e) => e.textContent));
    const later = pic.findIndex((l) => l.startsWith('“What\'s the 3'));
    assert.ok(later > 0, pic.join(' | '));
    assert.equal(pic[later - 1], 'answer', pic.join(' | '));
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

/** Runs the loop for `message` to its end and waits for the view to be ready. */
async function loopWithView(page, message) {
  await runLoop(page, message);
  await page.waitForSelector('[data-testid=app-view][data-status=ready]', { timeout: 20000 });
}

describe('MCP Apps: the npm basic example (vanilla JS) through the bridge', () => {
  const p = suitePage(urlWith({ server: 'apps-basic' }), 'Basic MCP App Server');

  it('renders, gets the result, calls get-time back through the host, tears down', async () => {
    const { page } = p;
    await loopWithView(page, 'get the time');
    const view = page.frameLocator(tid('app-frame'));
    // The SDK's app shows the result's time, then asks the server again on a click.
    const time = view.locator('#server-time');
    await time.filter({ hasText: /\d{4}-\d\d-\d\d/ }).waitFor({ timeout: 15000 });
    const first = await time.textContent();
    const calls = async () => (await appRows(page)).filter((r) => r.includes('result of tools/call')).length;
    await page.click(tid('tab-wire'));
    const before = await calls();
    await view.locator('#get-time-btn').click();
    await page.waitForFunction(
      (n) => [...document.querySelectorAll('[data-testid=app-row] summary')].filter((s) => s.textContent.includes('result of tools/call')).length > n,
      before,
    );
    const rows = (await appRows(page)).join('\n');
    for (const m of ['ui/initialize', 'ui/notifications/initialized', 'ui/notifications/tool-input', 'ui/notifications/tool-result', 'tools/call']) {
      assert.ok(rows.includes(m), `${m} in\n${rows}`);
    }
    assert.ok(first.length > 0);
    await resetLoop(page);
    await page.waitForSelector(tid('app-view'), { state: 'detached', timeout: 5000 });
    assert.ok((await appRows(page)).some((r) => r.includes('result of ui/resource-teardown')));
    assert.deepEqual(p.errors, []);
  });
});

describe('MCP Apps: the npm system monitor example through the bridge', () => {
  const p = suitePage(urlWith({ server: 'apps-monitor' }), 'System Monitor Server');

  it('withholds the app-only tool from the model; the view polls it through the host', async () => {
    const { page } = p;
    await loopWithView(page, 'get system info');
    // Step 2 says what the model was not shown.
    assert.match(await page.textContent('[data-step="2"] [data-testid=step-explanation]'), /poll-system-stats/);
    const step2 = await page.$eval('[data-step="2"]', (e) => e.textContent);
    assert.ok(step2.includes('Withheld'), step2.slice(0, 400));
    // The view asks for the app-only tool, which the host sends on as its own call.
    await page.click(tid('tab-wire'));
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=app-row] summary')]
      .some((s) => s.textContent.includes('result of tools/call')), null, { timeout: 20000 });
    const sentCalls = await page.$$eval('[data-testid=wire-row][data-dir=sent] summary', (s) => s.filter((e) => e.textContent.includes('tools/call')).length);
    assert.ok(sentCalls >= 2, `the loop's call and the view's, sent by the host: ${sentCalls}`);
    const rows = (await appRows(page)).join('\n');
    assert.ok(rows.includes('from-view tools/call') || rows.includes('⇠ tools/call'), rows);
    await page.$eval(tid('app-view'), (e) => e.scrollIntoView({ block: 'center' }));
    await shot(page, 'app-view-monitor.png');
    await expectNoSeriousA11y(page, 'the system monitor view open');
    await resetLoop(page);
    await page.waitForSelector(tid('app-view'), { state: 'detached', timeout: 5000 });
    assert.deepEqual(p.errors, []);
  });
});

describe('MCP Apps: a hostile view gets nowhere', () => {
  const p = suitePage(urlWith({ server: 'hostile-app' }), 'hostile-app');

  it('cannot read or steer the page, call a model-only tool, open a link, or flood the host', async () => {
    const { page } = p;
    const context = page.context();
    await page.evaluate(() => localStorage.setItem('mcpg-probe', 'page secret'));
    const url = page.url();
    await loopWithView(page, 'open view');
    await page.click(tid('tab-wire'));
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=note-row]')]
      .some((n) => n.textContent.includes('"probe":"done"')), null, { timeout: 20000 });
    const notes = await page.$$eval(tid('note-row'), (n) => n.map((e) => e.textContent));
    const probes = Object.fromEntries(notes
      .filter((n) => n.includes('{"probe":'))
      .map((n) => JSON.parse(n.slice(n.indexOf('{"probe":'))))
      .map((d) => [d.probe, d.result]));
    for (const k of ['parent.document', 'parent.location', 'cookie', 'localStorage', 'sessionStorage', 'top.navigate']) {
      assert.match(probes[k] ?? '', /^blocked/, `${k}: ${probes[k]} (${JSON.stringify(probes)})`);
    }
    assert.equal(probes['window.open'], 'got: null', JSON.stringify(probes));
    assert.match(probes.fetch ?? '', /^blocked/, JSON.stringify(probes));
    assert.match(probes.secret_tool ?? '', /^refused: .*visibility/, JSON.stringify(probes));
    assert.match(probes['open-link'] ?? '', /^refused/, JSON.stringify(probes));
    // Nothing reached the server, the page or the window.
    const sentCalls = await page.$$eval('[data-testid=wire-row][data-dir=sent] summary', (s) => s.filter((e) => e.textContent.includes('tools/call')).length);
    assert.equal(sentCalls, 1, 'only the loop\'s call of open_view went to the server');
    assert.equal(page.url(), url);
    assert.equal(context.pages().length, 1, 'no window opened');
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    assert.equal(await page.evaluate(() => localStorage.getItem('mcpg-probe')), 'page secret');
    // The flood was cut, and said so.
    const cardNotes = await page.$$eval(tid('app-note'), (n) => n.map((e) => e.textContent));
    assert.ok(cardNotes.some((n) => n.includes('messages in 1000 ms')), cardNotes.join('\n'));
    // The page keeps working: the view goes on reset and a new loop runs.
    await resetLoop(page);
    await page.waitForSelector(tid('app-view'), { state: 'detached', timeout: 5000 });
    await page.click(tid('step-button'));
    await stepsSettled(page, 1);
  });
});
