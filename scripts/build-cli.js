#!/usr/bin/env node
// Builds the CLI into one ES module, dist/scry.js, so that `bin/scry.js` starts without transpiling the sources
// (tsx costs about a second at every start). Run by `npm install` / `npm ci` (`prepare`) and `npm run build`.
//
// The bundle keeps every package external (node_modules is resolved at run time as from the sources) and gives
// each module its own `import.meta.url`: the URL of its source file, so that files found relative to a module
// (the built-in names list, the web root, worker modules run through tsx) are the same as from the sources.
// dist/scry.meta.json lists every source the bundle was built from with its size and mtime: `bin/scry.js` uses the
// bundle only while all of them are unchanged, and runs the sources otherwise.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The build's manifest format (bin/scry.js refuses other versions). */
export const CLI_BUILD_VERSION = 1;

/**
 * Packages the CLI imports at the top of modules but uses in a few commands only: in the bundle, each is a stand-in
 * module whose exports load the package on their first call (through `require`), so that `scry hash` does not pay
 * for compiling esbuild's, SQLite's or YAML's JavaScript. Only exports that are functions (classes included) are
 * stood in for; importing any other export fails the build, loudly.
 */
const LAZY_PACKAGES = ['better-sqlite3', 'esbuild', 'fflate', 'yaml'];

/** The stand-in module of package `name`: one lazy binding per function export of the real package. */
async function lazyModule(name) {
  const real = createRequire(join(root, 'package.json'))(name);
  const names = Object.keys(real).filter((k) => k !== 'default' && k !== '__esModule' && /^[A-Za-z_$][\w$]*$/.test(k) && typeof real[k] === 'function');
  const lines = [
    "import { createRequire } from 'node:module';",
    `let real;`,
    `const load = () => (real ??= createRequire(import.meta.url)(${JSON.stringify(name)}));`,
    // A binding calls or constructs the package's function of the same name: `new X()` returns the real class's
    // instance (its prototype, its methods). Subclassing a stand-in is not supported.
    'function lazy(pick) { return function (...args) { const f = pick(load()); return new.target ? Reflect.construct(f, args) : f.apply(this, args); }; }',
  ];
  if (typeof real === 'function') lines.push('export default lazy((m) => m);');
  else if (typeof real.default === 'function') lines.push('export default lazy((m) => m.default);');
  for (const k of names) lines.push(`export const ${k} = lazy((m) => m.${k});`);
  return lines.join('\n') + '\n';
}

/** Every dependency of package.json: external, resolved from node_modules at run time. */
function externalPackages() {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).flatMap((n) => [n, `${n}/*`]);
}

/**
 * Builds the CLI bundle into `outdir` (default `dist/` of the repository): `scry.js`, `scry.js.map` and
 * `scry.meta.json`. Files are written beside their final names and renamed into place, the manifest last.
 */
export async function buildCli(outdir = join(root, 'dist')) {
  mkdirSync(outdir, { recursive: true });
  const outfile = join(outdir, 'scry.js');
  const lazyPackages = {
    name: 'lazy-packages',
    setup(b) {
      const filter = new RegExp(`^(${LAZY_PACKAGES.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`);
      b.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'lazy-package' }));
      b.onLoad({ filter: /.*/, namespace: 'lazy-package' }, async (args) => ({ contents: await lazyModule(args.path), loader: 'js', resolveDir: root }));
    },
  };
  const ownUrl = {
    name: 'own-import-meta-url',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return { contents: text, loader: 'ts' };
        // The module's source file, relative to the bundle (so the tree can move as a whole).
        const rel = relative(outdir, args.path).split(sep).join('/');
        const own = `new URL(${JSON.stringify(rel)}, import.meta.url).href`;
        return { contents: text.replaceAll('import.meta.url', own), loader: 'ts' };
      });
    },
  };
  const result = await build({
    absWorkingDir: root,
    stdin: {
      contents: "export { run } from './src/cli/main.ts';\nexport { nodeIo } from './src/cli/node-io.ts';\n",
      resolveDir: root,
      sourcefile: 'cli-entry.ts',
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: externalPackages(),
    minifyWhitespace: true,
    minifySyntax: true,
    outfile: `${outfile}.tmp`,
    sourcemap: 'linked',
    metafile: true,
    plugins: [lazyPackages, ownUrl],
    logLevel: 'warning',
    legalComments: 'none',
  });
  const inputs = {};
  for (const path of Object.keys(result.metafile.inputs).sort()) {
    if (path === 'cli-entry.ts' || path.startsWith('<stdin>') || path.startsWith('lazy-package:')) continue;
    const s = statSync(join(root, path));
    inputs[path] = [s.size, s.mtimeMs];
  }
  // The linked map is named after the temporary file: point the bundle at its final name.
  const code = readFileSync(`${outfile}.tmp`, 'utf8').replace(/\/\/# sourceMappingURL=scry\.js\.tmp\.map\s*$/, '//# sourceMappingURL=scry.js.map\n');
  writeFileSync(`${outfile}.tmp`, code);
  renameSync(`${outfile}.tmp.map`, `${outfile}.map`);
  renameSync(`${outfile}.tmp`, outfile);
  // Input paths are relative to the repository root.
  const meta = { version: CLI_BUILD_VERSION, inputs };
  writeFileSync(join(outdir, 'scry.meta.json.tmp'), JSON.stringify(meta, null, 1) + '\n');
  renameSync(join(outdir, 'scry.meta.json.tmp'), join(outdir, 'scry.meta.json'));
  return { outfile, inputs: Object.keys(inputs).length, bytes: code.length };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const t0 = performance.now();
  const r = await buildCli(process.argv[2]);
  process.stderr.write(`scry: built ${relative(process.cwd(), r.outfile) || r.outfile} (${r.inputs} sources, ${(r.bytes / 1e6).toFixed(1)} MB) in ${Math.round(performance.now() - t0)} ms\n`);
}
