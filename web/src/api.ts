/** The page's side of the JSON API: GET and mutating calls (the latter carry the per-run token). */
import type { ApiError } from '../../src/server/api-types.ts';

const token = document.querySelector<HTMLMetaElement>('meta[name="scry-token"]')?.content ?? '';

/** An error answer from the server, with its message. */
export class ApiFailure extends Error {
  readonly status: number;
  readonly detail: ApiError;
  constructor(status: number, detail: ApiError) {
    super(detail.message);
    this.status = status;
    this.detail = detail;
  }
}

/** Query parameters: a list repeats the parameter in order (`?src=a&src=b`). */
export type Query = Record<string, string | number | readonly string[] | undefined>;

/** Builds `/api/…` from path segments (each percent-encoded) and query parameters. */
export function apiPath(segments: (string | number)[], query: Query = {}): string {
  const path = '/api/' + segments.map((s) => encodeURIComponent(String(s))).join('/');
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (Array.isArray(v)) for (const x of v) q.append(k, x);
    else if (v !== undefined && v !== '') q.set(k, String(v));
  }
  const qs = q.toString();
  return qs ? `${path}?${qs}` : path;
}

async function answer<T>(res: Response): Promise<T> {
  const body = (await res.json()) as unknown;
  if (!res.ok) throw new ApiFailure(res.status, body as ApiError);
  return body as T;
}

export async function get<T>(segments: (string | number)[], query?: Query, signal?: AbortSignal): Promise<T> {
  const init: RequestInit = { headers: { accept: 'application/json' } };
  if (signal) init.signal = signal;
  return answer<T>(await fetch(apiPath(segments, query), init));
}

export async function send<T>(method: 'POST' | 'PUT' | 'DELETE', segments: (string | number)[], body?: unknown): Promise<T> {
  const init: RequestInit = { method, headers: { accept: 'application/json', 'x-scry-token': token } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
  }
  return answer<T>(await fetch(apiPath(segments), init));
}
