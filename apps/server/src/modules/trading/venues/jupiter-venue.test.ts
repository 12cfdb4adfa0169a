import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  generateKeyPairSigner,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
} from '@solana/kit';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SLIPPAGE_BPS } from '@solterm/contracts';
import { Dec } from '@solterm/engine';
import { AppError } from '../../../lib/app-error';
import {
  SOL_MINT,
  USDC_MINT,
  startJupiterSwapFake,
  type JupiterFakeBehaviour,
  type JupiterFakePath,
  type JupiterSwapFake,
} from '../../../../test/fakes/jupiter-swap-fake';
import { createJupiterVenue, type JupiterVenueOptions } from './jupiter-venue';
import { VenueError, type SpotQuoteRequest, type SpotVenue } from './spot-venue';

const SOL = { symbol: 'SOL', mint: SOL_MINT, decimals: 9 };
const USDC = { symbol: 'USDC', mint: USDC_MINT, decimals: 6 };

function quietLog(): FastifyBaseLogger {
  const log = {
    level: 'silent',
    fatal: vi.fn(),
    error: vi.fn(),
    warn: vi.fn(),
    info: vi.fn(),
    debug: vi.fn(),
    trace: vi.fn(),
    silent: vi.fn(),
    child: () => log,
  };
  return log as unknown as FastifyBaseLogger;
}

function request(overrides: Partial<SpotQuoteRequest> = {}): SpotQuoteRequest {
  return {
    base: SOL,
    quote: USDC,
    side: 'Sell',
    baseAmount: 2_000_000_000n,
    slippageBps: DEFAULT_SLIPPAGE_BPS,
    ...overrides,
  };
}

let fake: JupiterSwapFake;
let user: string;

function venueFor(options: Partial<JupiterVenueOptions> = {}): SpotVenue {
  return createJupiterVenue({ baseUrl: fake.url, timeoutMs: 2_000, log: quietLog(), ...options });
}

