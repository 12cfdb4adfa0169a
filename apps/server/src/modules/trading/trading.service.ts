import type {
  TChartFill,
  TExecuteSignedTransactionResult,
  TOrder,
  TOrderBook,
  TPosition,
  TRecordSpotOrderRequest,
  TSpotOrder,
  TSuggestion,
  TTradable,
  TTrade,
  TTradesHistory,
  TTriggerOrder,
  TUnsignedTransaction,
} from '@solterm/contracts';
import { rfqBestPrices, type Dec, type RfqPricing } from '@solterm/engine';
import {
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  getTransactionDecoder,
  partiallySignTransaction,
  type KeyPairSigner,
} from '@solana/kit';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../lib/app-error';
import type { ChainService } from '../chain/chain.service';
import type { MarketService } from '../market/market.service';
import {
  isRelayError,
  landedAnswer,
  pendingAnswer,
  type IdempotentAnswer,
  type Relay,
} from '../relay/relay.service';
import { canTrade, type WalletOwner } from '../wallet/wallet.service';
import { walletTransactionErrorOf } from './chain-error-mapping';
import { createOrderBuilder } from './order-builder';
import { createOrderKinds } from './order-kinds';
import { createPairs, type TradingPair } from './pairs';
import { createTradingReads } from './trading-reads';
import { createTriggerOrderBuilder } from './trigger-order-builder';
import { orderToWire, tradeToChartFill, tradeToWire } from './trading-wire';
import type { TradingRepository } from './trading.repository';
import { VenueError, type SpotVenue } from './venues/spot-venue';

/** The relay's refusals in trading's words. */
function tradingErrorOf(error: unknown): unknown {
  if (!isRelayError(error)) return error;
  switch (error.code) {
    case 'RELAY__IDEMPOTENCY_CONFLICT':
      return new AppError('TRADING__IDEMPOTENCY_CONFLICT');
    case 'RELAY__IDEMPOTENCY_IN_PROGRESS':
      return new AppError('TRADING__IDEMPOTENCY_IN_PROGRESS');
    case 'RELAY__RPC_UNAVAILABLE':
      return new AppError('CHAIN__RPC_UNAVAILABLE');
    default:
      return new AppError('TRADING__EXECUTION_FAILED');
  }
}

export type { TradingPair } from './pairs';

/** A server-wallet swap as signed, before it is sent. */
export interface ServerWalletSwap {
  signature: string;
  baseAmount: bigint;
  quoteAmount: bigint;
  lastValidBlockHeight: bigint;
}
export { orderToWire } from './trading-wire';
export { walletTransactionErrorOf } from './chain-error-mapping';

const MAX_ORDERS_LISTED = 200;
const MAX_POSITION_FILLS = 10_000;

export interface TradingServiceDeps {
  repo: TradingRepository;
  relay: Relay;
  chain: ChainService;
  market: MarketService;
  venue: SpotVenue;
  /** Where limit orders escrow funds (local venue only; without it limit orders are refused). */
  escrowAddress?: string;
  pricing?: RfqPricing;
  now: () => Date;
  log: FastifyBaseLogger;
  /** Called after an order changes (real-time push to the user's sockets). */
  onOrderChanged?: (userId: string, order: TSpotOrder) => void;
}

/** The wallet that signs trades: 'Wallet not found…' without one, the Solana-only text for EVM/watch-only. */
export function tradingWalletOf(owner: WalletOwner): string {
  if (!owner.solanaWalletAddress) throw new AppError('TRADING__WALLET_REQUIRED');
  if (!canTrade(owner)) throw new AppError('WALLET__SOLANA_ONLY');
  return owner.solanaWalletAddress;
}

/**
 * Spot trading: orders become transactions the wallet signs (swaps through the venue, or limit-order
 * escrows) registered with the relay as ticket kinds; what landed is recorded as orders and fills.
 */
