import { createHash, randomUUID } from 'node:crypto';
import {
  address,
  createNoopSigner,
  getBase64EncodedWireTransaction,
  getPublicKeyFromAddress,
  getSignatureFromTransaction,
  getTransactionDecoder,
  verifySignature,
  type ReadonlyUint8Array,
  type Transaction,
} from '@solana/kit';
import {
  getTokenBySymbol,
  SOL_DECIMALS,
  TRADE_MESSAGES,
  USDC_MINT,
  WRAPPED_SOL_MINT,
  type TExecuteSignedTransactionResult,
  type TExecutionReceipt,
  type TOrder,
  type TOrderBook,
  type TPosition,
  type TRecordSpotOrderRequest,
  type TSpotOrder,
  type TSuggestion,
  type TTradable,
  type TTrade,
  type TTradesHistory,
  type TUnsignedTransaction,
} from '@solterm/contracts';
import {
  buildLadder,
  Dec,
  derivePositions,
  fromBaseUnits,
  limitEscrow,
  rfqBestPrices,
  slippageBps,
  toBaseUnits,
  type RfqPricing,
} from '@solterm/engine';
import type { FastifyBaseLogger } from 'fastify';
import { AppError, isAppError } from '../../lib/app-error';
import type { ChainService } from '../chain/chain.service';
import {
  buildTransaction,
  LAMPORTS_PER_SIGNATURE,
  MAX_DEFAULT_COMPUTE_UNIT_LIMIT,
  priorityFeeLamports,
} from '../chain/transaction-builder';
import { toSignificant, toWireNumber } from '../market/market-decimal';
import type { MarketService } from '../market/market.service';
import { canTrade, type WalletOwner } from '../wallet/wallet.service';
import { isUniqueViolation } from '../auth/auth.repository';
import { tradeErrorCodeOf } from './chain-error-mapping';
import type {
  NewOrderRow,
  NewTradeRow,
  OrderRow,
  TicketRow,
  TradeRow,
  TradingRepository,
} from './trading.repository';
import type { NewTicket, TicketRegistry } from './transaction-tickets';
import { VenueError, type SpotVenue, type VenueToken } from './venues/spot-venue';
import {
  associatedTokenAddress,
  RENT_EXEMPT_TOKEN_ACCOUNT_LAMPORTS,
  RENT_EXEMPT_WALLET_LAMPORTS,
  tokenLegInstructions,
} from '../chain/token-legs';
import { getCreateAssociatedTokenIdempotentInstruction } from '@solana-program/token';

const MAX_ORDERS_LISTED = 200;

export interface TradingServiceDeps {
  repo: TradingRepository;
  chain: ChainService;
  market: MarketService;
  venue: SpotVenue;
  /** Where limit orders escrow funds (local venue only; without it limit orders are refused). */
  escrowAddress?: string;
  pricing?: RfqPricing;
  now: () => Date;
  log: FastifyBaseLogger;
  /** How often a sent transaction is rebroadcast until it lands or its blockhash expires (default 2 s). */
  rebroadcastIntervalMs?: number;
  /** Called after an order changes (real-time push to the user's sockets). */
  onOrderChanged?: (userId: string, order: TSpotOrder) => void;
}

/** A pair the venue can trade: both tokens exist as mints on the chain. */
export interface TradingPair {
  text: string;
  base: VenueToken;
  quote: VenueToken;
}

interface SwapPayload {
  orderId: string;
  orderType: 'Market' | 'Limit';
  symbol: string;
  side: 'Buy' | 'Sell';
  baseMint: string;
  quoteMint: string;
  baseDecimals: number;
  quoteDecimals: number;
  baseAmount: string;
  quoteAmount: string;
  quantity: string;
  /** The fill price (quote per base) the venue quoted, and the price the user saw, if sent. */
  quotedPrice: string;
  userPrice: string | null;
  venueFee: string;
  priorityFeeMicroLamports: number;
  venue: string;
  /** When the venue quoted (ISO time), and the signers it adds at execute time after re-checking it. */
  quotedAt?: string;
  venueSigners?: string[];
  slippageBps?: number;
}

