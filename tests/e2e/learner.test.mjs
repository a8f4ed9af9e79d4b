// The learner: one page walks the whole track from the first lesson's link, as a
// learner would, by each lesson's own words. For every lesson it checks that the
// question is locked and no need is ticked before the learner acts; that each need
// ticks, in order, after the action the task names; that no choice is left picked
// when the question opens; that the right answer passes; that the set-up line names
// what the page is set to; and that every “quoted” label in the task was on the page
// while the learner did it. Then the end of the track. axe-core runs on a lesson with
// its needs and on the end.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { expectNoSeriousA11y } from './axe.mjs';
import { baseUrl, closeBrowser, connected, openPage, stepsSettled, tid } from './support.mjs';

const need = (n) => `${tid('lesson-need')}:nth-child(${n + 1})`;

/** Everything the page shows as text now, select options included. */
const pageText = (page) =>
  page.evaluate(() => [
    document.body.innerText,
    ...[...document.querySelectorAll('option')].map((o) => o.textContent),
  ].join('\n'));

/** What one lesson's walk keeps: the texts seen, to check the task's quotes. */
function walker(page) {
  const seen = [];
  const w = {
    async look() {
      seen.push(await pageText(page));
    },
    /** Clicks `sel` after looking at the page (its label counts as seen). */
    async click(sel) {
      await page.locator(sel).first().waitFor();
      await w.look();
      await page.locator(sel).first().click();
    },
    /** Waits until need `n` is ticked. */
    async tick(n) {
      await page.waitForSelector(`${need(n)}[data-seen="true"]`);
    },
    /** Runs the loop and waits until it has ended with the model's answer. */
    async run() {
      await w.click(tid('run-button'));
      await w.settled();
      await page.waitForSelector(tid('answer'));
    },
    /** Waits until run mode is over (the Pause button is disabled again). */
    async settled() {
      await page.waitForFunction(() => document.querySelector('[data-testid=pause-button]')?.disabled);
    },
    seen,
  };
  return w;
}

const card = (method, state = 'waiting') =>
  `[data-testid=ask-card][data-method="${method}"][data-state="${state}"]`;

async function openTab(w, page, tab, ready) {
  await w.click(tid(`tab-${tab}`));
  await page.waitForSelector(tid(ready));
}

