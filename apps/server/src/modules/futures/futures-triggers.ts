import type { TFuturesOrderRequest, TFuturesPosition, TFuturesTpslRequest } from '@solterm/contracts';
import { firesAbove, lotsOf, type PerpExchange, type PerpSide, type TriggerKind } from '@solterm/engine';
import { AppError } from '../../lib/app-error';
import type { PerpCommand } from './perp-commands';
import type { PerpOrderRow, RecordedEffect } from './futures.repository';
import { positionsOf } from './futures-wire';
import { positiveDecimal } from './futures-errors';
import type { PerpMarket } from './perp-markets';
import type { PerpWire } from './perp-wire';

/**
 * A trigger price on the market's tick, never closer to firing than asked: one that fires when the
 * oracle rises to it is rounded up, one that fires when it falls, down.
 */
function triggerUnits(
  wire: PerpWire,
  input: unknown,
  market: PerpMarket,
  trigger: { kind: TriggerKind; side: PerpSide },
): bigint {
  const price = positiveDecimal(input as string | number, 'FUTURES__AMOUNT_OR_PRICE_INVALID');
  const units = wire.priceToTick(price, market, firesAbove(trigger) ? 'up' : 'down');
  if (units <= 0n) throw new AppError('FUTURES__AMOUNT_OR_PRICE_INVALID');
  return units;
}

/**
 * Trigger orders through the venue's log: a stop market or take profit market order (POST
 * /futures/order with `type`), and a position's TP/SL (POST /futures/position/tpsl). The keeper
 * fires them (perp-keeper.ts) with a `fire` command of their market.
 */
export function createTriggerActions(deps: {
  run: (command: PerpCommand) => Promise<{ effect: RecordedEffect }>;
  read: () => Promise<PerpExchange>;
  wire: PerpWire;
  now: () => Date;
  syncMarket?: (symbol: string) => Promise<void>;
}) {
  const { wire } = deps;

  /** Places a stop market or take profit market order; answers its order row. */
  async function placeTrigger(
    userId: string,
    market: PerpMarket,
    request: TFuturesOrderRequest,
  ): Promise<PerpOrderRow> {
    const kind = request.type!;
    const side: PerpSide = request.side === 'Long' ? 'buy' : 'sell';
    const amount = positiveDecimal(request.amount, 'FUTURES__AMOUNT_OR_PRICE_INVALID');
    if (request.trigger_price === undefined) throw new AppError('FUTURES__TRIGGER_PRICE_REQUIRED');
    const triggerPrice = triggerUnits(wire, request.trigger_price, market, { kind, side });
    const size = lotsOf(amount, market.sizeDecimals);
    if (size < market.minSize && !request.reduce_only) throw new AppError('FUTURES__BELOW_MIN_ORDER_SIZE');
    if (size <= 0n) throw new AppError('FUTURES__AMOUNT_OR_PRICE_INVALID');
    // The wrong-side check is against the oracle as the feed has it now.
    await deps.syncMarket?.(market.symbol);
    const { effect } = await deps.run({
      k: 'trigger',
      account: userId,
      market: market.symbol,
      side,
      kind,
      size: size.toString(),
      triggerPrice: triggerPrice.toString(),
      reduceOnly: request.reduce_only,
      at: deps.now().getTime(),
    });
    if (!effect.placed) throw new Error('unexpected effect');
    return effect.placed;
  }

  /** Sets (replaces, or with null removes) the TP/SL of the user's position; answers the position. */
  async function setTpsl(
    userId: string,
    market: PerpMarket,
    request: TFuturesTpslRequest,
  ): Promise<TFuturesPosition> {
    if (request.take_profit_price === undefined && request.stop_loss_price === undefined) {
      throw new AppError('FUTURES__TPSL_EMPTY');
    }
    const held = (await deps.read()).accounts.get(userId)?.positions.get(market.symbol)?.size ?? 0n;
    if (held === 0n) throw new AppError('FUTURES__TPSL_NO_POSITION');
    const side: PerpSide = held > 0n ? 'sell' : 'buy';
    const leg = (input: number | string | null | undefined, kind: TriggerKind) =>
      input === undefined || input === null
        ? input
        : triggerUnits(wire, input, market, { kind, side }).toString();
    const takeProfit = leg(request.take_profit_price, 'take_profit_market');
    const stopLoss = leg(request.stop_loss_price, 'stop_market');
    await deps.syncMarket?.(market.symbol);
    await deps.run({
      k: 'tpsl',
      account: userId,
      market: market.symbol,
      ...(takeProfit === undefined ? {} : { takeProfit }),
      ...(stopLoss === undefined ? {} : { stopLoss }),
      at: deps.now().getTime(),
    });
    const position = positionsOf(await deps.read(), userId).find((p) => p.symbol === market.symbol);
    if (!position) throw new AppError('FUTURES__TPSL_NO_POSITION');
    return position;
  }

  return { placeTrigger, setTpsl };
}
