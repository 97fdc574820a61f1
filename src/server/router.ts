/**
 * A small method + path router for the JSON API. Routes are data (`{ method, pattern, handler }`); a pattern's
 * `:name` segments become string params (percent-decoded, so a category name may contain `/` when encoded as
 * `%2F`). Handlers map arguments to library calls and return plain data; the server serialises it.
 */
import { UsageError } from '../binary/errors.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** What a handler receives. */
export interface ApiRequest {
  params: Record<string, string>;
  query: URLSearchParams;
  /** Parsed JSON body of POST/PUT requests (`undefined` when there is none). */
  body: unknown;
}

export type Handler<C> = (req: ApiRequest, context: C) => unknown;

export interface Route<C> {
  method: Method;
  /** `/api/files/:file/records/:record`. */
  pattern: string;
  handler: Handler<C>;
  /** One line for the API listing (`GET /api`). */
  summary: string;
}

interface CompiledRoute<C> extends Route<C> {
  segments: string[];
}

export class Router<C> {
  private readonly routes: CompiledRoute<C>[] = [];

  add(route: Route<C>): this {
    this.routes.push({ ...route, segments: route.pattern.split('/').filter((s) => s.length > 0) });
    return this;
  }

  /** The routes, for the API listing. */
  list(): { method: Method; pattern: string; summary: string }[] {
    return this.routes.map(({ method, pattern, summary }) => ({ method, pattern, summary }));
  }

  /**
   * Finds the route for `method` and `pathname`. Returns `undefined` when no pattern matches, or
   * `{ allowed }` when a pattern matches with another method (for a 405 answer).
   */
  match(method: string, pathname: string): { route: Route<C>; params: Record<string, string> } | { allowed: Method[] } | undefined {
    const parts = pathname.split('/').filter((s) => s.length > 0);
    const allowed: Method[] = [];
    for (const route of this.routes) {
      const params = matchSegments(route.segments, parts);
      if (!params) continue;
      if (route.method === method) return { route, params };
      allowed.push(route.method);
    }
    return allowed.length > 0 ? { allowed } : undefined;
  }
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | undefined {
  if (pattern.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    const part = parts[i]!;
    if (p.startsWith(':')) {
      try {
        params[p.slice(1)] = decodeURIComponent(part);
      } catch {
        throw new UsageError(`bad percent-encoding in ${JSON.stringify(part)}`);
      }
    } else if (p !== part) return undefined;
  }
  return params;
}

/** Reads an integer query parameter within bounds, or the default; a malformed value is a usage error. */
export function intParam(query: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  if (!/^-?\d+$/.test(raw)) throw new UsageError(`${name} must be an integer, got ${JSON.stringify(raw)}`);
  const value = Number(raw);
  if (value < min || value > max) throw new UsageError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

/**
 * A handler's answer that is a file to download rather than JSON: the server sends `bytes` as
 * `application/octet-stream` with `Content-Disposition: attachment` naming `fileName`.
 */
export class Download {
  readonly fileName: string;
  readonly bytes: Uint8Array;
  constructor(fileName: string, bytes: Uint8Array) {
    this.fileName = fileName;
    this.bytes = bytes;
  }
}
