/**
 * The web UI's files. `web/src/main.ts` (TypeScript, may import the browser-safe library: the hash tool runs
 * P919 in the page) is bundled in memory with esbuild when the server starts, so a fresh clone needs no build
 * step. The HTML page carries the per-run token in a meta tag: only pages of this origin can read it.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { build } from 'esbuild';

/** Root of the `web/` folder. */
export const webRoot = fileURLToPath(new URL('../../web/', import.meta.url));

export interface Asset {
  body: Uint8Array;
  type: string;
  /** Strong ETag (content hash). */
  etag: string;
  /** The body gzipped, made on first request (assets never change during a run). */
  gzipped?: Uint8Array;
}

export interface WebAssets {
  /** `/assets/<name>` → asset. */
  files: Map<string, Asset>;
  /** The page, with the token placed. */
  page: Asset;
}

function asset(body: Uint8Array | string, type: string): Asset {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  return { body: bytes, type, etag: '"' + createHash('sha1').update(bytes).digest('base64url').slice(0, 20) + '"' };
}

/** Bundles the UI and prepares the page for one run. */
export async function buildWebAssets(token: string): Promise<WebAssets> {
  const result = await build({
    entryPoints: [webRoot + 'src/main.ts'],
    bundle: true,
    write: false,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    minify: true,
    sourcemap: 'linked',
    outdir: '/assets',
    logLevel: 'silent',
    legalComments: 'none',
  });
  const files = new Map<string, Asset>();
  for (const out of result.outputFiles) {
    const name = out.path.slice(out.path.lastIndexOf('/') + 1);
    files.set(name, asset(out.contents, name.endsWith('.map') ? 'application/json' : 'text/javascript; charset=utf-8'));
  }
  files.set('app.css', asset(readFileSync(webRoot + 'app.css'), 'text/css; charset=utf-8'));
  files.set('icon.svg', asset(readFileSync(webRoot + 'icon.svg'), 'image/svg+xml'));
  const html = readFileSync(webRoot + 'index.html', 'utf8').replace('%TOKEN%', token);
  return { files, page: asset(html, 'text/html; charset=utf-8') };
}
