import { checkLeverage, equityOf, hasExposureIn, initialRequirementAt, leverageOf } from './perp-margin';
import { matchAgainstBook } from './perp-matching';
import {
  BPS,
  ceilDiv,
  feeOf,
  initialMargin,
  notionalOf,
  PERP_MAX_SLIPPAGE_BPS,
  PERP_PRICE_BAND_BPS,
  PERP_TAKER_FEE_BPS,
  type PerpSide,
} from './perp-math';
import { restOrder } from './perp-open-orders';
import {
  abs,
  accountOf,
  ceilToTick,
  marketOf,
  PerpError,
  sign,
  type MarketState,
  type PerpAccount,
  type PerpFill,
  type PerpVenueState,
} from './perp-state';

export interface PlaceOrderInput {
  account: string;
  market: string;
  side: PerpSide;
  type: 'market' | 'limit';
  /** Lots. */
  size: bigint;
  /** A limit order's price (USDC base units per token, a multiple of the tick). */
  price?: bigint;
  /**
   * The leverage the trader expects. It must equal the account's setting for the market while the
   * account has a position or open orders there (LEVERAGE_MISMATCH otherwise); with nothing open it
   * becomes the setting, once the order is accepted. Absent: the setting.
   */
  leverage?: number;
  reduceOnly?: boolean;
  postOnly?: boolean;
  /** Immediate or cancel: what does not fill at once is dropped. */
  ioc?: boolean;
  at: number;
}

export interface PlaceOrderResult {
  orderId: number;
  fills: PerpFill[];
  /** Lots left resting in the book (0 for market and IOC orders). */
  resting: bigint;
  /** Own resting orders cancelled by self-trade prevention or as reduce-only orders with nothing to reduce. */
  cancelled: number[];
}

/**
 * Places an order: refuses it (nothing changed) or matches it against the book and rests what a
 * limit order did not fill. See {@link PerpExchange.placeOrder}. `id` is a fired trigger order's
 * own (a new one otherwise).
 */
export function placeOrder(venue: PerpVenueState, input: PlaceOrderInput, id?: number): PlaceOrderResult {
  const market = marketOf(venue, input.market);
  const { spec, book } = market;
  const account = accountOf(venue, input.account);
  if (market.oracle <= 0n) throw new PerpError('MARKET_NO_PRICE', 'Unable to get market price');
  const current = leverageOf(venue.markets, account, input.market);
  const leverage = input.leverage ?? current;
  checkLeverage(leverage, spec.maxLeverage);
  if (input.size <= 0n) throw new PerpError('SIZE_INVALID', 'Amount/Price invalid');
  const position = account.positions.get(input.market);
  const direction = input.side === 'buy' ? 1n : -1n;
  let size = input.size;
  if (input.reduceOnly) {
    if (!position || sign(position.size) !== -direction) {
      throw new PerpError('REDUCE_ONLY_NO_POSITION', 'A reduce-only order needs a position to reduce');
    }
    if (size > abs(position.size)) size = abs(position.size);
  } else if (size < spec.minSize) {
    throw new PerpError('SIZE_BELOW_MIN', 'The amount is below the market’s minimum order size');
  }
  const limit = limitOf(market, input);
  const opposite: PerpSide = input.side === 'buy' ? 'sell' : 'buy';
  const bestOpposite = book.bestPrice(opposite);
  const crosses =
    bestOpposite !== undefined && (input.side === 'buy' ? bestOpposite <= limit : bestOpposite >= limit);
  if (input.postOnly && crosses) {
    throw new PerpError('POST_ONLY_WOULD_CROSS', 'A post-only order would trade at once');
  }
  // A market order is margined at the worst price its size reaches in the book (within 8 %).
  const sweep = input.type === 'market' ? book.sweepPrice(opposite, size, limit) : limit;
  if (sweep === undefined) throw new PerpError('NO_LIQUIDITY', 'No liquidity within 8% of the oracle price');
  if (leverage !== current && hasExposureIn(venue.markets, account, input.market)) {
    throw new PerpError(
      'LEVERAGE_MISMATCH',
      `Your ${input.market} leverage is ${current}x: an order cannot change it while you have a position or open orders there; change it with the leverage setting`,
    );
  }
  if (!input.reduceOnly) checkOrderMargin(venue, account, input, leverage, size, sweep);

  account.leverage.set(input.market, leverage);
  const orderId = id ?? venue.nextOrderId++;
  const fills: PerpFill[] = [];
  const cancelled: number[] = [];
  const matched = matchAgainstBook(
    venue,
    {
      market,
      taker: account,
      side: input.side,
      size,
      limit,
      orderId,
      at: input.at,
      liquidation: false,
      // checkOrderMargin already held the order to its initial margin after the fill; a reduce-only
      // order skips it and is guarded fill by fill instead.
      guard: input.reduceOnly === true ? 'maintenance' : 'none',
    },
    fills,
    cancelled,
  );
  let remaining = matched.remaining;
  if (input.reduceOnly) {
    const after = account.positions.get(input.market);
    const reducible = after && sign(after.size) === -direction ? abs(after.size) : 0n;
    if (remaining > reducible) remaining = reducible;
  }
  let resting = 0n;
  // What a halted taker did not fill is dropped: resting it would cross the book.
  if (remaining > 0n && input.type === 'limit' && !input.ioc && !matched.halted) {
    restOrder(venue, account, {
      id: orderId,
      market: input.market,
      account: account.id,
      side: input.side,
      price: limit,
      size,
      remaining,
      reduceOnly: input.reduceOnly ?? false,
      leverage,
      createdAt: input.at,
    });
    resting = remaining;
  }
  return { orderId, fills, resting, cancelled };
}

