// The picture of the loop (a live sequence diagram in SVG) and presenter mode, on the
// embedded demo server: the diagram is on the first screen, follows the loop arrow by
// arrow, leads to each step's JSON, draws the weather card's view as a lane of its
// own, parallel calls and both kinds of failure; presenter mode is driven by the
// keyboard alone. axe-core checks each state.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expectNoSeriousA11y } from './axe.mjs';
import { baseUrl, connected, root, runLoop, shot, suitePage, tid } from './support.mjs';

const AUSTIN = "What's the weather in Austin?";

/** The diagram's arrows outside presenter mode, top to bottom. */
async function arrows(page, scope = '.side') {
  return page.$$eval(`${scope} [data-testid=diagram-arrow]`, (els) =>
    els.map((e) => ({
      label: e.querySelector('[data-testid=diagram-label]').textContent,
      kind: e.dataset.kind,
      step: e.dataset.step ? Number(e.dataset.step) : null,
      current: e.getAttribute('aria-current') === 'step',
    })),
  );
}

/**
 * Waits until the loop shows `count` steps, none running (its own cards: presenter
 * mode shows one more copy of a step).
 */
async function stepsSettled(page, count) {
  await page.waitForFunction((c) => {
    const s = [...document.querySelectorAll('#loop [data-testid="step"]')];
    return s.length === c && s.every((e) => e.dataset.status !== 'running');
  }, count);
}

/**
 * Every label of the diagram in `scope` as drawn (its SVG box, measured by the
 * browser) inside the view box: shortened labels fit, whatever the font.
 */
async function labelsFit(page, scope = '.side') {
  const outside = await page.$$eval(`${scope} [data-testid=diagram] svg`, (svgs) => svgs.flatMap((svg) => {
    const width = svg.viewBox.baseVal.width;
    return [...svg.querySelectorAll('text')]
      .map((t) => ({ text: t.textContent, box: t.getBBox() }))
      .filter(({ box }) => box.x < 0 || box.x + box.width > width)
      .map(({ text, box }) => `${text}: ${Math.round(box.x)}..${Math.round(box.x + box.width)} of ${width}`);
  }));
  assert.deepEqual(outside, []);
}

const labels = (list) => list.map((a) => a.label);

/** The lane headings of the diagram in `scope`, left to right. */
async function lanes(page, scope = '.side') {
  return page.$$eval(`${scope} [data-testid=diagram-lane]`, (els) => els.map((e) => e.textContent));
}
const current = (list) => list.filter((a) => a.current).map((a) => a.label);

/** Copies a screenshot into docs/ when the README's pictures are being refreshed. */
function publish(path, name) {
  if (process.env.MCPG_UPDATE_SCREENSHOT === '1') {
    mkdirSync(join(root, 'docs'), { recursive: true });
    copyFileSync(path, join(root, 'docs', name));
  }
}

/** A screenshot with the mouse out of the way (no hover highlight in it). */
async function cleanShot(page, name) {
  await page.mouse.move(0, 0);
  return shot(page, name);
}

/** Whether the element's box lies inside the 1280×720 viewport. */
async function inFirstScreen(page, selector) {
  const box = await page.locator(selector).first().boundingBox();
  return box !== null && box.y >= 0 && box.y + box.height <= 720 && box.x >= 0 && box.x + box.width <= 1280;
}