interface LimitPayload {
  orderId: string;
  symbol: string;
  side: 'Buy' | 'Sell';
  baseMint: string;
  quoteMint: string;
  baseDecimals: number;
  quoteDecimals: number;
  baseAmount: string;
  quantity: string;
  limitPrice: string;
  escrowLeg: 'base' | 'quote';
  escrowAmount: string;
  settleAmount: string;
  priorityFeeMicroLamports: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A decimal as the wire's price number (10 significant digits). */
const priceNumber = (value: Dec | string): number => toWireNumber(toSignificant(new Dec(value)));
/** A token quantity as a wire number (15 significant digits at most). */
const quantityNumber = (value: Dec | string): number => toWireNumber(toSignificant(new Dec(value), 15));

function sha256Hex(bytes: Uint8Array | ReadonlyUint8Array): string {
  return createHash('sha256')
    .update(bytes as Uint8Array)
    .digest('hex');
}

/** The wallet that signs trades: 'Wallet not found…' without one, the Solana-only text for EVM/watch-only. */
export function tradingWalletOf(owner: WalletOwner): string {
  if (!owner.solanaWalletAddress) throw new AppError('TRADING__WALLET_REQUIRED');
  if (!canTrade(owner)) throw new AppError('WALLET__SOLANA_ONLY');
  return owner.solanaWalletAddress;
}

/** A whole-token amount for messages: plain decimal, no exponent, trailing zeros trimmed. */
function amountText(units: bigint, decimals: number): string {
  return fromBaseUnits(units, decimals).toFixed();
}

export function orderToWire(row: OrderRow): TSpotOrder {
  return {
    id: row.id,
    symbol: row.symbol,
    order_type: row.orderType as TSpotOrder['order_type'],
    side: row.side as TSpotOrder['side'],
    quantity: quantityNumber(row.quantity),
    price: row.price === null ? null : priceNumber(row.price),
    stop_price: null,
    leverage: 1,
    // Internal settling states are still pending to the user.
    status: row.status.startsWith('Settling') ? 'Pending' : (row.status as TSpotOrder['status']),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    tx_hash: row.txHash,
    settlement_tx_hash: row.settlementTxHash,
    filled_quantity: quantityNumber(row.filledQuantity),
    average_fill_price: row.averageFillPrice === null ? null : priceNumber(row.averageFillPrice),
    receipt: (row.receipt as TExecutionReceipt | null) ?? null,
  };
}

export function tradeToWire(row: TradeRow): TTrade {
  return {
    id: row.id,
    order_id: row.orderId,
    symbol: row.symbol,
    side: row.side as TTrade['side'],
    quantity: quantityNumber(row.quantity),
    price: priceNumber(row.price),
    value: toWireNumber(
      new Dec(row.quantity).times(row.price).toDecimalPlaces(6, Dec.ROUND_HALF_UP).toFixed(),
    ),
    order_type: row.orderType as TTrade['order_type'],
    status: 'Filled',
    tx_hash: row.txHash,
    timestamp: row.createdAt.toISOString(),
    created_at: row.createdAt.toISOString(),
    receipt: (row.receipt as TExecutionReceipt | null) ?? null,
  };
}

/**
 * Spot trading: orders become transactions the wallet signs (swaps through the venue, or limit-order
 * escrows), signed transactions are verified against what was built, simulated, sent, rebroadcast
 * and confirmed, and what landed is recorded as orders and fills with their receipts.
 */
export function createTradingService(deps: TradingServiceDeps) {
  const { repo, chain, market, venue } = deps;
  const rebroadcastIntervalMs = deps.rebroadcastIntervalMs ?? 2000;
  const mintDecimals = new Map<string, number>();

  async function decimalsOnChain(mint: string): Promise<number | undefined> {
    if (mint === WRAPPED_SOL_MINT) return SOL_DECIMALS;
    const known = mintDecimals.get(mint);
    if (known !== undefined) return known;
    const info = await chain.getMintInfo(mint);
    if (!info) return undefined;
    mintDecimals.set(mint, info.decimals);
    return info.decimals;
  }

  /** 'SOL/USDC', 'BONK/SOL', mints, or a lone base (quoted in USDC). */
  async function resolvePair(symbol: string): Promise<TradingPair> {
    let resolved;
    try {
      resolved = await market.resolvePair(symbol);
    } catch (error) {
      if (isAppError(error) && error.status < 500) {
        throw new AppError('TRADING__PAIR_UNAVAILABLE', TRADE_MESSAGES.pairUnavailable(symbol.trim()));
      }
      throw error;
    }
    const quoteToken = resolved.quote.symbol === 'USD' ? await market.findToken(USDC_MINT) : resolved.quote;
    const text = `${resolved.base.symbol}/${quoteToken?.symbol ?? 'USDC'}`;
    const unavailable = () => new AppError('TRADING__PAIR_UNAVAILABLE', TRADE_MESSAGES.pairUnavailable(text));
    if (!quoteToken?.mint || !resolved.base.mint || resolved.base.mint === quoteToken.mint)
      throw unavailable();
    const [baseDecimals, quoteDecimals] = await Promise.all([
      decimalsOnChain(resolved.base.mint),
      decimalsOnChain(quoteToken.mint),
    ]);
    if (baseDecimals === undefined || quoteDecimals === undefined) throw unavailable();
    return {
      text,
      base: { symbol: resolved.base.symbol, mint: resolved.base.mint, decimals: baseDecimals },
      quote: { symbol: quoteToken.symbol, mint: quoteToken.mint, decimals: quoteDecimals },
    };
  }

  async function usdPriceOf(token: VenueToken): Promise<Dec> {
    const marketToken = await market.findToken(token.mint);
    if (!marketToken) throw new AppError('TRADING__PRICE_UNAVAILABLE');
    try {
      return new Dec(await market.getUsdPrice(marketToken));
    } catch (error) {
      if (isAppError(error) && error.status < 500) throw new AppError('TRADING__PRICE_UNAVAILABLE');
      throw error;
    }
  }

  async function midPriceOf(pair: TradingPair): Promise<Dec> {
    const [base, quote] = await Promise.all([usdPriceOf(pair.base), usdPriceOf(pair.quote)]);
    return base.div(quote);
  }

  /** The wallet's holdings of the tokens in play, in base units (SOL: lamports), read from the chain. */
  async function holdingsOf(wallet: string): Promise<{ lamports: bigint; tokens: Map<string, bigint> }> {
    const [lamports, tokenBalances] = await Promise.all([
      chain.getBalance(wallet),
      chain.getTokenBalances(wallet),
    ]);
    const tokens = new Map<string, bigint>();
    for (const [mint, balance] of tokenBalances) tokens.set(mint, balance.amount);
    return { lamports, tokens };
  }

  /**
   * Refuses an order the wallet cannot afford with the spec's 'Insufficient {token} balance.
   * Required: …, Available: …', before anything is built: the token it pays, and SOL for the network
   * fee plus the rent of any token account it will receive into.
   */
  function assertAffordable(
    holdings: { lamports: bigint; tokens: Map<string, bigint> },
    pays: { token: VenueToken; amount: bigint },
    receives: VenueToken | null,
    networkFeeLamports: bigint,
  ): void {
    const rent =
      receives && receives.mint !== WRAPPED_SOL_MINT && !holdings.tokens.has(receives.mint)
        ? RENT_EXEMPT_TOKEN_ACCOUNT_LAMPORTS
        : 0n;
    const solNeeded = networkFeeLamports + rent + (pays.token.mint === WRAPPED_SOL_MINT ? pays.amount : 0n);
    if (pays.token.mint !== WRAPPED_SOL_MINT) {
      const available = holdings.tokens.get(pays.token.mint) ?? 0n;
      if (available < pays.amount) {
        throw new AppError(
          'TRADING__INSUFFICIENT_FUNDS',
          TRADE_MESSAGES.insufficientTokenBalance(
            pays.token.symbol,
            amountText(pays.amount, pays.token.decimals),
            amountText(available, pays.token.decimals),
          ),
        );
      }
    }
    // What stays must be nothing (the account closes) or at least the rent-exempt minimum: the chain
    // refuses to leave a system account with a balance in between.
    const left = holdings.lamports - solNeeded;
    if (left < 0n || (left > 0n && left < RENT_EXEMPT_WALLET_LAMPORTS)) {
      const required = left < 0n ? solNeeded : solNeeded + RENT_EXEMPT_WALLET_LAMPORTS;
      throw new AppError(
        'TRADING__INSUFFICIENT_FUNDS',
        TRADE_MESSAGES.insufficientTokenBalance(
          'SOL',
          amountText(required, SOL_DECIMALS),
          amountText(holdings.lamports, SOL_DECIMALS),
        ),
      );
    }
  }

  function baseUnitsOf(quantity: number, decimals: number): bigint {
    const units = toBaseUnits(new Dec(quantity).toDecimalPlaces(decimals, Dec.ROUND_DOWN), decimals);
    if (units <= 0n) throw new AppError('TRADING__AMOUNT_TOO_SMALL');
    return units;
  }

  async function register(ticket: NewTicket): Promise<TicketRow> {
    return repo.insertTicket({
      userId: ticket.userId,
      kind: ticket.kind,
      walletAddress: ticket.walletAddress,
      messageHash: sha256Hex(ticket.messageBytes),
      lastValidBlockHeight: ticket.lastValidBlockHeight.toString(),
      payload: ticket.payload,
      orderId: ticket.orderId ?? null,
      status: 'open',
    });
  }

  const tickets: TicketRegistry = {
    async register(ticket) {
      return { id: (await register(ticket)).id };
    },
  };

  function mapVenueError(error: unknown, pair: TradingPair): never {
    if (error instanceof VenueError) {
      if (error.kind === 'no_liquidity') throw new AppError('TRADING__NO_LIQUIDITY');
      if (error.kind === 'pair_unavailable') {
        throw new AppError('TRADING__PAIR_UNAVAILABLE', TRADE_MESSAGES.pairUnavailable(pair.text));
      }
      if (error.kind === 'bad_request') throw new AppError('TRADING__AMOUNT_TOO_SMALL');
      if (error.kind === 'quote_expired') throw new AppError('TRADING__QUOTE_EXPIRED');
      deps.log.error({ err: error }, 'spot venue failed');
      throw new AppError('TRADING__VENUE_UNAVAILABLE');
    }
    throw error;
  }

  async function buildMarketOrder(
    owner: WalletOwner & { id: string },
    wallet: string,
    order: TOrder,
    pair: TradingPair,
  ): Promise<TUnsignedTransaction> {
    const baseAmount = baseUnitsOf(order.quantity, pair.base.decimals);
    // The wallet's holdings are read while the venue quotes; awaited after the quote, so a venue
    // error is still the one reported when both fail.
    const holdingsRead = holdingsOf(wallet);
    holdingsRead.catch(() => undefined);
    const quotedAt = deps.now();
    const quote = await venue
      .quote({
        base: pair.base,
        quote: pair.quote,
        side: order.side,
        baseAmount,
        slippageBps: order.slippage_bps,
      })
      .catch((error: unknown) => mapVenueError(error, pair));
    const [pays, receives] =
      order.side === 'Buy'
        ? [{ token: pair.quote, amount: quote.quoteAmountLimit }, pair.base]
        : [{ token: pair.base, amount: baseAmount }, pair.quote];
    const holdings = await holdingsRead;
    const estimatedFee =
      2n * LAMPORTS_PER_SIGNATURE +
      priorityFeeLamports(order.priority_fee_micro_lamports, MAX_DEFAULT_COMPUTE_UNIT_LIMIT);
    assertAffordable(holdings, pays, receives, estimatedFee);
    const swap = await venue
      .buildSwap({ quote, userAddress: wallet, priorityFeeMicroLamports: order.priority_fee_micro_lamports })
      .catch((error: unknown) => mapVenueError(error, pair));
    const orderId = randomUUID();
    const payload: SwapPayload = {
      orderId,
      orderType: 'Market',
      symbol: pair.text,
      side: order.side,
      baseMint: pair.base.mint,
      quoteMint: pair.quote.mint,
      baseDecimals: pair.base.decimals,
      quoteDecimals: pair.quote.decimals,
      baseAmount: baseAmount.toString(),
      quoteAmount: quote.quoteAmount.toString(),
      quantity: fromBaseUnits(baseAmount, pair.base.decimals).toFixed(),
      quotedPrice: quote.price.toFixed(),
      userPrice: order.price === undefined ? null : new Dec(order.price).toFixed(),
      venueFee: quote.venueFee.toFixed(),
      priorityFeeMicroLamports: order.priority_fee_micro_lamports,
      venue: venue.name,
      quotedAt: quotedAt.toISOString(),
      venueSigners: swap.venueSigners,
      slippageBps: order.slippage_bps,
    };
    await register({
      userId: owner.id,
      kind: 'swap',
      walletAddress: wallet,
      messageBytes: swap.messageBytes,
      lastValidBlockHeight: swap.lastValidBlockHeight,
      payload: payload as unknown as Record<string, unknown>,
      orderId,
    });
    return {
      unsigned_transaction: Buffer.from(swap.wireBytes).toString('base64'),
      order_id: orderId,
      quote: {
        venue: venue.name,
        price: priceNumber(quote.price),
        market_price: priceNumber(quote.marketPrice),
        quantity: quantityNumber(payload.quantity),
        quote_amount: quantityNumber(fromBaseUnits(quote.quoteAmount, pair.quote.decimals)),
        base_symbol: pair.base.symbol,
        quote_symbol: pair.quote.symbol,
        venue_fee: quantityNumber(quote.venueFee.toDecimalPlaces(pair.quote.decimals, Dec.ROUND_HALF_UP)),
        price_impact_bps: toWireNumber(quote.priceImpactBps.toDecimalPlaces(2, Dec.ROUND_HALF_UP).toFixed()),
        slippage_bps: order.slippage_bps,
        network_fee_lamports: swap.networkFeeLamports.toString(),
      },
      last_valid_block_height: swap.lastValidBlockHeight.toString(),
      size_bytes: swap.sizeBytes,
    };
  }

  async function buildLimitOrder(
    owner: WalletOwner & { id: string },
    wallet: string,
    order: TOrder,
    pair: TradingPair,
  ): Promise<TUnsignedTransaction> {
    if (!deps.escrowAddress) {
      throw new AppError('TRADING__VENUE_UNAVAILABLE', 'Limit orders need the local market maker venue');
    }
    const limitPrice = new Dec(order.price!);
    const baseAmount = baseUnitsOf(order.quantity, pair.base.decimals);
    const escrow = limitEscrow({
      side: order.side,
      baseAmount,
      limitPrice,
      baseDecimals: pair.base.decimals,
      quoteDecimals: pair.quote.decimals,
    });
    if (escrow.escrowAmount <= 0n || escrow.settleAmount <= 0n)
      throw new AppError('TRADING__AMOUNT_TOO_SMALL');
    const escrowToken = escrow.escrowLeg === 'base' ? pair.base : pair.quote;
    const settleToken = escrow.escrowLeg === 'base' ? pair.quote : pair.base;
    // A refund or fill pays SOL to the wallet later, when its account may have been emptied: a
    // payment below the rent-exempt minimum to an empty account would fail, so the leg is at least that.
    const solLeg =
      escrowToken.mint === WRAPPED_SOL_MINT
        ? escrow.escrowAmount
        : settleToken.mint === WRAPPED_SOL_MINT
          ? escrow.settleAmount
          : undefined;
    if (solLeg !== undefined && solLeg < RENT_EXEMPT_WALLET_LAMPORTS) {
      throw new AppError(
        'TRADING__AMOUNT_TOO_SMALL',
        `A limit order moves at least ${amountText(RENT_EXEMPT_WALLET_LAMPORTS, SOL_DECIMALS)} SOL (the rent-exempt minimum)`,
      );
    }
    const holdings = await holdingsOf(wallet);
    const networkFee =
      LAMPORTS_PER_SIGNATURE +
      priorityFeeLamports(order.priority_fee_micro_lamports, MAX_DEFAULT_COMPUTE_UNIT_LIMIT);
    // The escrow's token account may have to be created by this transaction (rent paid once per mint),
    // and so may the wallet's account of the token the fill pays (its rent counted when not held).
    assertAffordable(
      holdings,
      { token: escrowToken, amount: escrow.escrowAmount },
      settleToken,
      networkFee + RENT_EXEMPT_TOKEN_ACCOUNT_LAMPORTS,
    );
    const user = createNoopSigner(address(wallet));
    const instructions = [
      ...(await tokenLegInstructions({
        token: escrowToken,
        from: user,
        to: deps.escrowAddress,
        amount: escrow.escrowAmount,
        createRecipientAccount: user,
      })),
      // The wallet opens (idempotently, paying the rent) the account the fill pays into: the keeper
      // never pays rent for an account the wallet could close again.
      ...(settleToken.mint === WRAPPED_SOL_MINT
        ? []
        : [
            getCreateAssociatedTokenIdempotentInstruction({
              payer: user,
              ata: await associatedTokenAddress(wallet, settleToken.mint),
              owner: user.address,
              mint: address(settleToken.mint),
            }),
          ]),
    ];
    const built = await buildTransaction({
      feePayer: user.address,
      instructions,
      lifetime: await chain.getLatestBlockhash(),
      priorityFeeMicroLamports: order.priority_fee_micro_lamports,
    });
    const orderId = randomUUID();
    const payload: LimitPayload = {
      orderId,
      symbol: pair.text,
      side: order.side,
      baseMint: pair.base.mint,
      quoteMint: pair.quote.mint,
      baseDecimals: pair.base.decimals,
      quoteDecimals: pair.quote.decimals,
      baseAmount: baseAmount.toString(),
      quantity: fromBaseUnits(baseAmount, pair.base.decimals).toFixed(),
      limitPrice: limitPrice.toFixed(),
      escrowLeg: escrow.escrowLeg,
      escrowAmount: escrow.escrowAmount.toString(),
      settleAmount: escrow.settleAmount.toString(),
      priorityFeeMicroLamports: order.priority_fee_micro_lamports,
    };
    await register({
      userId: owner.id,
      kind: 'limit_escrow',
      walletAddress: wallet,
      messageBytes: built.messageBytes,
      lastValidBlockHeight: built.lastValidBlockHeight,
      payload: payload as unknown as Record<string, unknown>,
      orderId,
    });
    return {
      unsigned_transaction: built.base64,
      order_id: orderId,
      quote: null,
      last_valid_block_height: built.lastValidBlockHeight.toString(),
      size_bytes: built.sizeBytes,
    };
  }

  /** Reads a ticket's landed transaction and writes what it did (order, fill, receipt). */
  async function settleLanded(
    ticket: TicketRow,
    startedAt: number | null,
    failed: boolean,
  ): Promise<OrderRow | undefined> {
    const at = deps.now();
    const signature = ticket.signature!;
    if (ticket.kind === 'transfer') {
      await repo.settleTicket(ticket.id, at, { ticketStatus: failed ? 'failed' : 'landed' });
      return undefined;
    }
    const fee = await chain.getTransactionFee(signature).catch(() => null);
    if (ticket.kind === 'swap') {
      const payload = ticket.payload as SwapPayload;
      const filledPrice = fromBaseUnits(BigInt(payload.quoteAmount), payload.quoteDecimals).div(
        payload.quantity,
      );
      const quotedPrice = new Dec(payload.userPrice ?? payload.quotedPrice);
      const receipt: TExecutionReceipt = {
        quoted_price: priceNumber(quotedPrice),
        filled_price: priceNumber(filledPrice),
        slippage_bps: toWireNumber(
          slippageBps({ side: payload.side, quotedPrice, filledPrice })
            .toDecimalPlaces(2, Dec.ROUND_HALF_UP)
            .toFixed(),
        ),
        network_fee_sol: toWireNumber(fromBaseUnits(fee ?? 0n, SOL_DECIMALS).toFixed()),
        venue_fee: quantityNumber(
          new Dec(payload.venueFee).toDecimalPlaces(payload.quoteDecimals, Dec.ROUND_HALF_UP),
        ),
        time_to_land_ms: startedAt === null ? 0 : Math.max(0, Math.round(performance.now() - startedAt)),
        priority_fee_micro_lamports: payload.priorityFeeMicroLamports,
      };
      const order: NewOrderRow = {
        id: payload.orderId,
        userId: ticket.userId,
        walletAddress: ticket.walletAddress,
        symbol: payload.symbol,
        baseMint: payload.baseMint,
        quoteMint: payload.quoteMint,
        orderType: 'Market',
        side: payload.side,
        quantity: payload.quantity,
        baseAmount: payload.baseAmount,
        price: payload.userPrice ?? payload.quotedPrice,
        status: failed ? 'Failed' : 'Filled',
        txHash: signature,
        filledQuantity: failed ? '0' : payload.quantity,
        averageFillPrice: failed ? null : filledPrice.toFixed(),
        receipt: failed ? null : receipt,
        createdAt: at,
        updatedAt: at,
      };
      const trade: NewTradeRow | undefined = failed
        ? undefined
        : {
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
      await repo.settleTicket(ticket.id, at, { ticketStatus: failed ? 'failed' : 'landed', order, trade });
    } else {
      const payload = ticket.payload as LimitPayload;
      const order: NewOrderRow = {
        id: payload.orderId,
        userId: ticket.userId,
        walletAddress: ticket.walletAddress,
        symbol: payload.symbol,
        baseMint: payload.baseMint,
        quoteMint: payload.quoteMint,
        orderType: 'Limit',
        side: payload.side,
        quantity: payload.quantity,
        baseAmount: payload.baseAmount,
        price: payload.limitPrice,
        status: failed ? 'Failed' : 'Pending',
        txHash: signature,
        filledQuantity: '0',
        averageFillPrice: null,
        escrowLeg: payload.escrowLeg,
        escrowAmount: payload.escrowAmount,
        settleAmount: payload.settleAmount,
        createdAt: at,
        updatedAt: at,
      };
      await repo.settleTicket(ticket.id, at, { ticketStatus: failed ? 'failed' : 'landed', order });
    }
    const orderId = (ticket.payload as { orderId: string }).orderId;
    const row = await repo.findOrder(orderId);
    if (row) deps.onOrderChanged?.(ticket.userId, orderToWire(row));
    return row;
  }

  /**
   * What happened to a sent ticket, from the chain: landed (ok or failed), still in flight
   * (rebroadcast), or expired (blockhash too old and never seen). Used after a crash and by
   * POST /trading/spot/order for a signature still in flight.
   */
  async function reconcileTicket(ticket: TicketRow): Promise<'landed' | 'failed' | 'expired' | 'in_flight'> {
    const [status] = await chain.getSignatureStatuses([ticket.signature!]);
    if (status && status.confirmationStatus !== 'processed') {
      await settleLanded(ticket, null, status.err !== null);
      return status.err === null ? 'landed' : 'failed';
    }
    if (status) return 'in_flight';
    const height = await chain.getBlockHeight();
    if (height > BigInt(ticket.lastValidBlockHeight)) {
      await repo.setTicketStatus(ticket.id, 'expired', deps.now());
      return 'expired';
    }
    if (ticket.signedTransaction)
      await chain.sendTransaction(ticket.signedTransaction).catch(() => undefined);
    return 'in_flight';
  }

  function decodeSigned(signedBase64: string): Transaction {
    const bytes = Buffer.from(signedBase64, 'base64');
    if (bytes.length === 0 || bytes.toString('base64') !== signedBase64.replace(/\s/g, '')) {
      throw new AppError('TRADING__TRANSACTION_INVALID');
    }
    try {
      return getTransactionDecoder().decode(bytes);
    } catch {
      throw new AppError('TRADING__TRANSACTION_INVALID');
    }
  }

  /** Every signature is present and valid, except those of `venueSigners` (the venue adds them later). */
  async function verifySignatures(
    transaction: Transaction,
    venueSigners: readonly string[] = [],
  ): Promise<void> {
    for (const [signer, signature] of Object.entries(transaction.signatures)) {
      if (venueSigners.includes(signer)) continue;
      if (!signature || signature.every((byte) => byte === 0))
        throw new AppError('TRADING__SIGNATURE_MISSING');
      const key = await getPublicKeyFromAddress(address(signer));
      if (!(await verifySignature(key, signature, transaction.messageBytes))) {
        throw new AppError('TRADING__SIGNATURE_INVALID');
      }
    }
  }

  /** Sends, rebroadcasts every ~2 s, and waits for the chain's verdict (or the blockhash's expiry). */
  async function land(
    wireBase64: string,
    signature: string,
    lastValidBlockHeight: bigint,
  ): Promise<{ outcome: 'landed'; slot: bigint; err: unknown } | { outcome: 'expired' }> {
    await chain.sendTransaction(wireBase64);
    let lastSend = performance.now();
    for (let attempt = 0; ; attempt++) {
      // Wait before each look, the first included: a transaction just sent is not yet confirmed
      // (the node still has to persist it), so a status read at once would be a wasted call.
      await sleep(Math.min(2 ** attempt, 50));
      const [status] = await chain.getSignatureStatuses([signature]);
      if (status && status.confirmationStatus !== 'processed') {
        return { outcome: 'landed', slot: status.slot, err: status.err };
      }
      if (performance.now() - lastSend >= rebroadcastIntervalMs) {
        if ((await chain.getBlockHeight()) > lastValidBlockHeight) {
          // One last look: it may have landed just before the blockhash expired.
          const [last] = await chain.getSignatureStatuses([signature]);
          if (last) return { outcome: 'landed', slot: last.slot, err: last.err };
          return { outcome: 'expired' };
        }
        await chain.sendTransaction(wireBase64).catch(() => undefined);
        lastSend = performance.now();
      }
    }
  }

  /** The venue's signatures added to a wallet-signed swap, if its quote still holds. */
  async function coSign(ticket: TicketRow, transaction: Transaction): Promise<Transaction> {
    const payload = ticket.payload as SwapPayload;
    if (!venue.coSign || !payload.quotedAt) throw new AppError('TRADING__QUOTE_EXPIRED');
    const token = (mint: string, decimals: number, symbol: string) => ({ mint, decimals, symbol });
    const [baseSymbol = '', quoteSymbol = ''] = payload.symbol.split('/');
    try {
      return await venue.coSign({
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

  async function execute(
    owner: WalletOwner & { id: string },
    signedBase64: string,
  ): Promise<TExecuteSignedTransactionResult> {
    const startedAt = performance.now();
    const transaction = decodeSigned(signedBase64);
    const ticket = await repo.findTicketByMessageHash(sha256Hex(transaction.messageBytes));
    if (!ticket || ticket.userId !== owner.id) {
      const feePayer = Object.keys(transaction.signatures)[0];
      if (feePayer && feePayer === owner.solanaWalletAddress && (await repo.hasOpenTicket(owner.id))) {
        throw new AppError('TRADING__TRANSACTION_MODIFIED');
      }
      throw new AppError('TRADING__TRANSACTION_UNKNOWN');
    }
    if (ticket.status === 'landed' || ticket.status === 'sending' || ticket.status === 'failed') {
      throw new AppError('TRADING__ALREADY_EXECUTED');
    }
    if (ticket.status === 'expired') throw new AppError('TRADING__TRANSACTION_EXPIRED');
    const venueSigners = ticket.kind === 'swap' ? ((ticket.payload as SwapPayload).venueSigners ?? []) : [];
    await verifySignatures(transaction, venueSigners);
    const lastValidBlockHeight = BigInt(ticket.lastValidBlockHeight);
    const expired = async () => {
      await repo.setTicketStatus(ticket.id, 'expired', deps.now());
      return new AppError('TRADING__TRANSACTION_EXPIRED');
    };
    let wireBase64: string;
    let simulating;
    if (venueSigners.length > 0) {
      // The venue signs only now, after re-checking its quote; the blockhash is checked meanwhile.
      const heightRead = chain.getBlockHeight();
      heightRead.catch(() => undefined);
      const cosigned = await coSign(ticket, transaction);
      if ((await heightRead) > lastValidBlockHeight) throw await expired();
      wireBase64 = getBase64EncodedWireTransaction(cosigned);
      simulating = chain.simulateTransaction(wireBase64);
    } else {
      wireBase64 = getBase64EncodedWireTransaction(transaction);
      // The simulation runs alongside the expiry check (it changes nothing on chain); its outcome,
      // or its failure, only counts once the blockhash is known to be still valid.
      simulating = chain.simulateTransaction(wireBase64);
      simulating.catch(() => undefined);
      if ((await chain.getBlockHeight()) > lastValidBlockHeight) throw await expired();
    }
    const signature = getSignatureFromTransaction(transaction);
    const simulation = await simulating;
    if (simulation.err) {
      const code = tradeErrorCodeOf(simulation.err);
      deps.log.info({ signature, err: simulation.err, code }, 'signed transaction refused in simulation');
      if (code === 'TRADING__TRANSACTION_EXPIRED')
        await repo.setTicketStatus(ticket.id, 'expired', deps.now());
      throw new AppError(code);
    }
    if (!(await repo.claimTicket(ticket.id, signature, wireBase64, deps.now()))) {
      throw new AppError('TRADING__ALREADY_EXECUTED');
    }
    let landing;
    try {
      landing = await land(wireBase64, signature, lastValidBlockHeight);
    } catch (error) {
      // The node never took it (RPC down): nothing was sent, the same ticket may be signed again.
      const [status] = await chain.getSignatureStatuses([signature]).catch(() => [null]);
      if (!status) await repo.reopenTicket(ticket.id);
      throw error;
    }
    if (landing.outcome === 'expired') {
      await repo.setTicketStatus(ticket.id, 'expired', deps.now());
      throw new AppError('TRADING__TRANSACTION_EXPIRED');
    }
    const sent = { ...ticket, signature, signedTransaction: wireBase64, status: 'sending' };
    const order = await settleLanded(sent, startedAt, landing.err !== null);
    if (landing.err !== null) {
      deps.log.warn({ signature, err: landing.err }, 'transaction landed with an error');
      throw new AppError(tradeErrorCodeOf(landing.err as never));
    }
    return {
      transaction_hash: signature,
      status: 'confirmed',
      slot: Number(landing.slot),
      order: order ? orderToWire(order) : null,
    };
  }

  return {
    tickets,
    resolvePair,
    midPriceOf,
    reconcileTicket,

    /** POST /trading/get-unsigned-transaction. */
    async buildOrder(owner: WalletOwner & { id: string }, order: TOrder): Promise<TUnsignedTransaction> {
      const wallet = tradingWalletOf(owner);
      const pair = await resolvePair(order.symbol);
      const build = () =>
        order.order_type === 'Limit'
          ? buildLimitOrder(owner, wallet, order, pair)
          : buildMarketOrder(owner, wallet, order, pair);
      try {
        return await build();
      } catch (error) {
        // The same order built twice on one blockhash can (rarely, despite the compute-limit jitter)
        // compile to the same message as an earlier ticket: build it once more.
        if (isUniqueViolation(error)) return build();
        throw error;
      }
    },

    /** POST /trading/execute-signed-transaction (idempotency is handled by the route). */
    execute(
      owner: WalletOwner & { id: string },
      signedBase64: string,
    ): Promise<TExecuteSignedTransactionResult> {
      tradingWalletOf(owner);
      return execute(owner, signedBase64);
    },

    /**
     * POST /trading/spot/order: the order the server recorded for this transaction when it landed
     * (idempotent: the same answer every time). A signature still in flight is reconciled first.
     */
    async recordSpotOrder(owner: { id: string }, request: TRecordSpotOrderRequest): Promise<TSpotOrder> {
      let row = await repo.findOrderByTxHash(request.tx_hash);
      if (!row) {
        const ticket = await repo.findTicketBySignature(request.tx_hash);
        if (ticket && ticket.userId === owner.id && ticket.status === 'sending') {
          await reconcileTicket(ticket);
          row = await repo.findOrderByTxHash(request.tx_hash);
        }
      }
      if (!row || row.userId !== owner.id) throw new AppError('TRADING__TRADE_NOT_FOUND');
      return orderToWire(row);
    },

    async listOrders(owner: { id: string }): Promise<TSpotOrder[]> {
      return (await repo.listOrders(owner.id, MAX_ORDERS_LISTED)).map(orderToWire);
    },

    async listTrades(owner: { id: string }, limit: number): Promise<TTrade[]> {
      return (await repo.listTrades(owner.id, limit, 0)).map(tradeToWire);
    },

    async tradeHistory(owner: { id: string }, limit: number, offset: number): Promise<TTradesHistory> {
      const [rows, total] = await Promise.all([
        repo.listTrades(owner.id, limit, offset),
        repo.countTrades(owner.id),
      ]);
      return { trades: rows.map(tradeToWire), total, limit, offset };
    },

    /** GET /trading/positions: average-cost positions from the user's fills, marked at the pair's mid. */
    async positions(owner: { id: string }): Promise<TPosition[]> {
      const rows = await repo.listTrades(owner.id, 10_000, 0);
      const marks = new Map<string, Dec | undefined>();
      for (const symbol of new Set(rows.map((row) => row.symbol))) {
        try {
          marks.set(symbol, await midPriceOf(await resolvePair(symbol)));
        } catch {
          marks.set(symbol, undefined);
        }
      }
      const positions = derivePositions(
        rows.map((row) => ({
          symbol: row.symbol,
          side: row.side as 'Buy' | 'Sell',
          quantity: new Dec(row.quantity),
          price: new Dec(row.price),
          at: row.createdAt.getTime(),
        })),
        (symbol) => marks.get(symbol),
      );
      return positions.map((position) => {
        const [baseSymbol = position.symbol, quoteSymbol = 'USDC'] = position.symbol.split('/');
        const money = (value: Dec) => toWireNumber(value.toDecimalPlaces(6, Dec.ROUND_HALF_UP).toFixed());
        return {
          symbol: position.symbol,
          base_symbol: baseSymbol,
          quote_symbol: quoteSymbol,
          side: 'Long' as const,
          size: quantityNumber(position.size),
          average_entry_price: priceNumber(position.averageEntryPrice),
          mark_price: priceNumber(position.markPrice),
          value: money(position.value),
          unrealized_pnl: money(position.unrealizedPnl),
          pnl_percent: toWireNumber(position.pnlPercent.toDecimalPlaces(2, Dec.ROUND_HALF_UP).toFixed()),
          realized_pnl: money(position.realizedPnl),
        };
      });
    },

    /** POST /trading/suggestion: balances from the chain and the side they allow. */
    async suggestion(owner: WalletOwner & { id: string }, symbol: string): Promise<TSuggestion> {
      const wallet = tradingWalletOf(owner);
      const pair = await resolvePair(symbol);
      const [holdings, mid] = await Promise.all([
        holdingsOf(wallet),
        midPriceOf(pair).catch(() => undefined),
      ]);
      const amountOf = (token: VenueToken): Dec =>
        token.mint === WRAPPED_SOL_MINT
          ? fromBaseUnits(holdings.lamports, SOL_DECIMALS)
          : fromBaseUnits(holdings.tokens.get(token.mint) ?? 0n, token.decimals);
      const usdc = getTokenBySymbol('USDC')!;
      const balances: Record<string, number> = {
        SOL: quantityNumber(fromBaseUnits(holdings.lamports, SOL_DECIMALS)),
        USDC: quantityNumber(fromBaseUnits(holdings.tokens.get(usdc.mint) ?? 0n, usdc.decimals)),
      };
      balances[pair.base.symbol] = quantityNumber(amountOf(pair.base));
      balances[pair.quote.symbol] = quantityNumber(amountOf(pair.quote));
      // Sell when the base held is worth more than the quote held; otherwise buy.
      const baseValue = mid ? amountOf(pair.base).times(mid) : new Dec(0);
      return {
        symbol: pair.text,
        suggested_side: baseValue.gt(amountOf(pair.quote)) ? 'Sell' : 'Buy',
        available_balances: balances,
        price: mid ? priceNumber(mid) : null,
      };
    },

    /**
     * GET /trading/tradable: whether each pair resolves to two tokens that exist on the configured
     * chain (the same check every order makes), so the web can mark a pair before anyone clicks Buy.
     */
    async tradability(pairs: readonly string[]): Promise<TTradable> {
      return {
        pairs: await Promise.all(
          pairs.map(async (pair) => {
            try {
              await resolvePair(pair);
              return { pair, tradable: true, reason: null };
            } catch (error) {
              if (isAppError(error) && error.status < 500)
                return { pair, tradable: false, reason: error.message };
              throw error;
            }
          }),
        ),
      };
    },

    /** GET /trading/orderbook/{symbol}: the maker's ladder around the market mid. */
    async orderBook(symbol: string): Promise<TOrderBook> {
      const pair = await resolvePair(symbol);
      const [baseUsd, quoteUsd] = await Promise.all([usdPriceOf(pair.base), usdPriceOf(pair.quote)]);
      const mid = baseUsd.div(quoteUsd);
      const ladder = buildLadder({
        midPrice: mid,
        baseUsdPrice: baseUsd,
        baseDecimals: pair.base.decimals,
        quoteDecimals: pair.quote.decimals,
        pricing: deps.pricing,
      });
      const level = (entry: { price: Dec; amount: Dec }) => ({
        price: priceNumber(entry.price),
        amount: quantityNumber(entry.amount.toDecimalPlaces(pair.base.decimals, Dec.ROUND_DOWN)),
      });
      return {
        symbol: pair.text,
        mid_price: priceNumber(mid),
        spread: priceNumber(ladder.spread),
        buys: ladder.buys.map(level),
        sells: ladder.sells.map(level),
        updated_at: deps.now().toISOString(),
      };
    },

    /**
     * Quote units the maker asks (Buy) or bids (Sell) for `baseAmount` now, or null when it would
     * not fill that size (the keeper fills a crossed limit order at this price when it is better).
     */
    async makerQuoteAmount(
      pair: TradingPair,
      side: 'Buy' | 'Sell',
      baseAmount: bigint,
    ): Promise<bigint | null> {
      try {
        const quote = await venue.quote({
          base: pair.base,
          quote: pair.quote,
          side,
          baseAmount,
          slippageBps: 0,
        });
        return quote.quoteAmount;
      } catch (error) {
        if (error instanceof VenueError && error.kind !== 'unavailable') return null;
        throw error;
      }
    },

    /** Best bid and ask of the maker for a pair (the keeper compares limits with these). */
    async bestPrices(pair: TradingPair): Promise<{ bid: Dec; ask: Dec }> {
      return rfqBestPrices(await midPriceOf(pair), deps.pricing);
    },

    /** After a restart: every ticket that was sent but not recorded is settled from the chain. */
    async reconcileSent(): Promise<number> {
      let settled = 0;
      for (const ticket of await repo.listTicketsByStatus('sending')) {
        try {
          const outcome = await reconcileTicket(ticket);
          if (outcome !== 'in_flight') settled++;
        } catch (error) {
          deps.log.error({ err: error, ticket: ticket.id }, 'ticket reconciliation failed');
        }
      }
      return settled;
    },
  };
}

export type TradingService = ReturnType<typeof createTradingService>;
