// "The server asks", against more peers through the bridge: the Python SDK's
// `book` tool elicits a booking form (a classic elicitation/create, or an
// input_required round under 2026-07-28), accepted and declined from the page;
// and server-everything's -32042 "URL elicitation required" error, whose URL is
// offered with its domain and never opened before a click, the call's error shown.
// Each question is nested in the card of the step 4 whose call it interrupted.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { expectNoSeriousA11y } from './axe.mjs';
import { suitePage, tid, urlWith } from './support.mjs';
import { STEP4, askCard, lastResult, start, waiting, openByClick, watchOrigin } from './asks_support.mjs';

describe('the server asks (the Python SDK peer through the bridge)', () => {
  const p = suitePage(urlWith({ server: 'python' }), 'python-peer');

  it('book: the booking form, nested in step 4, accepted with the values', async () => {
    const { page } = p;
    await start(page, 'book a table at "Chez Ada"');
    const card = page.locator(`${STEP4} ${waiting('elicitation/create')}`);
    await card.waitFor();
    assert.match(await card.textContent(), /Book a table at Chez Ada/);
    await card.locator(tid('elicit-form')).waitFor();
    // The schema's default fills its field.
    assert.equal(await card.locator('#field-party_size').inputValue(), '2');
    await expectNoSeriousA11y(page, 'python booking form');
    await card.locator('#field-party_size').fill('4');
    await card.locator('#field-time').fill('19:30');
    await card.locator(tid('elicit-accept')).click();
    assert.match(await lastResult(page), /Booked Chez Ada for 4 at 19:30/);
    // The question and the answer sent stay in step 4's record.
    const kept = page.locator(`${STEP4} ${askCard('elicitation/create', 'answered')}`);
    assert.equal(await kept.count(), 1);
    assert.match(await kept.textContent(), /"action": "accept"/);
    assert.deepEqual(p.errors, []);
  });

  it('book: the booking form declined', async () => {
    const { page } = p;
    await start(page, 'book a table at "Chez Grace"');
    const card = page.locator(`${STEP4} ${waiting('elicitation/create')}`);
    await card.waitFor();
    await card.locator(tid('elicit-decline')).click();
    assert.match(await lastResult(page), /No booking: the user chose decline/);
    assert.deepEqual(p.errors, []);
  });
});

describe('the server asks (a -32042 error from server-everything through the bridge)', () => {
  const p = suitePage(urlWith({ server: 'everything' }), 'mcp-servers/everything');

  it('URL elicitation required: the URL with its domain, nothing opened before a click, the call\'s error shown', async () => {
    const { page } = p;
    const context = page.context();
    // Should anything open it anyway, it must not leave the machine.
    const { untouched } = await watchOrigin(context, 'https://modelcontextprotocol.io');
    await start(page, 'trigger url elicitation "https://auth.example.test/needed" through the error path');
    const card = page.locator(`${STEP4} ${waiting('elicitation/create')}`);
    await card.waitFor();
    assert.match(await card.locator('.ask-how').textContent(), /-32042/);
    assert.equal(await card.locator(tid('url-domain')).textContent(), 'modelcontextprotocol.io');
    assert.equal(await card.locator(tid('url-full')).textContent(), 'https://modelcontextprotocol.io');
    // The call failed with the error, shown in step 5.
    await page.waitForFunction(() => /-32042/.test(document.querySelector('[data-testid=step][data-step="5"]')?.textContent ?? ''));
    assert.match(await page.textContent('[data-testid=step][data-step="5"]'), /requires browser-based authorization/);
    await expectNoSeriousA11y(page, 'url elicitation required');
    assert.ok(untouched(), 'no page opened and nothing asked of the URL\'s host before the click');
    // The click opens it, in a new tab.
    const opened = await openByClick(context, card);
    assert.match(opened.url(), /^https:\/\/modelcontextprotocol\.io\/?$/);
    await opened.close();
    assert.deepEqual(p.errors, []);
  });
});