beforeAll(async () => {
  fake = await startJupiterSwapFake();
  user = (await generateKeyPairSigner()).address;
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

describe('Jupiter venue: quotes', () => {
  it('quotes a Sell as an ExactIn swap base → quote, amounts as bigint base units', async () => {
    const quote = await venueFor().quote(request());

    expect(fake.requests).toHaveLength(1);
    const sent = fake.requests[0]!;
    expect(sent.method).toBe('GET');
    expect(sent.path).toBe('/quote');
    expect(Object.fromEntries(sent.query)).toEqual({
      inputMint: SOL_MINT,
      outputMint: USDC_MINT,
      amount: '2000000000',
      slippageBps: '50',
      swapMode: 'ExactIn',
    });
    const served = fake.quotes[0]!;
    expect(quote.venue).toBe('jupiter');
    // 70 % pays 0.25 % in USDC, 30 % pays 0.25 % in SOL, at 150 USDC/SOL: 299.25 USDC.
    expect(quote.quoteAmount).toBe(299_250_000n);
    expect(quote.quoteAmount).toBe(BigInt(served.outAmount as string));
    expect(quote.quoteAmountLimit).toBe(BigInt(served.otherAmountThreshold as string));
    expect(quote.quoteAmountLimit).toBe(297_753_750n); // 0.5 % below
    expect(quote.price.toString()).toBe('149.625');
    expect(quote.marketPrice.toString()).toBe('149.625');
    expect(quote.venueFee.toString()).toBe('0.525'); // only the fee charged in USDC
    expect(quote.priceImpactBps.toString()).toBe('12');
    expect(quote.raw).toEqual(served);
    expect(quote.request).toEqual(request());
  });

  it('quotes a Buy as an ExactOut swap quote → base: quote paid, most paid after slippage', async () => {
    const quote = await venueFor().quote(request({ side: 'Buy', baseAmount: 1_000_000_000n }));

    expect(Object.fromEntries(fake.requests[0]!.query)).toEqual({
      inputMint: USDC_MINT,
      outputMint: SOL_MINT,
      amount: '1000000000',
      slippageBps: '50',
      swapMode: 'ExactOut',
    });
    const served = fake.quotes[0]!;
    expect(served.outAmount).toBe('1000000000');
    expect(quote.quoteAmount).toBe(BigInt(served.inAmount as string));
    expect(quote.quoteAmount).toBe(150_375_940n);
    expect(quote.quoteAmountLimit).toBe(BigInt(served.otherAmountThreshold as string));
    expect(quote.quoteAmountLimit).toBe(151_127_820n); // 0.5 % above, rounded up
    expect(quote.price.toString()).toBe('150.37594');
    const routePlan = served.routePlan as Array<{ swapInfo: { feeAmount: string; feeMint: string } }>;
    const usdcFee = routePlan.find((leg) => leg.swapInfo.feeMint === USDC_MINT)!.swapInfo.feeAmount;
    expect(quote.venueFee.toString()).toBe(new Dec(usdcFee).div(1e6).toString());
    expect(quote.venueFee.toString()).toBe('0.112782');
  });

  it('passes the slippage through and sends the API key', async () => {
    const quote = await venueFor({ apiKey: 'secret-key' }).quote(request({ slippageBps: 125 }));

    expect(fake.requests[0]!.query.get('slippageBps')).toBe('125');
    expect(fake.requests[0]!.headers['x-api-key']).toBe('secret-key');
    expect(quote.quoteAmountLimit).toBe((299_250_000n * (10_000n - 125n)) / 10_000n);
  });

  it('takes the market price from marketPriceOf, and the quote price when it fails', async () => {
    const marketPriceOf = vi.fn(async () => new Dec('150'));
    const quote = await venueFor({ marketPriceOf }).quote(request());
    expect(quote.marketPrice.toString()).toBe('150');
    expect(marketPriceOf).toHaveBeenCalledWith(request());

    const failing = await venueFor({
      marketPriceOf: () => Promise.reject(new Error('price feed down')),
    }).quote(request());
    expect(failing.marketPrice.toString()).toBe('149.625');
  });

  it('refuses a zero amount, equal mints and a bad slippage without calling Jupiter', async () => {
    const venue = venueFor();
    for (const bad of [
      request({ baseAmount: 0n }),
      request({ quote: SOL }),
      request({ slippageBps: 1.5 }),
      request({ slippageBps: 5001 }),
    ]) {
      await expect(venue.quote(bad)).rejects.toMatchObject({ name: 'VenueError', kind: 'bad_request' });
    }
    expect(fake.requests).toHaveLength(0);
  });
});

describe('Jupiter venue: swap transactions', () => {
  it('posts the raw quote and priority fee, and decodes the v0 transaction for the wallet', async () => {
    const venue = venueFor();
    const quote = await venue.quote(request());
    const swap = await venue.buildSwap({ quote, userAddress: user, priorityFeeMicroLamports: 25_000 });

    const sent = fake.requests[1]!;
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/swap');
    expect(sent.headers['content-type']).toBe('application/json');
    expect(sent.body).toEqual({
      quoteResponse: fake.quotes[0],
      userPublicKey: user,
      wrapAndUnwrapSol: true,
      dynamicComputeUnitLimit: true,
      computeUnitPriceMicroLamports: 25_000,
    });

    const served = fake.swaps[0]!;
    expect(Buffer.from(swap.wireBytes).toString('base64')).toBe(served.swapTransaction);
    const decoded = getTransactionDecoder().decode(swap.wireBytes);
    expect(swap.messageBytes).toEqual(new Uint8Array(decoded.messageBytes));
    expect(decoded.signatures).toEqual({ [user]: null });
    const message = getCompiledTransactionMessageDecoder().decode(swap.messageBytes);
    expect(message.version).toBe(0);
    expect(message.staticAccounts[0]).toBe(user);
    expect(swap.sizeBytes).toBe(swap.wireBytes.length);
    expect(swap.sizeBytes).toBeLessThanOrEqual(1232);
    expect(swap.lastValidBlockHeight).toBe(BigInt(served.lastValidBlockHeight as number));
    // One signature (5000) + 25,000 µlamports × 200,000 CU = 5000 lamports of priority fee.
    expect(served.prioritizationFeeLamports).toBe(5000);
    expect(swap.networkFeeLamports).toBe(10_000n);
  });

  it('passes a zero priority fee through', async () => {
    const venue = venueFor();
    const swap = await venue.buildSwap({
      quote: await venue.quote(request({ side: 'Buy' })),
      userAddress: user,
      priorityFeeMicroLamports: 0,
    });
    expect((fake.requests[1]!.body as Record<string, unknown>).computeUnitPriceMicroLamports).toBe(0);
    expect(swap.networkFeeLamports).toBe(5000n);
  });

  it("accepts a venue co-signature and counts its signature's fee", async () => {
    fake.swapTransaction = { coSigner: 'signed' };
    const venue = venueFor();
    const swap = await venue.buildSwap({
      quote: await venue.quote(request()),
      userAddress: user,
      priorityFeeMicroLamports: 0,
    });
    const signatures = getTransactionDecoder().decode(swap.wireBytes).signatures;
    expect(Object.keys(signatures)).toHaveLength(2);
    expect(signatures[user as keyof typeof signatures]).toBeNull();
    expect(swap.networkFeeLamports).toBe(10_000n);
  });

  it.each<[string, JupiterSwapFake['swapTransaction'], string]>([
    ['another fee payer', { feePayer: 'other' }, 'Jupiter built the swap for another fee payer'],
    ['a missing co-signature', { coSigner: 'unsigned' }, 'Jupiter returned a swap missing a co-signature'],
    [
      'bytes that are not a transaction',
      { swapTransaction: Buffer.from('not a transaction').toString('base64') },
      'Jupiter returned a transaction that could not be decoded',
    ],
    [
      'text that is not base64',
      { swapTransaction: '%%%' },
      'Jupiter returned a transaction that could not be decoded',
    ],
  ])('refuses a transaction with %s', async (_label, options, message) => {
    fake.swapTransaction =
      options.feePayer === 'other' ? { feePayer: (await generateKeyPairSigner()).address } : options;
    const venue = venueFor();
    const quote = await venue.quote(request());
    await expect(
      venue.buildSwap({ quote, userAddress: user, priorityFeeMicroLamports: 0 }),
    ).rejects.toMatchObject({ name: 'VenueError', kind: 'unavailable', message });
    expect(fake.swaps).toHaveLength(1);
  });

  it('refuses a transaction larger than a packet', async () => {
    fake.swapTransaction = { instructionDataBytes: 1200 };
    const venue = venueFor();
    const quote = await venue.quote(request());
    const error = await venue
      .buildSwap({ quote, userAddress: user, priorityFeeMicroLamports: 0 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('TRADING__TRANSACTION_TOO_LARGE');
  });

  it('refuses a quote Jupiter did not make, a bad wallet address and a bad priority fee', async () => {
    const venue = venueFor();
    const quote = await venue.quote(request());
    for (const bad of [
      { quote: { ...quote, venue: 'local-rfq' }, userAddress: user, priorityFeeMicroLamports: 0 },
      { quote: { ...quote, raw: undefined }, userAddress: user, priorityFeeMicroLamports: 0 },
      { quote, userAddress: 'not-an-address', priorityFeeMicroLamports: 0 },
      { quote, userAddress: user, priorityFeeMicroLamports: -1 },
    ]) {
      await expect(venue.buildSwap(bad)).rejects.toMatchObject({ name: 'VenueError', kind: 'bad_request' });
    }
    expect(fake.requests.map((sent) => sent.path)).toEqual(['/quote']);
  });
});

describe('Jupiter venue: failures', () => {
  it.each<[JupiterFakeBehaviour, JupiterFakePath, VenueError['kind']]>([
    ['server-error', '/quote', 'unavailable'],
    ['rate-limited', '/quote', 'unavailable'],
    ['garbage', '/quote', 'unavailable'],
    ['no-route', '/quote', 'no_liquidity'],
    ['not-tradable', '/quote', 'pair_unavailable'],
    ['bad-request', '/quote', 'bad_request'],
    ['server-error', '/swap', 'unavailable'],
    ['rate-limited', '/swap', 'unavailable'],
    ['garbage', '/swap', 'unavailable'],
  ])('maps %s on %s to %s', async (behaviour, path, kind) => {
    const venue = venueFor();
    const quote = path === '/swap' ? await venue.quote(request()) : undefined;
    fake.behave(behaviour, path);
    const attempt = quote
      ? venue.buildSwap({ quote, userAddress: user, priorityFeeMicroLamports: 0 })
      : venue.quote(request());
    const error = await attempt.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(VenueError);
    expect((error as VenueError).kind).toBe(kind);
  });

  it('maps a token Jupiter does not know to pair_unavailable', async () => {
    const unknown = { symbol: 'NEW', mint: 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263', decimals: 5 };
    await expect(venueFor().quote(request({ base: unknown }))).rejects.toMatchObject({
      kind: 'pair_unavailable',
    });
  });

  it.each<[JupiterFakeBehaviour, JupiterFakePath]>([
    ['hang', '/quote'],
    ['hang-body', '/quote'],
    ['hang', '/swap'],
  ])('times out when Jupiter does not finish answering (%s on %s)', async (behaviour, path) => {
    const venue = venueFor({ timeoutMs: 150 });
    const quote = path === '/swap' ? await venue.quote(request()) : undefined;
    fake.behave(behaviour, path);
    const started = Date.now();
    const attempt = quote
      ? venue.buildSwap({ quote, userAddress: user, priorityFeeMicroLamports: 0 })
      : venue.quote(request());
    await expect(attempt).rejects.toMatchObject({
      kind: 'unavailable',
      message: 'Jupiter did not answer within 0.15 s',
    });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('maps an unreachable Jupiter to unavailable', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));

    await expect(venueFor({ baseUrl: `http://127.0.0.1:${port}` }).quote(request())).rejects.toMatchObject({
      kind: 'unavailable',
      message: 'Jupiter could not be reached',
    });
  });
});
