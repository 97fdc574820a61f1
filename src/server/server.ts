/**
 * The workbench HTTP server: `node:http` on 127.0.0.1 only, the request gate of `security.ts`, the JSON API of
 * `api.ts` and the bundled UI. Every non-API GET path answers the page, so every view's URL can be shared and
 * reloaded.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { ToolkitError, NotFoundError, UsageError, FormatError, ConsistencyError, VfsError } from '../binary/errors.ts';
import { jsonReplacer } from '../binary/text.ts';
import { buildWebAssets, type Asset, type WebAssets } from './assets.ts';
import { checkRequest, SECURITY_HEADERS, TOKEN_HEADER } from './security.ts';
import { Download, Router } from './router.ts';
import { Workspace } from './workspace.ts';
import { registerApi, type ApiContext } from './api.ts';
import { WorkbenchNames } from './names.ts';
import { WorkbenchState } from './state.ts';
import { WORKER_THRESHOLD } from './analysis.ts';

/** Host the server binds; never anything else. */
export const BIND_HOST = '127.0.0.1';

/** Largest request body accepted (edits are small JSON documents). */
const MAX_BODY = 1 << 20;

export interface WorkbenchOptions {
  /** Files to serve, as disk paths (already resolved). */
  files: { path: string; origin: 'argument' | 'sample' }[];
  /** Port to try first (0: any free port). Taken ports are skipped up to 20 times. */
  port?: number;
  /** Folder for every saved file; when undefined, files are saved beside their source. */
  outDir?: string;
  /** Folder for files saved from the bundled samples. */
  sampleOutDir: string;
  /** Name lists (`--names FILE`): plain text for GameDB fields and sd2 ids, JSON lists for sd2. */
  nameFiles?: string[];
  /** Name lists for `.sd2` files only. */
  sd2NameFiles?: string[];
  /** The user config folder (name lists read; names added in the page written to `names/workbench.txt`). */
  configDir?: string;
  /**
   * The work folder: saved files and staged edits are kept there (`workbench-state.json`) and come back on the
   * next run; undefined keeps nothing.
   */
  workDir?: string;
  /** Files at least this large get worker threads for slow work (default `WORKER_THRESHOLD`, 4 MiB). */
  workerThreshold?: number;
  /** Per-run token; random when not given (tests pass one). */
  token?: string;
}

export interface Workbench {
  url: string;
  port: number;
  token: string;
  workspace: Workspace;
  server: Server;
  close(): Promise<void>;
}

/** Starts a workbench; resolves once it listens. */
export async function startWorkbench(options: WorkbenchOptions): Promise<Workbench> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const workspace = new Workspace();
  for (const f of options.files) workspace.add(f.path, f.origin);
  const state = new WorkbenchState(options.workDir);
  // Files earlier runs wrote from the files served now come back (with what they were saved from).
  for (const f of state.files()) {
    if (workspace.findByPath(f.path)) continue;
    const from = f.from !== undefined ? workspace.findByPath(f.from) : undefined;
    if (!from) continue;
    workspace.add(f.path, f.origin, from.id, f.patchOf !== undefined ? workspace.findByPath(f.patchOf)?.id : undefined);
  }
  workspace.linkPatches();
  const names = new WorkbenchNames({ files: options.nameFiles ?? [], sd2Files: options.sd2NameFiles ?? [], configDir: options.configDir });
  const context: ApiContext = { workspace, outDir: options.outDir, sampleOutDir: options.sampleOutDir, names, workerThreshold: options.workerThreshold ?? WORKER_THRESHOLD, state };
  const router = registerApi(new Router<ApiContext>(), context);
  const assets = await buildWebAssets(token);

  let port = 0;
  const server = createServer((req, res) => {
    handle(req, res, { port, token, router, context, assets }).catch((e: unknown) => {
      // Unreachable in normal operation: handle() answers every error itself.
      if (!res.headersSent) sendJson(req, res, 500, { error: 'InternalError', message: String(e) });
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5000;
  port = await listen(server, options.port ?? 0);
  const url = `http://${BIND_HOST}:${port}/`;
  return {
    url,
    port,
    token,
    workspace,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }).then(() => workspace.close()),
  };
}

async function listen(server: Server, first: number): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const port = first === 0 ? 0 : first + attempt;
    try {
      await new Promise<void>((resolve, reject) => {
        const onError = (e: Error) => reject(e);
        server.once('error', onError);
        server.listen(port, BIND_HOST, () => {
          server.off('error', onError);
          resolve();
        });
      });
      return (server.address() as AddressInfo).port;
    } catch (e) {
      if ((e as { code?: string }).code !== 'EADDRINUSE' || first === 0 || attempt >= 20) throw e;
    }
  }
}

interface HandleState {
  port: number;
  token: string;
  router: Router<ApiContext>;
  context: ApiContext;
  assets: WebAssets;
}

