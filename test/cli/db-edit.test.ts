import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.ts';
import { fixturePath } from '../support/fixtures.ts';
import { generatedBytes } from '../gamedb/edit/support/dbs.ts';

let dir: string;
const real = fixturePath('gadb', 'landmine_curse.fxp');
const realBytes = () => readFileSync(real);
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'scry-db-edit-'));
});
afterAll(() => {
  /* the temp folder is left for inspection on failure; the OS cleans tmp */
});
const p = (name: string) => join(dir, name);

describe('scry db set / diff', () => {
  it('writes -o OUT, never the input; diff A A exits 0 and prints nothing; diff A B lists the change and exits 1', async () => {
    const r = await runCli(['db', 'set', real, 'FxGlobalProps', 'FxGlobalProps', '0x3114F9A5', '6500', '-o', p('a.fxp')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('FxGlobalProps/FxGlobalProps.0x3114F9A5: 6000 → 6500\n');
    const same = await runCli(['db', 'diff', real, real]);
    expect([same.code, same.stdout]).toEqual([0, '']);
    const d = await runCli(['db', 'diff', real, p('a.fxp')]);
    expect([d.code, d.stdout]).toEqual([1, '~ FxGlobalProps/FxGlobalProps.0x3114F9A5: 6000 → 6500\n']);
    const j = await runCli(['db', 'diff', real, p('a.fxp'), '--json']);
    expect(JSON.parse(j.stdout).differences).toBe(1);
    const get = await runCli(['db', 'get', p('a.fxp'), 'FxGlobalProps', 'FxGlobalProps', '0x3114F9A5', '--json']);
    expect(get.stdout.trim()).toBe('6500');
  });

  it('after N edits through the CLI, diff lists exactly those N changes (named fields resolved)', async () => {
    const steps: string[][] = [
      ['ClientFX.Sound', '13', 'KeyName', 'one'],
      ['ClientFX.Sound', '13', 'StartTime', '0.5'],
      ['ClientFX.Sound', '14', 'EndTime', '3'],
    ];
    copyFileSync(real, p('n.fxp'));
    for (const s of steps) expect((await runCli(['db', 'set', p('n.fxp'), ...s, '--in-place'])).code).toBe(0);
    const d = await runCli(['db', 'diff', real, p('n.fxp')]);
    expect(d.code).toBe(1);
    expect(d.stdout.trim().split('\n').sort()).toEqual(['~ ClientFX.Sound/13.KeyName: "" → "one"', '~ ClientFX.Sound/13.StartTime: 0.024 → 0.5', '~ ClientFX.Sound/14.EndTime: 2.914 → 3']);
    expect(existsSync(p('n.fxp.bak'))).toBe(true);
  });

  it('refuses to overwrite the input without --in-place, and a value of the wrong type, leaving files untouched', async () => {
    const r = await runCli(['db', 'set', real, 'FxGlobalProps', 'FxGlobalProps', '0x3114F9A5', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/give -o OUT/);
    const same = await runCli(['db', 'set', real, 'FxGlobalProps', 'FxGlobalProps', '0x3114F9A5', '1', '-o', real]);
    expect(same.code).toBe(2);
    const bad = await runCli(['db', 'set', real, 'FxGlobalProps', 'FxGlobalProps', '0x3114F9A5', 'abc', '-o', p('bad.fxp')]);
    expect(bad.code).toBe(2);
    expect(existsSync(p('bad.fxp'))).toBe(false);
    const missing = await runCli(['db', 'set', real, 'NoSuchCategory', 'x', 'y', '1', '-o', p('bad.fxp'), '--json']);
    expect(missing.code).toBe(3);
    expect(JSON.parse(missing.stdout).code).toBe('E_NOT_FOUND');
    expect(readFileSync(real).equals(realBytes())).toBe(true);
  });

  it('sets an element with --index, a count with --count, and shows the link warning', async () => {
    const r = await runCli(['db', 'set', real, 'FxGlobalProps', 'FxGlobalProps', '0xCA5E75DD', 'FxGlobalProps/FxGlobalProps', '--index', '2', '-o', p('l.fxp')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning: .*points into ClientFX/);
    const c = await runCli(['db', 'set', p('l.fxp'), 'FxGlobalProps', 'FxGlobalProps', '0xCA5E75DD', '--count', '16', '--in-place', '--json']);
    expect(c.code).toBe(0);
    expect(JSON.parse(c.stdout).changes[0]).toMatchObject({ op: 'count', old: 15, new: 16 });
    expect((await runCli(['db', 'verify', p('l.fxp')])).code).toBe(0);
  });
});

describe('scry db add / rm / rename / add-category', () => {
  it('every structural edit writes a file that verifies', async () => {
    expect((await runCli(['db', 'add', real, 'ClientFX.Sound', '15', '-o', p('s1.fxp')])).code).toBe(0);
    const rm = await runCli(['db', 'rm', p('s1.fxp'), 'ClientFX.Sound', '14', '-o', p('s2.fxp')]);
    expect(rm.code).toBe(0);
    expect(rm.stderr).toContain('FxGlobalProps/FxGlobalProps: linked to ClientFX.Sound/14; the link is now null');
    expect((await runCli(['db', 'rename', p('s2.fxp'), 'ClientFX.Sound', '13', '77', '-o', p('s3.fxp')])).code).toBe(0);
    expect((await runCli(['db', 'add-category', p('s3.fxp'), 'ClientFX.New', '--like', 'ClientFX.Sound', '-o', p('s4.fxp')])).code).toBe(0);
    const d = await runCli(['db', 'diff', real, p('s4.fxp'), '--json']);
    const j = JSON.parse(d.stdout);
    expect(j.categoriesAdded).toEqual(['ClientFX.New']);
    expect(j.recordsAdded.sort()).toEqual(['ClientFX.Sound/15', 'ClientFX.Sound/77']);
    expect(j.recordsRemoved.sort()).toEqual(['ClientFX.Sound/13', 'ClientFX.Sound/14']);
    expect((await runCli(['db', 'verify', p('s4.fxp')])).code).toBe(0);
  });
});

describe('scry db patch / apply', () => {
  it('patch make + patch apply reproduce the edited copy; apply reports conflicts between change files', async () => {
    writeFileSync(p('c1.yaml'), '- set FxGlobalProps/FxGlobalProps.0x3114F9A5 = 100\n- add ClientFX.Sound/15\n- set ClientFX.Sound/15.KeyName = hello\n');
    writeFileSync(p('c2.json'), JSON.stringify(['set FxGlobalProps/FxGlobalProps.0x3114F9A5 = 200']));
    const a = await runCli(['db', 'apply', real, p('c1.yaml'), p('c2.json'), '-o', p('mod.fxp')]);
    expect(a.code).toBe(0);
    expect(a.stdout).toContain(`conflict: FxGlobalProps/FxGlobalProps.0x3114F9A5: ${p('c2.json')} wins (200); overridden: ${p('c1.yaml')} (100)`);
    const mk = await runCli(['db', 'patch', 'make', real, p('mod.fxp'), '-o', p('landmine_curse.fxpgamedb_patch')]);
    expect(mk.code).toBe(0);
    expect(mk.stdout).toMatch(/patch database of 2 record\(s\) \(1 added\)/);
    const ap = await runCli(['db', 'patch', 'apply', real, p('landmine_curse.fxpgamedb_patch'), '-o', p('merged.fxp')]);
    expect(ap.code).toBe(0);
    expect(readFileSync(p('merged.fxp')).equals(readFileSync(p('mod.fxp')))).toBe(true);
  });

  it('db conflicts: a change file and a patch database over the base, each source\'s value, who wins by order, exit 1, -o merged', async () => {
    // a patch setting FxGlobalProps's 0x3114F9A5 to 300, a change file setting it to 100
    expect((await runCli(['db', 'set', real, 'FxGlobalProps', 'FxGlobalProps', '0x3114F9A5', '300', '-o', p('p300.fxp')])).code).toBe(0);
    expect((await runCli(['db', 'patch', 'make', real, p('p300.fxp'), '-o', p('p300.patch')])).code).toBe(0);
    writeFileSync(p('k100.yaml'), '- set FxGlobalProps/FxGlobalProps.0x3114F9A5 = 100\n- set ClientFX.Sprite/1.0x5E0B44D0 = 9\n');
    const r = await runCli(['db', 'conflicts', real, p('k100.yaml'), p('p300.patch'), '-o', p('m.fxp')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`conflict FxGlobalProps/FxGlobalProps.0x3114F9A5: base 6000 · ${p('k100.yaml')} 100 · ${p('p300.patch')} 300 → ${p('p300.patch')} wins (300)`);
    expect(r.stdout).not.toContain('ClientFX.Sprite/1');
    const get = await runCli(['db', 'get', p('m.fxp'), 'FxGlobalProps', 'FxGlobalProps', '0x3114F9A5', '--json']);
    expect(JSON.parse(get.stdout)).toBe(300);
    const all = await runCli(['db', 'conflicts', real, p('p300.patch'), p('k100.yaml'), '--all', '--json']);
    const rows = JSON.parse(all.stdout).rows as Array<{ record: string; status: string; winner: number }>;
    expect(rows.map((x) => [x.record, x.status, x.winner])).toEqual([
      ['FxGlobalProps/FxGlobalProps', 'conflict', 1],
      ['ClientFX.Sprite/1', 'override', 1],
    ]);
    // sources that agree everywhere: exit 0
    expect((await runCli(['db', 'conflicts', real, p('k100.yaml')])).code).toBe(0);
  });
});

describe('scry db export / import / sql', () => {
  it('lossless JSON export → import is byte-identical on the real sample and a generated file', async () => {
    writeFileSync(p('gen.gamedb'), generatedBytes());
    for (const f of [real, p('gen.gamedb')]) {
      const name = f === real ? 'r' : 'g';
      expect((await runCli(['db', 'export', f, '-o', p(`${name}.json`)])).code).toBe(0);
      expect((await runCli(['db', 'import', p(`${name}.json`), '-o', p(`${name}.back`)])).code).toBe(0);
      expect(readFileSync(p(`${name}.back`)).equals(readFileSync(f))).toBe(true);
    }
    // Broken JSON: bad input (exit 3) with the line and column, and no output file.
    writeFileSync(p('broken.json'), readFileSync(p('r.json'), 'utf8').replace('"descriptors": [\n[', '"descriptors": [\n[}'));
    const bad = await runCli(['db', 'import', p('broken.json'), '-o', p('broken.back')]);
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/line 3, column 2\)/);
    expect(existsSync(p('broken.back'))).toBe(false);
  });

  it('import refuses a document whose result does not pass verify: nothing written, no temporary file left', async () => {
    expect((await runCli(['db', 'export', real, '-o', p('v.json')])).code).toBe(0);
    // The first category's sort key one off P919("FxGlobalProps") = 0x0BFCC9AB (201116075, the real file's): the
    // model is consistent, the file it makes is not.
    const text = readFileSync(p('v.json'), 'utf8');
    expect(text).toContain('"sortKey":201116075');
    writeFileSync(p('v-bad.json'), text.replace('"sortKey":201116075', '"sortKey":201116076'));
    const before = readdirSync(dir).filter((f) => f.startsWith('.scry-'));
    const bad = await runCli(['db', 'import', p('v-bad.json'), '-o', p('v-bad.fxp')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('sort key 0x0BFCC9AC is not P919("FxGlobalProps") = 0x0BFCC9AB');
    expect(bad.stderr).toContain('nothing was written');
    expect(existsSync(p('v-bad.fxp'))).toBe(false);
    expect(readdirSync(dir).filter((f) => f.startsWith('.scry-'))).toEqual(before);
    // Over an existing file with --force: the file stays as it was, and no .bak is made.
    writeFileSync(p('v-keep.fxp'), 'keep');
    expect((await runCli(['db', 'import', p('v-bad.json'), '-o', p('v-keep.fxp'), '--force'])).code).toBe(2);
    expect(readFileSync(p('v-keep.fxp'), 'utf8')).toBe('keep');
    expect(existsSync(p('v-keep.fxp.bak'))).toBe(false);
    // The document as exported imports to the original bytes, reported with their size.
    const good = await runCli(['db', 'import', p('v.json'), '-o', p('v.fxp'), '--json']);
    expect(good.code).toBe(0);
    expect(JSON.parse(good.stdout).bytes).toBe(realBytes().length);
    expect(readFileSync(p('v.fxp')).equals(realBytes())).toBe(true);
  });

  it('exports JSONL and CSV, and answers SQL from a cache in the work folder (never beside the input)', async () => {
    expect((await runCli(['db', 'export', real, '--format', 'jsonl', '-o', p('r.jsonl')])).code).toBe(0);
    expect(readFileSync(p('r.jsonl'), 'utf8').trim().split('\n')).toHaveLength(16);
    expect((await runCli(['db', 'export', real, '--format', 'csv', '-o', p('csv')])).code).toBe(0);
    expect(readdirSync(p('csv'))).toHaveLength(12);
    const cache = p('cache');
    const q = await runCli(['db', 'sql', real, 'SELECT count(*) AS n FROM records', '--json'], { env: { SCRY_CACHE: cache } });
    expect(q.code).toBe(0);
    expect(JSON.parse(q.stdout)).toEqual([{ n: 16 }]);
    expect(readdirSync(cache).filter((f) => f.endsWith('.sqlite'))).toHaveLength(1);
    const links = await runCli(['db', 'sql', real, "SELECT r.label FROM links l JOIN records r ON r.id = l.target_id JOIN records s ON s.id = l.record_id WHERE s.label = 'FxGlobalProps/FxGlobalProps' ORDER BY l.element LIMIT 2"], { env: { SCRY_CACHE: cache } });
    expect(links.stdout).toBe('label\nClientFX.CameraShake/0\nClientFX.Sprite/1\n');
    const typed = await runCli(['db', 'sql', real, 'SELECT record, StartTime FROM "ClientFX.Sound" ORDER BY record'], { env: { SCRY_CACHE: cache } });
    expect(typed.stdout.split('\n')[1]).toMatch(/^13\t0\.02400000020/);
    const write = await runCli(['db', 'sql', real, 'DELETE FROM records'], { env: { SCRY_CACHE: cache } });
    expect(write.code).toBe(2);
    expect(readdirSync(fixturePath('gadb')).filter((f) => f.endsWith('.sqlite'))).toEqual([]);
  });
});

describe('on a generated database', () => {
  it('applies a change file, exports CSV/JSONL and answers SQL', async () => {
    writeFileSync(p('gen2.gamedb'), generatedBytes());
    const ls = await runCli(['db', 'sql', p('gen2.gamedb'), "SELECT r.label AS label, c.field AS field FROM cells c JOIN records r ON r.id = c.record_id WHERE c.type = 'Int' AND r.name NOT LIKE '#%' GROUP BY c.record_id, c.field HAVING count(*) = 1 ORDER BY r.id LIMIT 1", '--json'], { env: { SCRY_CACHE: p('cache2') } });
    expect(ls.code).toBe(0);
    const { label, field } = (JSON.parse(ls.stdout) as Array<{ label: string; field: string }>)[0]!;
    writeFileSync(p('gen.yaml'), `- set ${label}.${field} = 424242\n`);
    const a = await runCli(['db', 'apply', p('gen2.gamedb'), p('gen.yaml'), '-o', p('gen2.mod')]);
    expect(a.code).toBe(0);
    const d = await runCli(['db', 'diff', p('gen2.gamedb'), p('gen2.mod'), '--json']);
    expect(JSON.parse(d.stdout).recordsChanged).toEqual([{ record: label, changes: [expect.objectContaining({ field, new: 424242 })] }]);
    expect((await runCli(['db', 'export', p('gen2.mod'), '--format', 'csv', '-o', p('gencsv')])).code).toBe(0);
    expect(readdirSync(p('gencsv')).length).toBeGreaterThan(20);
    expect((await runCli(['db', 'export', p('gen2.mod'), '--format', 'jsonl', '-o', p('gen.jsonl')])).code).toBe(0);
    expect(readFileSync(p('gen.jsonl'), 'utf8')).toContain('424242');
  });
});

describe('safety', () => {
  it('a write killed midway leaves the original file intact', async () => {
    const target = p('victim.gamedb');
    writeFileSync(target, generatedBytes());
    const before = readFileSync(target);
    const child = fileURLToPath(new URL('../gamedb/edit/support/kill-child.ts', import.meta.url));
    const proc = spawn(process.execPath, ['--import', 'tsx', child, 'db', 'import', p('g.json'), '-o', target, '--force'], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    proc.stderr.on('data', (b: Buffer) => (err += b.toString()));
    await new Promise<void>((resolve, reject) => {
      proc.stdout.on('data', (b: Buffer) => {
        if (b.toString().includes('HALF-WRITTEN')) {
          // The temporary file is half written now: kill the writer.
          const temps = readdirSync(dir).filter((f) => f.startsWith('.scry-tmp-'));
          expect(temps).toHaveLength(1);
          proc.kill('SIGKILL');
        }
      });
      proc.on('exit', (_code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`child exited without being killed: ${err}`))));
    });
    expect(readFileSync(target).equals(before)).toBe(true);
    // And the same command, not interrupted, does replace it (keeping a .bak).
    expect((await runCli(['db', 'import', p('g.json'), '-o', target, '--force'])).code).toBe(0);
    expect(readFileSync(target + '.bak').equals(before)).toBe(true);
    // and it removed the killed writer's temporary file and lock
    expect(readdirSync(dir).filter((f) => f.startsWith('.scry-'))).toEqual([]);
  }, 60_000);
});
