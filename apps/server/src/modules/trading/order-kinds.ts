import type { Transaction } from '@solana/kit';
import type { TSpotOrder } from '@solterm/contracts';
import { Dec, executionReceipt } from '@solterm/engine';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';
import {
  insertFromSettled,
  type SettledTicket,
  type TicketKind,
  type TicketRow,
} from '../relay/relay.service';
import { orderToWire, receiptToWire } from './trading-wire';
import {
  insertLandedOrder,
  type NewOrderRow,
  type NewTradeRow,
  type OrderRow,
  type TradingRepository,
} from './trading.repository';
import { spotOrders, spotTrades } from './trading.tables';
import { VenueError, type SpotVenue } from './venues/spot-venue';

const ZSide = z.enum(['Buy', 'Sell']);
const ZUnits = z.string().regex(/^\d+$/);

/** What both order tickets remember: the order, its pair's mints and decimals, its base amount. */
const ZOrderPayload = z.object({
  orderId: z.string(),
  symbol: z.string(),
  side: ZSide,
  baseMint: z.string(),
  quoteMint: z.string(),
  baseDecimals: z.number().int(),
  quoteDecimals: z.number().int(),
  baseAmount: ZUnits,
  quantity: z.string(),
  priorityFeeMicroLamports: z.number().int(),
});

/** What a market order's swap ticket remembers until it lands. */
const ZSwapPayload = ZOrderPayload.extend({
  orderType: z.literal('Market'),
  quoteAmount: ZUnits,
  /** The fill price (quote per base) the venue quoted, and the price the user saw, if sent. */
  quotedPrice: z.string(),
  userPrice: z.string().nullable(),
  venueFee: z.string(),
  venue: z.string(),
  /** When the venue quoted (ISO time), and the signers it adds at execute time after re-checking it. */
  quotedAt: z.string().optional(),
  venueSigners: z.array(z.string()).optional(),
  slippageBps: z.number().int().optional(),
});
export type SwapPayload = z.infer<typeof ZSwapPayload>;

/** What a limit order's escrow ticket remembers until it lands. */
const ZLimitPayload = ZOrderPayload.extend({
  limitPrice: z.string(),
  escrowLeg: z.enum(['base', 'quote']),
  escrowAmount: ZUnits,
  settleAmount: ZUnits,
});
export type LimitPayload = z.infer<typeof ZLimitPayload>;

/** What a trigger order's escrow ticket remembers until it lands. */
const ZTriggerPayload = ZOrderPayload.extend({
  orderType: z.enum(['TakeProfit', 'StopLoss', 'TrailingStop']),
  triggerPrice: z.string(),
  trailPercent: z.string().nullable(),
  trailReference: z.string().nullable(),
  maxSlippageBps: z.number().int(),
  ocoWith: z.string().uuid().nullable(),
  escrowLeg: z.enum(['base', 'quote']),
  escrowAmount: ZUnits,
  settleAmount: ZUnits,
});
export type TriggerPayload = z.infer<typeof ZTriggerPayload>;

export interface OrderKindsDeps {
  repo: TradingRepository;
  venue: SpotVenue;
  now: () => Date;
  log: FastifyBaseLogger;
  onOrderChanged?: (userId: string, order: TSpotOrder) => void;
}

/** The order columns both kinds write, from the ticket and its payload. */
function orderBase(
  ticket: TicketRow,
  payload: SwapPayload | LimitPayload | TriggerPayload,
  signature: string,
  at: Date,
) {
  return {
    id: payload.orderId,
    userId: ticket.userId,
    walletAddress: ticket.walletAddress,
    symbol: payload.symbol,
    baseMint: payload.baseMint,
    quoteMint: payload.quoteMint,
    side: payload.side,
    quantity: payload.quantity,
    baseAmount: payload.baseAmount,
    txHash: signature,
    createdAt: at,
    updatedAt: at,
  } satisfies Partial<NewOrderRow>;
}

