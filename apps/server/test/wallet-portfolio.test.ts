import { getCreateAccountInstruction } from '@solana-program/system';
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getInitializeMint2Instruction,
  getMintToCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import {
  address,
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Instruction,
  type Signature,
} from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  FAUCET_DEFAULT_USDC,
  FAUCET_MAX_USDC,
  getTokenBySymbol,
  SpecDecimal,
  USDC_MINT,
} from '@solterm/contracts';
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

interface PortfolioToken {
  symbol: string;
  name: string;
  balance: number;
  decimals: number;
  price_usd: number | null;
  value_usd: number;
  mint_address: string;
}
interface Portfolio {
  total_value_usd: number;
  sol_balance: number;
  sol_price_usd: number;
  wallet_address: string;
  tokens: PortfolioToken[];
}
interface TokenBalance {
  wallet_address: string;
  mint_address: string;
  symbol: string | null;
  balance: number;
  decimals: number;
  amount: string;
}
interface FundResult {
  wallet_address: string;
  amount_sol: number;
  signature: string;
  sol_balance: number;
  amount_usdc: number;
  usdc_signature: string | null;
  usdc_balance: number;
}

const BONK = getTokenBySymbol('BONK')!;
const NO_WALLET = 'No wallet connected. Please connect a wallet first.';
const SOLANA_ONLY =
  'Portfolio data is only available for Solana wallets. Please connect Phantom or Solflare.';

/** Signs in with a fresh Phantom wallet. */
async function solanaUser(app: TestApp): Promise<{ token: string; address: string }> {
  const wallet = createSolanaWallet();
  const { status, body } = await signInWithWallet(app, wallet, 'phantom');
  expect(status).toBe(200);
  return { token: body.data.token, address: wallet.address };
}

const usd = (value: SpecDecimal) => value.toDecimalPlaces(2).toNumber();