async function handle(req: IncomingMessage, res: ServerResponse, s: HandleState): Promise<void> {
  for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v);
  const method = req.method ?? 'GET';
  const refusal = checkRequest(
    {
      method,
      host: req.headers.host,
      origin: req.headers.origin,
      secFetchSite: header(req, 'sec-fetch-site'),
      secFetchMode: header(req, 'sec-fetch-mode'),
      secFetchDest: header(req, 'sec-fetch-dest'),
      token: header(req, TOKEN_HEADER),
      path: (req.url ?? '/').split('?')[0]!,
    },
    s.port,
    s.token,
  );
  if (refusal) {
    req.resume();
    return sendJson(req, res, refusal.status, { error: 'Forbidden', message: refusal.reason });
  }
  // The request target is a path: joined to the origin as text, so `//` or `//host/x` stays a path (as a relative
  // URL it would name another host, or none).
  const target = req.url !== undefined && req.url.startsWith('/') ? req.url : '/';
  const url = new URL(`http://${BIND_HOST}:${s.port}${target}`);
  const path = url.pathname;

  if (path === '/api' || path.startsWith('/api/')) {
    try {
      // HEAD is GET without the body (send() leaves it out), as HTTP defines it.
      const match = s.router.match(method === 'HEAD' ? 'GET' : method, path);
      if (!match) throw new NotFoundError(`no API route ${method} ${path}`);
      if ('allowed' in match) {
        res.setHeader('allow', [...match.allowed, ...(match.allowed.includes('GET') ? ['HEAD'] : [])].join(', '));
        req.resume();
        return sendJson(req, res, 405, { error: 'MethodNotAllowed', message: `${method} not allowed on ${path}` });
      }
      const body = method === 'POST' || method === 'PUT' ? await readJsonBody(req) : (req.resume(), undefined);
      const value = await match.route.handler({ params: match.params, query: url.searchParams, body }, s.context);
      if (value instanceof Download) return sendDownload(req, res, value);
      return sendJson(req, res, 200, value);
    } catch (e) {
      return sendError(req, res, e);
    }
  }

  req.resume();
  if (method !== 'GET' && method !== 'HEAD') return sendJson(req, res, 405, { error: 'MethodNotAllowed', message: `${method} not allowed on ${path}` });
  if (path.startsWith('/assets/')) {
    const asset = s.assets.files.get(path.slice('/assets/'.length));
    if (!asset) return sendJson(req, res, 404, { error: 'NotFound', message: `no asset ${path}` });
    return sendAsset(req, res, asset, 'no-cache');
  }
  // Every other path is a view of the app: the page routes it.
  return sendAsset(req, res, s.assets.page, 'no-store');
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new UsageError(`request body larger than ${MAX_BODY} bytes`);
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return undefined;
  const type = header(req, 'content-type') ?? '';
  if (!type.startsWith('application/json')) throw new UsageError('request body must be application/json');
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new UsageError('request body is not valid JSON');
  }
}

function sendError(req: IncomingMessage, res: ServerResponse, e: unknown): void {
  if (e instanceof ToolkitError) {
    const status = e instanceof NotFoundError ? 404 : e instanceof VfsError && e.code === 'EEXIST' ? 409 : 400;
    const detail: Record<string, unknown> = { error: e.name, code: e.code, message: e.message };
    if (e instanceof FormatError) Object.assign(detail, { format: e.format, offset: e.offset, path: e.path });
    if (e instanceof ConsistencyError) detail['issues'] = e.issues;
    return sendJson(req, res, status, detail);
  }
  const err = e as Error;
  sendJson(req, res, 500, { error: err.name ?? 'Error', message: err.message ?? String(e) });
}

function sendJson(req: IncomingMessage, res: ServerResponse, status: number, value: unknown): void {
  const text = JSON.stringify(value ?? null, jsonReplacer);
  res.setHeader('cache-control', 'no-store');
  send(req, res, status, Buffer.from(text, 'utf8'), 'application/json; charset=utf-8');
}

/**
 * Sends a download in 64 KiB writes (an entry of hundreds of MB is not copied again for the socket), never
 * compressed (the browser saves exactly these bytes). The file name is reduced to safe characters, with the full
 * name in RFC 5987 form beside it.
 */
function sendDownload(req: IncomingMessage, res: ServerResponse, d: Download): void {
  const ascii = d.fileName.replace(/[^A-Za-z0-9._-]+/g, '_') || 'entry.bin';
  res.statusCode = 200;
  res.setHeader('cache-control', 'no-store');
  res.setHeader('content-type', 'application/octet-stream');
  res.setHeader('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(d.fileName)}`);
  res.setHeader('content-length', d.bytes.byteLength);
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  const STEP = 1 << 16;
  let at = 0;
  const pump = (): void => {
    while (at < d.bytes.byteLength) {
      const piece = d.bytes.subarray(at, Math.min(d.bytes.byteLength, at + STEP));
      at += piece.byteLength;
      if (!res.write(piece)) {
        res.once('drain', pump);
        return;
      }
    }
    res.end();
  };
  pump();
}

function sendAsset(req: IncomingMessage, res: ServerResponse, asset: Asset, cache: string): void {
  res.setHeader('cache-control', cache);
  res.setHeader('etag', asset.etag);
  if (req.headers['if-none-match'] === asset.etag) {
    res.statusCode = 304;
    res.end();
    return;
  }
  send(req, res, 200, asset.body, asset.type, asset);
}

/** Writes a body, gzipped when the client accepts it and it is worth it (an asset keeps its gzipped form). */
function send(req: IncomingMessage, res: ServerResponse, status: number, body: Uint8Array, type: string, asset?: Asset): void {
  res.statusCode = status;
  res.setHeader('content-type', type);
  res.setHeader('vary', 'accept-encoding');
  let out = body;
  if (body.byteLength > 1400 && /\bgzip\b/.test(header(req, 'accept-encoding') ?? '')) {
    if (asset) out = asset.gzipped ??= gzipSync(body, { level: 9 });
    else out = gzipSync(body, { level: 4 });
    res.setHeader('content-encoding', 'gzip');
  }
  res.setHeader('content-length', out.byteLength);
  if (req.method === 'HEAD') res.end();
  else res.end(out);
}
