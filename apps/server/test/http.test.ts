import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  createTestApp,
  databaseAgnosticTargets,
  openTestDatabase,
  type TestApp,
  type TestDatabase,
} from './helpers/test-app';

describe.each(databaseAgnosticTargets())('HTTP surface on %s', (target) => {
  let database: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    database = await openTestDatabase(target);
    app = await createTestApp({ database });
  });

  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  it('GET /api/health reports the network, version and database kind', async () => {
    const { status, body } = await call(app, { method: 'GET', url: '/api/health' });

    expect(status).toBe(200);
    expect(body).toEqual({
      success: true,
      data: {
        status: 'ok',
        network: 'localnet',
        version: '0.1.0',
        database: target,
        uptime_s: expect.any(Number),
        // Whether this host walls the Python sandbox off the network (python-wall.test.ts checks both).
        sandbox: { python: expect.objectContaining({ available: expect.any(Boolean) }) },
      },
    });
  });

  it('answers an unknown /api path with the JSON 404 envelope, whatever the method', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const { status, body, response } = await call(app, { method, url: '/api/no/such/route?x=1' });

      expect(status).toBe(404);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(body).toEqual({
        success: false,
        error: `Not found: ${method} /api/no/such/route`,
        code: 'ROUTE__NOT_FOUND',
      });
    }
  });

  it('serves index.html for app routes (single-page-app fallback)', async () => {
    for (const url of ['/dashboard', '/reset-password?token=abc', '/bots/123']) {
      const response = await app.server.inject({ method: 'GET', url, headers: { accept: 'text/html' } });

      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain('<div id="root"></div>');
    }
  });

  it('serves fingerprinted assets as immutable', async () => {
    const response = await app.server.inject({ method: 'GET', url: '/assets/index-abc123.js' });

    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('does not serve the page for a POST to an app route', async () => {
    const { status, body } = await call(app, { method: 'POST', url: '/dashboard' });

    expect(status).toBe(404);
    expect(body.code).toBe('ROUTE__NOT_FOUND');
  });

  it('publishes an OpenAPI document listing the auth routes', async () => {
    const { status, body } = await call<never>(app, { method: 'GET', url: '/api/docs/json' });
    const document = body as unknown as { openapi: string; paths: Record<string, Record<string, unknown>> };

    expect(status).toBe(200);
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/api/auth/login',
        '/api/auth/register',
        '/api/auth/connect-wallet',
        '/api/auth/create-wallet',
        '/api/user/profile',
        '/api/health',
      ]),
    );
    expect(document.paths['/api/auth/login']).toHaveProperty('post');
    expect(Object.keys(document.paths)).not.toContain('/ws');
  });

  it('sends the security headers', async () => {
    for (const url of ['/api/health', '/dashboard']) {
      const response = await app.server.inject({ method: 'GET', url });
      const csp = response.headers['content-security-policy'];

      expect(csp, url).toContain("default-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).not.toContain('upgrade-insecure-requests');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('serves the dev outbox on a test network', async () => {
    const { status, body } = await call(app, { method: 'GET', url: '/api/dev/outbox?to=nobody@example.com' });

    expect(status).toBe(200);
    expect(body).toEqual({ success: true, data: [] });
  });

  describe('on mainnet', () => {
    let mainnet: TestApp;

    beforeAll(async () => {
      mainnet = await createTestApp({ database, env: { SOLANA_NETWORK: 'mainnet' } });
    });

    afterAll(async () => {
      await mainnet?.close();
    });

    it('does not register the dev outbox', async () => {
      const { status, body } = await call(mainnet, { method: 'GET', url: '/api/dev/outbox' });

      expect(status).toBe(404);
      expect(body.code).toBe('ROUTE__NOT_FOUND');
    });

    it('reports mainnet in health', async () => {
      const { body } = await call<{ network: string }>(mainnet, { method: 'GET', url: '/api/health' });

      expect(body.data.network).toBe('mainnet');
    });
  });

  describe('without a built web app', () => {
    let unbuilt: TestApp;

    beforeAll(async () => {
      unbuilt = await createTestApp({ database, env: { WEB_DIST_DIR: '/nonexistent/solterm-web-dist' } });
    });

    afterAll(async () => {
      await unbuilt?.close();
    });

    it('explains how to build it instead of serving a page', async () => {
      const response = await unbuilt.server.inject({ method: 'GET', url: '/dashboard' });

      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toMatch(/^text\/plain/);
      expect(response.body).toContain('npm run build');
    });

    it('still answers the API', async () => {
      expect((await call(unbuilt, { method: 'GET', url: '/api/health' })).status).toBe(200);
    });
  });
});