/** The ticket kinds of spot trading: market swaps and limit-order escrows. */
export function createOrderKinds(deps: OrderKindsDeps) {
  async function afterSettled(
    ticket: TicketRow,
    payload: { orderId: string },
    written?: unknown,
  ): Promise<TSpotOrder | null> {
    // The swap's settlement answers the order it wrote; a caller that did not write it reads it.
    const row = (written as OrderRow | undefined) ?? (await deps.repo.findOrder(payload.orderId));
    if (!row) return null;
    const order = orderToWire(row);
    deps.onOrderChanged?.(ticket.userId, order);
    return order;
  }

  /** A landed swap's filled order and its fill, with the execution receipt. */
  function landedSwapRows({
    ticket,
    payload,
    signature,
    at,
    feeLamports,
    startedAt,
  }: Omit<SettledTicket<SwapPayload>, 'tx'>): [NewOrderRow, NewTradeRow] {
    const exact = executionReceipt({
      side: payload.side,
      quotedPrice: new Dec(payload.userPrice ?? payload.quotedPrice),
      baseUnits: BigInt(payload.baseAmount),
      quoteUnits: BigInt(payload.quoteAmount),
      baseDecimals: payload.baseDecimals,
      quoteDecimals: payload.quoteDecimals,
      networkFeeLamports: feeLamports ?? 0n,
      venueFee: new Dec(payload.venueFee),
      timeToLandMs: startedAt === null ? 0 : performance.now() - startedAt,
      priorityFeeMicroLamports: payload.priorityFeeMicroLamports,
    });
    const receipt = receiptToWire(exact, payload.quoteDecimals);
    const filledPrice = exact.filledPrice;
    const order: NewOrderRow = {
      ...orderBase(ticket, payload, signature, at),
      orderType: 'Market',
      price: payload.userPrice ?? payload.quotedPrice,
      status: 'Filled',
      filledQuantity: payload.quantity,
      averageFillPrice: filledPrice.toFixed(),
      receipt,
    };
    const trade: NewTradeRow = {
      orderId: payload.orderId,
      userId: ticket.userId,
      symbol: payload.symbol,
      side: payload.side,
      orderType: 'Market',
      quantity: payload.quantity,
      price: filledPrice.toFixed(),
      txHash: signature,
      receipt,
      createdAt: at,
    };
    return [order, trade];
  }

  const swap: TicketKind<SwapPayload> = {
    kind: 'swap',
    payload: ZSwapPayload,
    readsFee: true,
    serverSigners: (payload) => payload.venueSigners ?? [],
    coSign: (ticket, payload, transaction) => coSignSwap(ticket, payload, transaction),
    // The ticket's settlement, the order and its fill in one statement.
    landedWrites: (settled) => {
      const [order, trade] = landedSwapRows(settled);
      return [insertFromSettled(spotOrders, order), insertFromSettled(spotTrades, trade)];
    },
    landedWritesReturn: spotOrders,
    async onFailed({ tx, ticket, payload, signature, at }) {
      await insertLandedOrder(tx, {
        ...orderBase(ticket, payload, signature, at),
        orderType: 'Market',
        price: payload.userPrice ?? payload.quotedPrice,
        status: 'Failed',
        filledQuantity: '0',
        averageFillPrice: null,
        receipt: null,
      });
    },
    afterSettled,
  };

  const limitEscrow: TicketKind<LimitPayload> = {
    kind: 'limit_escrow',
    payload: ZLimitPayload,
    onLanded: ({ tx, ticket, payload, signature, at }) =>
      recordLimit(tx, ticket, payload, signature, at, 'Pending'),
    onFailed: ({ tx, ticket, payload, signature, at }) =>
      recordLimit(tx, ticket, payload, signature, at, 'Failed'),
    afterSettled,
  };

  async function recordLimit(
    tx: SettledTicket<LimitPayload>['tx'],
    ticket: TicketRow,
    payload: LimitPayload,
    signature: string,
    at: Date,
    status: 'Pending' | 'Failed',
  ): Promise<void> {
    await insertLandedOrder(tx, {
      ...orderBase(ticket, payload, signature, at),
      orderType: 'Limit',
      price: payload.limitPrice,
      status,
      filledQuantity: '0',
      averageFillPrice: null,
      escrowLeg: payload.escrowLeg,
      escrowAmount: payload.escrowAmount,
      settleAmount: payload.settleAmount,
    });
  }

  const recordTrigger =
    (status: 'Pending' | 'Failed') =>
    async ({ tx, ticket, payload, signature, at }: SettledTicket<TriggerPayload>) => {
      await insertLandedOrder(tx, {
        ...orderBase(ticket, payload, signature, at),
        orderType: payload.orderType,
        price: null,
        status,
        filledQuantity: '0',
        averageFillPrice: null,
        escrowLeg: payload.escrowLeg,
        escrowAmount: payload.escrowAmount,
        settleAmount: payload.settleAmount,
        triggerPrice: payload.triggerPrice,
        trailPercent: payload.trailPercent,
        trailReference: payload.trailReference,
        maxSlippageBps: payload.maxSlippageBps,
        ocoWith: payload.ocoWith,
      });
    };

  const triggerEscrow: TicketKind<TriggerPayload> = {
    kind: 'trigger_escrow',
    payload: ZTriggerPayload,
    onLanded: recordTrigger('Pending'),
    onFailed: recordTrigger('Failed'),
    afterSettled,
  };

  /** The venue's signatures added to a wallet-signed swap, if its quote still holds. */
  async function coSignSwap(
    ticket: TicketRow,
    payload: SwapPayload,
    transaction: Transaction,
  ): Promise<Transaction> {
    if (!deps.venue.coSign || !payload.quotedAt) throw new AppError('TRADING__QUOTE_EXPIRED');
    const token = (mint: string, decimals: number, symbol: string) => ({ mint, decimals, symbol });
    const [baseSymbol = '', quoteSymbol = ''] = payload.symbol.split('/');
    try {
      return await deps.venue.coSign({
        request: {
          base: token(payload.baseMint, payload.baseDecimals, baseSymbol),
          quote: token(payload.quoteMint, payload.quoteDecimals, quoteSymbol),
          side: payload.side,
          baseAmount: BigInt(payload.baseAmount),
          slippageBps: payload.slippageBps ?? 0,
        },
        quoteAmount: BigInt(payload.quoteAmount),
        quotedAt: new Date(payload.quotedAt),
        now: deps.now(),
        transaction,
      });
    } catch (error) {
      if (error instanceof VenueError && error.kind === 'quote_expired') {
        deps.log.info({ ticket: ticket.id, reason: error.message }, 'quote no longer honoured');
        throw new AppError('TRADING__QUOTE_EXPIRED');
      }
      if (error instanceof VenueError && error.kind === 'no_liquidity')
        throw new AppError('TRADING__NO_LIQUIDITY');
      throw error;
    }
  }

  return { swap, limitEscrow, triggerEscrow };
}

export type OrderKinds = ReturnType<typeof createOrderKinds>;
