import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packArch06 } from '../../src/formats/arch06/pack.ts';
import { startWorkbench, type Workbench } from '../../src/server/server.ts';
import type { ArchEntryDetail, ArchOverview, ArchTreePage, ArchVerify } from '../../src/server/api-types.ts';
import { loadFixture } from '../support/fixtures.ts';
import { existsSync } from 'node:fs';
import type { ArchOpenResult, GadbOverview } from '../../src/server/api-types.ts';
import { api, mutate, raw, TOKEN } from './harness.ts';

const fxp = loadFixture('gadb', 'landmine_curse.fxp');
const luac = loadFixture('hks', 'generated', 'hello.debug.luac');
const readme = new TextEncoder().encode('scry workbench test archive\nsecond line\n');
/** One chunk of 12,000 repetitive bytes: the packer's LZB16 encoder shrinks chunks of at most 16 KiB. */
const blob = Uint8Array.from({ length: 12_000 }, (_, i) => (i * 7) & 0x3f);
/** 150,000 bytes over three 64 KiB chunks, which the packer stores as raw chunks (larger than 16 KiB). */
const big = Uint8Array.from({ length: 150_000 }, (_, i) => (i * 13) & 0xff);
const entries = [
  { path: 'gamedb/landmine_curse.fxp', data: fxp },
  { path: 'scripts/hello.luac', data: luac },
  { path: 'docs/readme.txt', data: readme },
  { path: 'data/deep/blob.bin', data: blob },
  { path: 'data/big.bin', data: big },
];

