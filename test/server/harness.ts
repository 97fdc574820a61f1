/** Starts a workbench in-process on a free port over copies of fixtures, and speaks raw HTTP to it. */
import { request } from 'node:http';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWorkbench, type Workbench } from '../../src/server/server.ts';
import { fixturePath } from '../support/fixtures.ts';

export const TOKEN = 'test-token-0123456789';

export interface Harness {
  wb: Workbench;
  /** Folder holding the served copies (saved files land here too). */
  dir: string;
}

/** Serves a copy of the real sample (as a file given on the command line, so saves go beside it). */
export async function startHarness(): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'scry-server-'));
  const path = join(dir, 'landmine_curse.fxp');
  copyFileSync(fixturePath('gadb', 'landmine_curse.fxp'), path);
  const wb = await startWorkbench({ files: [{ path, origin: 'argument' }], port: 0, token: TOKEN, sampleOutDir: join(dir, 'samples-out') });
  return { wb, dir };
}

/**
 * A workbench over the three script samples the script views are tested on: a debug bytecode chunk, a SCRI
 * bytecode container with structures, and the head of a real SCRI source layer.
 */
export function startScriptWorkbench(): Promise<Workbench> {
  return startWorkbench({
    files: [
      { path: fixturePath('hks', 'generated', 'closures.debug.luac'), origin: 'sample' },
      { path: fixturePath('hks', 'generated', 'scri', 'structs.debug.scri'), origin: 'sample' },
      { path: fixturePath('scripts', 'island_fortassault_fagameplay.scripts.first65536.bin'), origin: 'sample' },
    ],
    port: 0,
    sampleOutDir: '/nonexistent',
  });
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json<T = unknown>(): T;
}

/** A request with full control over headers (fetch would not let us forge Host). */
export function raw(wb: Workbench, method: string, path: string, headers: Record<string, string> = {}, body?: unknown): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const h: Record<string, string> = { host: `127.0.0.1:${wb.port}`, ...headers };
    if (data) {
      h['content-type'] ??= 'application/json';
      h['content-length'] = String(data.length);
    }
    // A connection per request: a kept-alive socket can be closed by the server just as it is reused.
    const req = request({ host: '127.0.0.1', port: wb.port, method, path, headers: h, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, json: <T,>() => JSON.parse(text) as T });
      });
    });
    req.on('error', reject);
    if (data) req.write(data);
    req.end();
  });
}

/** GET an API path and parse the JSON (throws on a non-200 answer, with the server's message). */
export async function api<T>(wb: Workbench, path: string): Promise<T> {
  const r = await raw(wb, 'GET', path);
  if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.body}`);
  return r.json<T>();
}

/** A mutating call with this run's token. */
export function mutate(wb: Workbench, method: 'POST' | 'DELETE', path: string, body?: unknown): Promise<RawResponse> {
  return raw(wb, method, path, { 'x-scry-token': TOKEN }, body);
}
