// The Resources, Prompts and Logs panels against real servers: the embedded demo
// server, server-everything through the bridge (stdio), and the hostile server.
// Each panel's code is a split-off chunk that loads when its tab first opens.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { expectNoSeriousA11y } from './axe.mjs';
import { baseUrl, runLoop, shot, suitePage, tid, urlWith } from './support.mjs';

/** Opens a tab and waits for its panel's chunk to mount `ready`. */
async function openTab(page, tab, ready) {
  await page.click(tid(`tab-${tab}`));
  await page.waitForSelector(tid(ready));
}

/**
 * Types `value` into the prompt form's argument field `name`, then picks the
 * suggestion `pick` the server offered.
 */
async function complete(page, name, value, pick) {
  const form = page.locator(tid('prompt-form'));
  const field = form.locator(`${tid('argument-input')}[data-name="${name}"]`);
  await field.fill(value);
  const option = form.locator(tid('completion-option'), { hasText: pick });
  await option.first().waitFor();
  await option.first().click();
  assert.equal(await field.inputValue(), pick);
}

/** The text of step `step`'s JSON block labelled `label`, opened if it was closed. */
async function blockText(page, step, label) {
  const block = page.locator(`[data-step="${step}"] details`, { hasText: label }).first();
  if (!(await block.evaluate((d) => d.open))) await block.locator('summary').click();
  await block.locator(tid('json')).waitFor();
  return block.textContent();
}

/** Waits until the read shown is of `uri` and finished; a timeout says what was shown. */
async function readDone(page, uri) {
  try {
    await page.waitForFunction(
      (u) => document.querySelector('[data-testid=read-uri]')?.textContent === u
        && /item\(s\) in contents/.test(document.querySelector('[data-testid=read-status]')?.textContent ?? ''),
      uri,
    );
  } catch (e) {
    const shown = await page.evaluate(() => ({
      uri: document.querySelector('[data-testid=read-uri]')?.textContent,
      status: document.querySelector('[data-testid=read-status]')?.textContent,
      notes: [...document.querySelectorAll('[data-testid=wire-log] li')].slice(-8).map((l) => l.textContent.slice(0, 160)),
    }));
    throw new Error(`the read of ${uri} did not finish: ${JSON.stringify(shown)}`, { cause: e });
  }
}

/** The resource row for `uri`. */
const row = (page, uri) => page.locator(tid('resource')).filter({ has: page.locator('code', { hasText: uri }) });

/** Reads `uri` from its row and waits for the contents. */
async function readRow(page, uri) {
  await row(page, uri).locator(tid('resource-read-button')).click();
  await readDone(page, uri);
}

