import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRequest, constantTimeEqual } from '../../src/server/security.ts';
import { raw, startHarness, TOKEN, type Harness } from './harness.ts';

const PORT = 7919;
const ok = { method: 'GET', host: `127.0.0.1:${PORT}`, origin: undefined, secFetchSite: undefined, token: undefined };

describe('checkRequest', () => {
  it('accepts same-host GETs with or without an Origin of its own', () => {
    expect(checkRequest(ok, PORT, 't')).toBeUndefined();
    expect(checkRequest({ ...ok, host: `localhost:${PORT}`, origin: `http://localhost:${PORT}` }, PORT, 't')).toBeUndefined();
    expect(checkRequest({ ...ok, secFetchSite: 'same-origin' }, PORT, 't')).toBeUndefined();
  });

  it('refuses a foreign Host (DNS rebinding), another port, and a missing Host', () => {
    expect(checkRequest({ ...ok, host: `attacker.example:${PORT}` }, PORT, 't')?.status).toBe(421);
    expect(checkRequest({ ...ok, host: '127.0.0.1:80' }, PORT, 't')?.status).toBe(421);
    expect(checkRequest({ ...ok, host: undefined }, PORT, 't')?.status).toBe(421);
    expect(checkRequest({ ...ok, host: `127.0.0.1.nip.io:${PORT}` }, PORT, 't')?.status).toBe(421);
  });

  it('refuses foreign origins and cross-site fetches even on GET', () => {
    expect(checkRequest({ ...ok, origin: 'https://evil.example' }, PORT, 't')?.status).toBe(403);
    expect(checkRequest({ ...ok, origin: 'null' }, PORT, 't')?.status).toBe(403);
    expect(checkRequest({ ...ok, origin: `http://127.0.0.1:${PORT + 1}` }, PORT, 't')?.status).toBe(403);
    expect(checkRequest({ ...ok, secFetchSite: 'cross-site' }, PORT, 't')?.status).toBe(403);
  });

  it('needs the exact token on every mutating method', () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      expect(checkRequest({ ...ok, method }, PORT, 'secret')?.status).toBe(403);
      expect(checkRequest({ ...ok, method, token: 'secreT' }, PORT, 'secret')?.status).toBe(403);
      expect(checkRequest({ ...ok, method, token: 'secret' }, PORT, 'secret')).toBeUndefined();
    }
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
  });
});

describe('workbench server gate', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.wb.close();
  });

  it('listens on 127.0.0.1 only', () => {
    const address = h.wb.server.address();
    expect(typeof address === 'object' && address?.address).toBe('127.0.0.1');
    expect(h.wb.url).toBe(`http://127.0.0.1:${h.wb.port}/`);
  });

  it('reads a request target that starts with // as a path, never as another host (was a 500 "Invalid URL")', async () => {
    const home = await raw(h.wb, 'GET', '//');
    expect(home.status).toBe(200);
    expect(home.headers['content-type']).toContain('text/html');
    // `//evil.example/api/session` is the page at that path, not the API of another host
    const other = await raw(h.wb, 'GET', '//evil.example/api/session');
    expect(other.status).toBe(200);
    expect(other.headers['content-type']).toContain('text/html');
  });

  it('answers 421 to a rebinding Host before touching any route', async () => {
    const r = await raw(h.wb, 'GET', '/api/session', { host: `evil.example:${h.wb.port}` });
    expect(r.status).toBe(421);
    expect(r.json<{ message: string }>().message).toContain('not this server');
    expect((await raw(h.wb, 'GET', '/', { host: 'evil.example' })).body).not.toContain(TOKEN);
  });

  it('answers 403 to a cross-origin request and to a POST without the token', async () => {
    expect((await raw(h.wb, 'GET', '/api/session', { origin: 'https://evil.example' })).status).toBe(403);
    const r = await raw(h.wb, 'POST', '/api/files/landmine_curse.fxp/edits', {}, { record: 0, field: '0x3114F9A5', value: { t: 'int', v: 1 } });
    expect(r.status).toBe(403);
    const list = await raw(h.wb, 'GET', '/api/files/landmine_curse.fxp/edits');
    expect(list.json<{ edits: unknown[] }>().edits).toEqual([]);
  });

  it('loads the page for a link followed from another site, and keeps the API closed to that site (issue 17)', async () => {
    const navigation = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', 'sec-fetch-user': '?1' };
    const page = await raw(h.wb, 'GET', '/f/landmine_curse.fxp/c/ClientFX.Sprite/r/1', navigation);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['x-frame-options']).toBe('DENY');
    // the API, the assets and anything that is not a top-level navigation stay refused cross-site
    expect((await raw(h.wb, 'GET', '/api/session', navigation)).status).toBe(403);
    expect((await raw(h.wb, 'GET', '/api/session', { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' })).status).toBe(403);
    expect((await raw(h.wb, 'GET', '/assets/main.js', { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'script' })).status).toBe(403);
    expect((await raw(h.wb, 'GET', '/f/landmine_curse.fxp', { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'iframe' })).status).toBe(403);
    expect((await raw(h.wb, 'POST', '/api/files/landmine_curse.fxp/edits', navigation, { record: 0, field: '0x3114F9A5', value: 1 })).status).toBe(403);
    // a rebinding Host is refused even for a navigation
    expect((await raw(h.wb, 'GET', '/', { ...navigation, host: `evil.example:${h.wb.port}` })).status).toBe(421);
  });

  it('hands the token out only inside the page, with a strict CSP', async () => {
    const page = await raw(h.wb, 'GET', '/f/landmine_curse.fxp/c/ClientFX.Sprite/r/1');
    expect(page.status).toBe(200);
    expect(page.body).toContain(`<meta name="scry-token" content="${TOKEN}">`);
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['x-frame-options']).toBe('DENY');
    const session = await raw(h.wb, 'GET', '/api/session');
    expect(session.body).not.toContain(TOKEN);
  });

  it('serves only the files it was given: ids, never paths', async () => {
    for (const id of ['..%2F..%2Fetc%2Fpasswd', '%2Fetc%2Fpasswd', 'landmine_curse.fxp%2F..', 'nope']) {
      const r = await raw(h.wb, 'GET', `/api/files/${id}`);
      expect(r.status, id).toBe(404);
      expect(r.body).not.toContain('root:');
    }
    const files = await raw(h.wb, 'GET', '/api/files');
    expect(files.body).not.toContain(h.dir);
  });

  it('refuses unknown methods on API routes and bodies that are not JSON', async () => {
    expect((await raw(h.wb, 'DELETE', '/api/session', { 'x-scry-token': TOKEN })).status).toBe(405);
    const r = await raw(h.wb, 'POST', '/api/files/landmine_curse.fxp/edits', { 'x-scry-token': TOKEN, 'content-type': 'text/plain' }, 'x');
    expect(r.status).toBe(400);
  });
});
