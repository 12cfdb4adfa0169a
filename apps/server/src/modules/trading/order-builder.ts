import { randomUUID } from 'node:crypto';
import { address, createNoopSigner, type TransactionSigner } from '@solana/kit';
import { getCreateAssociatedTokenIdempotentInstruction } from '@solana-program/token';
import {
  SOL_DECIMALS,
  TRADE_MESSAGES,
  WRAPPED_SOL_MINT,
  type TOrder,
  type TUnsignedTransaction,
} from '@solterm/contracts';
import {
  affordabilityShortfall,
  Dec,
  fromBaseUnits,
  limitEscrow,
  type LimitEscrow,
  RENT_EXEMPT_TOKEN_ACCOUNT_LAMPORTS,
  RENT_EXEMPT_WALLET_LAMPORTS,
  toBaseUnits,
} from '@solterm/engine';
import type { FastifyBaseLogger } from 'fastify';
import { isUniqueViolation } from '../../db/errors';
import { AppError } from '../../lib/app-error';
import {
  associatedTokenAddress,
  buildTransaction,
  LAMPORTS_PER_SIGNATURE,
  MAX_DEFAULT_COMPUTE_UNIT_LIMIT,
  priorityFeeLamports,
  tokenLegInstructions,
  type ChainService,
} from '../chain/chain.service';
import type { Relay, TicketKind } from '../relay/relay.service';
import type { LimitPayload, OrderKinds, SwapPayload } from './order-kinds';
import type { Pairs, TradingPair } from './pairs';
import { amountText, swapQuoteToWire } from './trading-wire';
import { VenueError, type SpotVenue, type VenueToken } from './venues/spot-venue';

/**
 * A limit order's deposit: the escrowed leg from the wallet to the escrow owner (its account created
 * when missing), and the wallet's own account of the token the fill pays, opened idempotently.
 */
export async function escrowDepositInstructions(
  user: TransactionSigner,
  escrowAddress: string,
  escrow: { escrowToken: VenueToken; settleToken: VenueToken; escrowAmount: bigint },
) {
  const { escrowToken, settleToken } = escrow;
  return [
    ...(await tokenLegInstructions({
      token: escrowToken,
      from: user,
      to: escrowAddress,
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
            ata: await associatedTokenAddress(user.address, settleToken.mint),
            owner: user.address,
            mint: address(settleToken.mint),
          }),
        ]),
  ];
}

/** An escrow's legs as tokens, refused when too small to settle (a SOL leg below the rent-exempt minimum). */
export function checkedEscrowLegs(escrow: LimitEscrow, pair: TradingPair, what = 'A limit order') {
  if (escrow.escrowAmount <= 0n || escrow.settleAmount <= 0n) throw new AppError('TRADING__AMOUNT_TOO_SMALL');
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
      `${what} moves at least ${amountText(RENT_EXEMPT_WALLET_LAMPORTS, SOL_DECIMALS)} SOL (the rent-exempt minimum)`,
    );
  }
  return { ...escrow, escrowToken, settleToken };
}

/**
 * An escrow deposit (limit or trigger order) as a wallet ticket of `kind`, and the answer the wallet
 * signs: the order exists only once the ticket's transaction lands (the kind records it then).
 */
export async function registerEscrowTicket<Payload extends { orderId: string }>(
  relay: Relay,
  kind: TicketKind<Payload>,
  ticket: {
    userId: string;
    wallet: string;
    built: { base64: string; messageBytes: Uint8Array; lastValidBlockHeight: bigint; sizeBytes: number };
    payload: Payload;
  },
): Promise<TUnsignedTransaction> {
  const { built, payload } = ticket;
  await relay.register({
    userId: ticket.userId,
    kind,
    walletAddress: ticket.wallet,
    messageBytes: built.messageBytes,
    lastValidBlockHeight: built.lastValidBlockHeight,
    payload,
    orderId: payload.orderId,
  });
  return {
    unsigned_transaction: built.base64,
    order_id: payload.orderId,
    quote: null,
    last_valid_block_height: built.lastValidBlockHeight.toString(),
    size_bytes: built.sizeBytes,
  };
}