describe('the embedded demo server', () => {
  const p = suitePage(baseUrl, 'mcpg-demo');

  it('lists resources over pages and shows text, JSON, an image and audio', async () => {
    const { page } = p;
    await openTab(page, 'resources', 'resources-panel');
    await page.waitForSelector(`${tid('resources-state')}:has-text("Every page")`);
    assert.ok(await page.locator(tid('resources-page')).count() > 1, 'the demo pages its resources');
    assert.match(await page.textContent(`${tid('resources-page')}[data-page="1"] .page-boundary`), /nextCursor/);
    await readRow(page, 'demo://playground/cities.json');
    assert.match(await page.textContent(`${tid('resource-text')} .block-kind`), /JSON pretty-printed/);
    assert.match(await page.textContent(tid('resource-text-body')), /\n {2}"/, 'indented');
    await readRow(page, 'demo://playground/sun.png');
    const img = page.locator(tid('resource-image'));
    await img.waitFor();
    assert.ok(await img.evaluate((e) => e.complete && e.naturalWidth > 0), 'the PNG decoded');
    await readRow(page, 'demo://playground/beep.wav');
    assert.match(await page.getAttribute(tid('resource-audio'), 'src'), /^data:audio\/wav;base64,/);
    await expectNoSeriousA11y(page, 'resources-demo');
    assert.deepEqual(p.errors, []);
  });

  it('keeps hostile HTML as text', async () => {
    const { page } = p;
    await readRow(page, 'demo://playground/hostile.html');
    const text = await page.textContent(tid('resource-text-body'));
    assert.match(text, /</);
    assert.equal(await page.locator('[data-testid=resource-read] script, [data-testid=resource-read] iframe').count(), 0);
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    assert.deepEqual(p.errors, []);
  });

  it('fills a template from completions as the learner types', async () => {
    const { page } = p;
    const template = page.locator(tid('template')).filter({ hasText: 'weather://{city}/today' });
    await template.locator(tid('argument-input')).fill('Re');
    const option = template.locator(tid('completion-option'), { hasText: 'Reykjavik' });
    await option.waitFor();
    await option.click();
    assert.equal(await template.locator(tid('template-expanded')).textContent(), 'weather://Reykjavik/today');
    await template.locator(tid('template-read')).click();
    await readDone(page, 'weather://Reykjavik/today');
    assert.match(await page.textContent(tid('resource-text-body')), /Reykjavik/);
    assert.deepEqual(p.errors, []);
  });

  it('subscribes to calls.json and marks the update a tool call brings', async () => {
    const { page } = p;
    const uri = 'demo://playground/calls.json';
    await readRow(page, uri);
    const before = await page.textContent(tid('resource-text-body'));
    await row(page, uri).locator(tid('subscribe')).click();
    await row(page, uri).locator(`${tid('subscription')}:has-text("subscribed")`).waitFor();
    await runLoop(page, "What's the weather in Austin?");
    await page.click(tid('tab-resources'));
    await row(page, uri).locator(`${tid('subscription')}:has-text("updated ×")`).waitFor();
    await page.waitForSelector(tid('read-updated'));
    await page.waitForFunction((b) => document.querySelector('[data-testid=resource-text-body]')?.textContent !== b, before);
    await shot(page, 'resources-demo-updated.png');
    assert.deepEqual(p.errors, []);
  });

  it('Read it on read_note\'s link reads it and shows the exchange', async () => {
    const { page } = p;
    await runLoop(page, 'read the note about pagination');
    await page.click(tid('tab-result'));
    await page.click(tid('read-it'));
    await page.waitForSelector(`#panel-resources:not([hidden]) ${tid('resource-read')}`);
    await readDone(page, 'note://playground/');
    assert.match(await page.textContent(tid('resource-read')), /Read it: the learner clicked/);
    await page.locator(`${tid('exchange')} summary`).first().click();
    await page.locator(`${tid('exchange')} ${tid('json')}`).first().waitFor();
    assert.match(await page.textContent(tid('exchange')), /"method": "resources\/read"/);
    assert.deepEqual(p.errors, []);
  });

  it('gets plan_trip with a completed city and uses it in the loop', async () => {
    const { page } = p;
    await openTab(page, 'prompts', 'prompts-panel');
    await page.locator(`${tid('prompt')}[data-name="plan_trip"] ${tid('prompt-choose')}`).click();
    await complete(page, 'city', 'To', 'Tokyo');
    await page.click(tid('prompt-get'));
    await page.waitForSelector(tid('prompt-message'));
    assert.match(await page.textContent(tid('prompt-message')), /weather in Tokyo/);
    await expectNoSeriousA11y(page, 'prompts-demo');
    await page.click(tid('reset-button'));
    await page.click(tid('use-in-loop'));
    await page.waitForSelector(tid('answer'));
    assert.match(await blockText(page, 2, "the prompt's messages"), /weather in Tokyo\? Tell me what to pack/);
    assert.match(await blockText(page, 3, 'request to the model'), /weather in Tokyo\? Tell me what to pack/);
    assert.match(await page.textContent('[data-step="4"] [data-testid=json]'), /"city": "Tokyo"/);
    assert.deepEqual(p.errors, []);
  });

  it('sets the log level and shows the messages of a call', async () => {
    const { page } = p;
    await openTab(page, 'logs', 'logs-panel');
    await page.selectOption(tid('log-level'), 'debug');
    await page.waitForSelector(`${tid('log-level-status')}:has-text("debug")`);
    await runLoop(page, "What's the weather in Paris?");
    await page.click(tid('tab-logs'));
    await page.waitForSelector(tid('log-message'));
    const levels = await page.$$eval(tid('log-message'), (rows) => rows.map((r) => r.dataset.level));
    assert.ok(levels.includes('debug'), levels.join());
    assert.match(await page.textContent(tid('logs-panel')), /demo/, 'the logger');
    await page.fill(tid('logs-filter'), 'no such text at all');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=log-message]').length === 0);
    await page.fill(tid('logs-filter'), '');
    await expectNoSeriousA11y(page, 'logs-demo');
    assert.deepEqual(p.errors, []);
  });
});

