/**
 * The browser-safety guard: codecs and runtime layers run in the browser, so they import no `node:*` module (and
 * nothing from the Node-only folders), and, being libraries, never touch `process` or print through `console`.
 * The folders are found by listing `src/`, so a new codec or runtime folder is covered the day it appears.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = new URL('../../src/', import.meta.url).pathname;
/** Folders allowed to use Node (adapters, CLI, server); everything else under src/ is codec or runtime. */
const NODE_FOLDERS = new Set(['node', 'cli', 'server']);

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const f of readdirSync(dir)) {
    const full = join(dir, f);
    if (statSync(full).isDirectory()) out.push(...tsFiles(full));
    else if (f.endsWith('.ts')) out.push(full);
  }
  return out;
}

/** Source text without comments and string contents, so prose about `process.` is not code. */
function code(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:\\])\/\/.*$/gm, '$1')
    .replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"/g, (s) => (/^['"]node:/.test(s) || /^['"]\.\.?\//.test(s) ? s : "''"))
    .replace(/`(?:[^`\\]|\\.)*`/g, '``');
}

/** Every offence of the rule under a `src/` folder: node imports, Node-folder imports, process/console use. */
function offences(srcRoot: string): { folders: string[]; files: number; imports: string[]; globals: string[] } {
  const folders = readdirSync(srcRoot).filter((f) => statSync(join(srcRoot, f)).isDirectory() && !NODE_FOLDERS.has(f));
  const files = folders.flatMap((f) => tsFiles(join(srcRoot, f)));
  const imports: string[] = [];
  const globals: string[] = [];
  for (const file of files) {
    const text = code(readFileSync(file, 'utf8'));
    const where = relative(srcRoot, file);
    for (const m of text.matchAll(/(?:from\s+|import\s*\(\s*|require\s*\(\s*|import\s+)'([^']+)'/g)) {
      const spec = m[1]!;
      if (spec.startsWith('node:')) imports.push(`${where}: ${spec}`);
      else if (spec.startsWith('.')) {
        const target = relative(srcRoot, join(file, '..', spec)).split('/')[0]!;
        if (NODE_FOLDERS.has(target)) imports.push(`${where}: ${spec}`);
      } else if (/^(fs|path|os|child_process|worker_threads|zlib|crypto|util|url|stream)(\/|$)/.test(spec)) imports.push(`${where}: ${spec}`);
    }
    text.split('\n').forEach((line, i) => {
      if (/\b(process|console)\s*\.\s*\w/.test(line)) globals.push(`${where}:${i + 1}: ${line.trim()}`);
    });
  }
  return { folders, files: files.length, imports, globals };
}

describe('browser safety of the codec and runtime folders', () => {
  const real = offences(src);

  it('covers every folder of src/ but node, cli and server (script and engine included)', () => {
    expect(real.folders).toEqual(expect.arrayContaining(['binary', 'hash', 'formats', 'compress', 'gamedb', 'staticdb', 'resources', 'script', 'engine']));
    expect(real.files).toBeGreaterThan(100);
  });

  it('import no node:* module and nothing from src/node, src/cli or src/server', () => {
    expect(real.imports).toEqual([]);
  });

  it('never read process.* nor print through console.* (libraries return, bin/ exits)', () => {
    expect(real.globals).toEqual([]);
  });

  it('the guard catches each kind of offence in any runtime folder, new ones included', () => {
    const root = mkdtempSync(join(tmpdir(), 'scry-guard-'));
    try {
      for (const d of ['script/vm', 'engine', 'brandnew', 'cli']) mkdirSync(join(root, d), { recursive: true });
      writeFileSync(join(root, 'script/vm/a.ts'), "import { readFileSync } from 'node:fs';\nexport const x = process.env['X'];\n");
      writeFileSync(join(root, 'engine/b.ts'), "import { readBytes } from '../node/fs.ts';\n// console.log in a comment is fine\nconsole.log('hi');\n");
      writeFileSync(join(root, 'brandnew/c.ts'), "const z = await import('node:zlib');\nexport const s = 'process.exit is only text';\n");
      writeFileSync(join(root, 'cli/d.ts'), "import 'node:fs';\nconsole.log(1);\n");
      const found = offences(root);
      expect(found.imports).toEqual(['brandnew/c.ts: node:zlib', 'engine/b.ts: ../node/fs.ts', 'script/vm/a.ts: node:fs']);
      expect(found.globals.map((g) => g.split(':').slice(0, 2).join(':'))).toEqual(['engine/b.ts:3', 'script/vm/a.ts:2']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
