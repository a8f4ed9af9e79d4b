// Figures, printed and never asserted (a timing assertion would fail on a busy
// machine and prove nothing): what a learner waits for on a workshop link.
// - The built page's files, raw, gzip -9 and brotli (what a host could send).
// - Bytes that crossed the wire before the first tool list showed, as Chromium
//   counted them (Network.loadingFinished encodedDataLength: headers + the body
//   as sent, so compressed when the server compresses), cache empty. Only requests
//   sent before the page reported its first tool list count: the page fetches the
//   tool loop's code right after it (printed apart).
// - The time from navigation to the first tool list on the embedded server, as the
//   page itself measures it (performance.now()), on localhost and on a link
//   throttled to 1.6 Mbps down, 150 ms round trip (Chrome DevTools Protocol network
//   emulation), cache empty and no service worker.
// - The time until the loop's controls show: they come with the loop's code in the
//   first pack the page fetches right after the first tool list (what a learner
//   waits for before the first Step); the lessons, the picture and the share bar
//   come in a second pack after it. Each file fetched after the first tool list is
//   printed with when it was asked for and when it was in.
// - The same two times and bytes for a static host that sends gzip only, never
//   brotli (GitHub Pages): `startGzipHost`, serving the `.gz` files of the build.
// - Which files a first Step, and then the whole loop, fetch once the loop's
//   controls are shown (what is not in the first pack).
import { after, before, describe, it } from 'node:test';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { startGzipHost } from './static_host.mjs';
import {
  WORKSHOP_LINK, baseUrl, closeBrowser, coldPage, distDir, launch, stepsSettled, tid,
} from './support.mjs';

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

/** How many loads the throttled figures take the median of. */
const SLOW_RUNS = 5;

/** A file's name from its URL. */
const fileName = (url) => new URL(url).pathname.split('/').pop() || '/';

/**
 * Opens the page at `url` in a fresh context (empty cache, service workers
 * blocked, so every visit is a first visit), optionally on `conditions`; returns
 * the time the page reports for its first tool list and the bytes received until
 * then, and the files fetched after it with when each was asked for and was in
 * (ms since navigation).
 */
async function firstVisit(conditions, url = baseUrl) {
  const { context, page, cdp } = await coldPage(conditions);
  const urls = new Map();
  const files = [];
  const sentAt = new Map();
  // CDP's monotonic clock (seconds), for the later files' times.
  const sentTick = new Map();
  let firstTick;
  cdp.on('Network.requestWillBeSent', (e) => {
    sentAt.set(e.requestId, e.wallTime * 1000);
    sentTick.set(e.requestId, e.timestamp);
    firstTick ??= e.timestamp;
  });
  cdp.on('Network.responseReceived', (e) => {
    urls.set(e.requestId, { url: e.response.url, encoding: e.response.headers['content-encoding'] ?? e.response.headers['Content-Encoding'] ?? 'identity' });
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = urls.get(e.requestId);
    if (!r) return;
    const since = (tick) => (tick - firstTick) * 1000;
    files.push({
      ...r,
      bytes: e.encodedDataLength,
      sent: sentAt.get(e.requestId) ?? 0,
      askedMs: since(sentTick.get(e.requestId) ?? firstTick),
      inMs: since(e.timestamp),
    });
  });
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.firstToolListMs !== undefined, null, { timeout: 60_000 });
  const ms = Number(await page.evaluate(() => document.body.dataset.firstToolListMs));
  // The first tool list on the wall clock (the page's clock starts at its time origin).
  const shownAt = await page.evaluate(() => performance.timeOrigin + Number(document.body.dataset.firstToolListMs));
  await page.waitForFunction(() => document.body.dataset.loopReadyMs !== undefined, null, { timeout: 60_000 });
  const loopMs = Number(await page.evaluate(() => document.body.dataset.loopReadyMs));
  // The second pack (lessons, picture, share bar) comes after the loop's controls.
  await page.waitForSelector(tid('lessons'), { timeout: 60_000 });
  const snapshot = files.filter((f) => f.sent <= shownAt);
  const later = files.filter((f) => f.sent > shownAt);
  await context.close();
  return { ms, loopMs, files: snapshot, later, bytes: snapshot.reduce((s, f) => s + f.bytes, 0) };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Prints the files one visit fetched after its first tool list, in order. */
function printLater(run, where) {
  for (const f of [...run.later].sort((a, b) => a.askedMs - b.askedMs)) {
    console.log(`figure: ${where}: fetched after the first tool list: ${fileName(f.url)} ${kb(f.bytes)} (${f.encoding}), asked at ${f.askedMs.toFixed(0)} ms, in at ${f.inMs.toFixed(0)} ms`);
  }
}

