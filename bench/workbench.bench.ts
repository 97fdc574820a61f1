/**
 * The workbench at the real game's scale, end to end: the bundled game-scale sample (56.8 MB, 694,632 records,
 * made by the generator on first use), the server in-process, and Debian's headless Chromium.
 *
 * Measures time to first byte of the page and of each API view (cold open first, then warm medians), the time
 * until the largest category's table shows rows, and frame intervals while the table is scrolled: a steady fling
 * (600 px per frame) and random jumps. Floor: reading the file and summing it as u32 words.
 */
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { request } from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { measure, report, sumU32, type Measurement } from './harness.ts';
import { readBytes } from '../src/node/fs.ts';
import { startWorkbench, type Workbench } from '../src/server/server.ts';
import { defaultCacheDir } from '../src/server/samples.ts';
import { generateSampleDatabase } from '../src/server/generate.ts';
import { launchChromium } from '../test/e2e/browser.ts';

/** Time to first byte and total time of one GET, in milliseconds. */
function timedGet(wb: Workbench, path: string): Promise<{ ttfb: number; total: number; bytes: number; status: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request({ host: '127.0.0.1', port: wb.port, path, agent: false, headers: { host: `127.0.0.1:${wb.port}`, 'accept-encoding': 'gzip' } }, (res) => {
      let ttfb = -1;
      let bytes = 0;
      res.on('data', (c: Buffer) => {
        if (ttfb < 0) ttfb = performance.now() - t0;
        bytes += c.length;
      });
      res.on('end', () => resolve({ ttfb, total: performance.now() - t0, bytes, status: res.statusCode ?? 0 }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function ttfbMedian(wb: Workbench, name: string, paths: string[]): Promise<Measurement> {
  const times: number[] = [];
  for (const p of paths) {
    const r = await timedGet(wb, p);
    if (r.status !== 200) throw new Error(`${p}: ${r.status}`);
    times.push(r.ttfb);
  }
  times.sort((a, b) => a - b);
  return { name, ms: times[Math.floor(times.length / 2)]!, runs: times.length };
}

function quantiles(xs: number[]): { median: number; p95: number; max: number; over33: number } {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
  return { median: q(0.5), p95: q(0.95), max: s[s.length - 1]!, over33: s.filter((x) => x > 33.4).length };
}

/** Runs in the page: frame intervals of a steady fling (600 px per frame) and of random jumps. */
const SCROLL_SCRIPT = `(async () => {
  const el = document.querySelector('.table-host .vt');
  const frames = (n, step) => new Promise((resolve) => {
    const out = [];
    let last = performance.now();
    let i = 0;
    const tick = (t) => {
      out.push(t - last);
      last = t;
      if (++i >= n) return resolve(out.slice(1));
      step(i);
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const work = () => performance.getEntriesByName('scry:vt-render').map((e) => e.duration);
  performance.clearMeasures('scry:vt-render');
  const fling = await frames(240, () => { el.scrollTop += 600; });
  const flingWork = work();
  performance.clearMeasures('scry:vt-render');
  const jumps = await frames(120, () => { el.scrollTop = Math.random() * el.scrollHeight; });
  const jumpWork = work();
  const rows = el.querySelectorAll('.vt-row').length;
  await new Promise((r) => setTimeout(r, 1500));
  const loading = el.querySelectorAll('.vt-row.loading').length;
  return { fling, jumps, flingWork, jumpWork, rows, loading };
})()`;

export async function run(): Promise<string> {
  const path = join(defaultCacheDir(process.env), 'game-scale.gamedb');
  if (!existsSync(path)) await generateSampleDatabase(path);
  const bytes = readBytes(path);
  const floor = measure('floor: read + sum u32 of the 56.8 MB file', () => sumU32(readBytes(path)), { runs: 3, bytes: bytes.length });

  const wb = await startWorkbench({ files: [{ path, origin: 'sample' }], port: 0, sampleOutDir: join(defaultCacheDir(process.env), 'saved') });
  const id = wb.workspace.list()[0]!.id;
  const api = `/api/files/${encodeURIComponent(id)}`;
  const lines: string[] = [];
  try {
    const page = await ttfbMedian(wb, 'first byte: page (/)', ['/', '/', '/', '/', '/']);
    const cold = await timedGet(wb, api);
    const coldOpen: Measurement = { name: 'first byte: overview, cold (parse + index the file)', ms: cold.ttfb, runs: 1, bytes: bytes.length };
    const t0 = performance.now();
    const analysis = await timedGet(wb, `${api}/analysis`);
    const analysisM: Measurement = { name: 'analysis: summary + verify (worker thread)', ms: performance.now() - t0, runs: 1 };
    const cats = (await (await fetch(`${wb.url}${api.slice(1)}/categories`)).json()) as { name: string; recordCount: number; fieldCount: number }[];
    const big = cats.reduce((a, b) => (b.recordCount > a.recordCount ? b : a));
    const catPath = `${api}/categories/${encodeURIComponent(big.name)}`;
    const pageSize = Math.max(25, Math.min(100, Math.floor(3000 / Math.max(1, big.fieldCount))));
    const offsets = Array.from({ length: 9 }, (_, i) => Math.floor((i * big.recordCount) / 9));
    const categories = await ttfbMedian(wb, `first byte: category list (${cats.length.toLocaleString('en-US')})`, [`${api}/categories`, `${api}/categories`, `${api}/categories`]);
    const tablePage = await ttfbMedian(wb, `first byte: table page (${pageSize} rows × ${big.fieldCount} fields)`, offsets.map((o) => `${catPath}/records?offset=${o}&limit=${pageSize}`));
    const recordIndexes = Array.from({ length: 9 }, (_, i) => Math.floor((i * 694_000) / 9) + 17);
    const record = await ttfbMedian(wb, 'first byte: record view', recordIndexes.map((r) => `${api}/records/${r}`));
    const refs = await ttfbMedian(wb, 'first byte: referenced-by', recordIndexes.map((r) => `${api}/records/${r}/referenced-by`));
    const search = await ttfbMedian(wb, 'first byte: search (full scan)', [`${api}/search?q=Ghul`, `${api}/search?q=0x0BFCC9AB`, `${api}/search?q=textures`]);

    // The browser: time to rows, then scroll frames.
    const browser = await launchChromium({ width: 1440, height: 900 });
    let scroll = '';
    let toRows: Measurement;
    try {
      const tab = browser.context.pages()[0] ?? (await browser.context.newPage());
      const url = `${wb.url}f/${encodeURIComponent(id)}/c/${encodeURIComponent(big.name)}`;
      await tab.goto(wb.url); // warm the page's assets
      const s0 = performance.now();
      await tab.goto(url);
      await tab.locator('.table-host .vt-row:not(.loading)').first().waitFor();
      toRows = { name: `page load to first table rows (${big.name}, ${big.recordCount.toLocaleString('en-US')} records)`, ms: performance.now() - s0, runs: 1 };
      // Passed as text: tsx's transform would add helpers (`__name`) that do not exist in the page.
      const result = (await tab.evaluate(SCROLL_SCRIPT)) as { fling: number[]; jumps: number[]; flingWork: number[]; jumpWork: number[]; rows: number; loading: number };
      const f = quantiles(result.fling);
      const j = quantiles(result.jumps);
      const fw = quantiles(result.flingWork);
      const jw = quantiles(result.jumpWork);
      scroll = [
        '',
        `Scroll frames in headless Chromium (${big.name}, ${pageSize} rows per page; a frame at 60 Hz is 16.7 ms):`,
        '',
        '| scroll | frames | median ms | p95 ms | max ms | frames > 33 ms |',
        '|---|---:|---:|---:|---:|---:|',
        `| fling, 600 px per frame | ${result.fling.length} | ${f.median.toFixed(1)} | ${f.p95.toFixed(1)} | ${f.max.toFixed(1)} | ${f.over33} |`,
        `| random jumps | ${result.jumps.length} | ${j.median.toFixed(1)} | ${j.p95.toFixed(1)} | ${j.max.toFixed(1)} | ${j.over33} |`,
        '',
        'The table\'s own work per frame (building and placing rows; the `scry:vt-render` measure):',
        '',
        '| scroll | renders | median ms | p95 ms | max ms |',
        '|---|---:|---:|---:|---:|',
        `| fling | ${result.flingWork.length} | ${fw.median.toFixed(2)} | ${fw.p95.toFixed(2)} | ${fw.max.toFixed(2)} |`,
        `| random jumps | ${result.jumpWork.length} | ${jw.median.toFixed(2)} | ${jw.p95.toFixed(2)} | ${jw.max.toFixed(2)} |`,
        '',
        `Rows in the DOM after scrolling: ${result.rows} (of ${big.recordCount.toLocaleString('en-US')}); placeholder rows 1.5 s after the last jump: ${result.loading}.`,
      ].join('\n');
    } finally {
      await browser.close();
    }
    lines.push(
      report('Workbench at game scale (server in-process, Chromium headless)', [page, coldOpen, analysisM, categories, tablePage, record, refs, search, toRows], floor),
      `\nAnalysis answer: ${analysis.status}, ${analysis.bytes} bytes gzipped.`,
      scroll,
      `\nMachine load during the run: ${loadavg().map((x) => x.toFixed(1)).join(' / ')} (1/5/15-minute load average on ${cpus().length} cores).`,
    );
  } finally {
    await wb.close();
  }
  return lines.join('\n');
}
