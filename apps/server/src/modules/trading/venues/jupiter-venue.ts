import {
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  isAddress,
  type Transaction,
} from '@solana/kit';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { MAX_SLIPPAGE_BPS, MAX_TRANSACTION_SIZE_BYTES } from '@solterm/contracts';
import { Dec, fromBaseUnits } from '@solterm/engine';
import { AppError } from '../../../lib/app-error';
import { LAMPORTS_PER_SIGNATURE } from '../../chain/chain.service';
import {
  VenueError,
  type SpotQuote,
  type SpotQuoteRequest,
  type SpotSwapRequest,
  type SpotSwapTransaction,
  type SpotVenue,
} from './spot-venue';

// The fields of Jupiter's Swap API v1 (same shapes as v6) we read: https://dev.jup.ag/docs/api-reference/swap

const VENUE_NAME = 'jupiter';

const ZBaseUnits = z.string().regex(/^\d+$/, { message: 'expected an integer amount in base units' });
const ZDecimalText = z.string().refine(
  (text) => {
    try {
      return new Dec(text).isFinite();
    } catch {
      return false;
    }
  },
  { message: 'expected a decimal number' },
);

const ZJupiterQuoteSchema = z.object({
  inputMint: z.string(),
  inAmount: ZBaseUnits,
  outputMint: z.string(),
  outAmount: ZBaseUnits,
  otherAmountThreshold: ZBaseUnits,
  swapMode: z.enum(['ExactIn', 'ExactOut']),
  slippageBps: z.number().int(),
  priceImpactPct: ZDecimalText,
  routePlan: z.array(
    z.object({
      swapInfo: z.object({
        ammKey: z.string(),
        label: z.string().optional(),
        inputMint: z.string(),
        outputMint: z.string(),
        inAmount: ZBaseUnits,
        outAmount: ZBaseUnits,
        feeAmount: ZBaseUnits.optional(),
        feeMint: z.string().optional(),
      }),
      percent: z.number().nullable().optional(),
    }),
  ),
  contextSlot: z.number().optional(),
  timeTaken: z.number().optional(),
});
type TJupiterQuote = z.infer<typeof ZJupiterQuoteSchema>;

const ZJupiterSwapSchema = z.object({
  swapTransaction: z.string().min(1),
  lastValidBlockHeight: z.number().int().nonnegative(),
  prioritizationFeeLamports: z.number().int().nonnegative().default(0),
  simulationError: z.unknown().optional(),
});

const ZJupiterErrorSchema = z.object({ error: z.string().optional(), errorCode: z.string().optional() });
type TJupiterError = z.infer<typeof ZJupiterErrorSchema>;

const NO_ROUTE_CODES = new Set([
  'COULD_NOT_FIND_ANY_ROUTE',
  'NO_ROUTES_FOUND',
  'ROUTE_PLAN_DOES_NOT_CONSUME_ALL_THE_AMOUNT',
]);
const NOT_TRADABLE_CODES = new Set(['TOKEN_NOT_TRADABLE']);

export interface JupiterVenueOptions {
  /** Swap API base, e.g. https://lite-api.jup.ag/swap/v1 (JUPITER_SWAP_API_URL). */
  baseUrl: string;
  /** Sent as `x-api-key` (required by api.jup.ag, not by lite-api). */
  apiKey?: string;
  /** Per request, body included. */
  timeoutMs: number;
  log: FastifyBaseLogger;
  /** Replaceable for tests; defaults to the global fetch. */
  fetch?: typeof fetch;
  /**
   * The pair's market price (quote per base) for `SpotQuote.marketPrice`. Jupiter has no mid of its
   * own, so without it (or when it answers undefined or fails) the quote's own price is used.
   */
  marketPriceOf?: (request: SpotQuoteRequest) => Promise<Dec | undefined>;
}

/**
 * The Jupiter spot venue: a Buy is an ExactOut swap quote → base, a Sell an ExactIn swap base → quote.
 * Quotes come from GET /quote (the raw answer is kept in `SpotQuote.raw`); POST /swap returns the
 * v0 transaction, decoded and checked here (fee payer, size) before the wallet signs it.
 *
 * `venueFee` sums the route's fees charged in the quote mint; fees charged in another mint (the base
 * or an intermediate token) are not converted and count as 0. `priceImpactBps` is Jupiter's
 * `priceImpactPct`, a fraction despite its name (0.01 = 1 %), × 10,000.
 *
 * Failures are VenueErrors: time-outs, network errors, 401/403/404, 429, 5xx and a transaction that
 * fails the checks → 'unavailable'; no route → 'no_liquidity'; a token Jupiter cannot trade →
 * 'pair_unavailable'; other 4xx → 'bad_request'. An oversize transaction is TRADING__TRANSACTION_TOO_LARGE.
 */
