import { z } from 'zod';
import { success } from '@solterm/contracts';
import { AppError } from '../../lib/app-error';
import { localClientsOnly } from '../../lib/local-client';
import { ok } from '../../lib/reply';
import type { ZodApp } from '../../lib/zod-app';
import type { MarketData } from './market-data';
import type { MarketService } from './market.service';

/** A token's total factor stays within [1/100, 100] of the simulation: prices stay positive and finite. */
const MIN_FACTOR = 0.01;
const MAX_FACTOR = 100;
/** Shift steps per token: each is a breakpoint every later price read checks. */
export const MAX_SHIFT_STEPS = 200;

const ZShiftBodySchema = z
  .object({
    token: z.string().trim().min(1).max(64, { message: 'token must be at most 64 characters' }),
    /** Move the price by this percentage from now on (on top of earlier shifts). */
    percent: z.number().gt(-100).max(10_000).optional(),
    /** Or undo every earlier shift of the token from now on. */
    reset: z.literal(true).optional(),
  })
  .strict()
  .refine((body) => (body.percent === undefined) !== (body.reset === undefined), {
    message: 'give either percent or reset: true',
  });

const ZShiftSchema = z.object({
  symbol: z.string(),
  mint: z.string(),
  /** The token's USD price from this second on. */
  price: z.string(),
  /** The token's total factor over the unshifted simulation (1 after a reset). */
  factor: z.number(),
});

/**
 * The dev price hook: moves one token of the embedded simulated market from the current second on,
 * so journeys and manual tests can make a trigger order fire without waiting on the random walk.
 * Every reader of prices (quotes, RFQ maker, tickers, candles from now on, the spot trigger and perp
 * keepers) sees the move. It acts on this process's simulator only and is kept in memory (a restart
 * forgets it). Registered only when DEV_MARKET is on (by default on localnet only, never on mainnet)
 * and the market is simulated; answers only clients on this machine, anyone else gets the 404 of an
 * unknown route.
 */
export function registerDevMarketRoutes(
  app: ZodApp,
  deps: { market: MarketService; data: Required<Pick<MarketData, 'shiftPrice'>> },
): void {
  app.post('/api/dev/market/shift', {
    onRequest: localClientsOnly,
    schema: {
      tags: ['dev'],
      summary: "Moves a simulated token's price from now on (DEV_MARKET, loopback clients only)",
      body: ZShiftBodySchema,
      response: { 200: success(ZShiftSchema) },
    },
    handler: async (request) => {
      const token = await deps.market.resolveToken(request.body.token);
      const current = deps.data.shiftPrice(token, 1);
      if (!current) throw new AppError('MARKET__TOKEN_NOT_FOUND', `Token not found: ${request.body.token}`);
      const factor = request.body.reset ? 1 / current.factor : 1 + request.body.percent! / 100;
      const total = current.factor * factor;
      if (!(total >= MIN_FACTOR && total <= MAX_FACTOR)) {
        throw new AppError(
          'VALIDATION__INVALID_INPUT',
          `A shift may move ${token.symbol} to between ${MIN_FACTOR} and ${MAX_FACTOR} times its simulated price; it is at ${current.factor} times`,
        );
      }
      if (current.steps >= MAX_SHIFT_STEPS) {
        throw new AppError('VALIDATION__INVALID_INPUT', `${token.symbol} has been shifted too often`);
      }
      const shifted = deps.data.shiftPrice(token, factor)!;
      request.log.warn(
        { symbol: token.symbol, factor: shifted.factor, price: shifted.price },
        'dev market shift: simulated price moved',
      );
      return ok({
        symbol: shifted.token.symbol,
        mint: shifted.token.mint ?? '',
        price: shifted.price,
        factor: shifted.factor,
      });
    },
  });
}
