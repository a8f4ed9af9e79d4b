// "The server asks": server-everything through the bridge sends the page
// sampling/createMessage, elicitation/create (a form and a URL) and roots/list.
// Each is shown, answered and declined; a URL is never opened (no new page, no
// request to its host) before the learner's click; hostile text stays text; axe-core
// on every new state.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { expectNoSeriousA11y } from './axe.mjs';
import { baseUrl, shot, suitePage, tid, urlWith } from './support.mjs';
import { STEP4, lastResult, start, waiting, openByClick, watchOrigin } from './asks_support.mjs';

const PROVIDER = process.env.MCPG_E2E_PROVIDER_URL;
if (!PROVIDER) throw new Error('MCPG_E2E_PROVIDER_URL is not set: run with `cargo xtask e2e`');
const KEY = 'test-key-asks-0001';
const fake = async (path, method = 'GET') => (await fetch(`${PROVIDER}${path}`, { method })).json();

const XSS = '<img src=x onerror=window.__pwned=1>';

describe('the server asks (server-everything through the bridge)', () => {
  const p = suitePage(urlWith({ server: 'everything' }), 'mcp-servers/everything');

  it('roots/list right after connecting: answered with the learner\'s roots; an edit tells the server', async () => {
    const { page } = p;
    // server-everything asks for the roots 350 ms after initialize, outside any call.
    const card = page.locator(waiting('roots/list')).first();
    await card.waitFor();
    // Asked outside any call: under the steps, not in one.
    assert.equal(await page.locator(`${tid('server-asks')} ${waiting('roots/list')}`).count(), 1);
    assert.equal(await page.locator(`${STEP4} [data-testid=ask-card]`).count(), 0);
    assert.match(await page.textContent(tid('asks-reversed')), /direction has reversed/);
    await expectNoSeriousA11y(page, 'roots asked');
    await card.locator(tid('roots-edit')).fill('file:///home/learner/project Project');
    await card.locator(tid('roots-send')).click();
    await page.waitForSelector('[data-testid=ask-card][data-method="roots/list"][data-state="answered"]');
    await start(page, 'get roots list');
    assert.match(await lastResult(page), /file:\/\/\/home\/learner\/project/);
    // Saving an edit sends notifications/roots/list_changed: the server asks again.
    const answered = page.locator('[data-testid=ask-card][data-method="roots/list"][data-state="answered"]');
    await answered.locator(tid('roots-edit')).fill('file:///home/learner/other');
    await answered.locator(tid('roots-save')).click();
    await page.locator(waiting('roots/list')).first().waitFor();
    assert.deepEqual(p.errors, []);
  });

  it('sampling: the exact request, approved, the mock writes, the learner sends; hostile text stays text', async () => {
    const { page } = p;
    await start(page, `trigger sampling request "${XSS} write a haiku"`);
    const card = page.locator(waiting('sampling/createMessage'));
    await card.waitFor();
    assert.match(await card.locator(tid('sampling-system')).textContent(), /You are a helpful test server/);
    assert.equal(await card.locator(tid('sampling-max-tokens')).textContent(), '100');
    assert.ok((await card.locator(tid('sampling-message')).textContent()).includes(XSS));
    assert.equal(await page.locator('img[src="x"]').count(), 0);
    // Step 4 shows the question nested in its card, and the picture draws it server → host.
    assert.match(await page.textContent('[data-step="4"]'), /the server asks the host/);
    assert.equal(await page.locator(`${STEP4} ${waiting('sampling/createMessage')}`).count(), 1, 'the question is inside step 4');
    await page.locator('.arrow.server-request').first().waitFor();
    await expectNoSeriousA11y(page, 'sampling asked');
    await card.locator(tid('sampling-approve')).click();
    await card.locator(tid('sampling-mock')).click();
    const draft = card.locator(tid('sampling-draft'));
    assert.match(await draft.inputValue(), /mock model/);
    await draft.fill('A haiku, edited by the learner');
    await expectNoSeriousA11y(page, 'sampling reply drafted');
    await card.locator(tid('sampling-send')).click();
    assert.match(await lastResult(page), /A haiku, edited by the learner/);
    // The call has ended; the question and its answer stay in step 4's record.
    const kept = page.locator(`${STEP4} [data-testid=ask-card][data-method="sampling/createMessage"][data-state="answered"]`);
    assert.equal(await kept.count(), 1);
    assert.match(await kept.textContent(), /A haiku, edited by the learner/);
    assert.equal(await page.evaluate(() => window.__pwned ?? null), null);
    await shot(page, 'asks-sampling.png');
    assert.deepEqual(p.errors, []);
  });

  it('sampling rejected: the spec\'s error goes back and the call fails', async () => {
    const { page } = p;
    await start(page, 'trigger sampling request "say no"');
    const card = page.locator(waiting('sampling/createMessage'));
    await card.waitFor();
    await card.locator(tid('sampling-reject')).click();
    await page.waitForSelector('[data-testid=ask-card][data-state="refused"]');
    assert.match(await page.textContent('[data-testid=ask-card][data-state="refused"]'), /User rejected sampling request/);
    await page.waitForSelector(tid('answer'));
    assert.deepEqual(p.errors, []);
  });

  it('elicitation form: built from requestedSchema, accepted with the values', async () => {
    const { page } = p;
    await start(page, 'trigger elicitation request');
    const card = page.locator(waiting('elicitation/create'));
    await card.waitFor();
    await card.locator(tid('elicit-form')).waitFor();
    // The schema's default fills its field.
    assert.equal(await card.locator('#field-firstLine').inputValue(), 'It was a dark and stormy night.');
    await expectNoSeriousA11y(page, 'elicitation form');
    // Without the required name, accepting shows the problem and sends nothing.
    await card.locator(tid('elicit-accept')).click();
    assert.equal(await page.locator(waiting('elicitation/create')).count(), 1);
    await card.locator('#field-name').fill('Ada Lovelace');
    await card.locator(tid('elicit-accept')).click();
    assert.match(await lastResult(page), /Ada Lovelace/);
    assert.deepEqual(p.errors, []);
  });

  it('elicitation form declined and cancelled', async () => {
    const { page } = p;
    for (const [button, word] of [['elicit-decline', /declin/i], ['elicit-cancel', /cancel/i]]) {
      await start(page, 'trigger elicitation request');
      const card = page.locator(waiting('elicitation/create'));
      await card.waitFor();
      await card.locator(tid(button)).click();
      const sent = page.locator('[data-testid=ask-card][data-method="elicitation/create"][data-state="answered"]').last();
      await sent.waitFor();
      assert.match(await sent.textContent(), word);
      await page.waitForSelector(tid('answer'));
    }
    assert.deepEqual(p.errors, []);
  });

  it('URL elicitation: the domain apart, never opened before the click, then done', async () => {
    const { page } = p;
    const context = page.context();
    const { untouched } = await watchOrigin(context, 'https://auth.example.test', '<title>signed in</title>ok');
    await start(page, 'trigger url elicitation "https://auth.example.test/login?next=1"');
    const card = page.locator(waiting('elicitation/create'));
    await card.waitFor();
    assert.equal(await card.locator(tid('url-domain')).textContent(), 'auth.example.test');
    assert.equal(await card.locator(tid('url-full')).textContent(), 'https://auth.example.test/login?next=1');
    await expectNoSeriousA11y(page, 'url elicitation');
    assert.ok(untouched(), 'no page opened and nothing asked of the URL\'s host before the click');
    const opened = await openByClick(context, card);
    assert.equal(opened.url(), 'https://auth.example.test/login?next=1');
    assert.equal(await opened.evaluate(() => window.opener), null, 'noopener');
    await opened.close();
    await page.locator(waiting('elicitation/create')).locator(tid('url-opened')).waitFor();
    await page.locator(waiting('elicitation/create')).locator(tid('elicit-accept')).click();
    assert.match(await lastResult(page), /completed the URL elicitation/);
    assert.deepEqual(p.errors, []);
  });

  it('URL elicitation declined: nothing is opened', async () => {
    const { page } = p;
    const pagesBefore = page.context().pages().length;
    await start(page, 'trigger url elicitation "https://auth.example.test/other"');
    const card = page.locator(waiting('elicitation/create'));
    await card.waitFor();
    await card.locator(tid('elicit-decline')).click();
    await page.waitForSelector(tid('answer'));
    assert.equal(page.context().pages().length, pagesBefore);
    assert.deepEqual(p.errors, []);
  });

  it('sampling answered by a real model through the fake provider: only on the click, the request shown, the reply approved', async () => {
    const { page } = p;
    await fake('/__reset', 'POST');
    await start(page, 'trigger sampling request "write one line"');
    const card = page.locator(waiting('sampling/createMessage'));
    await card.waitFor();
    // The loop's model stays the mock; the learner now points the page at a real one.
    await page.selectOption(tid('provider-select'), 'anthropic');
    await page.selectOption(tid('model-select'), 'real');
    await page.fill(tid('model-base'), `${PROVIDER}/anthropic`);
    await page.fill(tid('model-name'), 'fake-model');
    await page.fill(tid('model-key'), KEY);
    // The learner edits the request before approving it: the model gets the edit.
    await card.locator(tid('sampling-edit')).fill('write one line, edited by the learner');
    await card.locator(tid('sampling-approve')).click();
    assert.deepEqual(await fake('/__requests'), [], 'no model is asked before the click');
    await card.locator(tid('sampling-model')).click();
    const draft = page.locator(waiting('sampling/createMessage')).locator(tid('sampling-draft'));
    await draft.waitFor();
    assert.equal(await draft.inputValue(), 'I have no tool for that.');
    const shown = await page.textContent(waiting('sampling/createMessage'));
    assert.match(shown, /the request to the real model/);
    assert.ok(!shown.includes(KEY), 'the key is not shown with the request');
    const requests = await fake('/__requests');
    assert.equal(requests.length, 1);
    assert.equal(requests[0].path, '/anthropic/v1/messages');
    const body = JSON.stringify(requests[0].body ?? '');
    assert.ok(body.includes('write one line, edited by the learner'), `the model was asked the edited request: ${body}`);
    assert.match(shown, /write one line, edited by the learner/, 'the request shown is the one sent');
    assert.ok(!JSON.stringify(requests[0].body ?? '').includes(KEY), 'the key is not in the body');
    assert.deepEqual(await fake('/__violations'), []);
    await expectNoSeriousA11y(page, 'sampling by a real model');
    await page.locator(waiting('sampling/createMessage')).locator(tid('sampling-send')).click();
    const sent = page.locator('[data-testid=ask-card][data-method="sampling/createMessage"][data-state="answered"]').last();
    await sent.waitFor();
    const answer = await sent.textContent();
    assert.match(answer, /"model": "fake-model"/);
    assert.ok(!answer.includes(KEY), 'the server never sees the key');
    await page.waitForSelector(tid('answer'));
    assert.deepEqual(p.errors, []);
  });
});

