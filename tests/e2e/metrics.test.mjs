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
//   chunk the page fetches right after the first tool list (what a learner waits
//   for before the first Step).
import { after, describe, it } from 'node:test';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { baseUrl, closeBrowser, distDir, launch } from './support.mjs';

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

/** The slow link of the issue: 1.6 Mbps down, 150 ms round trip. */
const WORKSHOP_LINK = {
  offline: false,
  latency: 150,
  downloadThroughput: 1_600_000 / 8,
  uploadThroughput: 750_000 / 8,
};

/**
 * Opens the page in a fresh context (empty cache, service workers blocked, so
 * every visit is a first visit), optionally on `conditions`; returns the time the
 * page reports for its first tool list and the bytes received until then.
 */
async function firstVisit(conditions) {
  const browser = await launch();
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, serviceWorkers: 'block' });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (conditions) await cdp.send('Network.emulateNetworkConditions', conditions);
  const urls = new Map();
  const files = [];
  const sentAt = new Map();
  cdp.on('Network.requestWillBeSent', (e) => sentAt.set(e.requestId, e.wallTime * 1000));
  cdp.on('Network.responseReceived', (e) => {
    urls.set(e.requestId, { url: e.response.url, encoding: e.response.headers['content-encoding'] ?? e.response.headers['Content-Encoding'] ?? 'identity' });
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = urls.get(e.requestId);
    if (r) files.push({ ...r, bytes: e.encodedDataLength, sent: sentAt.get(e.requestId) ?? 0 });
  });
  await page.goto(baseUrl);
  await page.waitForFunction(() => document.body.dataset.firstToolListMs !== undefined, null, { timeout: 60_000 });
  const ms = Number(await page.evaluate(() => document.body.dataset.firstToolListMs));
  // The first tool list on the wall clock (the page's clock starts at its time origin).
  const shownAt = await page.evaluate(() => performance.timeOrigin + Number(document.body.dataset.firstToolListMs));
  await page.waitForFunction(() => document.body.dataset.loopReadyMs !== undefined, null, { timeout: 60_000 });
  const loopMs = Number(await page.evaluate(() => document.body.dataset.loopReadyMs));
  const snapshot = files.filter((f) => f.sent <= shownAt);
  const later = files.filter((f) => f.sent > shownAt);
  await context.close();
  return { ms, loopMs, files: snapshot, later, bytes: snapshot.reduce((s, f) => s + f.bytes, 0) };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

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
    for (const f of runs[0].later) {
      console.log(`figure: fetched after the first tool list: ${new URL(f.url).pathname.split('/').pop()} ${kb(f.bytes)} (${f.encoding})`);
    }
    console.log(`figure: navigation to first tool list, localhost: median ${median(runs.map((r) => r.ms)).toFixed(0)} ms (runs: ${runs.map((r) => r.ms.toFixed(0)).join(', ')} ms)`);
    console.log(`figure: navigation to the loop's controls, localhost: median ${median(runs.map((r) => r.loopMs)).toFixed(0)} ms`);
  });

  it('time to the first tool list on a 1.6 Mbps, 150 ms link', async () => {
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await firstVisit(WORKSHOP_LINK));
    console.log(`figure: navigation to first tool list at 1.6 Mbps / 150 ms RTT, cache empty: median ${median(runs.map((r) => r.ms)).toFixed(0)} ms (runs: ${runs.map((r) => r.ms.toFixed(0)).join(', ')} ms; goal 1500 ms; ${kb(runs[0].bytes)} over the wire)`);
    console.log(`figure: navigation to the loop's controls at 1.6 Mbps / 150 ms RTT: median ${median(runs.map((r) => r.loopMs)).toFixed(0)} ms (runs: ${runs.map((r) => r.loopMs.toFixed(0)).join(', ')} ms)`);
  });
});
