import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs/promises';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDriftPerpVenue } from '../src/modules/futures/drift-venue';
import { AppError } from '../src/lib/app-error';
import { bearer, call, createTestApp, registerUser } from './helpers/test-app';

// PERP_VENUE=drift against a local stand-in for Drift's data API serving its recorded shapes
// (GET /contracts, GET /fundingRates?marketName=…).
const FIXTURES = path.join(import.meta.dirname, 'fixtures', 'drift');

describe('Drift perp venue (market data)', () => {
  let server: http.Server;
  let baseUrl: string;
  const requests: string[] = [];
  let failNext = 0;

  beforeAll(async () => {
    const contracts = await fs.readFile(path.join(FIXTURES, 'contracts.json'), 'utf8');
    const funding = await fs.readFile(path.join(FIXTURES, 'funding-rates-sol.json'), 'utf8');
    server = http.createServer((request, response) => {
      requests.push(request.url ?? '');
      if (failNext > 0) {
        failNext--;
        response.writeHead(429).end();
        return;
      }
      const url = new URL(request.url ?? '/', 'http://localhost');
      if (url.pathname === '/contracts')
        response.writeHead(200, { 'content-type': 'application/json' }).end(contracts);
      else if (url.pathname === '/fundingRates' && url.searchParams.get('marketName') === 'SOL-PERP')
        response.writeHead(200, { 'content-type': 'application/json' }).end(funding);
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const venue = () =>
    createDriftPerpVenue({
      baseUrl,
      timeoutMs: 2000,
      log: pino({ level: 'silent' }),
      now: () => new Date('2025-09-19T16:00:00Z'),
    });

  it('lists Drift’s perpetual markets (not its spot markets) and serves no trading', async () => {
    const drift = venue();
    expect(drift.kind).toBe('drift');
    expect(drift.trading).toBeUndefined();
    const pairs = await drift.pairs();
    expect(pairs.map((pair) => pair.symbol)).toEqual(['SOL-PERP', 'BTC-PERP']);
    expect(pairs[0]).toMatchObject({ base_symbol: 'SOL', market_index: 0, oracle_price: '238.747713' });
    expect(await drift.pair('SOL/USDC')).toMatchObject({ symbol: 'SOL-PERP' });
  });

  it('maps market data, open interest, volume and funding (percent per hour → a fraction)', async () => {
    const drift = venue();
    const market = await drift.market('SOL-PERP');
    expect(market).toMatchObject({
      symbol: 'SOL-PERP',
      oracle_price: '238.747713',
      mark_price: '238.979183',
      funding_rate: '0.00002327164',
      open_interest: '1466045.01',
      volume_24h: '184422096.257964',
      next_funding_at: new Date(1758301205000).toISOString(),
    });
    expect(await drift.openInterest('BTC-PERP')).toEqual({
      symbol: 'BTC-PERP',
      open_interest: '912.004',
      open_interest_usd: new (await import('@solterm/engine')).Dec('912.004').times('116899.54').toFixed(2),
    });
    const funding = await drift.funding('SOL-PERP');
    expect(funding.predicted_rate).toBe('0.00002979');
    // Newest first; fundingRate (1e9) over the oracle TWAP (1e6) is the hourly rate.
    expect(funding.history.map((entry) => entry.rate)).toEqual([
      new (await import('@solterm/engine')).Dec(-2386000).div(1e9).div(238.6).toFixed(),
      new (await import('@solterm/engine')).Dec(5568000).div(1e9).div(238.6).toFixed(),
    ]);
    expect(funding.history[0]!.at).toBe(new Date(1758297600 * 1000).toISOString());
  });

  it('PERP_VENUE=drift: the app serves Drift’s markets and refuses trading with FUTURES__VENUE_READ_ONLY', async () => {
    const app = await createTestApp({
      env: { PERP_VENUE: 'drift', DRIFT_DATA_API_URL: baseUrl, JOBS: 'off' },
    });
    try {
      const pairs = await call<{ symbol: string }[]>(app, { method: 'GET', url: '/api/futures/pairs' });
      expect(pairs.status).toBe(200);
      expect(pairs.body.data.map((pair) => pair.symbol)).toEqual(['SOL-PERP', 'BTC-PERP']);
      const user = await registerUser(app);
      const account = await call(app, {
        method: 'GET',
        url: '/api/futures/account',
        headers: bearer(user.token),
      });
      expect(account.status).toBe(501);
      expect(account.body.code).toBe('FUTURES__VENUE_READ_ONLY');
    } finally {
      await app.close();
    }
  });

  it('answers an unknown market with FUTURES__MARKET_UNSUPPORTED and a rate limit with MARKET__PROVIDER_RATE_LIMITED', async () => {
    await expect(venue().market('DOGE-PERP')).rejects.toMatchObject({ code: 'FUTURES__MARKET_UNSUPPORTED' });
    failNext = 1;
    const error = await venue()
      .pairs()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('MARKET__PROVIDER_RATE_LIMITED');
  });
});