export function createJupiterVenue(options: JupiterVenueOptions): SpotVenue {
  const doFetch = options.fetch ?? fetch;
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.apiKey) headers['x-api-key'] = options.apiKey;

  const timedOut = () =>
    new VenueError('unavailable', `Jupiter did not answer within ${options.timeoutMs / 1000} s`);
  const isTimeout = (error: unknown) => {
    const name = (error as { name?: string } | undefined)?.name;
    return name === 'TimeoutError' || name === 'AbortError';
  };

  function failure(status: number, info: TJupiterError | undefined): VenueError {
    const code = info?.errorCode ?? '';
    const text = (info?.error ?? '').slice(0, 200);
    if (NO_ROUTE_CODES.has(code) || /could not find any route|no routes? found/i.test(text)) {
      return new VenueError('no_liquidity', `Jupiter found no route for this size${text ? `: ${text}` : ''}`);
    }
    if (NOT_TRADABLE_CODES.has(code) || /not tradable/i.test(text)) {
      return new VenueError('pair_unavailable', text || 'Jupiter cannot trade this token');
    }
    if (status === 429) return new VenueError('unavailable', 'Jupiter rate limit reached');
    // 401/403/404 mean our URL or API key is wrong, not the user's request.
    if (status >= 500 || status === 401 || status === 403 || status === 404) {
      options.log.warn({ venue: VENUE_NAME, status, code, error: text }, 'Jupiter swap API failed');
      return new VenueError('unavailable', `Jupiter is unavailable (HTTP ${status})`);
    }
    return new VenueError('bad_request', `Jupiter refused the request${text ? `: ${text}` : ''}`);
  }

  /** One JSON request: the time-out covers the body; `body` is the answer as received. */
  async function call<T>(
    path: string,
    schema: z.ZodType<T>,
    init: { query?: Record<string, string | number>; body?: unknown },
  ): Promise<{ data: T; body: unknown }> {
    const target = new URL(baseUrl + path);
    for (const [key, value] of Object.entries(init.query ?? {})) target.searchParams.set(key, String(value));
    const signal = AbortSignal.timeout(options.timeoutMs);
    let response: Response;
    try {
      response = await doFetch(
        target,
        init.body === undefined
          ? { headers, signal }
          : {
              method: 'POST',
              headers: { ...headers, 'content-type': 'application/json' },
              body: JSON.stringify(init.body),
              signal,
            },
      );
    } catch (error) {
      if (isTimeout(error)) throw timedOut();
      options.log.warn({ err: error, venue: VENUE_NAME }, 'Jupiter swap API unreachable');
      throw new VenueError('unavailable', 'Jupiter could not be reached');
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch (error) {
      if (isTimeout(error)) throw timedOut();
      body = undefined;
    }
    const error = ZJupiterErrorSchema.safeParse(body);
    // An answer carrying an errorCode is a failure whatever its status.
    if (!response.ok || (error.success && error.data.errorCode !== undefined)) {
      throw failure(response.status, error.success ? error.data : undefined);
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      options.log.warn(
        { venue: VENUE_NAME, path, issues: parsed.error.issues.slice(0, 3) },
        'unexpected Jupiter swap API response',
      );
      throw new VenueError('unavailable', 'Jupiter returned an unexpected response');
    }
    return { data: parsed.data, body };
  }

  async function marketPriceFor(request: SpotQuoteRequest, price: Dec): Promise<Dec> {
    if (!options.marketPriceOf) return price;
    try {
      return (await options.marketPriceOf(request)) ?? price;
    } catch (error) {
      options.log.warn({ err: error, venue: VENUE_NAME }, 'market price unavailable; using the quote price');
      return price;
    }
  }

  function assertQuoteMatches(request: SpotQuoteRequest, quote: TJupiterQuote): void {
    const buy = request.side === 'Buy';
    const expected = buy
      ? { inputMint: request.quote.mint, outputMint: request.base.mint, swapMode: 'ExactOut' }
      : { inputMint: request.base.mint, outputMint: request.quote.mint, swapMode: 'ExactIn' };
    const fixedAmount = buy ? quote.outAmount : quote.inAmount;
    if (
      quote.inputMint !== expected.inputMint ||
      quote.outputMint !== expected.outputMint ||
      quote.swapMode !== expected.swapMode ||
      BigInt(fixedAmount) !== request.baseAmount
    ) {
      options.log.warn(
        { venue: VENUE_NAME, expected, got: { ...quote, routePlan: undefined } },
        'Jupiter quoted another swap than asked',
      );
      throw new VenueError('unavailable', 'Jupiter returned a quote for another swap');
    }
  }

  return {
    name: VENUE_NAME,

    async quote(request: SpotQuoteRequest): Promise<SpotQuote> {
      if (request.baseAmount <= 0n) throw new VenueError('bad_request', 'The amount must be greater than 0');
      if (request.base.mint === request.quote.mint) {
        throw new VenueError('bad_request', 'The base and quote tokens must differ');
      }
      if (
        !Number.isInteger(request.slippageBps) ||
        request.slippageBps < 0 ||
        request.slippageBps > MAX_SLIPPAGE_BPS
      ) {
        throw new VenueError(
          'bad_request',
          `Slippage must be a whole number of bps from 0 to ${MAX_SLIPPAGE_BPS}`,
        );
      }
      const buy = request.side === 'Buy';
      const { data, body } = await call('/quote', ZJupiterQuoteSchema, {
        query: {
          inputMint: buy ? request.quote.mint : request.base.mint,
          outputMint: buy ? request.base.mint : request.quote.mint,
          amount: request.baseAmount.toString(),
          slippageBps: request.slippageBps,
          swapMode: buy ? 'ExactOut' : 'ExactIn',
        },
      });
      assertQuoteMatches(request, data);
      const quoteAmount = BigInt(buy ? data.inAmount : data.outAmount);
      if (quoteAmount === 0n) throw new VenueError('no_liquidity', 'Jupiter quoted nothing for this size');
      const price = fromBaseUnits(quoteAmount, request.quote.decimals).div(
        fromBaseUnits(request.baseAmount, request.base.decimals),
      );
      const feeUnits = data.routePlan.reduce(
        (sum, { swapInfo }) =>
          swapInfo.feeMint === request.quote.mint && swapInfo.feeAmount !== undefined
            ? sum + BigInt(swapInfo.feeAmount)
            : sum,
        0n,
      );
      return {
        venue: VENUE_NAME,
        request,
        quoteAmount,
        quoteAmountLimit: BigInt(data.otherAmountThreshold),
        price,
        marketPrice: await marketPriceFor(request, price),
        venueFee: fromBaseUnits(feeUnits, request.quote.decimals),
        priceImpactBps: new Dec(data.priceImpactPct).times(10_000),
        raw: body,
      };
    },

    async buildSwap(request: SpotSwapRequest): Promise<SpotSwapTransaction> {
      const { quote, userAddress, priorityFeeMicroLamports } = request;
      if (quote.venue !== VENUE_NAME || !ZJupiterQuoteSchema.safeParse(quote.raw).success) {
        throw new VenueError('bad_request', 'The quote was not made by Jupiter');
      }
      if (!isAddress(userAddress)) throw new VenueError('bad_request', 'The wallet address is not valid');
      if (!Number.isSafeInteger(priorityFeeMicroLamports) || priorityFeeMicroLamports < 0) {
        throw new VenueError('bad_request', 'The priority fee must be a whole number of micro-lamports');
      }
      const { data } = await call('/swap', ZJupiterSwapSchema, {
        body: {
          quoteResponse: quote.raw,
          userPublicKey: userAddress,
          wrapAndUnwrapSol: true,
          dynamicComputeUnitLimit: true,
          computeUnitPriceMicroLamports: priorityFeeMicroLamports,
        },
      });
      if (data.simulationError != null) {
        // The trading service simulates again before sending; Jupiter's verdict is only logged.
        options.log.warn(
          { venue: VENUE_NAME, simulationError: data.simulationError },
          'Jupiter simulation failed',
        );
      }

      let wireBytes: Uint8Array;
      let transaction: Transaction;
      let message: ReturnType<ReturnType<typeof getCompiledTransactionMessageDecoder>['decode']>;
      try {
        wireBytes = new Uint8Array(getBase64Encoder().encode(data.swapTransaction));
        transaction = getTransactionDecoder().decode(wireBytes);
        message = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
      } catch (error) {
        options.log.warn({ err: error, venue: VENUE_NAME }, 'Jupiter swap transaction could not be decoded');
        throw new VenueError('unavailable', 'Jupiter returned a transaction that could not be decoded');
      }
      if (message.version !== 0) {
        throw new VenueError('unavailable', `Jupiter returned a ${message.version} transaction, not v0`);
      }
      const signers = message.staticAccounts.slice(0, message.header.numSignerAccounts);
      if (signers[0] !== userAddress) {
        options.log.warn({ venue: VENUE_NAME, feePayer: signers[0], userAddress }, 'Jupiter swap fee payer');
        throw new VenueError('unavailable', 'Jupiter built the swap for another fee payer');
      }
      // Any other signer is the venue's: its signature must already be in place.
      if (signers.slice(1).some((signer) => transaction.signatures[signer] == null)) {
        throw new VenueError('unavailable', 'Jupiter returned a swap missing a co-signature');
      }
      if (wireBytes.length > MAX_TRANSACTION_SIZE_BYTES) throw new AppError('TRADING__TRANSACTION_TOO_LARGE');
      return {
        wireBytes,
        messageBytes: new Uint8Array(transaction.messageBytes),
        lastValidBlockHeight: BigInt(data.lastValidBlockHeight),
        sizeBytes: wireBytes.length,
        networkFeeLamports:
          LAMPORTS_PER_SIGNATURE * BigInt(signers.length) + BigInt(data.prioritizationFeeLamports),
        // Jupiter's own co-signatures come with its swap: this server adds none.
        venueSigners: [],
      };
    },
  };
}