/** A market order's worst price: 8 % from the oracle, on the tick. */
export function slippageBound(market: MarketState, side: PerpSide): bigint {
  const { oracle, spec } = market;
  const offset = (oracle * PERP_MAX_SLIPPAGE_BPS) / BPS;
  return side === 'buy'
    ? ((oracle + offset) / spec.tick) * spec.tick
    : ceilToTick(oracle - offset, spec.tick);
}

const PRICE_BAND_MESSAGE = `A limit price may be at most ${Number(PERP_PRICE_BAND_BPS) / 100}% above the oracle price to buy, or below it to sell`;

function limitOf(market: MarketState, input: PlaceOrderInput): bigint {
  if (input.type === 'market') return slippageBound(market, input.side);
  const price = input.price ?? 0n;
  if (price <= 0n || price % market.spec.tick !== 0n) {
    throw new PerpError('PRICE_INVALID', 'Amount/Price invalid');
  }
  // As Hyperliquid refuses an order priced too far from its reference (oracle) price: a limit
  // that trades at once takes no worse a price than a market order could.
  const band = (market.oracle * PERP_PRICE_BAND_BPS) / BPS;
  if (input.side === 'buy' ? price > market.oracle + band : price < market.oracle - band) {
    throw new PerpError('PRICE_OUT_OF_BAND', PRICE_BAND_MESSAGE);
  }
  return price;
}

/**
 * Refuses an order unless the account would still meet its initial margin after the order filled
 * in full at `worst` (its limit, or a market order's sweep), marked to the oracle: a fill above
 * the oracle for a buy (below it for a sell) loses the difference at once, so that loss and the
 * fee come out of the equity first. Refused rather than trimmed: the trader gets the order asked
 * for or a reason, never a silently smaller one.
 */
function checkOrderMargin(
  venue: PerpVenueState,
  account: PerpAccount,
  input: PlaceOrderInput,
  leverage: number,
  size: bigint,
  worst: bigint,
): void {
  const { spec, oracle, scale } = venue.markets.get(input.market)!;
  const position = account.positions.get(input.market);
  const direction = input.side === 'buy' ? 1n : -1n;
  let added = size;
  if (position && sign(position.size) === -direction)
    added = size > abs(position.size) ? size - abs(position.size) : 0n;
  const notional = notionalOf(size, worst, spec.sizeDecimals);
  const through = input.side === 'buy' ? worst - oracle : oracle - worst;
  const markLoss = through > 0n ? ceilDiv(size * through, scale) : 0n;
  const required =
    initialRequirementAt(venue.markets, account, input.market, leverage) +
    initialMargin(notionalOf(added, worst, spec.sizeDecimals), leverage) +
    feeOf(notional, PERP_TAKER_FEE_BPS) +
    markLoss;
  if (required > equityOf(venue.markets, account)) {
    throw new PerpError('INSUFFICIENT_MARGIN', 'Insufficient collateral for this order at this leverage');
  }
}
