import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';

/** The headers of an answer, without those node adds per connection. */
function headersOf(response: Response): Record<string, string> {
  const headers = Object.fromEntries(response.headers.entries());
  for (const name of ['date', 'connection', 'keep-alive']) delete headers[name];
  return headers;
}

describe('GET /api/market/dashboard-coins over HTTP (answered before routing once encoded)', () => {
  let app: TestApp;
  let url: string;

  beforeAll(async () => {
    app = await createTestApp();
    await app.server.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.server.server.address() as AddressInfo).port}/api/market/dashboard-coins`;
  });

  afterAll(async () => {
    await app?.close();
  });

  it("answers the router's bytes and headers, security headers included", async () => {
    // The first request of the second is routed (and encodes the answer); the next is not.
    const routed = await fetch(url);
    const hot = await fetch(url);
    const injected = await app.server.inject({ method: 'GET', url: '/api/market/dashboard-coins' });

    expect(hot.status).toBe(200);
    const body = await hot.text();
    expect(body).toBe(await routed.text());
    expect(body).toBe(injected.body);
    expect(headersOf(hot)).toEqual(headersOf(routed));
    expect(hot.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(hot.headers.get('x-content-type-options')).toBe('nosniff');
    expect(hot.headers.get('etag')).toBe(injected.headers.etag);
  });

  it('answers 304 to the ETag of this second, and the new bytes once the market moved', async () => {
    const first = await fetch(url);
    const etag = first.headers.get('etag')!;

    const held = await fetch(url, { headers: { 'if-none-match': etag } });
    const heldRouted = await fetch(`${url}?via=router`, { headers: { 'if-none-match': etag } });
    expect(held.status).toBe(304);
    expect(heldRouted.status).toBe(304);
    expect(headersOf(held)).toEqual(headersOf(heldRouted));

    app.clock.advance(5000);
    try {
      const moved = await fetch(url, { headers: { 'if-none-match': etag } });
      expect(moved.status).toBe(200);
      expect(moved.headers.get('etag')).not.toBe(etag);
    } finally {
      app.clock.advance(-5000);
    }
  });
});