describe('workbench archive API over archives packed by the library', () => {
  let wb: Workbench;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'scry-arch-'));
    writeFileSync(join(dir, 'stored.arch06'), packArch06(entries, { storage: 'stored' }).bytes);
    writeFileSync(join(dir, 'lzb16.arch06'), packArch06(entries, { storage: 'lzb16' }).bytes);
    wb = await startWorkbench({ files: [{ path: join(dir, 'stored.arch06'), origin: 'argument' }, { path: join(dir, 'lzb16.arch06'), origin: 'argument' }], port: 0, token: TOKEN, sampleOutDir: join(dir, 'out') });
  });
  afterAll(async () => {
    await wb.close();
  });

  it('detects archives and gives header, counts and storage', async () => {
    expect(wb.workspace.list().map((f) => f.kind)).toEqual(['arch06', 'arch06']);
    const o = await api<ArchOverview>(wb, '/api/files/lzb16.arch06/arch');
    expect(o.header.find((h) => h.name === 'magic')?.value).toBe('LTAR');
    expect(o.header.find((h) => h.name === 'version')?.value).toBe('4');
    // five entries and the generated path index
    expect(o.counts.find((c) => c.label === 'entries')?.value).toBe(6);
    expect(o.storage).toEqual([expect.objectContaining({ storage: 'chunked', entries: 6 })]);
    const raw5 = entries.reduce((s, e) => s + e.data.length, 0);
    expect(o.storage[0]!.rawSize).toBeGreaterThan(raw5);
    const s = await api<ArchOverview>(wb, '/api/files/stored.arch06/arch');
    expect(s.storage).toEqual([expect.objectContaining({ storage: 'stored', entries: 6 })]);
    expect(s.storage[0]!.storedSize).toBe(s.storage[0]!.rawSize);
  });

  it('pages the folder tree: folders at their depth, each followed by its files', async () => {
    const t = await api<ArchTreePage>(wb, '/api/files/lzb16.arch06/arch/tree?limit=2000');
    expect(t.total).toBe(t.rows.length);
    const blobRow = t.rows.find((r) => r.kind === 'file' && r.name === 'blob.bin');
    expect(blobRow).toMatchObject({ path: 'data\\deep\\blob.bin', depth: 3, rawSize: 12_000, storage: 'chunked' });
    const deep = t.rows.findIndex((r) => r.kind === 'folder' && r.path === 'data\\deep');
    expect(t.rows[deep]).toMatchObject({ depth: 2, files: 1, rawSize: 12_000 });
    expect(t.rows[deep + 1]).toBe(blobRow);
    expect(t.rows[0]).toMatchObject({ kind: 'folder', path: '', depth: 0 });
    const page = await api<ArchTreePage>(wb, '/api/files/lzb16.arch06/arch/tree?offset=2&limit=2');
    expect(page.rows).toEqual(t.rows.slice(2, 4));
  });

  it('shows an LZB16 entry with its codec and a hex dump, a text entry as text, and what a GameDB entry is', async () => {
    const b = await api<ArchEntryDetail>(wb, `/api/files/lzb16.arch06/arch/entries/${encodeURIComponent('data/deep/blob.bin')}`);
    expect(b).toMatchObject({ path: 'data\\deep\\blob.bin', rawSize: 12_000, storage: 'chunked', codecs: ['LZB16'], chunks: 1, content: 'binary', previewTruncated: true });
    expect(b.storedSize).toBeLessThan(12_000);
    expect(b.preview.split('\n')[0]).toMatch(/^0{8}\s+00 07 0e 15/);
    const r = await api<ArchEntryDetail>(wb, '/api/files/lzb16.arch06/arch/entries/data%2Fbig.bin');
    expect(r).toMatchObject({ rawSize: 150_000, codecs: ['raw'], chunks: 3 });
    expect(r.storedSize).toBeGreaterThan(150_000);
    const t = await api<ArchEntryDetail>(wb, `/api/files/lzb16.arch06/arch/entries/${encodeURIComponent('DOCS\\readme.txt')}`);
    expect(t).toMatchObject({ content: 'text', preview: new TextDecoder().decode(readme), previewTruncated: false });
    const g = await api<ArchEntryDetail>(wb, `/api/files/stored.arch06/arch/entries/${encodeURIComponent('gamedb/landmine_curse.fxp')}`);
    expect(g).toMatchObject({ storage: 'stored', codecs: [], storedSize: fxp.length, rawSize: fxp.length, opensAs: 'gadb' });
    const s = await api<ArchEntryDetail>(wb, `/api/files/stored.arch06/arch/entries/${encodeURIComponent('scripts/hello.luac')}`);
    expect(s.opensAs).toBe('hks');
  });

  it('downloads the decoded bytes of one entry as an attachment, without a token', async () => {
    const r = await new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      import('node:http').then(({ request }) => {
        const req = request({ host: '127.0.0.1', port: wb.port, path: `/api/files/lzb16.arch06/arch/entries/${encodeURIComponent('data/big.bin')}/content`, headers: { host: `127.0.0.1:${wb.port}`, 'accept-encoding': 'gzip' }, agent: false }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        });
        req.on('error', reject);
        req.end();
      }, reject);
    });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/octet-stream');
    expect(r.headers['content-disposition']).toBe(`attachment; filename="big.bin"; filename*=UTF-8''big.bin`);
    expect(r.headers['content-length']).toBe('150000');
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(r.body, Buffer.from(big))).toBe(0);
    // the gate applies: a cross-site request is refused
    const cross = await raw(wb, 'GET', '/api/files/lzb16.arch06/arch/entries/%230/content', { 'sec-fetch-site': 'cross-site' });
    expect(cross.status).toBe(403);
  });

  it('answers 404 for an entry or file that is not there', async () => {
    for (const path of ['/api/files/lzb16.arch06/arch/entries/nope.txt', '/api/files/lzb16.arch06/arch/entries/nope.txt/content', '/api/files/lzb16.arch06/arch/entries/%2399', '/api/files/missing.arch06/arch']) {
      const r = await raw(wb, 'GET', path);
      expect(r.status, path).toBe(404);
      expect(r.headers['content-disposition']).toBeUndefined();
    }
    expect((await raw(wb, 'GET', '/api/files/lzb16.arch06/arch/entries/nope.txt')).json<{ message: string }>().message).toMatch(/no entry "nope.txt"/);
  });

  it('verifies every entry: decoded to its declared size, codecs counted', async () => {
    const v = await api<ArchVerify>(wb, '/api/files/lzb16.arch06/arch/verify');
    expect(v).toMatchObject({ ok: true, entries: 6 });
    expect(v.codecs.find((c) => c.codec === 'LZB16')?.entries).toBeGreaterThanOrEqual(2);
    expect(v.codecs.find((c) => c.codec === 'raw')?.entries).toBeGreaterThanOrEqual(1);
    expect(v.chunks).toBeGreaterThanOrEqual(8);
    expect(v.findings.filter((f) => f.severity === 'error')).toEqual([]);
  });

  it('opens a GameDB entry in the workbench: extracted once to the output folder, with the token only', async () => {
    const path = '/api/files/lzb16.arch06/arch/entries/gamedb%2Flandmine_curse.fxp/open';
    expect((await raw(wb, 'POST', path)).status).toBe(403);
    const first = await mutate(wb, 'POST', path);
    expect(first.status).toBe(200);
    const r = first.json<ArchOpenResult>();
    expect(r).toMatchObject({ extracted: true, opened: { id: 'landmine_curse.fxp', kind: 'gadb', origin: 'extracted', savedFrom: 'lzb16.arch06', size: fxp.length } });
    expect(existsSync(join(dir, 'out', 'landmine_curse.fxp'))).toBe(true);
    const o = await api<GadbOverview>(wb, '/api/files/landmine_curse.fxp');
    expect(o.counts.find((c) => c.label === 'categories')?.value).toBe(12);
    // again (from the other archive, same bytes): the same file, not a copy
    const again = (await mutate(wb, 'POST', path.replace('lzb16', 'stored'))).json<ArchOpenResult>();
    expect(again).toEqual({ extracted: false, opened: r.opened });
    const text = await mutate(wb, 'POST', '/api/files/lzb16.arch06/arch/entries/docs%2Freadme.txt/open');
    expect(text.status).toBe(400);
  });
});