describe('server-everything through the bridge', () => {
  const p = suitePage(urlWith({ server: 'everything' }), 'mcp-servers/everything');

  it('lists resources and reads one, showing the exchange', async () => {
    const { page } = p;
    await openTab(page, 'resources', 'resources-panel');
    await page.waitForSelector(`${tid('resources-state')}:has-text("Every page")`);
    assert.equal(await page.locator(tid('resources-page')).count(), 1, 'one page, as the server sends');
    const first = page.locator(tid('resource')).first();
    const uri = await first.locator('code').textContent();
    assert.match(uri, /^demo:\/\/resource\/static\/document\//);
    await first.locator(tid('resource-read-button')).click();
    await readDone(page, uri);
    assert.match(await page.textContent(tid('resource-text-body')), /\w/);
    const exchange = await page.textContent(tid('exchange'));
    assert.match(exchange, /resources\/read \(sent\)/);
    assert.match(exchange, /result of resources\/read \(received\)/);
    await expectNoSeriousA11y(page, 'resources-everything');
    assert.deepEqual(p.errors, []);
  });

  it('fills a template with completions and reads it', async () => {
    const { page } = p;
    const template = page.locator(tid('template')).filter({ hasText: '/text/{resourceId}' });
    await template.waitFor();
    await template.locator(tid('argument-input')).fill('3');
    await template.locator(tid('completion-option'), { hasText: '3' }).first().waitFor();
    await template.locator(tid('completion-option')).first().click();
    assert.equal(await template.locator(tid('template-expanded')).textContent(), 'demo://resource/dynamic/text/3');
    await template.locator(tid('template-read')).click();
    await readDone(page, 'demo://resource/dynamic/text/3');
    assert.deepEqual(p.errors, []);
  });

  it('subscribes and marks an update as it arrives', async () => {
    const { page } = p;
    await runLoop(page, 'call toggle-subscriber-updates');
    await page.click(tid('tab-resources'));
    const first = page.locator(tid('resource')).first();
    await first.locator(tid('subscribe')).click();
    assert.equal(await first.locator(tid('subscribe')).getAttribute('aria-pressed'), 'true');
    // The server sends updates every 5 s to subscribers.
    await first.locator(`${tid('subscription')}:has-text("updated ×")`).waitFor({ timeout: 20_000 });
    await first.locator(tid('subscribe')).click();
    await page.waitForFunction(() => document.querySelector('[data-testid=subscribe]')?.getAttribute('aria-pressed') === 'false');
    await runLoop(page, 'call toggle-subscriber-updates');
    assert.deepEqual(p.errors, []);
  });

  it('gets a prompt with completions and uses it in the loop', async () => {
    const { page } = p;
    await openTab(page, 'prompts', 'prompts-panel');
    const prompt = page.locator(`${tid('prompt')}[data-name="completable-prompt"]`);
    await prompt.locator(tid('prompt-choose')).click();
    await complete(page, 'department', 'Eng', 'Engineering');
    // The second argument's suggestions depend on the first (the context).
    await complete(page, 'name', 'A', 'Alice');
    await page.click(tid('prompt-get'));
    await page.waitForSelector(tid('prompt-message'));
    assert.match(await page.textContent(tid('prompt-message')), /Please promote Alice to the head of the Engineering team/);
    await expectNoSeriousA11y(page, 'prompts-everything');
    await page.click(tid('use-in-loop'));
    await page.waitForSelector(tid('answer'));
    assert.match(await blockText(page, 2, "the prompt's messages"), /Please promote Alice/);
    assert.match(await blockText(page, 3, 'request to the model'), /Please promote Alice/);
    assert.deepEqual(p.errors, []);
  });

  it('sets the log level and shows the messages', async () => {
    const { page } = p;
    await runLoop(page, 'call toggle-simulated-logging');
    await openTab(page, 'logs', 'logs-panel');
    await page.selectOption(tid('log-level'), 'debug');
    await page.waitForSelector(`${tid('log-level-status')}:has-text("accepted")`);
    await page.waitForSelector(tid('log-message'), { timeout: 20_000 });
    const level = await page.getAttribute(tid('log-message'), 'data-level');
    assert.ok(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'].includes(level), level);
    await expectNoSeriousA11y(page, 'logs-everything');
    // The filter hides what is below the floor.
    await page.selectOption(tid('logs-min'), 'emergency');
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=log-message]')].every((r) => r.dataset.level === 'emergency'));
    await page.selectOption(tid('logs-min'), '');
    await runLoop(page, 'call toggle-simulated-logging');
    await shot(page, 'logs-everything.png');
    assert.deepEqual(p.errors, []);
  });
});

describe('a hostile server', () => {
  const p = suitePage(urlWith({ server: 'hostile' }), 'hostile');

  it('Read it on its resource link shows hostile text as text and runs nothing', async () => {
    const { page } = p;
    await runLoop(page, 'call describe_me');
    await page.click(tid('tab-result'));
    await page.click(tid('read-it'));
    // Read it opens the Resources panel with the exchange.
    await page.waitForSelector(tid('resource-read'));
    await readDone(page, 'javascript:window.__pwned=1');
    const text = await page.textContent(tid('resource-text-body'));
    assert.ok(text.includes('<img src=x onerror='), text);
    assert.match(await page.textContent(tid('exchange')), /resources\/read/);
    await page.waitForSelector(tid('resource'));
    const names = await page.textContent(tid('resources-panel'));
    assert.ok(names.includes('<b onmouseover='), names);
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    assert.equal(await page.locator('[data-testid=resources-panel] img').count(), 0, 'no element came from the server');
    assert.deepEqual(p.errors, []);
  });
});