describe('the picture of the loop', () => {
  const p = suitePage(baseUrl, 'mcpg-demo');

  it('sits in the first screen and follows the loop arrow by arrow', async () => {
    const { page } = p;
    await page.click(tid('reset-button'));
    assert.deepEqual(await arrows(page), []);
    assert.match(await page.textContent(`.side ${tid('diagram-status')}`), /Step or Run/);
    await page.fill(tid('prompt'), AUSTIN);
    // Step 5's result is the weather card's too: the host hands it to the view.
    const expected = [
      [1, ['tools/list ×5', 'tools, 5 pages']],
      [2, ['reshape → Anthropic']],
      [3, ['tools + message', 'picks a tool']],
      [5, ['result', 'tool-result']],
      [6, ['feed back the result', 'answers']],
    ];
    for (const [count, now] of expected) {
      await page.click(tid('step-button'));
      await stepsSettled(page, count);
      // The view comes once both its read and the result are in.
      await page.waitForFunction(
        (want) => [...document.querySelectorAll('.side [data-testid=diagram-arrow][aria-current=step]')]
          .map((e) => e.querySelector('[data-testid=diagram-label]').textContent).join('|') === want,
        now.join('|'),
      );
      const list = await arrows(page);
      assert.deepEqual(current(list), now, `after ${count} steps: ${JSON.stringify(list)}`);
      if (count === 3) await expectNoSeriousA11y(page, 'diagram mid-loop');
    }
    await page.waitForSelector(`#loop ${tid('answer')}`);
    const list = await arrows(page);
    assert.deepEqual(labels(list), [
      `“${AUSTIN}”`, 'tools/list ×5', 'tools, 5 pages', 'reshape → Anthropic',
      'tools + message', 'picks get_weather', 'tools/call get_weather', 'result',
      'tool-result', 'feed back the result', 'answers', 'answer',
    ]);
    assert.deepEqual(list.map((a) => a.step), [null, 1, 1, 2, 3, 3, 4, 5, 5, 6, 6, null]);
    assert.deepEqual(list.map((a) => a.kind), [
      'user', 'mcp', 'mcp', 'host', 'host', 'host', 'mcp', 'mcp', 'app', 'host', 'host', 'user',
    ]);
    // The weather card is hosted: the view is a lane of its own, between the model
    // and the host, and the host → view arrow is drawn in the app ↔ host colour.
    assert.deepEqual(await lanes(page), ['User', 'Model', 'View', 'Host', 'MCP server']);
    assert.equal(await page.locator(`.side [data-testid=diagram-arrow][data-kind=app]`).count(), 1);
    assert.equal(
      await page.$eval('.side [data-kind=app] .shaft', (e) => getComputedStyle(e).stroke),
      await page.$eval('[data-testid=app-where]', (e) => getComputedStyle(e).backgroundColor),
    );
    // Coloured like the badges: the same CSS variables.
    const colours = await page.evaluate(() => {
      const css = (sel, prop) => getComputedStyle(document.querySelector(sel))[prop];
      return {
        mcp: css('.side [data-kind=mcp] .shaft', 'stroke'),
        mcpBadge: css('.legend .badge.mcp', 'backgroundColor'),
        host: css('.side [data-kind=host] .shaft', 'stroke'),
        hostBadge: css('.legend .badge.host', 'backgroundColor'),
      };
    });
    assert.equal(colours.mcp, colours.mcpBadge);
    assert.equal(colours.host, colours.hostBadge);
    assert.notEqual(colours.mcp, colours.host);
    // The whole picture of the walkthrough is on the first screen at 1280×720.
    await page.evaluate(() => window.scrollTo(0, 0));
    assert.ok(await inFirstScreen(page, `.side ${tid('diagram')} svg`), 'the diagram is on the first screen');
    assert.match(await page.textContent(`.side ${tid('diagram-status')}`), /Current: Step 6, inside the host/);
    await labelsFit(page);
    await expectNoSeriousA11y(page, 'diagram result');
    const path = await cleanShot(page, 'diagram-first-screen.png');
    publish(path, 'diagram.png');
    assert.deepEqual(p.errors, []);
  });

  it('an arrow leads to its step\'s JSON, by click or by keyboard', async () => {
    const { page } = p;
    await page.evaluate(() => window.scrollTo(0, 0));
    // Step 4's JSON starts below the first screen.
    const json4 = '#loop [data-testid=step][data-step="4"] pre[data-testid=json]';
    assert.ok(!(await inFirstScreen(page, json4)), 'step 4 starts out of view');
    await page.click('.side [data-testid=diagram-arrow][data-step="4"]');
    await page.waitForFunction((sel) => {
      const r = document.querySelector(sel)?.getBoundingClientRect();
      return r && r.top >= 0 && r.top < innerHeight;
    }, json4);
    assert.ok(await page.evaluate(() => document.activeElement?.closest('[data-step="4"]') !== null));
    assert.match(await page.textContent(json4), /"method": "tools\/call"/);

    // Keyboard: Tab reaches the arrows, Enter on step 5's result opens its JSON.
    await page.focus('.side [data-testid=diagram-arrow][data-step="5"]');
    await page.keyboard.press('Enter');
    const json5 = '#loop [data-testid=step][data-step="5"] details:last-of-type pre[data-testid=json]';
    await page.waitForFunction((sel) => {
      const r = document.querySelector(sel)?.getBoundingClientRect();
      return r && r.top >= 0 && r.top < innerHeight;
    }, json5);
    assert.match(await page.textContent(json5), /Austin: 91F, sunny/);
    assert.ok(await page.evaluate(() => document.activeElement?.closest('[data-step="5"]') !== null));

    // The view's arrow leads to the view's card.
    await page.click('.side [data-testid=diagram-arrow][data-kind=app]');
    await page.waitForFunction(() => {
      const r = document.querySelector('[data-testid=app-view]')?.getBoundingClientRect();
      // Scrolled to its top, give or take a subpixel.
      return r && r.top > -1 && r.top < innerHeight;
    });

    // The answer's arrow leads to the answer.
    await page.click('.side [data-testid=diagram-arrow][data-target=answer]');
    await page.waitForFunction(() => {
      const r = document.querySelector('#loop [data-testid=answer]')?.getBoundingClientRect();
      return r && r.top >= 0 && r.bottom <= innerHeight;
    });
    // Every arrow that leads somewhere is in the tab order and named.
    const named = await page.$$eval('.side [data-testid=diagram-arrow][role=button]', (els) =>
      els.map((e) => [e.tabIndex, e.getAttribute('aria-label')]));
    assert.equal(named.length, 11);
    assert.ok(named.every(([t, l]) => t === 0 && /^(Step \d|The model's answer)/.test(l)), JSON.stringify(named));
    assert.deepEqual(p.errors, []);
  });

  it('parallel calls are drawn side by side in a par frame', async () => {
    const { page } = p;
    await runLoop(page, 'weather in Paris and Austin');
    // Each call's weather card is hosted, its tool-result drawn after its result.
    await page.waitForFunction(() =>
      document.querySelectorAll('.side [data-testid=diagram-arrow][data-kind=app]').length === 2);
    const par = page.locator(`.side ${tid('diagram-par')}`);
    assert.equal(await par.count(), 1);
    assert.equal(await par.getAttribute('data-calls'), '2');
    assert.match(await par.textContent(), /par · 2 calls/);
    const list = await arrows(page);
    assert.ok(labels(list).includes('picks 2 tools'), labels(list).join(' | '));
    assert.ok(labels(list).includes('feed back 2 results'), labels(list).join(' | '));
    // Both calls and both results are inside the frame; the model's turns are not.
    const frame = await par.locator('rect').boundingBox();
    const boxes = await page.$$eval('.side [data-testid=diagram-arrow]', (els) => els.map((e) => {
      const r = e.querySelector('.shaft').getBoundingClientRect();
      return { label: e.querySelector('[data-testid=diagram-label]').textContent, y: r.top + r.height / 2 };
    }));
    const inside = boxes.filter((b) => b.y > frame.y && b.y < frame.y + frame.height).map((b) => b.label);
    assert.deepEqual(inside, [
      'tools/call get_weather', 'result', 'tool-result', 'tools/call get_weather', 'result', 'tool-result',
    ]);
    await labelsFit(page);
    await cleanShot(page, 'diagram-parallel.png');
    assert.deepEqual(p.errors, []);
  });

  it('labels fit for the longest API format name', async () => {
    const { page } = p;
    try {
      await page.selectOption(tid('provider-select'), 'openai-responses');
      await runLoop(page, AUSTIN);
      assert.ok(labels(await arrows(page)).includes('reshape → OpenAI Responses'));
      await labelsFit(page);
    } finally {
      await page.selectOption(tid('provider-select'), 'anthropic');
    }
    assert.deepEqual(p.errors, []);
  });

  it('an isError result and a JSON-RPC error are drawn as two different failures', async () => {
    const { page } = p;
    const result = '.side [data-testid=diagram-arrow][data-step="5"]';
    const look = () => page.$eval(result, (e) => ({
      kind: e.dataset.kind,
      label: e.querySelector('[data-testid=diagram-label]').textContent,
      stroke: getComputedStyle(e.querySelector('.shaft')).stroke,
      dash: getComputedStyle(e.querySelector('.shaft')).strokeDasharray,
      name: e.getAttribute('aria-label'),
    }));
    const bad = await page.evaluate(() => {
      const probe = document.createElement('span');
      probe.style.color = 'var(--bad)';
      document.body.append(probe);
      const c = getComputedStyle(probe).color;
      probe.remove();
      return c;
    });
    await runLoop(page, "What's the weather in Atlantis?");
    const tool = await look();
    assert.equal(tool.kind, 'tool-error');
    assert.equal(tool.label, 'result isError: true');
    assert.equal(tool.stroke, bad);
    assert.match(tool.name, /a tool error \(isError\)/);
    await cleanShot(page, 'diagram-is-error.png');

    // A careful host never sends a tool the server did not list, and since
    // 2025-11-25 a wrong argument type is a tool error: 2025-06-18 still answered
    // it with -32602.
    await page.click(tid('tab-server'));
    await page.selectOption(tid('revision-select'), '2025-06-18');
    await page.waitForSelector(`${tid('server-protocol')}:has-text("2025-06-18")`);
    await connected(page, 'mcpg-demo');
    await runLoop(page, 'call add_numbers {"a": "two", "b": 3}');
    const rpc = await look();
    assert.equal(rpc.kind, 'protocol-error');
    assert.equal(rpc.label, 'JSON-RPC error -32602');
    assert.equal(rpc.stroke, bad);
    assert.match(rpc.name, /a JSON-RPC error/);
    assert.notEqual(rpc.dash, tool.dash, 'drawn differently, not only labelled differently');
    await cleanShot(page, 'diagram-json-rpc-error.png');
    await page.click(tid('tab-server'));
    await page.selectOption(tid('revision-select'), 'auto');
    await page.waitForSelector(`${tid('server-protocol')}:has-text("2026-07-28")`);
    await connected(page, 'mcpg-demo');
    assert.deepEqual(p.errors, []);
  });
});

describe('presenter mode', () => {
  const p = suitePage(baseUrl, 'mcpg-demo');
  const position = (page) => page.textContent(tid('present-position'));
  const shownStep = (page) => page.getAttribute(`${tid('presenter')} ${tid('step')}`, 'data-step');

  it('is driven by the keyboard alone: P, →, ←, D, R, Esc', async () => {
    const { page } = p;
    await page.click(tid('reset-button'));
    await page.fill(tid('prompt'), AUSTIN);
    // Keys are text while typing: P in the message box types a "p".
    await page.focus(tid('prompt'));
    await page.keyboard.press('End');
    await page.keyboard.press('p');
    assert.equal(await page.inputValue(tid('prompt')), `${AUSTIN}p`);
    assert.equal(await page.locator(tid('presenter')).count(), 0);
    await page.keyboard.press('Backspace');
    // Out of the field, P presents.
    await page.keyboard.press('Tab');
    await page.keyboard.press('p');
    await page.waitForSelector(tid('presenter'));
    await page.waitForFunction(() => document.activeElement?.dataset.testid === 'presenter');
    assert.equal(await page.isVisible('#loop'), false, 'the page behind is hidden');
    assert.match(await position(page), /No step yet/);
    assert.equal(await page.isDisabled(tid('present-prev')), true, 'nothing before the first step');
    assert.equal(await page.isDisabled(tid('present-next')), false);
    await expectNoSeriousA11y(page, 'presenter, empty');

    // → takes the loop's next step and shows it; on step 4, both 4 and 5 arrived,
    // and → shows 5 without stepping.
    for (const [n, of] of [[1, 1], [2, 2], [3, 3], [4, 5], [5, 5]]) {
      await page.keyboard.press('ArrowRight');
      await stepsSettled(page, of);
      await page.waitForFunction(
        (want) => document.querySelector('[data-testid=present-position]')?.textContent === want,
        `Step ${n} of ${of} so far`,
      );
      assert.equal(await shownStep(page), String(n));
    }
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await position(page), 'Step 3 of 5 so far');
    assert.equal(await shownStep(page), '3');
    // Large type for a projector.
    const size = await page.$eval(`${tid('presenter')} ${tid('step-explanation')}`,
      (e) => parseFloat(getComputedStyle(e).fontSize));
    assert.ok(size >= 24, `explanations are ${size}px`);

    // D shows the diagram, its current arrows the shown step's. At 1280 px it takes
    // the step's place (the step's title stays); at 1920 px it sits beside it.
    const diagram = `${tid('presenter')} ${tid('diagram')}`;
    const stepCard = `${tid('presenter')} ${tid('step')}`;
    assert.equal(await page.locator(diagram).count(), 0);
    await page.keyboard.press('d');
    await page.waitForSelector(diagram);
    assert.deepEqual(current(await arrows(page, tid('presenter'))), ['tools + message', 'picks get_weather']);
    assert.equal(await page.isVisible(stepCard), false);
    assert.equal(await page.textContent(tid('present-title')), '3. The model picks a tool and arguments');
    const labelSize = await page.$eval(`${diagram} [data-testid=diagram-label]`,
      (e) => e.getBoundingClientRect().height);
    assert.ok(labelSize >= 15, `diagram labels are ${labelSize}px high`);
    await labelsFit(page, tid('presenter'));
    await expectNoSeriousA11y(page, 'presenter with the diagram');
    await cleanShot(page, 'presenter-diagram-720.png');
    await page.keyboard.press('d');
    await page.waitForSelector(diagram, { state: 'detached' });
    assert.equal(await page.isVisible(stepCard), true);

    // R runs the loop to its end; presenter mode follows it to the answer.
    await page.keyboard.press('r');
    await page.waitForSelector(tid('present-answer'));
    assert.equal(await position(page), 'Step 6 of 6 so far');
    assert.equal(await page.isDisabled(tid('present-next')), true, 'the loop is over');
    assert.equal(await page.isDisabled(tid('present-prev')), false);
    assert.match(await page.textContent(tid('present-answer')), /Austin: 91F, sunny/);
    await expectNoSeriousA11y(page, 'presenter, result');
    await cleanShot(page, 'presenter-720.png');

    // A projector at 1920×1080: the step and the diagram side by side.
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.keyboard.press('d');
    await page.waitForSelector(diagram);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await shownStep(page), '4');
    assert.equal(await page.isVisible(stepCard), true);
    assert.deepEqual(current(await arrows(page, tid('presenter'))), ['tools/call get_weather']);
    const big = await cleanShot(page, 'presenter-1080.png');
    publish(big, 'presenter.png');
    await page.keyboard.press('d');
    await page.setViewportSize({ width: 1280, height: 720 });

    // Esc leaves, back to the page with focus on the button that entered.
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !document.querySelector('[data-testid=presenter]'));
    assert.equal(await page.isVisible('#loop'), true);
    await page.waitForFunction(() => document.activeElement?.dataset.testid === 'present-button');
    // Outside presenter mode the arrows are the page's again.
    await page.keyboard.press('ArrowLeft');
    assert.equal(await page.locator(tid('presenter')).count(), 0);
    assert.deepEqual(p.errors, []);
  });

  it('the button enters, and clicking an arrow there shows its step', async () => {
    const { page } = p;
    await page.click(tid('present-button'));
    await page.waitForSelector(tid('presenter'));
    await page.click(tid('present-diagram-toggle'));
    await page.click(`${tid('presenter')} [data-testid=diagram-arrow][data-step="2"]`);
    await page.waitForFunction(() =>
      document.querySelector('[data-testid=presenter] [data-testid=step]')?.dataset.step === '2');
    assert.equal(await position(page), 'Step 2 of 6 so far');
    await page.click(tid('present-leave'));
    await page.waitForFunction(() => !document.querySelector('[data-testid=presenter]'));
    await stepsSettled(page, 6);
    assert.deepEqual(p.errors, []);
  });
});