export interface OrderBuilderDeps {
  pairs: Pairs;
  chain: ChainService;
  venue: SpotVenue;
  relay: Relay;
  kinds: OrderKinds;
  /** Where limit orders escrow funds (local venue only; without it limit orders are refused). */
  escrowAddress?: string;
  now: () => Date;
  log: FastifyBaseLogger;
}

type Holdings = { lamports: bigint; tokens: Map<string, bigint> };

/**
 * Refuses an order the wallet cannot afford with the spec's 'Insufficient {token} balance.
 * Required: …, Available: …', before anything is built (the engine's one affordability rule).
 */
export function assertAffordable(
  holdings: Holdings,
  pays: { token: VenueToken; amount: bigint },
  receives: VenueToken | null,
  feeLamports: bigint,
): void {
  const shortfall = affordabilityShortfall({
    ...holdings,
    nativeMint: WRAPPED_SOL_MINT,
    pays: { ...pays.token, amount: pays.amount },
    receives,
    feeLamports,
  });
  if (!shortfall) return;
  throw new AppError(
    'TRADING__INSUFFICIENT_FUNDS',
    TRADE_MESSAGES.insufficientTokenBalance(
      shortfall.token.symbol,
      amountText(shortfall.required, shortfall.token.decimals),
      amountText(shortfall.available, shortfall.token.decimals),
    ),
  );
}

export function baseUnitsOf(quantity: number, decimals: number): bigint {
  const units = toBaseUnits(new Dec(quantity).toDecimalPlaces(decimals, Dec.ROUND_DOWN), decimals);
  if (units <= 0n) throw new AppError('TRADING__AMOUNT_TOO_SMALL');
  return units;
}

/** A built market swap: the unsigned transaction and the base and quote units it moves. */
export interface MarketSwap {
  unsigned: TUnsignedTransaction;
  baseAmount: bigint;
  /** Quote units paid (Buy) or received (Sell) at the venue's quote, fees included. */
  quoteAmount: bigint;
}

