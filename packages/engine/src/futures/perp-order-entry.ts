import { checkLeverage, equityOf, hasExposureIn, initialRequirementAt, leverageOf } from './perp-margin';
import { freeMarginFloorCovers, freeMarginFloorUnits, freeMarginUnits, heldUnits } from './perp-margin-units';
import { matchAgainstBook } from './perp-matching';
import {
  ceilDiv,
  feeOf,
  initialMargin,
  notionalOf,
  PERP_PRICE_BAND_BPS,
  PERP_TAKER_FEE_BPS,
  type PerpSide,
} from './perp-math';
import { restOrder } from './perp-open-orders';
import {
  abs,
  accountOf,
  bigOf,
  marketOf,
  PerpError,
  sign,
  type MarketState,
  type Account,
  type PerpFill,
  type PerpVenueState,
} from './perp-state';
import {
  add,
  ceilQuot,
  feeUnits,
  MAX_UNITS_BIG,
  mul,
  notionalUnits,
  rem,
  smallUnits,
  unitsOf,
} from './perp-units';

const TAKER_FEE_BPS = Number(PERP_TAKER_FEE_BPS);

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
  const setting = account.leverage.slots[market.index];
  const current = setting ?? leverageOf(venue.markets, account, input.market);
  const leverage = input.leverage ?? current;
  checkLeverage(leverage, spec.maxLeverage);
  if (input.size <= 0n) throw new PerpError('SIZE_INVALID', 'Amount/Price invalid');
  const position = account.positions.slots[market.index];
  const buy = input.side === 'buy';
  let sizeBig = input.size;
  if (input.reduceOnly) {
    if (!position || (buy ? position.size >= 0n : position.size <= 0n)) {
      throw new PerpError('REDUCE_ONLY_NO_POSITION', 'A reduce-only order needs a position to reduce');
    }
    if (sizeBig > abs(position.size)) sizeBig = abs(position.size);
  } else if (sizeBig < spec.minSize) {
    throw new PerpError('SIZE_BELOW_MIN', 'The amount is below the market’s minimum order size');
  }
  // Lots and prices are exact numbers through matching and margin (perp-units.ts): none past 2^53.
  if (sizeBig > MAX_UNITS_BIG) throw new PerpError('SIZE_INVALID', 'Amount/Price invalid');
  const size = smallUnits(sizeBig);
  const limit = limitOf(market, input);
  const opposite: PerpSide = buy ? 'sell' : 'buy';
  const bestOpposite = book.bestKey(opposite);
  const crosses = bestOpposite !== undefined && (buy ? bestOpposite <= limit : bestOpposite >= limit);
  if (input.postOnly && crosses) {
    throw new PerpError('POST_ONLY_WOULD_CROSS', 'A post-only order would trade at once');
  }
  // A market order is margined at the worst price its size reaches in the book (within 8 %).
  const sweep = input.type === 'market' ? book.sweepKey(opposite, size, limit) : limit;
  if (sweep === undefined) throw new PerpError('NO_LIQUIDITY', 'No liquidity within 8% of the oracle price');
  if (leverage !== current && hasExposureIn(venue.markets, account, input.market)) {
    throw new PerpError(
      'LEVERAGE_MISMATCH',
      `Your ${input.market} leverage is ${current}x: an order cannot change it while you have a position or open orders there; change it with the leverage setting`,
    );
  }
  // The margin the order holds if it rests in full (NaN: computed as it rests).
  const margin = input.reduceOnly
    ? NaN
    : checkOrderMargin(venue, market, account, buy, leverage, size, sweep);

  if (setting !== leverage) account.leverage.set(input.market, leverage);
  const orderId = id ?? venue.nextOrderId++;
  const fills: PerpFill[] = [];
  const cancelled: number[] = [];
  // An order that does not cross has nothing to match (most limit orders): no walk is set up.
  const matched = crosses
    ? matchAgainstBook(
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
          // checkOrderMargin already held the order to its initial margin after the fill; a
          // reduce-only order skips it and is guarded fill by fill instead.
          guard: input.reduceOnly === true ? 'maintenance' : 'none',
        },
        fills,
        cancelled,
      )
    : undefined;
  let remaining = matched === undefined ? size : matched.remaining;
  if (input.reduceOnly && remaining > 0) {
    const reducible = reducibleLots(account, input.market, buy);
    if (remaining > reducible) remaining = reducible;
  }
  let resting = 0n;
  // What a halted taker did not fill is dropped: resting it would cross the book.
  if (remaining > 0 && input.type === 'limit' && !input.ioc && matched?.halted !== true) {
    restOrder(
      market,
      account,
      book.newOrder(
        orderId,
        input.market,
        account.id,
        input.side,
        input.price!,
        limit,
        sizeBig,
        remaining,
        input.reduceOnly ?? false,
        leverage,
        input.at,
      ),
      remaining === size ? margin : NaN,
    );
    resting = bigOf(remaining);
  }
  return { orderId, fills, resting, cancelled };
}

