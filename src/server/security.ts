/**
 * The workbench's request gate. The server binds 127.0.0.1 only, but a page on any web site can still make the
 * user's browser send requests to it, and a DNS-rebinding page can even make them same-origin for its own host
 * name. Three checks close that:
 *
 * 1. **Host** must name this server (`127.0.0.1:PORT` or `localhost:PORT`). A rebinding attack arrives with the
 *    attacker's host name in `Host`, so it is refused before any handler runs.
 * 2. **Origin**, when the browser sends one, must be this server's own origin; `Sec-Fetch-Site: cross-site`
 *    is refused as well. This stops cross-site reads and form posts. One exception: a **top-level navigation**
 *    (`Sec-Fetch-Mode: navigate`, `Sec-Fetch-Dest: document`, GET or HEAD) to a page path (not `/api/`, not
 *    `/assets/`), so a workbench link clicked on a forum or in a chat opens the view. The page it gets is the
 *    same page any visit gets: it only reads, framing is refused (`frame-ancestors 'none'`), and the other site
 *    cannot read it (no CORS), nor the token inside it; everything the page then asks is same-origin.
 * 3. **Token**: every mutating request (anything but GET/HEAD) carries the per-run token in `X-Scry-Token`. The
 *    token is only handed out inside the HTML page, which only this origin can read. A custom header also forces
 *    a CORS preflight, which the server never answers positively.
 *
 * Pure functions over header values, so they are tested without sockets.
 */

/** Header that carries the per-run token on mutating requests. */
export const TOKEN_HEADER = 'x-scry-token';

/** Why a request was refused, or `undefined` when it may proceed. */
export type GateRefusal = { status: 403 | 421; reason: string } | undefined;

export interface GateRequest {
  method: string;
  host: string | undefined;
  origin: string | undefined;
  secFetchSite: string | undefined;
  token: string | undefined;
  /** The URL path (for the navigation exception); `/` when absent. */
  path?: string;
  secFetchMode?: string | undefined;
  secFetchDest?: string | undefined;
}

/** Whether a request is a top-level navigation to a page of the app (see the module comment). */
export function isPageNavigation(req: GateRequest): boolean {
  const path = req.path ?? '/';
  const page = !(path === '/api' || path.startsWith('/api/') || path.startsWith('/assets/'));
  return page && (req.method === 'GET' || req.method === 'HEAD') && req.secFetchMode === 'navigate' && req.secFetchDest === 'document';
}

/** The host names the server answers to, for a bound port. */
export function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}

/** The origins the server's own pages have, for a bound port. */
export function allowedOrigins(port: number): Set<string> {
  return new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
}

/** Whether a method changes server state (and so needs the token). */
export function isMutating(method: string): boolean {
  return method !== 'GET' && method !== 'HEAD';
}

/** Compares two strings in time independent of where they first differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** Applies the three checks in order; see the module comment. */
export function checkRequest(req: GateRequest, port: number, token: string): GateRefusal {
  const host = (req.host ?? '').toLowerCase();
  if (!allowedHosts(port).has(host)) {
    return { status: 421, reason: `refused: Host ${JSON.stringify(req.host ?? '')} is not this server (open http://127.0.0.1:${port}/)` };
  }
  if (req.origin !== undefined && !allowedOrigins(port).has(req.origin.toLowerCase())) {
    return { status: 403, reason: `refused: cross-origin request from ${JSON.stringify(req.origin)}` };
  }
  if (req.secFetchSite === 'cross-site' && !isPageNavigation(req)) return { status: 403, reason: 'refused: cross-site request' };
  if (isMutating(req.method)) {
    if (req.token === undefined || !constantTimeEqual(req.token, token)) {
      return { status: 403, reason: `refused: ${req.method} needs this run's token in the ${TOKEN_HEADER} header` };
    }
  }
  return undefined;
}

/** Headers sent with every response: no framing, no sniffing, no referrer, only same-origin resources. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};