/** Orders as transactions for the wallet to sign: market swaps through the venue, limit escrows. */
export function createOrderBuilder(deps: OrderBuilderDeps) {
  const { chain, venue, pairs } = deps;

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
    userId: string,
    wallet: string,
    order: TOrder,
    pair: TradingPair,
  ): Promise<MarketSwap> {
    const baseAmount = baseUnitsOf(order.quantity, pair.base.decimals);
    // The wallet's holdings are read while the venue quotes; awaited after the quote, so a venue
    // error is still the one reported when both fail.
    const holdingsRead = pairs.holdingsOf(wallet);
    holdingsRead.catch(() => undefined);
    // So is the blockhash the swap will carry: the three reads go to the node together.
    const latestBlockhash = chain.getLatestBlockhash();
    latestBlockhash.catch(() => undefined);
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
    const estimatedFee =
      2n * LAMPORTS_PER_SIGNATURE +
      priorityFeeLamports(order.priority_fee_micro_lamports, MAX_DEFAULT_COMPUTE_UNIT_LIMIT);
    assertAffordable(await holdingsRead, pays, receives, estimatedFee);
    const swap = await venue
      .buildSwap({
        quote,
        userAddress: wallet,
        priorityFeeMicroLamports: order.priority_fee_micro_lamports,
        latestBlockhash,
      })
      .catch((error: unknown) => mapVenueError(error, pair));
    const payload: SwapPayload = {
      orderId: randomUUID(),
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
    await deps.relay.register({
      userId,
      kind: deps.kinds.swap,
      walletAddress: wallet,
      messageBytes: swap.messageBytes,
      lastValidBlockHeight: swap.lastValidBlockHeight,
      payload,
      orderId: payload.orderId,
    });
    const unsigned: TUnsignedTransaction = {
      unsigned_transaction: Buffer.from(swap.wireBytes).toString('base64'),
      order_id: payload.orderId,
      quote: swapQuoteToWire(quote, pair, {
        venue: venue.name,
        quantity: payload.quantity,
        slippageBps: order.slippage_bps,
        networkFeeLamports: swap.networkFeeLamports,
      }),
      last_valid_block_height: swap.lastValidBlockHeight.toString(),
      size_bytes: swap.sizeBytes,
    };
    return { unsigned, baseAmount, quoteAmount: quote.quoteAmount };
  }

  /** The limit's escrow legs, refused when too small to settle. */
  function escrowOf(order: TOrder, pair: TradingPair, baseAmount: bigint) {
    const escrow = limitEscrow({
      side: order.side,
      baseAmount,
      limitPrice: new Dec(order.price!),
      baseDecimals: pair.base.decimals,
      quoteDecimals: pair.quote.decimals,
    });
    return checkedEscrowLegs(escrow, pair);
  }

  async function buildLimitOrder(
    userId: string,
    wallet: string,
    order: TOrder,
    pair: TradingPair,
  ): Promise<TUnsignedTransaction> {
    const escrowAddress = deps.escrowAddress;
    if (!escrowAddress) {
      throw new AppError('TRADING__VENUE_UNAVAILABLE', 'Limit orders need the local market maker venue');
    }
    const baseAmount = baseUnitsOf(order.quantity, pair.base.decimals);
    const escrow = escrowOf(order, pair, baseAmount);
    const { escrowToken, settleToken } = escrow;
    const networkFee =
      LAMPORTS_PER_SIGNATURE +
      priorityFeeLamports(order.priority_fee_micro_lamports, MAX_DEFAULT_COMPUTE_UNIT_LIMIT);
    // The escrow's token account may have to be created by this transaction (rent paid once per mint),
    // and so may the wallet's account of the token the fill pays (its rent counted when not held).
    assertAffordable(
      await pairs.holdingsOf(wallet),
      { token: escrowToken, amount: escrow.escrowAmount },
      settleToken,
      networkFee + RENT_EXEMPT_TOKEN_ACCOUNT_LAMPORTS,
    );
    const user = createNoopSigner(address(wallet));
    const instructions = await escrowDepositInstructions(user, escrowAddress, escrow);
    const built = await buildTransaction({
      feePayer: user.address,
      instructions,
      lifetime: await chain.getLatestBlockhash(),
      priorityFeeMicroLamports: order.priority_fee_micro_lamports,
    });
    const payload: LimitPayload = {
      orderId: randomUUID(),
      symbol: pair.text,
      side: order.side,
      baseMint: pair.base.mint,
      quoteMint: pair.quote.mint,
      baseDecimals: pair.base.decimals,
      quoteDecimals: pair.quote.decimals,
      baseAmount: baseAmount.toString(),
      quantity: fromBaseUnits(baseAmount, pair.base.decimals).toFixed(),
      limitPrice: new Dec(order.price!).toFixed(),
      escrowLeg: escrow.escrowLeg,
      escrowAmount: escrow.escrowAmount.toString(),
      settleAmount: escrow.settleAmount.toString(),
      priorityFeeMicroLamports: order.priority_fee_micro_lamports,
    };
    return registerEscrowTicket(deps.relay, deps.kinds.limitEscrow, { userId, wallet, built, payload });
  }

  return {
    /** A market order's swap with the exact amounts the venue quoted (the server's own callers). */
    async buildMarketSwap(userId: string, wallet: string, order: TOrder): Promise<MarketSwap> {
      const pair = await pairs.resolvePair(order.symbol);
      try {
        return await buildMarketOrder(userId, wallet, order, pair);
      } catch (error) {
        if (isUniqueViolation(error)) return buildMarketOrder(userId, wallet, order, pair);
        throw error;
      }
    },

    /** POST /trading/get-unsigned-transaction for a wallet that may trade. */
    async buildOrder(userId: string, wallet: string, order: TOrder): Promise<TUnsignedTransaction> {
      const pair = await pairs.resolvePair(order.symbol);
      const build = async () =>
        order.order_type === 'Limit'
          ? buildLimitOrder(userId, wallet, order, pair)
          : (await buildMarketOrder(userId, wallet, order, pair)).unsigned;
      try {
        return await build();
      } catch (error) {
        // The same order built twice on one blockhash can (rarely, despite the compute-limit jitter)
        // compile to the same message as an earlier ticket: build it once more.
        if (isUniqueViolation(error)) return build();
        throw error;
      }
    },
  };
}
