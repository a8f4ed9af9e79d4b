// Figures, printed and never asserted: the page's transfer size (every file of the
// built page gzipped at level 9) and the time from navigation to the first tool list
// on the embedded server, as the page itself measures it (performance.now()).
import { after, describe, it } from 'node:test';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { baseUrl, closeBrowser, distDir, openPage } from './support.mjs';

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

describe('figures', () => {
  after(closeBrowser);

  it('page transfer size (gzip -9)', () => {
    const kinds = { '.wasm': 'wasm', '.js': 'JS', '.css': 'CSS', '.html': 'HTML' };
    const sums = {};
    let raw = 0;
    let gz = 0;
    for (const f of readdirSync(distDir)) {
      const kind = kinds[extname(f)];
      if (!kind) continue;
      const bytes = readFileSync(join(distDir, f));
      const z = gzipSync(bytes, { level: 9 }).length;
      sums[kind] = (sums[kind] ?? 0) + z;
      raw += bytes.length;
      gz += z;
      console.log(`figure: ${f}: ${kb(bytes.length)} raw, ${kb(z)} gzipped`);
    }
    const parts = Object.entries(sums).map(([k, v]) => `${k} ${kb(v)}`).join(' + ');
    console.log(`figure: page transfer size: ${kb(gz)} gzipped (${parts}); ${kb(raw)} raw; budget 250 KB`);
  });

  it('time from navigation to the first tool list (embedded server)', async () => {
    const times = [];
    for (let i = 0; i < 3; i++) {
      const p = await openPage(baseUrl);
      await p.page.waitForFunction(() => document.body.dataset.firstToolListMs !== undefined);
      times.push(Number(await p.page.evaluate(() => document.body.dataset.firstToolListMs)));
      await p.close();
    }
    const sorted = [...times].sort((a, b) => a - b);
    console.log(`figure: navigation to first tool list: median ${sorted[1].toFixed(0)} ms (runs: ${times.map((t) => t.toFixed(0)).join(', ')} ms)`);
  });
});