/** Each lesson in track order: the right answer and what its task says to do. */
const TRACK = [
  {
    slug: 'six-steps',
    answer: '1, 4, 5',
    async act(page, w) {
      // “five presses: steps 4 and 5 arrive together”
      for (const settled of [1, 2, 3, 5, 6]) {
        await w.click(tid('step-button'));
        await stepsSettled(page, settled);
      }
      await page.waitForSelector(tid('answer'));
      await w.tick(0);
    },
  },
  {
    slug: 'play-model',
    answer: 'The host, from the call I picked',
    async act(page, w) {
      // Steps until the box shows; between presses, waits until the box shows or
      // the step button can be pressed again.
      const stepUntilMyTurn = async () => {
        for (let i = 0; i < 6; i++) {
          await page.waitForFunction(() => document.querySelector('[data-testid=play-box]')
            || !document.querySelector('[data-testid=step-button]')?.disabled);
          if (await page.isVisible(tid('play-box'))) return;
          await w.click(tid('step-button'));
        }
        await page.waitForSelector(tid('play-box'));
      };
      await stepUntilMyTurn();
      await w.click(tid('play-tool'));
      await w.click('[data-tool="get_weather"] [data-testid=tool-use]');
      await page.fill('#field-city', 'Austin');
      await w.click(tid('form-send'));
      await w.tick(0);
      // “The host runs steps 4 and 5 itself”
      await stepsSettled(page, 5);
      await page.waitForSelector(tid('play-box'));
      await page.fill(tid('play-answer'), 'It is 91F and sunny in Austin.');
      await w.click(tid('play-send'));
      await page.waitForSelector(tid('answer'));
      await w.tick(1);
    },
  },
  {
    slug: 'generations',
    answer: 'server/discover, and no initialize at all',
    async act(page, w) {
      // “the line under the server bar”
      assert.match(await page.textContent(tid('revision-line')), /2026-07-28/);
      await openTab(w, page, 'server', 'server-panel');
      await w.look();
      await page.selectOption(tid('revision-select'), '2025-11-25');
      await connected(page, 'mcpg-demo');
      await w.tick(0);
      assert.match(await page.textContent(tid('revision-line')), /2025-11-25/);
      await page.selectOption(tid('revision-select'), 'auto');
      await w.tick(1);
      await connected(page, 'mcpg-demo');
      await w.run();
      await w.tick(2);
    },
  },
  {
    slug: 'pagination',
    answer: 'Sends tools/list again with params.cursor "page-6"',
    async act(page, w) {
      // “Switch the host to naive and run the loop”
      await w.click(tid('lesson-host-naive'));
      await w.run();
      await w.tick(0);
      assert.match(await page.textContent(tid('answer')), /None of the 6 tools/);
      await w.click(tid('lesson-host-careful'));
      await w.click(tid('step-button'));
      await stepsSettled(page, 1);
      await w.tick(1);
    },
  },
  {
    slug: 'is-error',
    answer: 'The tool ran and reported a failure',
    async act(page, w) {
      await w.run();
      await w.tick(0);
      await w.click(tid('lesson-host-naive'));
      await w.run();
      await w.tick(1);
      await w.click(tid('lesson-host-careful'));
      await w.run();
      await w.tick(2);
      await w.click(tid('lesson-host-naive'));
      await w.click(tid('lesson-try'));
      assert.equal(await page.inputValue(tid('prompt')), 'call no_such_tool');
      await w.run();
      await w.tick(3);
      await w.click(tid('lesson-host-careful'));
      await w.run();
      await w.tick(4);
      assert.equal(await page.locator(`${tid('step')}[data-step="5"][data-status="skipped"]`).count(), 1, 'no tools/call');
    },
  },
  {
    slug: 'reshape',
    answer: 'math.square',
    async act(page, w) {
      await w.run();
      await w.tick(0);
      await w.click(tid('lesson-host-naive'));
      // OpenAI refuses the tool list: the loop ends at step 3, with no answer.
      await w.click(tid('run-button'));
      await w.tick(1);
      await page.waitForSelector(`${tid('step')}[data-step="3"][data-status="failed"]`);
      await w.settled();
      assert.equal(await page.locator(tid('answer')).count(), 0);
      assert.equal(await page.locator(`${need(2)}[data-seen="true"]`).count(), 0, 'OpenAI is not Gemini');
      await w.click(tid('lesson-host-careful'));
      await page.selectOption(tid('provider-select'), 'gemini');
      await w.run();
      await w.tick(2);
    },
  },
  {
    slug: 'parallel',
    answer: 'Two, one per tool',
    async act(page, w) {
      await w.run();
      await w.tick(0);
      assert.equal(await page.locator(`${tid('step')}[data-step="4"]`).count(), 2);
    },
  },
  {
    slug: 'structured',
    answer: 'So a client that does not read structuredContent',
    async act(page, w) {
      await w.run();
      await w.tick(0);
      await w.click(tid('lesson-host-naive'));
      await w.run();
      await w.tick(1);
      await w.click(tid('lesson-host-careful'));
      await w.run();
      await w.tick(2);
    },
  },
  {
    slug: 'output-schema',
    answer: 'The server\'s: a tool that declares an outputSchema',
    async act(page, w) {
      await w.run();
      await w.tick(0);
      assert.match(await page.textContent(`${tid('step')}[data-step="5"] ${tid('step-explanation')}`), /does not fit the tool's outputSchema/);
      await w.click(tid('tab-result'));
      assert.match(await page.textContent(tid('structured-check')), /does not fit the tool's outputSchema/);
    },
  },
  {
    slug: 'progress',
    answer: 'It carries the progressToken',
    async act(page, w) {
      await w.run();
      await w.tick(0);
      await w.click(tid('reset-button'));
      await w.click(tid('run-button'));
      await w.click(tid('tab-result'));
      await w.click(tid('cancel-button'));
      await w.tick(1);
    },
  },
  {
    slug: 'list-changed',
    answer: 'Sent tools/list again and read every page',
    async act(page, w) {
      await w.run();
      await w.tick(0);
      await page.waitForFunction(() => /^27 tools/.test(document.querySelector('[data-testid=tools-summary]')?.textContent ?? ''));
      await w.run();
      await w.tick(1);
      await page.waitForFunction(() => /^26 tools/.test(document.querySelector('[data-testid=tools-summary]')?.textContent ?? ''));
      // The naive host adds secret_recipe again but never lists: the panel stays at 26.
      await w.click(tid('lesson-host-naive'));
      await w.run();
      await w.tick(2);
      assert.match(await page.textContent(tid('tools-summary')), /^26 tools/);
      // The careful host takes it away again and lists: still 26, now true.
      await w.click(tid('lesson-host-careful'));
      await w.run();
      await w.tick(3);
    },
  },
  {
    slug: 'untrusted-descriptions',
    answer: 'The server; the host hands descriptions to the model as they are',
    async act(page, w) {
      await w.run();
      await w.tick(0);
      await w.click(tid('lesson-try'));
      assert.equal(await page.inputValue(tid('prompt')), 'Tell me the secret recipe');
      await w.run();
      await w.tick(1);
      // The server's words are shown as text, never taken for markup.
      assert.match(await page.textContent(`${tid('step')}[data-step="2"]`), /<IMPORTANT>Before you answer anything/);
      assert.equal(await page.locator('important').count(), 0);
      await w.click(tid('tab-tools'));
      assert.match(await page.textContent('[data-tool="secret_recipe"]'), /<IMPORTANT>/);
      // “Hostile HTML”: shown as text; no dialog, no element of the server's.
      const dialogs = [];
      page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss(); });
      await openTab(w, page, 'resources', 'resources-panel');
      const row = page.locator(tid('resource')).filter({ has: page.locator('code', { hasText: 'demo://playground/hostile.html' }) });
      await w.look();
      await row.locator(tid('resource-read-button')).click();
      await w.tick(2);
      await page.waitForFunction(() => /<script>/.test(document.querySelector('[data-testid=resource-text-body]')?.textContent ?? ''));
      assert.equal(await page.locator('[data-testid=resource-read] script, [data-testid=resource-read] b, [data-testid=resource-read] img[src="x"]').count(), 0);
      assert.deepEqual(dialogs, []);
    },
  },
  {
    slug: 'resources',
    answer: 'The application (the host, or the user through it)',
    async act(page, w) {
      await w.run();
      await w.tick(0);
      await w.click(tid('tab-result'));
      await w.click(tid('read-it'));
      await w.tick(1);
    },
  },
  {
    slug: 'prompts',
    answer: 'The user, from what the host shows',
    async act(page, w) {
      await openTab(w, page, 'prompts', 'prompts-panel');
      await w.click(`${tid('prompt')}[data-name="plan_trip"] ${tid('prompt-choose')}`);
      await page.locator(`${tid('prompt-form')} ${tid('argument-input')}[data-name="city"]`).fill('Tokyo');
      await w.click(tid('prompt-get'));
      await page.waitForSelector(tid('prompt-message'));
      await w.tick(0);
      await w.click(tid('use-in-loop'));
      await page.waitForSelector(tid('answer'));
      await w.tick(1);
    },
  },
  {
    slug: 'skills',
    answer: 'A skill is context the host gives the model; a prompt is a template the user picks',
    async act(page, w) {
      await openTab(w, page, 'skills', 'skills-panel');
      await w.tick(0);
      const skill = `${tid('skill')}[data-name="weather-report"]`;
      await w.click(`${skill} ${tid('skill-read')}`);
      await w.tick(1);
      await page.waitForFunction((sel) =>
        [...document.querySelectorAll(`${sel} [data-testid=skill-file-check]`)].every((e) => /^verified/.test(e.textContent)), skill);
      await w.look();
      await page.check(`${skill} ${tid('skill-use')}`);
      await w.run();
      await w.tick(2);
    },
  },
  {
    slug: 'completions',
    answer: 'Suggested values for one argument',
    async act(page, w) {
      await openTab(w, page, 'resources', 'resources-panel');
      const template = page.locator(tid('template')).filter({ hasText: 'weather://{city}/today' });
      await template.locator(tid('argument-input')).fill('Re');
      await w.tick(0);
      const option = template.locator(tid('completion-option'), { hasText: 'Reykjavik' });
      await option.waitFor();
      await option.click();
      await template.locator(tid('template-read')).click();
      await w.run();
      await w.tick(1);
    },
  },
  {
    slug: 'logs',
    answer: 'The user and the developer',
    async act(page, w) {
      await openTab(w, page, 'logs', 'logs-panel');
      await page.selectOption(tid('log-level'), 'debug');
      await w.run();
      await w.tick(0);
      // “Back in the Logs panel”: running the loop showed the Result panel.
      await openTab(w, page, 'logs', 'logs-panel');
      await page.selectOption(tid('log-level'), 'warning');
      await w.run();
      await w.tick(1);
    },
  },
  {
    slug: 'http-sse',
    // Another server: the demo over HTTP+SSE, played in the page.
    otherServer: true,
    answer: 'Every answer travels on a separate, long-held GET stream',
    async act(page, w) {
      await w.run();
      await w.tick(0);
      await w.tick(1);
      // “read the Transport row in the Server tab”
      await openTab(w, page, 'server', 'server-panel');
      assert.match(await page.textContent(tid('server-transport')), /fell back to HTTP\+SSE \(2024-11-05\): endpoint \/messages\/\?session_id=\w{4}…$/);
      await w.click(tid('lesson-connect-streamable'));
      await page.waitForFunction(() => document.querySelector('[data-testid=server-transport]')?.textContent === 'Streamable HTTP: a POST answered 200');
      await w.tick(2);
      await connected(page, 'mcpg-demo');
      await w.run();
      await w.tick(3);
    },
  },
  {
    slug: 'oauth',
    // The demo behind OAuth: the connection waits for the sign-in.
    signsIn: true,
    answer: 'Only to the token endpoint, with the code',
    async act(page, w) {
      await page.waitForSelector(tid('auth-needed'));
      await w.click(tid('sign-in'));
      await w.tick(0);
      await w.click(tid('demo-consent-approve'));
      await w.tick(1);
      await connected(page, 'mcpg-demo');
      await w.run();
      await w.tick(2);
    },
  },
  {
    slug: 'apps',
    answer: 'The host checked it and sent it as its own request',
    async act(page, w) {
      await w.run();
      await w.tick(0);
      // “shows under step 5”: the view, in its sandboxed frame, after the handshake.
      await page.waitForSelector('[data-testid=app-view][data-status=ready]');
      await w.tick(1);
      await w.look();
      // The view's own button (inside the frame, so not in the page's text).
      await page.frameLocator(tid('app-frame')).locator('#forecast').click();
      await w.tick(2);
      await w.tick(3);
      await w.click(tid('tab-wire'));
    },
  },
  {
    slug: 'app-only',
    answer: "The host left it out of the model's tools: its visibility is the app alone",
    async act(page, w) {
      await w.run();
      await w.tick(0);
      await page.waitForSelector('[data-testid=app-view][data-status=ready]');
      await w.look();
      // The view's Details button, inside the frame.
      await page.frameLocator(tid('app-frame')).locator('#details').click();
      await w.tick(1);
      await w.tick(2);
    },
  },
  {
    slug: 'sampling',
    answer: 'The host\'s, once a person has approved',
    async act(page, w) {
      await w.click(tid('run-button'));
      const c = card('sampling/createMessage');
      await w.click(`${c} ${tid('sampling-approve')}`);
      await w.click(`${c} ${tid('sampling-mock')}`);
      await w.click(`${c} ${tid('sampling-send')}`);
      await page.waitForSelector(tid('answer'));
      await w.tick(0);
      await w.click(tid('reset-button'));
      await w.click(tid('run-button'));
      await w.click(`${card('sampling/createMessage')} ${tid('sampling-reject')}`);
      await w.tick(1);
    },
  },
  {
    slug: 'elicitation-form',
    answer: '{"action": "decline"} and no content',
    async act(page, w) {
      for (const [n, button] of [[0, 'elicit-accept'], [1, 'elicit-decline'], [2, 'elicit-cancel']]) {
        await w.click(tid('reset-button'));
        await w.click(tid('run-button'));
        if (n === 0) {
          // “Titled choices”: the form shows each title with the value it sends.
          await page.locator(`${card('elicitation/create')} select option`).first().waitFor({ state: 'attached' });
          const options = await page.locator(`${card('elicitation/create')} select option`).allTextContents();
          assert.ok(options.includes('7:30 pm (19:30)'), options.join(' | '));
        }
        await w.click(`${card('elicitation/create')} ${tid(button)}`);
        await w.tick(n);
        await page.waitForSelector(tid('answer'));
      }
    },
  },
  {
    slug: 'elicitation-url',
    answer: 'Only when you click',
    async act(page, w) {
      const context = page.context();
      // example.com is answered here: nothing leaves the machine.
      await context.route('https://example.com/**', (r) => r.fulfill({ body: 'ok', contentType: 'text/html' }));
      await w.click(tid('run-button'));
      const c = card('elicitation/create');
      const popup = context.waitForEvent('page');
      await w.click(`${c} ${tid('url-open')}`);
      await (await popup).close();
      await w.click(`${c} ${tid('elicit-accept')}`);
      await w.tick(0);
      await page.waitForSelector(tid('answer'));
    },
  },
  {
    slug: 'roots',
    answer: 'The client (you, through the host\'s list of roots)',
    async act(page, w) {
      await w.click(tid('run-button'));
      const c = card('roots/list');
      await page.locator(`${c} ${tid('roots-edit')}`).waitFor();
      // The box shows an example of the format the task names.
      assert.equal(await page.getAttribute(`${c} ${tid('roots-edit')}`, 'placeholder'), 'file:///home/learner/project project');
      await page.fill(`${c} ${tid('roots-edit')}`, 'file:///home/learner/project project');
      await w.click(`${c} ${tid('roots-send')}`);
      await page.waitForSelector(tid('answer'));
      await w.tick(0);
      const answered = card('roots/list', 'answered');
      await page.fill(`${answered} ${tid('roots-edit')}`, 'file:///home/learner/project project\nfile:///home/learner/notes notes');
      await w.click(`${answered} ${tid('roots-save')}`);
      await w.tick(1);
    },
  },
  {
    slug: 'tasks',
    answer: "It polls tasks/get at the server's pollInterval, then asks tasks/result once the task is completed",
    async act(page, w) {
      await w.run();
      await w.tick(0);
      await w.tick(1);
      await w.tick(2);
    },
  },
  {
    slug: 'input-required',
    answer: 'The requestState the server sent',
    async act(page, w) {
      await w.click(tid('run-button'));
      await w.tick(0);
      await w.click(`${card('elicitation/create')} ${tid('elicit-accept')}`);
      await page.waitForSelector(tid('answer'));
      await w.tick(1);
    },
  },
];