describe('presenter mode with the lessons', () => {
  const p = suitePage(baseUrl, 'mcpg-demo');

  it('a presenter jumps to any lesson without leaving presenter mode', async () => {
    const { page } = p;
    await page.waitForSelector(tid('lessons'));
    await page.click(tid('present-button'));
    await page.waitForSelector(tid('presenter'));
    const reshape = await page.$eval(tid('present-lesson'),
      (s) => [...s.options].find((o) => o.text.includes('Reshaping per provider')).value);
    await page.selectOption(tid('present-lesson'), reshape);
    // Set up as for a learner: the lesson's message and format, its task under the bar.
    await page.waitForFunction(() => document.querySelector('[data-testid=prompt]')?.value === 'square 12');
    assert.equal(await page.inputValue(tid('provider-select')), 'openai-chat');
    assert.match(await page.textContent(tid('present-lesson-task')), /OpenAI Chat format/);
    assert.equal(await page.isVisible(tid('presenter')), true, 'still presenting');
    await expectNoSeriousA11y(page, 'presenter with a lesson');
    await page.click(tid('present-run'));
    await page.waitForSelector(tid('present-answer'));
    await page.click(tid('present-leave'));
    await page.waitForSelector(`${tid('lesson')}[data-slug="reshape"]`);
    assert.deepEqual(p.errors, []);
  });
});
