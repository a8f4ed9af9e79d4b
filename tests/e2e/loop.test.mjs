// The loop on the embedded demo server, in step mode and in run mode, with the two
// lessons of the walkthrough: every page of tools/list, and isError vs JSON-RPC error.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  baseUrl, closeBrowser, connected, openPage, root, runLoop, shot, steps, stepsSettled, suitePage, tid,
} from './support.mjs';

const SIDES = ['mcp', 'host', 'host', 'mcp', 'mcp', 'host'];

describe('the tool loop on the embedded demo server', () => {
  const p = suitePage(baseUrl, 'mcpg-demo');

  it('step mode: one click, one step, with the exact JSON and an explanation', async () => {
    const { page } = p;
    await page.fill(tid('prompt'), "What's the weather in Austin?");
    const expected = [1, 2, 3, 5, 6];
    for (const count of expected) {
      await page.click(tid('step-button'));
      await stepsSettled(page, count);
    }
    const s = await steps(page);
    assert.deepEqual(s.map((x) => x.n), [1, 2, 3, 4, 5, 6]);
    assert.deepEqual(s.map((x) => x.side), SIDES);
    assert.ok(s.every((x) => x.status === 'done'), JSON.stringify(s));
    const where = await page.$$eval(tid('step-where'), (els) => els.map((e) => e.textContent));
    assert.deepEqual(where, SIDES.map((x) => (x === 'mcp' ? 'over MCP' : 'inside the host')));
    const explanations = await page.$$eval(tid('step-explanation'), (els) => els.map((e) => e.textContent));
    assert.ok(explanations.every((e) => e.length > 40), explanations.join('\n'));
    // Step 4 is the exact tools/call the seed shows.
    const step4 = await page.$eval('[data-step="4"] [data-testid=json]', (e) => e.textContent);
    assert.match(step4, /"method": "tools\/call"/);
    assert.match(step4, /"name": "get_weather"/);
    assert.match(step4, /"city": "Austin"/);
    const step5 = await page.$eval('[data-step="5"] [data-testid=json]', (e) => e.textContent);
    assert.match(step5, /Austin: 91F, sunny/);
    assert.match(await page.textContent(tid('answer')), /Austin: 91F, sunny/);
    await shot(page, 'step-mode.png');
    assert.deepEqual(p.errors, []);
  });

  it('run mode: the whole loop with one click (structured content checked)', async () => {
    const { page } = p;
    await runLoop(page, 'Forecast for Paris for 3 days');
    const s = await steps(page);
    assert.deepEqual(s.map((x) => x.n), [1, 2, 3, 4, 5, 6]);
    assert.deepEqual(s.map((x) => x.side), SIDES);
    await page.click(tid('tab-result'));
    assert.equal(await page.getAttribute(tid('result-kind'), 'data-kind'), 'ok');
    assert.match(await page.textContent(tid('structured-check')), /fits the tool's outputSchema/);
    await shot(page, 'run-mode.png');
    // The README's picture: every step at a glance (JSON folded) next to the result,
    // on a taller screen.
    await page.setViewportSize({ width: 1280, height: 1000 });
    await page.$$eval('.steps details', (ds) => ds.forEach((d) => { d.open = false; }));
    await page.$eval('[data-step="3"]', (e) => e.scrollIntoView({ block: 'start' }));
    const path = await shot(page, 'overview.png');
    await page.setViewportSize({ width: 1280, height: 720 });
    // The README's copy is refreshed on request only, so test runs leave the tree clean.
    if (process.env.MCPG_UPDATE_SCREENSHOT === '1') {
      mkdirSync(join(root, 'docs'), { recursive: true });
      copyFileSync(path, join(root, 'docs', 'screenshot.png'));
    }
    assert.deepEqual(p.errors, []);
  });

  it('the pagination lesson shows every page of tools/list', async () => {
    const { page } = p;
    await runLoop(page, "What's the weather in Austin?");
    await page.click(tid('tab-tools'));
    const pages = await page.$$eval(tid('tools-page'), (els) => els.map((e) => e.dataset.page));
    assert.deepEqual(pages, ['1', '2', '3', '4', '5']);
    // 26: count_task too, since the page declares the Tasks extension (2026-07-28).
    assert.equal(await page.locator(tid('tool-row')).count(), 26);
    assert.match(await page.textContent(tid('tools-summary')), /26 tools in 5 page/);
    const boundaries = await page.$$eval('.page-boundary', (els) => els.map((e) => e.textContent));
    assert.match(boundaries[0], /nextCursor/);
    assert.match(boundaries[4], /no nextCursor: the last page/);
    // Step 1 shows each request and each response.
    const labels = await page.$$eval('[data-step="1"] summary', (els) => els.map((e) => e.textContent));
    assert.equal(labels.length, 10, labels.join('\n'));
    assert.match(await page.textContent('[data-step="1"] [data-testid=step-explanation]'), /all 5 pages/);
    try {
      await page.fill(tid('tools-filter'), 'weather');
      const names = await page.$$eval(tid('tool-name'), (els) => els.map((e) => e.textContent));
      assert.deepEqual(names, ['get_weather', 'get_weather_icon', 'get_weather_details']);
    } finally {
      await page.fill(tid('tools-filter'), '');
    }
    await shot(page, 'tools-pages.png');
    assert.deepEqual(p.errors, []);
  });

  it('an isError result and a JSON-RPC error are shown differently', async () => {
    const { page } = p;
    await runLoop(page, "What's the weather in Atlantis?");
    await page.click(tid('tab-result'));
    assert.equal(await page.getAttribute(tid('result-kind'), 'data-kind'), 'tool-error');
    const toolLabel = await page.textContent(tid('result-kind'));
    const toolLine = await page.textContent(tid('result-line'));
    assert.match(toolLabel, /isError: true/);
    assert.match(await page.textContent(tid('result-content')), /city not found: Atlantis/);
    assert.equal(await page.getAttribute('[data-step="5"]', 'data-status'), 'failed');
    assert.match(await page.textContent(tid('answer')), /failed: city not found/);
    await shot(page, 'is-error.png');

    // A careful host never sends a tool the server did not list, and since
    // 2025-11-25 a wrong argument type is a tool error: 2025-06-18 still answered
    // it with -32602.
    await page.click(tid('tab-server'));
    await page.selectOption(tid('revision-select'), '2025-06-18');
    await page.waitForSelector(`${tid('server-protocol')}:has-text("2025-06-18")`);
    await connected(page, 'mcpg-demo');
    await runLoop(page, 'call add_numbers {"a": "two", "b": 3}');
    await page.click(tid('tab-result'));
    assert.equal(await page.getAttribute(tid('result-kind'), 'data-kind'), 'protocol-error');
    const rpcLabel = await page.textContent(tid('result-kind'));
    const rpcLine = await page.textContent(tid('result-line'));
    assert.match(rpcLabel, /JSON-RPC error/);
    assert.match(await page.textContent(tid('rpc-error')), /-32602/);
    assert.notEqual(toolLabel, rpcLabel);
    assert.notEqual(toolLine, rpcLine);
    assert.match(await page.textContent('[data-step="5"] [data-testid=step-explanation]'), /A JSON-RPC error \(-32602/);
    await shot(page, 'json-rpc-error.png');
    await page.click(tid('tab-server'));
    await page.selectOption(tid('revision-select'), 'auto');
    await page.waitForSelector(`${tid('server-protocol')}:has-text("2026-07-28")`);
    await connected(page, 'mcpg-demo');
    assert.deepEqual(p.errors, []);
  });

  it('progress while a call runs, and cancel', async () => {
    const { page } = p;
    await page.click(tid('reset-button'));
    await page.fill(tid('prompt'), 'Count slowly to 20');
    await page.click(tid('run-button'));
    await page.click(tid('tab-result'));
    await page.waitForSelector(tid('progress'));
    await page.click(tid('cancel-button'));
    await page.waitForSelector(tid('answer'));
    assert.match(await page.textContent(tid('result-line')), /cancelled/);
    const labels = await page.$$eval('[data-step="5"] summary', (els) => els.map((e) => e.textContent));
    assert.ok(labels.some((l) => l.includes('notifications/cancelled')), labels.join('\n'));
    assert.deepEqual(p.errors, []);
  });

  it('the learner can play the model with the generated form', async () => {
    const { page } = p;
    await page.click(tid('reset-button'));
    await page.click(tid('tab-tools'));
    await page.click('[data-tool="book_table"] [data-testid=tool-use]');
    // Required fields are checked before anything is sent.
    await page.click(tid('form-send'));
    const errs = await page.textContent(tid('form-errors'));
    assert.match(errs, /restaurant: required/);
    await page.fill('#field-restaurant', 'Luigi');
    await page.fill('#field-date', '2026-05-01');
    await page.fill('#field-party-adults', '0');
    assert.match(await page.textContent(tid('form-errors')), /party.adults: must be at least 1/);
    await page.fill('#field-party-adults', '3');
    await page.click(tid('form-send'));
    await page.waitForSelector(tid('answer'));
    assert.match(await page.textContent('[data-step="3"] [data-testid=step-explanation]'), /You played the model/);
    assert.match(await page.textContent(tid('answer')), /Pretend-booked Luigi on 2026-05-01 for 3 adult/);
    await shot(page, 'play-the-model.png');
    assert.deepEqual(p.errors, []);
  });

  it('list_changed: the server announces a new tool and the page lists again', async () => {
    const { page } = p;
    await runLoop(page, 'Toggle the bonus tool');
    await page.click(tid('tab-tools'));
    await page.waitForSelector('[data-tool="secret_recipe"]');
    assert.match(await page.textContent(tid('tools-summary')), /27 tools/);
    await page.click(tid('tab-wire'));
    assert.match(await page.textContent(tid('wire-log')), /notifications\/tools\/list_changed/);
    // Toggle back, so the other tests see the usual 26 tools.
    await runLoop(page, 'Toggle the bonus tool');
    await page.click(tid('tab-tools'));
    await page.waitForFunction(() => !document.querySelector('[data-tool="secret_recipe"]'));
    assert.deepEqual(p.errors, []);
  });

  it('provider formats: step 2 side by side, step 3 and 6 in the chosen format', async () => {
    const { page } = p;
    const cases = [
      ['anthropic', /"input_schema"/, null, /"tool_use"/],
      ['openai-chat', /"type": "function"[\s\S]*"function": \{/, null, /"tool_calls"/],
      ['openai-responses', /"parameters"[\s\S]*"strict"/, /"function": \{/, /"function_call"/],
      ['gemini', /"functionDeclarations"/, null, /"functionCall"/],
      ['ollama', /"function": \{/, null, /"message"[\s\S]*"tool_calls"/],
    ];
    try {
      for (const [id, tools, notTools, reply] of cases) {
        await page.selectOption(tid('provider-select'), id);
        await runLoop(page, "What's the weather in Austin?");
        await stepsSettled(page, 6);
        assert.match(await page.textContent(tid('mcp-tools')), /"inputSchema"/, id);
        const shaped = await page.textContent(tid('provider-tools'));
        assert.match(shaped, tools, `${id}: ${shaped}`);
        assert.doesNotMatch(shaped, /"inputSchema"/, id);
        if (notTools) assert.doesNotMatch(shaped, notTools, `${id}: ${shaped}`);
        const step3 = await page.$eval('[data-step="3"] [data-testid=json]', (e) => e.textContent);
        assert.match(step3, reply, `${id}: ${step3}`);
        assert.match(step3, /get_weather/, id);
        const step6 = await page.$$eval('[data-step="6"] summary', (els) => els.map((e) => e.textContent));
        assert.ok(step6.some((t) => /appended to the conversation/.test(t)), `${id}: ${step6}`);
        assert.match(await page.textContent(tid('answer')), /91F/, id);
      }
    } finally {
      await page.selectOption(tid('provider-select'), 'anthropic');
    }
    assert.deepEqual(p.errors, []);
  });

  it('keyboard only: the loop can be driven without a mouse', async () => {
    const { page } = p;
    await page.click(tid('reset-button'));
    await page.focus(tid('prompt'));
    let found = false;
    for (let i = 0; i < 30 && !found; i++) {
      await page.keyboard.press('Tab');
      found = await page.evaluate(() => document.activeElement?.dataset.testid === 'step-button');
    }
    assert.ok(found, 'the step button is reachable with Tab');
    await page.keyboard.press('Enter');
    await stepsSettled(page, 1);
    assert.deepEqual(p.errors, []);
  });
});

describe('a narrow screen', () => {
  it('works at 390 px wide without sideways scrolling', async () => {
    const p = await openPage(baseUrl, { width: 390, height: 844 });
    try {
      await connected(p.page, 'mcpg-demo');
      await runLoop(p.page, "What's the weather in Austin?");
      const width = await p.page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 391, `page is ${width}px wide`);
      await shot(p.page, 'narrow.png');
      assert.deepEqual(p.errors, []);
    } finally {
      await p.close();
      await closeBrowser();
    }
  });
});
