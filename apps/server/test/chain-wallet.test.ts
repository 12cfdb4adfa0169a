import { createSolanaRpc } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAUCET_MAX_SOL } from '@solterm/contracts';
import {
  bearer,
  call,
  createTestApp,
  openTestDatabase,
  registerUser,
  type AuthData,
  type TestApp,
  type TestDatabase,
} from './helpers/test-app';
import { createEvmWallet, createSolanaWallet, signInWithWallet } from './helpers/wallets';

interface SolanaBalance {
  wallet_address: string;
  sol_balance: number;
  lamports: string;
}

/** Signs in with a fresh Phantom wallet; returns its token and address. */
async function solanaUser(app: TestApp): Promise<{ token: string; address: string }> {
  const wallet = createSolanaWallet();
  const { status, body } = await signInWithWallet(app, wallet, 'phantom');
  expect(status).toBe(200);
  return { token: body.data.token, address: wallet.address };
}

describe('chain and wallet API on the embedded cluster', () => {
  let database: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    app = await createTestApp({ database });
    // The server reaches the embedded cluster over HTTP at its own /rpc, so it must listen.
    await app.server.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  const solBalance = (token: string) =>
    call<SolanaBalance>(app, { method: 'GET', url: '/api/wallet/solana-balance', headers: bearer(token) });
  const fundOn = (target: TestApp, token: string, payload: object) =>
    call(target, { method: 'POST', url: '/api/wallet/fund', headers: bearer(token), payload });
  const fund = (token: string, payload: object) => fundOn(app, token, payload);

  it("serves the embedded cluster at /rpc to @solana/kit's client", async () => {
    expect(app.rpcUrl()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/rpc$/);
    const rpc = createSolanaRpc(app.rpcUrl());
    expect(await rpc.getHealth().send()).toBe('ok');
    expect(typeof (await rpc.getSlot().send())).toBe('bigint');
    const { value } = await rpc.getLatestBlockhash().send();
    expect(value.blockhash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect(value.lastValidBlockHeight).toBeGreaterThan(0n);
  });

  it('keeps /rpc out of the OpenAPI document and answers malformed JSON-RPC with a parse error', async () => {
    const docs = await app.server.inject({ method: 'GET', url: '/api/docs/json' });
    expect(Object.keys(docs.json<{ paths: Record<string, unknown> }>().paths)).not.toContain('/rpc');
    const response = await app.server.inject({
      method: 'POST',
      url: '/rpc',
      headers: { 'content-type': 'application/json' },
      payload: '{not json',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json<{ error: { code: number } }>().error.code).toBe(-32700);
  });

  it('funds 2 SOL from the faucet and shows it in the balances, read from the chain', async () => {
    const user = await solanaUser(app);
    const before = await solBalance(user.token);
    expect(before.status).toBe(200);
    expect(before.body.data).toEqual({ wallet_address: user.address, sol_balance: 0, lamports: '0' });

    // SOL only: the faucet's USDC leg (1000 by default) is covered in wallet-portfolio.test.ts.
    const funded = await fund(user.token, { amount_sol: 2, amount_usdc: 0 });
    expect(funded.status).toBe(200);
    expect(funded.body.data).toMatchObject({ wallet_address: user.address, amount_sol: 2, sol_balance: 2 });

    const after = await solBalance(user.token);
    expect(after.body.data).toEqual({ wallet_address: user.address, sol_balance: 2, lamports: '2000000000' });
    const solana = await call<SolanaBalance>(app, {
      method: 'GET',
      url: '/api/solana/balance',
      headers: bearer(user.token),
    });
    expect(solana.body.data.sol_balance).toBe(2);

    const balance = await call<Record<string, number | string>>(app, {
      method: 'GET',
      url: '/api/wallet/balance',
      headers: bearer(user.token),
    });
    expect(balance.status).toBe(200);
    expect(balance.body.data).toMatchObject({
      sol_balance: 2,
      btc_balance: 0,
      eth_balance: 0,
      usdc_balance: 0,
      usdt_balance: 0,
      wallet_address: user.address,
    });
    const coins = await call<{ sol: { price: number } }>(app, {
      method: 'GET',
      url: '/api/market/dashboard-coins',
    });
    expect(balance.body.data.total_value_usd).toBeCloseTo(2 * coins.body.data.sol.price, 1);

    // The same balance as a kit client sees it on the chain.
    const rpc = createSolanaRpc(app.rpcUrl());
    expect((await rpc.getBalance(user.address as never).send()).value).toBe(2_000_000_000n);

    const status = await call(app, { method: 'GET', url: '/api/wallet/status', headers: bearer(user.token) });
    expect(status.body.data).toEqual({
      connected: true,
      wallet_address: user.address,
      wallet_type: 'phantom',
      can_trade: true,
    });
  });

  it.each([
    ['0', { amount_sol: 0 }],
    ['-1', { amount_sol: -1 }],
    ['1e308', { amount_sol: 1e308 }],
    ['above the cap', { amount_sol: FAUCET_MAX_SOL + 0.5 }],
    ['finer than a lamport', { amount_sol: 0.0000000001 }],
    ['a string', { amount_sol: 'NaN' }],
    ['null', { amount_sol: null }],
  ])('refuses amount %s with a 400 and changes no balance', async (_label, payload) => {
    const user = await solanaUser(app);
    const { status, body } = await fund(user.token, payload);
    expect(status).toBe(400);
    expect(body).toMatchObject({ success: false, code: 'VALIDATION__INVALID_INPUT', field: 'amount_sol' });
    expect((await solBalance(user.token)).body.data.lamports).toBe('0');
  });

  it('refuses a NaN literal as malformed JSON and changes no balance', async () => {
    const user = await solanaUser(app);
    const response = await app.server.inject({
      method: 'POST',
      url: '/api/wallet/fund',
      headers: { ...bearer(user.token), 'content-type': 'application/json' },
      payload: '{"amount_sol": NaN}',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, code: 'REQUEST__MALFORMED_JSON' });
    expect((await solBalance(user.token)).body.data.lamports).toBe('0');
  });

  it('rate-limits the faucet per user', async () => {
    const limited = await createTestApp({ database, env: { FAUCET_RATE_LIMIT_MAX: '2' } });
    try {
      await limited.server.listen({ port: 0, host: '127.0.0.1' });
      const user = await solanaUser(limited);
      expect((await fundOn(limited, user.token, {})).status).toBe(200);
      expect((await fundOn(limited, user.token, { amount_sol: 0.5 })).status).toBe(200);
      const refused = await fundOn(limited, user.token, { amount_sol: 1 });
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('WALLET__FAUCET_RATE_LIMITED');
      limited.clock.advance(limited.config.faucetRateLimit.windowMs + 1);
      expect((await fundOn(limited, user.token, { amount_sol: 1 })).status).toBe(200);
      const balance = await call<SolanaBalance>(limited, {
        method: 'GET',
        url: '/api/wallet/solana-balance',
        headers: bearer(user.token),
      });
      // The default amount (1 SOL), 0.5 and 1: the refused call moved nothing.
      expect(balance.body.data.lamports).toBe('2500000000');
    } finally {
      await limited.close();
    }
  });

  it('requires a session', async () => {
    const { status } = await call(app, { method: 'GET', url: '/api/wallet/balance' });
    expect(status).toBe(401);
  });

  describe('wallets that cannot hold a Solana portfolio', () => {
    const NO_WALLET = 'No wallet connected. Please connect a wallet first.';
    const SOLANA_ONLY =
      'Portfolio data is only available for Solana wallets. Please connect Phantom or Solflare.';
    const reads = ['/api/wallet/balance', '/api/wallet/solana-balance', '/api/solana/balance'];

    it('an account with no wallet gets the spec message', async () => {
      const user = await registerUser(app);
      for (const url of reads) {
        const { status, body } = await call(app, { method: 'GET', url, headers: bearer(user.token) });
        expect(status).toBe(400);
        expect(body).toMatchObject({ success: false, error: NO_WALLET, code: 'WALLET__NOT_CONNECTED' });
      }
      const funded = await fund(user.token, { amount_sol: 1 });
      expect(funded.body).toMatchObject({ error: NO_WALLET });
      const status = await call(app, {
        method: 'GET',
        url: '/api/wallet/status',
        headers: bearer(user.token),
      });
      expect(status.body.data).toEqual({
        connected: false,
        wallet_address: null,
        wallet_type: null,
        can_trade: false,
      });
    });

    it('a watch-only session gets the Solana-only message and cannot use the faucet', async () => {
      const wallet = createSolanaWallet();
      const watch = await call<AuthData>(app, {
        method: 'POST',
        url: '/api/auth/connect-wallet',
        payload: { wallet_address: wallet.address, wallet_type: 'manual' },
      });
      expect(watch.status).toBe(200);
      const token = watch.body.data.token;
      for (const url of reads) {
        const { status, body } = await call(app, { method: 'GET', url, headers: bearer(token) });
        expect(status).toBe(400);
        expect(body).toMatchObject({ error: SOLANA_ONLY, code: 'WALLET__SOLANA_ONLY' });
      }
      const funded = await fund(token, { amount_sol: 1 });
      expect(funded.status).toBe(403);
      expect(funded.body.code).toBe('WALLET__WATCH_ONLY');
      const status = await call(app, { method: 'GET', url: '/api/wallet/status', headers: bearer(token) });
      expect(status.body.data).toMatchObject({ connected: true, wallet_type: 'manual', can_trade: false });
    });

    it('a MetaMask session gets the Solana-only message', async () => {
      const { body: signedIn } = await signInWithWallet(app, createEvmWallet(), 'metamask');
      const token = signedIn.data.token;
      for (const url of reads) {
        const { status, body } = await call(app, { method: 'GET', url, headers: bearer(token) });
        expect(status).toBe(400);
        expect(body).toMatchObject({ error: SOLANA_ONLY });
      }
      expect((await fund(token, { amount_sol: 1 })).body).toMatchObject({ error: SOLANA_ONLY });
    });
  });

  describe('on mainnet', () => {
    let mainnet: TestApp;

    beforeAll(async () => {
      mainnet = await createTestApp({ database, env: { SOLANA_NETWORK: 'mainnet' } });
      await mainnet.server.listen({ port: 0, host: '127.0.0.1' });
    });

    afterAll(async () => {
      await mainnet?.close();
    });

    it('refuses the faucet with a clear 403 and reports the network in /api/health', async () => {
      const user = await solanaUser(mainnet);
      const refused = await fundOn(mainnet, user.token, { amount_sol: 1 });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ success: false, code: 'WALLET__FAUCET_MAINNET' });
      const balance = await call<SolanaBalance>(mainnet, {
        method: 'GET',
        url: '/api/wallet/solana-balance',
        headers: bearer(user.token),
      });
      expect(balance.body.data.lamports).toBe('0');
      const health = await call<{ network: string }>(mainnet, { method: 'GET', url: '/api/health' });
      expect(health.body.data.network).toBe('mainnet');
    });
  });
});