/** The set-up line against the page's controls. */
async function checkSetup(page) {
  const setup = await page.textContent(tid('lesson-setup'));
  const provider = await page.$eval(tid('provider-select'), (s) => s.selectedOptions[0].textContent);
  assert.ok(setup.includes(`${provider} format`), `${setup} / ${provider}`);
  const model = await page.inputValue(tid('model-select'));
  assert.ok(setup.includes(model === 'play' ? 'you play the model' : 'the mock model'), setup);
  const message = await page.inputValue(tid('prompt'));
  assert.ok(setup.includes(`message “${message}”`), `${setup} / ${message}`);
  const line = await page.textContent(tid('revision-line'));
  const pinned = setup.match(/pinned to (\d{4}-\d\d-\d\d)/);
  assert.ok(pinned ? line.includes(pinned[1]) : /auto/.test(setup), `${setup} / ${line}`);
}

describe('the learner', () => {
  after(closeBrowser);

  it('walks every lesson by its own words: locked before, ticked after, right, and on to the end', async () => {
    const p = await openPage(`${baseUrl}#lesson=six-steps`);
    const { page } = p;
    try {
      await connected(page, 'mcpg-demo');
      // The track's list comes with the lessons chunk, which may still be on its way.
      await page.waitForSelector(tid('lesson-item'), { state: 'attached' });
      assert.equal(await page.locator(tid('lesson-item')).count(), TRACK.length, 'the walk covers the whole track');
      let previousSetup;
      for (const [i, lesson] of TRACK.entries()) {
        await page.waitForSelector(`${tid('lesson')}[data-slug="${lesson.slug}"]`);
        const where = `lesson ${i + 1} (${lesson.slug})`;
        if (!lesson.signsIn) await connected(page, 'mcpg-demo');
        // Locked: no need ticked, no question to answer.
        const needs = await page.locator(tid('lesson-need')).count();
        assert.ok(needs > 0, where);
        assert.equal(await page.locator(`${tid('lesson-need')}[data-seen="true"]`).count(), 0, where);
        assert.equal(await page.isVisible(tid('lesson-check-locked')), true, where);
        assert.equal(await page.locator(`${tid('lesson-choice')}, ${tid('lesson-answer')}`).count(), 0, where);
        await checkSetup(page);
        // A lesson that changed the revision says the wire log started again.
        const pinned = (l) => /pinned to/.test(l ?? '');
        // So does one that goes to or from another server (the demo behind OAuth,
        // the demo over HTTP+SSE).
        const elsewhere = (l) => Boolean(l.signsIn || l.otherServer);
        const reconnected = i > 0 && (pinned(previousSetup) !== pinned(await page.textContent(tid('lesson-setup')))
          || elsewhere(lesson) || elsewhere(TRACK[i - 1]));
        assert.equal(await page.isVisible(tid('lesson-reconnected')), reconnected, `${where}: the reconnection notice`);
        previousSetup = await page.textContent(tid('lesson-setup'));
        if (i === 4) await expectNoSeriousA11y(page, 'a lesson, locked');

        const w = walker(page);
        await w.look();
        await lesson.act(page, w);
        assert.equal(await page.locator(`${tid('lesson-need')}[data-seen="false"]`).count(), 0, where);

        // The task's quoted labels were on the page while the learner followed it.
        const task = await page.textContent(tid('lesson-task'));
        const everything = w.seen.join('\n');
        for (const [, quoted] of task.matchAll(/“([^“”]+)”/g)) {
          assert.ok(everything.includes(quoted), `${where}: the task quotes “${quoted}”, never on the page`);
        }

        // The question opens with nothing picked; the right answer passes.
        await page.waitForSelector(tid('lesson-check'));
        if (await page.locator(tid('lesson-answer')).count()) {
          await page.fill(tid('lesson-answer'), lesson.answer);
        } else {
          assert.equal(await page.locator(`${tid('lesson-choice')}:checked`).count(), 0, `${where}: a pick left over`);
          await page.locator('.lesson-check label.choice', { hasText: lesson.answer }).locator('input').check();
        }
        await page.click(tid('lesson-submit'));
        assert.equal(await page.getAttribute(tid('lesson-feedback'), 'data-right'), 'true', where);
        await expectNoSeriousA11y(page, `${where}, answered`);
        assert.match(await page.textContent(tid('lessons-progress')), new RegExp(`^${i + 1} of ${TRACK.length} done$`));
        await page.click(tid(i + 1 < TRACK.length ? 'lesson-next' : 'lesson-finish'));
      }
      await page.waitForSelector(tid('track-end'));
      assert.equal(await page.textContent(tid('track-end-count')), `You have done ${TRACK.length} of ${TRACK.length} lessons.`);
      assert.equal(await page.textContent(tid('track-end-left')), 'None: every lesson is done.');
      await expectNoSeriousA11y(page, 'the end of the track');
      assert.deepEqual(p.errors, []);
    } finally {
      await p.close();
    }
  });
});