export function createTradingService(deps: TradingServiceDeps) {
  const { repo, relay, venue } = deps;
  const pairs = createPairs(deps);
  const kinds = createOrderKinds(deps);
  relay.registerKind(kinds.swap);
  relay.registerKind(kinds.limitEscrow);
  relay.registerKind(kinds.triggerEscrow);
  const builder = createOrderBuilder({ ...deps, pairs, kinds });
  const triggers = createTriggerOrderBuilder({ ...deps, pairs, kinds });
  const reads = createTradingReads({ pairs, pricing: deps.pricing, now: deps.now });

  return {
    resolvePair: pairs.resolvePair,
    midPriceOf: pairs.midPriceOf,

    /** POST /trading/get-unsigned-transaction. */
    buildOrder(owner: WalletOwner & { id: string }, order: TOrder): Promise<TUnsignedTransaction> {
      return builder.buildOrder(owner.id, tradingWalletOf(owner), order);
    },

    /** POST /trading/spot/order with a trigger order type: the escrow transaction for the wallet to sign. */
    placeTriggerOrder(
      owner: WalletOwner & { id: string },
      order: TTriggerOrder,
    ): Promise<TUnsignedTransaction> {
      return triggers.buildTriggerOrder(owner.id, tradingWalletOf(owner), order);
    },

    /** POST /trading/execute-signed-transaction, under an Idempotency-Key when the client sent one. */
    async execute(
      owner: WalletOwner & { id: string },
      signedBase64: string,
      idempotencyKey?: string,
    ): Promise<IdempotentAnswer> {
      tradingWalletOf(owner);
      // Sent with an unknown outcome: 202 pending with the signature (the reconcile job settles it),
      // never an error the client would answer by signing and paying again.
      const run = async (): Promise<IdempotentAnswer> => {
        try {
          return landedAnswer(await relay.execute(owner, signedBase64));
        } catch (error) {
          if (isRelayError(error) && error.code === 'RELAY__OUTCOME_UNKNOWN' && error.signature) {
            return pendingAnswer(error.signature);
          }
          // In trading's words here, inside the Idempotency-Key's run: a refusal is its stored answer.
          throw walletTransactionErrorOf(error);
        }
      };
      if (!idempotencyKey) return run().catch((error: unknown) => Promise.reject(tradingErrorOf(error)));
      return relay.idempotency
        .answer(owner.id, idempotencyKey, { signed_transaction: signedBase64 }, run)
        .catch((error: unknown) => {
          throw tradingErrorOf(error);
        });
    },

    /**
     * A market order of a wallet whose key the server holds (a user's bot key): built like a user's
     * order, signed with `signer`, shown to `beforeSend` with its signature and exact amounts (the
     * caller records them, so a crash after sending is reconciled rather than traded again), then
     * executed through the relay, which records it as the user's order with its receipt.
     */
    async swapAsServerWallet(
      userId: string,
      signer: KeyPairSigner,
      order: TOrder,
      beforeSend: (swap: ServerWalletSwap) => Promise<void>,
    ): Promise<TExecuteSignedTransactionResult> {
      const built = await builder.buildMarketSwap(userId, signer.address, order);
      const decoded = getTransactionDecoder().decode(
        Buffer.from(built.unsigned.unsigned_transaction, 'base64'),
      );
      const signed = await partiallySignTransaction([signer.keyPair], decoded);
      await beforeSend({
        signature: getSignatureFromTransaction(signed),
        baseAmount: built.baseAmount,
        quoteAmount: built.quoteAmount,
        lastValidBlockHeight: BigInt(built.unsigned.last_valid_block_height),
      });
      return relay
        .execute({ id: userId, solanaWalletAddress: signer.address }, getBase64EncodedWireTransaction(signed))
        .catch((error: unknown) => {
          throw walletTransactionErrorOf(error);
        });
    },

    /** Whether every swap `walletAddress` sent for the user has settled (those in flight asked about now). */
    swapsSettled: (userId: string, walletAddress: string) => relay.walletSettled(userId, walletAddress),

    /** The relay's settled verdict on a swap `swapAsServerWallet` sent (reconciled now if in flight). */
    swapOutcome: (userId: string, signature: string) => relay.outcomeOf(userId, signature),

    /** Whether a swap `swapAsServerWallet` signed under `signature` was ever sent (its outcome not asked). */
    swapSent: (userId: string, signature: string) => relay.wasSent(userId, signature),

    /**
     * POST /trading/spot/order: the order the server recorded for this transaction when it landed
     * (idempotent: the same answer every time). A signature still in flight is reconciled first.
     */
    async recordSpotOrder(owner: { id: string }, request: TRecordSpotOrderRequest): Promise<TSpotOrder> {
      let row = await repo.findOrderByTxHash(request.tx_hash);
      if (!row) {
        await relay.reconcileSignature(owner.id, request.tx_hash);
        row = await repo.findOrderByTxHash(request.tx_hash);
      }
      if (!row || row.userId !== owner.id) throw new AppError('TRADING__TRADE_NOT_FOUND');
      return orderToWire(row);
    },

    async listOrders(owner: { id: string }): Promise<TSpotOrder[]> {
      const rows = await repo.listOrders(owner.id, MAX_ORDERS_LISTED);
      // A link is stored on the newer order of a pair: both show it.
      const linkedTo = new Map(rows.filter((row) => row.ocoWith).map((row) => [row.ocoWith!, row.id]));
      return rows.map((row) => ({
        ...orderToWire(row),
        oco_with: row.ocoWith ?? linkedTo.get(row.id) ?? null,
      }));
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

    /** The user's spot fills of `pair` in a window, newest first, as chart markers read them. */
    async chartFills(
      userId: string,
      pair: TradingPair,
      window: { from: Date; to: Date },
      limit: number,
    ): Promise<TChartFill[]> {
      const rows = await repo.fillsOfPair(
        userId,
        { baseMint: pair.base.mint, quoteMint: pair.quote.mint },
        window,
        limit,
      );
      return rows.map(tradeToChartFill);
    },

    async positions(owner: { id: string }): Promise<TPosition[]> {
      return reads.positions(await repo.listTrades(owner.id, MAX_POSITION_FILLS, 0));
    },

    suggestion(owner: WalletOwner & { id: string }, symbol: string): Promise<TSuggestion> {
      return reads.suggestion(tradingWalletOf(owner), symbol);
    },

    tradability: (pairsText: readonly string[]): Promise<TTradable> => reads.tradability(pairsText),
    orderBook: (symbol: string): Promise<TOrderBook> => reads.orderBook(symbol),

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
      return rfqBestPrices(await pairs.midPriceOf(pair), deps.pricing);
    },
  };
}

export type TradingService = ReturnType<typeof createTradingService>;