/** The throttled figures of `runs` (visits on the workshop link), for `where`. */
function printSlow(runs, where) {
  const ms = runs.map((r) => r.ms);
  const loop = runs.map((r) => r.loopMs);
  console.log(`figure: ${where}: navigation to first tool list at 1.6 Mbps / 150 ms RTT, cache empty: median ${median(ms).toFixed(0)} ms (runs: ${ms.map((x) => x.toFixed(0)).join(', ')} ms; goal 1200 ms (issue #33); ${kb(runs[0].bytes)} over the wire)`);
  console.log(`figure: ${where}: navigation to the loop's controls at 1.6 Mbps / 150 ms RTT: median ${median(loop).toFixed(0)} ms (runs: ${loop.map((x) => x.toFixed(0)).join(', ')} ms)`);
  printLater(runs[0], `${where} at 1.6 Mbps`);
}

describe('figures', () => {
  after(closeBrowser);

  it('the built page: raw, gzip -9 and brotli per file', () => {
    const kinds = new Set(['.wasm', '.js', '.css', '.html']);
    let raw = 0;
    let gz = 0;
    let br = 0;
    for (const f of readdirSync(distDir)) {
      if (!kinds.has(extname(f))) continue;
      const bytes = readFileSync(join(distDir, f));
      const z = gzipSync(bytes, { level: 9 }).length;
      const b = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
      raw += bytes.length;
      gz += z;
      br += b;
      console.log(`figure: ${f}: ${kb(bytes.length)} raw, ${kb(z)} gzip, ${kb(b)} brotli`);
    }
    console.log(`figure: the built page: ${kb(raw)} raw, ${kb(gz)} gzip -9, ${kb(br)} brotli`);
    // What `cargo xtask dist` measured and checked against web/first-load-ceiling.txt.
    const info = JSON.parse(readFileSync(join(distDir, 'build-info.json'), 'utf8')).firstLoad;
    console.log(`figure: first load as built (index.html + what it loads): ${kb(info.brotli)} brotli, ${kb(info.gzip)} gzip -9, ${kb(info.raw)} raw; ceiling ${kb(info.ceiling)}`);
  });

  it('bytes over the wire and time to the first tool list, localhost', async () => {
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await firstVisit(null));
    for (const f of runs[0].files) {
      console.log(`figure: first load: ${new URL(f.url).pathname.split('/').pop() || '/'} ${kb(f.bytes)} (${f.encoding})`);
    }
    console.log(`figure: bytes over the wire before the first tool list: ${kb(runs[0].bytes)} (goal 300 KB)`);
    printLater(runs[0], 'localhost');
    console.log(`figure: navigation to first tool list, localhost: median ${median(runs.map((r) => r.ms)).toFixed(0)} ms (runs: ${runs.map((r) => r.ms.toFixed(0)).join(', ')} ms)`);
    console.log(`figure: navigation to the loop's controls, localhost: median ${median(runs.map((r) => r.loopMs)).toFixed(0)} ms`);
  });

  it('time to the first tool list on a 1.6 Mbps, 150 ms link', async () => {
    const runs = [];
    for (let i = 0; i < SLOW_RUNS; i++) runs.push(await firstVisit(WORKSHOP_LINK));
    printSlow(runs, 'mcpg serve (brotli)');
  });
});

describe('figures for a static host that sends gzip only (GitHub Pages)', () => {
  let host;
  before(async () => {
    host = await startGzipHost(distDir);
  });
  after(async () => {
    await closeBrowser();
    await host?.stop();
  });

  it('bytes over the wire and times on a 1.6 Mbps, 150 ms link', async () => {
    const runs = [];
    for (let i = 0; i < SLOW_RUNS; i++) runs.push(await firstVisit(WORKSHOP_LINK, host.url));
    for (const f of runs[0].files) {
      console.log(`figure: gzip host: first load: ${fileName(f.url)} ${kb(f.bytes)} (${f.encoding})`);
    }
    console.log(`figure: gzip host: bytes over the wire before the first tool list: ${kb(runs[0].bytes)}`);
    printSlow(runs, 'gzip host');
  });
});

describe('what a first Step fetches once the loop\'s controls are shown', () => {
  after(closeBrowser);

  it('the files fetched by the first Step, then by the rest of the loop (localhost)', async () => {
    const browser = await launch();
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, serviceWorkers: 'block' });
    const page = await context.newPage();
    try {
      const fetched = [];
      page.on('request', (r) => {
        if (!r.url().startsWith('data:')) fetched.push(fileName(r.url()));
      });
      await page.goto(baseUrl);
      await page.waitForSelector(tid('step-button'));
      // Both packs in: what follows is what they did not bring.
      await page.waitForSelector(tid('lessons'));
      await page.waitForSelector(tid('diagram'));
      const before = fetched.length;
      console.log(`figure: fetched before the loop's controls and the lessons: ${fetched.join(', ')}`);
      await page.fill(tid('prompt'), "What's the weather in Austin?");
      await page.click(tid('step-button'));
      await stepsSettled(page, 1);
      const first = fetched.length;
      console.log(`figure: fetched by the first Step: ${fetched.slice(before).join(', ') || 'nothing'}`);
      for (const count of [2, 3, 5, 6]) {
        await page.click(tid('step-button'));
        await stepsSettled(page, count);
      }
      console.log(`figure: fetched by Steps 2 to 6: ${fetched.slice(first).join(', ') || 'nothing'}`);
    } finally {
      await context.close();
    }
  });
});
