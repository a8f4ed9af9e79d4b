// What the "server asks" e2e files share: selectors for question cards and
// starting a loop that a server interrupts.
import { tid } from './support.mjs';

/** Step 4's card: questions asked during its call are nested in it. */
export const STEP4 = '[data-testid=step][data-step="4"]';

/** A question card for `method` in `state` (waiting, answered, refused, …). */
export const askCard = (method, state = 'waiting') =>
  `[data-testid=ask-card][data-method="${method}"][data-state="${state}"]`;

/** A question card for `method` still waiting for the learner. */
export const waiting = (method) => askCard(method);

/** Starts a loop with `message` in run mode (it stops at step 5 while the server asks). */
export async function start(page, message) {
  await page.click(tid('reset-button'));
  await page.fill(tid('prompt'), message);
  await page.click(tid('run-button'));
}

/** The loop's final answer, once it is shown. */
export async function lastResult(page) {
  await page.waitForSelector(tid('answer'));
  return page.textContent(tid('answer'));
}

/**
 * Watches what the page's browser context asks of `origin` before a URL is opened:
 * every request URL is recorded, and one to `origin` is answered locally with
 * `body` (nothing leaves the machine). Returns the requests seen and a check that
 * no page was opened and nothing was asked of `origin` so far.
 */
export async function watchOrigin(context, origin, body = 'ok') {
  const seen = [];
  context.on('request', (r) => seen.push(r.url()));
  await context.route(`${origin}/**`, (r) => r.fulfill({ body, contentType: 'text/html' }));
  const pagesBefore = context.pages().length;
  const untouched = () =>
    context.pages().length === pagesBefore && !seen.some((u) => u.startsWith(origin));
  return { seen, untouched };
}

/** Clicks the card's Open button and returns the tab it opened, loaded. */
export async function openByClick(context, card) {
  const popup = context.waitForEvent('page');
  await card.locator(tid('url-open')).click();
  const opened = await popup;
  await opened.waitForLoadState();
  return opened;
}