describe('the server asks (the embedded demo, both generations)', () => {
  const p = suitePage(baseUrl, 'mcpg-demo');

  it('2026-07-28: input_required through the same question, the call retried with inputResponses and requestState', async () => {
    const { page } = p;
    await start(page, 'Reserve a table for dinner');
    const card = page.locator(waiting('elicitation/create'));
    await card.waitFor();
    assert.match(await card.locator('.ask-how').textContent(), /inputRequests\["booking"\]/);
    assert.match(await card.textContent(), /requestState/);
    // The schema's defaults fill the form.
    assert.equal(await card.locator('#field-party').inputValue(), '2');
    await expectNoSeriousA11y(page, 'input_required form');
    await card.locator(tid('elicit-accept')).click();
    assert.match(await lastResult(page), /Pretend-booked a table for 2 at 19:30/);
    assert.match(await page.textContent('[data-step="4"]'), /retried with inputResponses and requestState/);
    assert.deepEqual(p.errors, []);
  });

  it('2025-11-25: a classic sampling request answered by the mock, and a booking declined', async () => {
    const { page } = p;
    await page.click(tid('tab-server'));
    await page.selectOption(tid('revision-select'), '2025-11-25');
    await page.waitForFunction(() => document.querySelector('[data-testid=server-protocol]')?.textContent === '2025-11-25');
    await start(page, 'Summarize the note about errors');
    const card = page.locator(waiting('sampling/createMessage'));
    await card.waitFor();
    assert.match(await card.locator('.ask-how').textContent(), /a JSON-RPC request from the server/);
    await card.locator(tid('sampling-approve')).click();
    await card.locator(tid('sampling-mock')).click();
    await card.locator(tid('sampling-send')).click();
    assert.match(await lastResult(page), /Summary of the .* by mcpg-mock/);
    await start(page, 'Reserve a table for dinner');
    const form = page.locator(waiting('elicitation/create'));
    await form.waitFor();
    await form.locator(tid('elicit-decline')).click();
    assert.match(await lastResult(page), /You declined/);
    assert.deepEqual(p.errors, []);
  });
});