/** Lots of the account's position an order on this side reduces (NaN past 2^53: more than any order). */
function reducibleLots(account: Account, symbol: string, buy: boolean): number {
  const held = account.positions.get(symbol)?.size ?? 0n;
  if (buy ? held >= 0n : held <= 0n) return 0;
  const lots = unitsOf(held);
  return lots < 0 ? -lots : lots;
}

const PRICE_BAND_MESSAGE = `A limit price may be at most ${Number(PERP_PRICE_BAND_BPS) / 100}% above the oracle price to buy, or below it to sell`;

function limitOf(market: MarketState, input: PlaceOrderInput): number {
  if (input.type === 'market') return input.side === 'buy' ? market.buyLimit : market.sellLimit;
  const price = input.price ?? 0n;
  if (price <= 0n || price > MAX_UNITS_BIG) throw new PerpError('PRICE_INVALID', 'Amount/Price invalid');
  const units = smallUnits(price);
  if (rem(units, market.tickUnits) !== 0) throw new PerpError('PRICE_INVALID', 'Amount/Price invalid');
  // As Hyperliquid refuses an order priced too far from its reference (oracle) price: a limit
  // that trades at once takes no worse a price than a market order could.
  if (input.side === 'buy' ? units > market.bandHigh : units < market.bandLow) {
    throw new PerpError('PRICE_OUT_OF_BAND', PRICE_BAND_MESSAGE);
  }
  return units;
}

/**
 * Refuses an order unless the account would still meet its initial margin after the order filled
 * in full at `worst` (its limit, or a market order's sweep), marked to the oracle: a fill above
 * the oracle for a buy (below it for a sell) loses the difference at once, so that loss and the
 * fee come out of the equity first. Refused rather than trimmed: the trader gets the order asked
 * for or a reason, never a silently smaller one. Answers the initial margin of the whole order at
 * `worst` (what a limit order resting in full holds), or NaN when it was not computed in numbers.
 */
function checkOrderMargin(
  venue: PerpVenueState,
  market: MarketState,
  account: Account,
  buy: boolean,
  leverage: number,
  size: number,
  worst: number,
): number {
  const { oracleUnits: oracle, scaleUnits: scale } = market;
  if (oracle !== oracle || scale !== scale) {
    checkOrderMarginExact(venue, market, account, buy, leverage, BigInt(size), BigInt(worst));
    return NaN;
  }
  const held = heldUnits(market, account);
  let added = size;
  if (buy ? held < 0 : held > 0) {
    const reduced = held < 0 ? -held : held;
    added = size > reduced ? size - reduced : 0;
  }
  const notional = notionalUnits(size, worst, scale);
  const through = buy ? worst - oracle : oracle - worst;
  const markLoss = through > 0 ? ceilQuot(mul(size, through), scale) : 0;
  const margin = ceilQuot(notional, leverage);
  // The needs below are at most margin + notional + markLoss (the fee is under the notional, the
  // added lots' margin under the order's): under a floor of the free margin, the order passes.
  const bound = add(add(margin, notional), markLoss);
  if (freeMarginFloorCovers(account, market, bound) || bound <= freeMarginFloorUnits(account, market))
    return margin;
  // Refused when initial requirement + the order's needs > equity, i.e. needs > equity − requirement.
  const needs = add(
    add(
      added === size ? margin : ceilQuot(notionalUnits(added, worst, scale), leverage),
      feeUnits(notional, TAKER_FEE_BPS),
    ),
    markLoss,
  );
  const free = freeMarginUnits(venue.markets, account, market, leverage);
  if (needs === needs && free === free) {
    if (needs > free) throw insufficientMargin();
    return margin;
  }
  checkOrderMarginExact(venue, market, account, buy, leverage, BigInt(size), BigInt(worst));
  return NaN;
}

const insufficientMargin = () =>
  new PerpError('INSUFFICIENT_MARGIN', 'Insufficient collateral for this order at this leverage');

/** {@link checkOrderMargin} in bigint, for amounts past what numbers hold exactly. */
function checkOrderMarginExact(
  venue: PerpVenueState,
  market: MarketState,
  account: Account,
  buy: boolean,
  leverage: number,
  size: bigint,
  worst: bigint,
): void {
  const { spec, oracle, scale } = market;
  const position = account.positions.get(spec.symbol);
  const direction = buy ? 1n : -1n;
  let added = size;
  if (position && sign(position.size) === -direction)
    added = size > abs(position.size) ? size - abs(position.size) : 0n;
  const notional = notionalOf(size, worst, spec.sizeDecimals);
  const through = buy ? worst - oracle : oracle - worst;
  const markLoss = through > 0n ? ceilDiv(size * through, scale) : 0n;
  const required =
    initialRequirementAt(venue.markets, account, spec.symbol, leverage) +
    initialMargin(notionalOf(added, worst, spec.sizeDecimals), leverage) +
    feeOf(notional, PERP_TAKER_FEE_BPS) +
    markLoss;
  if (required > equityOf(venue.markets, account)) throw insufficientMargin();
}