describe('wallet portfolio, token balances and the USDC faucet on the embedded cluster', () => {
  let database: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    app = await createTestApp({ database });
    await app.server.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  const get = <T>(token: string, url: string, target: TestApp = app) =>
    call<T>(target, { method: 'GET', url, headers: bearer(token) });
  const fund = (token: string, payload: object, target: TestApp = app) =>
    call<FundResult>(target, { method: 'POST', url: '/api/wallet/fund', headers: bearer(token), payload });
  const portfolio = (token: string, query = '') => get<Portfolio>(token, `/api/wallet/portfolio${query}`);
  const usdcOf = async (token: string, owner: string, target: TestApp = app) =>
    (await get<TokenBalance>(token, `/api/wallet/token-balance/${owner}/${USDC_MINT}`, target)).body.data;
  const lamportsOf = async (token: string, target: TestApp = app) =>
    (await get<{ lamports: string }>(token, '/api/wallet/solana-balance', target)).body.data.lamports;

  /** Sends instructions paid and signed by the treasury (mint authority of the cluster's tokens). */
  async function asTreasury(instructions: Instruction[]): Promise<void> {
    const rpc = createSolanaRpc(app.rpcUrl());
    const treasury = app.cluster!.treasury;
    const { value: lifetime } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (draft) => setTransactionMessageFeePayerSigner(treasury, draft),
      (draft) => setTransactionMessageLifetimeUsingBlockhash(lifetime, draft),
      (draft) => appendTransactionMessageInstructions(instructions, draft),
    );
    const signed = await signTransactionMessageWithSigners(message);
    const signature = getSignatureFromTransaction(signed);
    await rpc.sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64' }).send();
    await vi.waitUntil(
      async () => {
        const { value } = await rpc.getSignatureStatuses([signature]).send();
        if (value[0]?.err) throw new Error(`treasury transaction failed: ${JSON.stringify(value[0].err)}`);
        return value[0]?.confirmationStatus === 'confirmed' || value[0]?.confirmationStatus === 'finalized';
      },
      { timeout: 10_000, interval: 20 },
    );
  }

  it('shows an empty portfolio for a new wallet, valued from the chain', async () => {
    const user = await solanaUser(app);
    const { status, body } = await portfolio(user.token);
    expect(status).toBe(200);
    expect(body.data).toMatchObject({
      total_value_usd: 0,
      sol_balance: 0,
      wallet_address: user.address,
      tokens: [],
    });
    expect(body.data.sol_price_usd).toBeGreaterThan(0);
  });

  it('funds SOL and 1000 USDC by default, and the portfolio values both', async () => {
    const user = await solanaUser(app);
    const funded = await fund(user.token, { amount_sol: 2 });
    expect(funded.status).toBe(200);
    expect(funded.body.data).toMatchObject({
      wallet_address: user.address,
      amount_sol: 2,
      sol_balance: 2,
      amount_usdc: FAUCET_DEFAULT_USDC,
      usdc_balance: FAUCET_DEFAULT_USDC,
    });
    expect(funded.body.data.usdc_signature).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);

    // The USDC is on chain, in the wallet's associated token account, as a kit client sees it.
    const rpc = createSolanaRpc(app.rpcUrl());
    const statuses = await rpc.getSignatureStatuses([funded.body.data.usdc_signature as Signature]).send();
    expect(statuses.value[0]?.err).toBeNull();
    const [ata] = await findAssociatedTokenPda({
      owner: address(user.address),
      mint: address(USDC_MINT),
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    });
    const onChain = await rpc.getTokenAccountBalance(ata).send();
    expect(onChain.value.amount).toBe('1000000000');

    const { status, body } = await portfolio(user.token);
    expect(status).toBe(200);
    const data = body.data;
    expect(data).toMatchObject({ sol_balance: 2, wallet_address: user.address });
    expect(data.tokens).toHaveLength(1);
    const [usdc] = data.tokens;
    expect(usdc).toMatchObject({
      symbol: 'USDC',
      name: 'USD Coin',
      balance: 1000,
      decimals: 6,
      mint_address: USDC_MINT,
    });
    expect(usdc!.price_usd).toBeGreaterThan(0.9);
    expect(usdc!.price_usd).toBeLessThan(1.1);
    expect(usdc!.value_usd).toBe(usd(new SpecDecimal(1000).times(usdc!.price_usd!)));
    expect(data.total_value_usd).toBe(
      usd(new SpecDecimal(2).times(data.sol_price_usd).plus(new SpecDecimal(1000).times(usdc!.price_usd!))),
    );

    // Naming its own wallet is the same read.
    const named = await portfolio(user.token, `?wallet_address=${user.address}`);
    expect(named.status).toBe(200);
    expect(named.body.data.tokens.map((token) => token.symbol)).toEqual(['USDC']);
  });

  it('lists unknown mints by shortened address without a price, and leaves out empty token accounts', async () => {
    const user = await solanaUser(app);
    expect((await fund(user.token, { amount_sol: 1, amount_usdc: 10 })).status).toBe(200);
    const treasury = app.cluster!.treasury;
    const mint = await generateKeyPairSigner();
    const [unknownAta] = await findAssociatedTokenPda({
      owner: address(user.address),
      mint: mint.address,
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    });
    const [bonkAta] = await findAssociatedTokenPda({
      owner: address(user.address),
      mint: address(BONK.mint),
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    });
    await asTreasury([
      getCreateAccountInstruction({
        payer: treasury,
        newAccount: mint,
        lamports: await app.cluster!.minimumBalanceForRentExemption(82),
        space: 82,
        programAddress: TOKEN_PROGRAM_ADDRESS,
      }),
      getInitializeMint2Instruction({ mint: mint.address, decimals: 3, mintAuthority: treasury.address }),
      getCreateAssociatedTokenIdempotentInstruction({
        payer: treasury,
        ata: unknownAta,
        owner: address(user.address),
        mint: mint.address,
      }),
      getMintToCheckedInstruction({
        mint: mint.address,
        token: unknownAta,
        mintAuthority: treasury,
        amount: 12_345n,
        decimals: 3,
      }),
      // An empty BONK account: held, but not a holding.
      getCreateAssociatedTokenIdempotentInstruction({
        payer: treasury,
        ata: bonkAta,
        owner: address(user.address),
        mint: address(BONK.mint),
      }),
    ]);

    const { body } = await portfolio(user.token);
    expect(body.data.tokens.map((token) => token.mint_address)).toEqual([USDC_MINT, mint.address]);
    expect(body.data.tokens[1]).toEqual({
      symbol: `${mint.address.slice(0, 4)}...${mint.address.slice(-4)}`,
      name: 'Unknown token',
      balance: 12.345,
      decimals: 3,
      price_usd: null,
      value_usd: 0,
      mint_address: mint.address,
    });
    // The unknown token adds nothing to the total.
    const usdc = body.data.tokens[0]!;
    expect(body.data.total_value_usd).toBe(
      usd(new SpecDecimal(body.data.sol_price_usd).plus(new SpecDecimal(10).times(usdc.price_usd!))),
    );

    // Its balance reads by mint too; the symbol is unknown.
    const balance = await get<TokenBalance>(
      user.token,
      `/api/solana/token-balance?mint_address=${mint.address}`,
    );
    expect(balance.body.data).toEqual({
      wallet_address: user.address,
      mint_address: mint.address,
      symbol: null,
      balance: 12.345,
      decimals: 3,
      amount: '12345',
    });
  });

  describe('token balance', () => {
    let user: { token: string; address: string };

    beforeAll(async () => {
      user = await solanaUser(app);
      expect((await fund(user.token, { amount_sol: 1, amount_usdc: 250.5 })).status).toBe(200);
    });

    const expected = () => ({
      wallet_address: user.address,
      mint_address: USDC_MINT,
      symbol: 'USDC',
      balance: 250.5,
      decimals: 6,
      amount: '250500000',
    });

    it.each([USDC_MINT, 'USDC', 'usdc'])('reads USDC by %s on /wallet/token-balance', async (b) => {
      const { status, body } = await get<TokenBalance>(
        user.token,
        `/api/wallet/token-balance/${user.address}/${b}`,
      );
      expect(status).toBe(200);
      expect(body.data).toEqual(expected());
    });

    it('reads it on /solana/token-balance for the connected wallet', async () => {
      const { status, body } = await get<TokenBalance>(
        user.token,
        `/api/solana/token-balance?mint_address=${USDC_MINT}`,
      );
      expect(status).toBe(200);
      expect(body.data).toEqual(expected());
    });

    it('answers 0 for a mint the wallet has no account of, with the mint decimals from the chain', async () => {
      const { status, body } = await get<TokenBalance>(
        user.token,
        `/api/wallet/token-balance/${user.address}/BONK`,
      );
      expect(status).toBe(200);
      expect(body.data).toEqual({
        wallet_address: user.address,
        mint_address: BONK.mint,
        symbol: 'BONK',
        balance: 0,
        decimals: 5,
        amount: '0',
      });
    });

    it.each([
      [
        'a wallet (not a mint)',
        () => user.address,
        'WALLET__TOKEN_NOT_FOUND',
        'This address is not an SPL token mint',
      ],
      [
        'an account that does not exist',
        () => '11111111111111111111111111111112',
        'WALLET__TOKEN_NOT_FOUND',
        'This address is not an SPL token mint',
      ],
      [
        'neither an address nor a known symbol',
        () => 'NOTATOKEN',
        'WALLET__MINT_INVALID',
        'Please enter a valid token mint address or symbol',
      ],
    ])('refuses %s as the mint on both routes', async (_label, mintOf, code, message) => {
      for (const url of [
        `/api/wallet/token-balance/${user.address}/${mintOf()}`,
        `/api/solana/token-balance?mint_address=${mintOf()}`,
      ]) {
        const { status, body } = await get(user.token, url);
        expect(status).toBe(400);
        expect(body).toMatchObject({ success: false, code, error: message });
      }
    });

    it('refuses another wallet, or an invalid address, as {a}', async () => {
      const other = createSolanaWallet().address;
      const mismatch = await get(user.token, `/api/wallet/token-balance/${other}/USDC`);
      expect(mismatch.status).toBe(400);
      expect(mismatch.body).toMatchObject({
        code: 'WALLET__ADDRESS_MISMATCH',
        error: 'wallet_address is not your connected wallet',
      });
      const invalid = await get(user.token, '/api/wallet/token-balance/not-an-address/USDC');
      expect(invalid.status).toBe(400);
      expect(invalid.body.code).toBe('WALLET__ADDRESS_INVALID');
    });

    it('requires mint_address on /solana/token-balance', async () => {
      const { status, body } = await get(user.token, '/api/solana/token-balance');
      expect(status).toBe(400);
      expect(body).toMatchObject({ code: 'VALIDATION__INVALID_INPUT', field: 'mint_address' });
    });
  });

  it('refuses another wallet address, or an invalid one, in the portfolio query', async () => {
    const user = await solanaUser(app);
    const other = await portfolio(user.token, `?wallet_address=${createSolanaWallet().address}`);
    expect(other.status).toBe(400);
    expect(other.body).toMatchObject({
      success: false,
      code: 'WALLET__ADDRESS_MISMATCH',
      error: 'wallet_address is not your connected wallet',
    });
    const invalid = await portfolio(user.token, '?wallet_address=0x52908400098527886E0F7030069857D2E4169EE7');
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe('WALLET__ADDRESS_INVALID');
    // An empty value is no address at all.
    expect((await portfolio(user.token, '?wallet_address=')).status).toBe(200);
  });

  describe('wallets that cannot hold a Solana portfolio', () => {
    const reads = (address: string) => [
      '/api/wallet/portfolio',
      `/api/wallet/token-balance/${address}/USDC`,
      `/api/solana/token-balance?mint_address=${USDC_MINT}`,
    ];

    it('an account with no wallet gets the spec message', async () => {
      const user = await registerUser(app);
      for (const url of reads(createSolanaWallet().address)) {
        const { status, body } = await get(user.token, url);
        expect(status).toBe(400);
        expect(body).toMatchObject({ success: false, error: NO_WALLET, code: 'WALLET__NOT_CONNECTED' });
      }
    });

    it('a watch-only session gets the Solana-only message and no USDC', async () => {
      const wallet = createSolanaWallet();
      const watch = await call<AuthData>(app, {
        method: 'POST',
        url: '/api/auth/connect-wallet',
        payload: { wallet_address: wallet.address, wallet_type: 'manual' },
      });
      const token = watch.body.data.token;
      for (const url of reads(wallet.address)) {
        const { status, body } = await get(token, url);
        expect(status).toBe(400);
        expect(body).toMatchObject({ error: SOLANA_ONLY, code: 'WALLET__SOLANA_ONLY' });
      }
      const funded = await fund(token, { amount_usdc: 10 });
      expect(funded.status).toBe(403);
      expect(funded.body.code).toBe('WALLET__WATCH_ONLY');
      const rpc = createSolanaRpc(app.rpcUrl());
      const accounts = await rpc
        .getTokenAccountsByOwner(
          address(wallet.address),
          { mint: address(USDC_MINT) },
          { encoding: 'base64' },
        )
        .send();
      expect(accounts.value).toHaveLength(0);
    });

    it('a MetaMask session gets the Solana-only message', async () => {
      const evm = createEvmWallet();
      const { body: signedIn } = await signInWithWallet(app, evm, 'metamask');
      const token = signedIn.data.token;
      for (const url of reads(evm.address)) {
        const { status, body } = await get(token, url);
        expect(status).toBe(400);
        expect(body).toMatchObject({ error: SOLANA_ONLY });
      }
      expect((await fund(token, { amount_usdc: 10 })).body).toMatchObject({ error: SOLANA_ONLY });
    });

    it('requires a session', async () => {
      expect((await call(app, { method: 'GET', url: '/api/wallet/portfolio' })).status).toBe(401);
      expect(
        (await call(app, { method: 'GET', url: `/api/solana/token-balance?mint_address=${USDC_MINT}` }))
          .status,
      ).toBe(401);
    });
  });

  describe('USDC faucet input', () => {
    it('skips USDC when amount_usdc is 0', async () => {
      const user = await solanaUser(app);
      const funded = await fund(user.token, { amount_sol: 1, amount_usdc: 0 });
      expect(funded.status).toBe(200);
      expect(funded.body.data).toMatchObject({
        amount_sol: 1,
        amount_usdc: 0,
        usdc_signature: null,
        usdc_balance: 0,
      });
      expect((await portfolio(user.token)).body.data.tokens).toEqual([]);
    });

    it.each([
      ['-1', -1, 'amount_usdc must be at least 0'],
      ['above the cap', FAUCET_MAX_USDC + 1, `amount_usdc must be at most ${FAUCET_MAX_USDC}`],
      ['1e308', 1e308, `amount_usdc must be at most ${FAUCET_MAX_USDC}`],
      ['finer than a micro-USDC', 1.0000001, 'amount_usdc has at most 6 decimal places'],
      ['a string', 'NaN', 'amount_usdc must be a number'],
      ['null', null, 'amount_usdc must be a number'],
    ])('refuses amount_usdc %s with a 400 and changes nothing', async (_label, amount, message) => {
      const user = await solanaUser(app);
      const { status, body } = await fund(user.token, { amount_sol: 1, amount_usdc: amount });
      expect(status).toBe(400);
      expect(body).toMatchObject({
        success: false,
        code: 'VALIDATION__INVALID_INPUT',
        field: 'amount_usdc',
        error: `amount_usdc: ${message}`,
      });
      expect(await lamportsOf(user.token)).toBe('0');
      expect((await usdcOf(user.token, user.address)).amount).toBe('0');
    });

    it('rate-limits one slot per call, whatever it funds', async () => {
      const limited = await createTestApp({ database, env: { FAUCET_RATE_LIMIT_MAX: '1' } });
      try {
        await limited.server.listen({ port: 0, host: '127.0.0.1' });
        const user = await solanaUser(limited);
        expect((await fund(user.token, { amount_sol: 1, amount_usdc: 5 }, limited)).status).toBe(200);
        const refused = await fund(user.token, { amount_sol: 1, amount_usdc: 5 }, limited);
        expect(refused.status).toBe(429);
        expect(refused.body).toMatchObject({
          code: 'WALLET__FAUCET_RATE_LIMITED',
          error: 'Too many funding requests. Please try again later.',
        });
        expect(await lamportsOf(user.token, limited)).toBe('1000000000');
        expect((await usdcOf(user.token, user.address, limited)).amount).toBe('5000000');
      } finally {
        await limited.close();
      }
    });
  });

  describe('on an external RPC (no mint authority)', () => {
    let external: TestApp;

    beforeAll(async () => {
      // Another server reaching this one's cluster over SOLANA_RPC_URL, as a devnet would be reached.
      external = await createTestApp({
        database,
        env: { SOLANA_RPC_URL: app.rpcUrl(), FAUCET_RATE_LIMIT_MAX: '1' },
      });
      await external.server.listen({ port: 0, host: '127.0.0.1' });
    });

    afterAll(async () => {
      await external?.close();
    });

    it('refuses an explicit USDC amount before sending anything, and airdrops SOL alone by default', async () => {
      expect(external.cluster).toBeUndefined();
      const user = await solanaUser(external);
      const refused = await fund(user.token, { amount_sol: 1, amount_usdc: 5 }, external);
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({
        success: false,
        code: 'WALLET__FAUCET_UNAVAILABLE',
        error: 'The USDC faucet is only available on the embedded local cluster',
      });
      expect(await lamportsOf(user.token, external)).toBe('0');

      // The refused call took no rate-limit slot (the limit is 1 here).
      const funded = await fund(user.token, {}, external);
      expect(funded.status).toBe(200);
      expect(funded.body.data).toMatchObject({
        amount_sol: 1,
        amount_usdc: 0,
        usdc_signature: null,
        usdc_balance: 0,
      });
      expect((await get<Portfolio>(user.token, '/api/wallet/portfolio', external)).body.data).toMatchObject({
        sol_balance: 1,
        tokens: [],
      });
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

    it('refuses the USDC faucet too, and mints nothing', async () => {
      const user = await solanaUser(mainnet);
      const refused = await fund(user.token, { amount_usdc: 10 }, mainnet);
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('WALLET__FAUCET_MAINNET');
      expect((await usdcOf(user.token, user.address, mainnet)).amount).toBe('0');
    });
  });
});
