// The Resources, Prompts and Logs panels against real servers: server-everything
// through the bridge (stdio), the embedded demo server, and the hostile server.
// Each panel's code is a split-off chunk that loads when its tab first opens.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { expectNoSeriousA11y } from './axe.mjs';
import { runLoop, shot, suitePage, tid, urlWith } from './support.mjs';

/** Opens a tab and waits for its panel's chunk to mount `ready`. */
async function openTab(page, tab, ready) {
  await page.click(tid(`tab-${tab}`));
  await page.waitForSelector(tid(ready));
}

/** Types `value` into the argument field `name`, then picks the suggestion `pick`. */
async function complete(page, name, value, pick) {
  const field = page.locator(`${tid('argument-input')}[data-name="${name}"]`);
  await field.fill(value);
  const option = page.locator(tid('completion-option'), { hasText: pick });
  await option.first().waitFor();
  await option.first().click();
  assert.equal(await field.inputValue(), pick);
}

/** Waits until the read shown is of `uri` and finished. */
async function readDone(page, uri) {
  await page.waitForFunction(
    (u) => document.querySelector('[data-testid=read-uri]')?.textContent === u
      && /item\(s\) in contents/.test(document.querySelector('[data-testid=read-status]')?.textContent ?? ''),
    uri,
  );
}

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
    assert.match(await page.textContent('[data-step="2"]'), /Please promote Alice/);
    assert.match(await page.textContent('[data-step="3"]'), /Please promote Alice/);
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
