// A task of the 2026-07-28 Tasks extension (io.modelcontextprotocol/tasks) in the
// page, against the embedded demo at its default revision (Auto: 2026-07-28): the
// mock model calls count_task, the page only declares the extension on the call
// (no params.task), the demo answers with a task handle, step 5 shows it and the
// first tasks/get poll, and the poll that finds the task completed carries the
// result (there is no tasks/result). Cancel sends tasks/cancel. With ask, the
// task's question reaches the server-questions card and goes back as tasks/update.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { baseUrl, runLoop, suitePage, tid } from './support.mjs';
import { STEP4, start, waiting } from './asks_support.mjs';

/** The labels of step 5's blocks, one per line. */
async function step5Labels(page) {
  const labels = await page.$$eval('[data-step="5"] summary', (els) => els.map((e) => e.textContent));
  return labels.join('\n');
}

/** Waits until step 5 shows the task handle. */
async function handleShown(page) {
  await page.waitForFunction(
    () => [...document.querySelectorAll('[data-step="5"] summary')].some((s) => /task handle/.test(s.textContent)),
    null,
    { timeout: 30_000 },
  );
}

describe('a Tasks-extension task in the loop (embedded demo, 2026-07-28)', () => {
  const p = suitePage(baseUrl, 'mcpg-demo');

  it('a task followed to its result: tasks/get polls, no tasks/result, then step 6', async () => {
    const { page } = p;
    await runLoop(page, 'call count_task {"to": 3, "step_ms": 300}');
    const step4 = await page.$eval('[data-step="4"] [data-testid=json]', (e) => e.textContent);
    assert.match(step4, /"name": "count_task"/);
    assert.match(step4, /"io\.modelcontextprotocol\/tasks": \{\}/, 'the extension is declared on the call');
    assert.doesNotMatch(step4, /"task":\s*\{/, 'no task asked for: the server decides');
    const labels = await step5Labels(page);
    assert.match(labels, /the task handle \(CreateTaskResult\)/);
    assert.match(labels, /→ tasks\/get: the host polls the task/);
    assert.match(labels, /tasks\/get's answer: the task completed, with the tool's result inside/);
    assert.doesNotMatch(labels, /tasks\/result/);
    // The count takes about a second: several polls, one shown.
    assert.equal(labels.match(/→ tasks\/get/g).length, 1, labels);
    const s = await page.$$eval(tid('step'), (els) => els.map((e) => `${e.dataset.step}:${e.dataset.status}`));
    assert.deepEqual(s, ['1:done', '2:done', '3:done', '4:done', '5:done', '6:done']);
    await page.click(tid('tab-result'));
    assert.equal(await page.getAttribute(tid('result-kind'), 'data-kind'), 'ok');
    assert.match(await page.textContent(tid('result-panel')), /Counted to 3/);
    assert.match(await page.textContent(tid('answer')), /count_task/);
    assert.deepEqual(p.errors, []);
  });

  it('a task cancelled with the Cancel button: tasks/cancel, and the loop ends', async () => {
    const { page } = p;
    await start(page, 'call count_task {"to": 10, "step_ms": 2000}');
    await handleShown(page);
    assert.match(await page.textContent('[data-step="5"]'), /The server made this call a task .* of the Tasks extension/);
    await page.click(tid('tab-result'));
    await page.click(tid('cancel-button'));
    await page.waitForSelector(tid('answer'), { timeout: 30_000 });
    const labels = await step5Labels(page);
    assert.match(labels, /→ tasks\/cancel: the host cancels the task/);
    assert.match(labels, /tasks\/cancel's answer: the server acknowledges/);
    assert.match(await page.textContent('[data-step="5"]'), /the host sent tasks\/cancel \(not notifications\/cancelled\)/);
    assert.match(await page.textContent(tid('result-line')), /cancel/i);
    assert.equal(await page.getAttribute('[data-step="6"]', 'data-status'), 'done');
    assert.deepEqual(p.errors, []);
  });

  it('a task that asks: the server-questions card, answered with tasks/update', async () => {
    const { page } = p;
    await start(page, 'call count_task {"to": 4, "step_ms": 200, "ask": true}');
    const card = page.locator(`${STEP4} ${waiting('elicitation/create')}`);
    await card.waitFor({ timeout: 30_000 });
    assert.match(await card.textContent(), /Go on counting\?/);
    assert.match(await page.textContent('[data-step="5"]'), /input_required/);
    assert.match(await page.textContent('[data-step="4"]'), /the host answers with tasks\/update/);
    await card.locator(tid('elicit-accept')).click();
    await page.waitForSelector(tid('answer'), { timeout: 30_000 });
    const labels = await step5Labels(page);
    assert.match(labels, /→ tasks\/update: the host sends the answers/);
    assert.doesNotMatch(labels, /tasks\/result/);
    await page.click(tid('tab-result'));
    assert.match(await page.textContent(tid('result-panel')), /Counted to 4/);
    assert.deepEqual(p.errors, []);
  });
});
