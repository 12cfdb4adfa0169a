import {
  generateKeyPairSigner,
  getBase58Decoder,
  getPublicKeyFromAddress,
  getTransactionDecoder,
  verifySignature,
  type KeyPairSigner,
  type Transaction,
} from '@solana/kit';
import { DEFAULT_SLIPPAGE_BPS, USDC_MINT, WRAPPED_SOL_MINT } from '@solterm/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ChainService } from '../../chain/chain.service';
import { createLocalRfqVenue, type LocalRfqVenueDeps } from './local-rfq-venue';
import { VenueError, type SpotQuoteRequest } from './spot-venue';

const SOL = { symbol: 'SOL', mint: WRAPPED_SOL_MINT, decimals: 9 };
const USDC = { symbol: 'USDC', mint: USDC_MINT, decimals: 6 };

let maker: KeyPairSigner;
let user: KeyPairSigner;

beforeAll(async () => {
  [maker, user] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()]);
});

/** A chain with fixed holdings: the maker holds `makerSol` lamports and `makerUsdc` USDC units. */
function fakeChain(holdings: { makerSol: bigint; makerUsdc: bigint }): ChainService {
  return {
    getBalance: async () => holdings.makerSol,
    getTokenAccountAmount: async () => holdings.makerUsdc,
    getLatestBlockhash: async () => ({
      blockhash: getBase58Decoder().decode(new Uint8Array(32).fill(7)),
      lastValidBlockHeight: 1_000n,
    }),
  } as unknown as ChainService;
}

function venueWith(overrides: Partial<LocalRfqVenueDeps> & { price?: { sol: string } } = {}) {
  const price = overrides.price ?? { sol: '150' };
  return {
    price,
    venue: createLocalRfqVenue({
      chain: fakeChain({ makerSol: 1_000_000_000_000n, makerUsdc: 10_000_000_000n }),
      maker,
      usdPriceOf: async (token) => (token.mint === WRAPPED_SOL_MINT ? price.sol : '1'),
      quoteTtlMs: 10_000,
      priceToleranceBps: 10,
      ...overrides,
    }),
  };
}

const buy: SpotQuoteRequest = {
  base: SOL,
  quote: USDC,
  side: 'Buy',
  baseAmount: 1_000_000_000n,
  slippageBps: DEFAULT_SLIPPAGE_BPS,
};

async function builtSwap(venue: ReturnType<typeof venueWith>['venue'], request = buy) {
  const quote = await venue.quote(request);
  const swap = await venue.buildSwap({ quote, userAddress: user.address, priorityFeeMicroLamports: 0 });
  return { quote, swap, transaction: getTransactionDecoder().decode(swap.wireBytes) as Transaction };
}

describe('the local RFQ maker signs at execute time only', () => {
  it('returns the swap without the maker signature and names the maker as the signer to add', async () => {
    const { venue } = venueWith();
    const { swap, transaction } = await builtSwap(venue);
    expect(swap.venueSigners).toEqual([maker.address]);
    expect(Object.keys(transaction.signatures)).toEqual([user.address, maker.address]);
    for (const signature of Object.values(transaction.signatures)) expect(signature).toBeNull();
  });

  it('co-signs a quote that is still valid, and the signature verifies', async () => {
    const { venue } = venueWith();
    const { quote, transaction } = await builtSwap(venue);
    const quotedAt = new Date('2025-01-01T00:00:00Z');
    const signed = await venue.coSign!({
      request: quote.request,
      quoteAmount: quote.quoteAmount,
      quotedAt,
      now: new Date(quotedAt.getTime() + 9_999),
      transaction,
    });
    const signature = signed.signatures[maker.address]!;
    expect(
      await verifySignature(await getPublicKeyFromAddress(maker.address), signature, signed.messageBytes),
    ).toBe(true);
  });

  it('refuses to sign after the quote TTL', async () => {
    const { venue } = venueWith();
    const { quote, transaction } = await builtSwap(venue);
    const quotedAt = new Date('2025-01-01T00:00:00Z');
    const late = venue.coSign!({
      request: quote.request,
      quoteAmount: quote.quoteAmount,
      quotedAt,
      now: new Date(quotedAt.getTime() + 10_001),
      transaction,
    });
    await expect(late).rejects.toMatchObject({ name: 'VenueError', kind: 'quote_expired' });
  });

  it('refuses to sign when the price moved against the maker beyond the tolerance, not within it', async () => {
    const { venue, price } = venueWith();
    const { quote, transaction } = await builtSwap(venue);
    const at = new Date('2025-01-01T00:00:00Z');
    const coSign = () =>
      venue.coSign!({
        request: quote.request,
        quoteAmount: quote.quoteAmount,
        quotedAt: at,
        now: at,
        transaction,
      });
    price.sol = '150.14'; // +9.3 bps: within 10 bps
    await expect(coSign()).resolves.toBeDefined();
    price.sol = '150.2'; // +13 bps: the buyer's old price is a free option now
    await expect(coSign()).rejects.toBeInstanceOf(VenueError);
    await expect(coSign()).rejects.toMatchObject({ kind: 'quote_expired' });
    price.sol = '140'; // moved in the maker's favour
    await expect(coSign()).resolves.toBeDefined();
  });
});

describe('the maker keeps a reserve of every token', () => {
  it('refuses a quote that would take its USDC below the reserve floor', async () => {
    const { venue } = venueWith({
      chain: fakeChain({ makerSol: 1_000_000_000_000n, makerUsdc: 1_100_000_000n }),
      inventoryFloorBps: 1_000,
    });
    // Selling 5 SOL takes ~749 USDC of 1,100: more than 90 % of the inventory is fine…
    await expect(venue.quote({ ...buy, side: 'Sell', baseAmount: 5_000_000_000n })).resolves.toBeDefined();
    // …but 7 SOL (~1,049 USDC) would leave less than the 10 % floor.
    await expect(venue.quote({ ...buy, side: 'Sell', baseAmount: 7_000_000_000n })).rejects.toMatchObject({
      kind: 'no_liquidity',
    });
  });
});
