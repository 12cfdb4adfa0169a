import {
  BOT_FEE_FLOAT_LAMPORTS,
  DEFAULT_SLIPPAGE_BPS,
  SOL_DECIMALS,
  USDC_MINT,
  WRAPPED_SOL_MINT,
} from '@solterm/contracts';
import {
  fromBaseUnits,
  RENT_EXEMPT_TOKEN_ACCOUNT_LAMPORTS,
  RENT_EXEMPT_WALLET_LAMPORTS,
  type RuntimeFill,
} from '@solterm/engine';
import { randomUUID } from 'node:crypto';
import type { KeyPairSigner } from '@solana/kit';
import type { FastifyBaseLogger } from 'fastify';
import { AppError, isAppError } from '../../../lib/app-error';
import { createKeyedQueue } from '../../../lib/keyed-queue';
import { LAMPORTS_PER_SIGNATURE, type ChainService } from '../../chain/chain.service';
import type { TradingPair, TradingService } from '../../trading/trading.service';
import type { BotFundsRepository } from '../funds/bot-funds.repository';
import { BotFundsError, type BotWallet } from '../funds/bot-wallet';
import type { BotRunRow } from './bot-runs.repository';

/** A runtime fill as it happened on chain: what the swap moved, and its signature. */
export interface ExecutedFill {
  baseAmount: bigint;
  quoteAmount: bigint;
  signature: string;
}

/**
 * Lamports the bot never trades away: its rent-exempt minimum and half the fee float the approval
 * sent (0.005 SOL: a thousand transactions' fees). Trades spend only what it drew above that.
 */
export const BOT_FEE_RESERVE_LAMPORTS = RENT_EXEMPT_WALLET_LAMPORTS + BOT_FEE_FLOAT_LAMPORTS / 2n;
/** How much more than the quote's price a buy draws, so a small move between quote and fill is covered. */
const FUNDING_MARGIN_BPS = 200n;

/** Failures worth another try next pass (the venue, the node or a blockhash), not the bot's fault. */
const TRANSIENT: readonly string[] = [
  'TRADING__QUOTE_EXPIRED',
  'TRADING__VENUE_UNAVAILABLE',
  'TRADING__TRANSACTION_EXPIRED',
  'TRADING__PRICE_UNAVAILABLE',
  'CHAIN__RPC_UNAVAILABLE',
  'CHAIN__CONFIRMATION_TIMEOUT',
];

export function isTransient(error: unknown): boolean {
  return isAppError(error) && TRANSIENT.includes(error.code);
}

const withMargin = (amount: bigint) => (amount * (10_000n + FUNDING_MARGIN_BPS) + 9_999n) / 10_000n;

/**
 * How long a process's claim on a user's bot key holds: longer than a pass funding and trading a
 * fill takes (a draw and a funding sell may each wait up to 20 s to confirm).
 */
export const BOT_KEY_CLAIM_MS = 60_000;

/**
 * Thrown before a fill's swap is sent when it must not be: the run was stopped meanwhile, another
 * process claimed the bot key, or recorded a swap for the fill. Nothing is sent; a later pass sees.
 */
class NotSent extends Error {}

/**
 * Executes an on-chain run's fills: each is a market swap of the bot key at the spot venue, through
 * the relay like a user's order (and recorded as the user's order, with its receipt). A buy is
 * funded first: the bot draws SOL under the owner's approval and, for a USDC pair, sells it for the
 * USDC the buy costs. Every swap is written (run, fill number, signature) before it is sent, so a
 * fill is executed once: until the relay's reconcile settles that swap's ticket (landed, failed or
 * expired unseen), the fill waits, and only a swap that cannot land is made again.
 *
 * One process at a time executes a user's fills: all of the user's runs share one bot key and one
 * approval, and the in-flight gate is a check, not a lock (two fills passing it together would both
 * fund from, and sell, the same SOL). Within a process a queue per user orders them; across
 * processes a claim on the key's row does, checked again just before the swap is recorded. A claim
 * that lapsed mid-pass (a pass outliving BOT_KEY_CLAIM_MS) is the last case, and the swap's record
 * holds there: a fill's swap is written only over a failed one, so two processes never both send one.
 */
export function createOnChainExecutor(deps: {
  repo: BotFundsRepository;
  wallet: BotWallet;
  trading: TradingService;
  chain: ChainService;
  now: () => Date;
  log: FastifyBaseLogger;
}) {
  const { repo, trading, chain } = deps;

  async function spendableLamports(bot: string): Promise<bigint> {
    const held = await chain.getBalance(bot);
    return held > BOT_FEE_RESERVE_LAMPORTS ? held - BOT_FEE_RESERVE_LAMPORTS : 0n;
  }

  async function tokenHeld(bot: string, mint: string): Promise<bigint> {
    return (await chain.getTokenBalances(bot)).get(mint)?.amount ?? 0n;
  }

  /**
   * Draws SOL under the approval so the bot can spend `lamports` beyond its fee reserve, plus the
   * rent of the token account a swap may open for it (the bot's first USDC or base token). The draw
   * pays its own fee from the bot's lamports, so it draws that fee too: short of it, a fill that
   * waited for a draw's verdict found 5,000 lamports missing on its next pass and drew again.
   */
  async function ensureLamports(
    userId: string,
    signer: KeyPairSigner,
    wallet: string,
    lamports: bigint,
  ): Promise<void> {
    const wanted = lamports + RENT_EXEMPT_TOKEN_ACCOUNT_LAMPORTS;
    const spare = await spendableLamports(signer.address);
    if (spare < wanted)
      await deps.wallet.draw(userId, signer, wallet, wanted - spare + LAMPORTS_PER_SIGNATURE);
  }

  /** Makes sure the bot holds the quote a buy of `baseAmount` costs (with a margin). */
  async function fundBuy(
    run: BotRunRow,
    signer: KeyPairSigner,
    wallet: string,
    pair: TradingPair,
    base: bigint,
  ) {
    const cost = await trading.makerQuoteAmount(pair, 'Buy', base);
    if (cost === null) throw new AppError('TRADING__VENUE_UNAVAILABLE');
    const needed = withMargin(cost);
    if (pair.quote.mint === WRAPPED_SOL_MINT) return ensureLamports(run.userId, signer, wallet, needed);
    const shortfall = needed - (await tokenHeld(signer.address, pair.quote.mint));
    if (shortfall <= 0n) return;
    // USDC comes from selling drawn SOL at the venue (a swap of its own, with its own receipt).
    const solPair = await trading.resolvePair('SOL/USDC');
    const perSol = await trading.makerQuoteAmount(solPair, 'Sell', 10n ** BigInt(SOL_DECIMALS));
    if (perSol === null || perSol <= 0n) throw new AppError('TRADING__VENUE_UNAVAILABLE');
    const lamports = withMargin((shortfall * 10n ** BigInt(SOL_DECIMALS) + perSol - 1n) / perSol);
    await ensureLamports(run.userId, signer, wallet, lamports);
    await trading.swapAsServerWallet(
      run.userId,
      signer,
      {
        symbol: 'SOL/USDC',
        order_type: 'Market',
        side: 'Sell',
        quantity: fromBaseUnits(lamports, SOL_DECIMALS).toNumber(),
        slippage_bps: DEFAULT_SLIPPAGE_BPS,
        priority_fee_micro_lamports: 0,
      },
      async () => undefined,
    );
  }

  /**
   * The outcome of fill `seq` as the relay settled its swap: null while the swap is in flight (the
   * runner tries again next pass), 'again' when it failed, expired unseen or never left the server.
   * The relay's reconcile is the only one that asks the chain (and records the user's order).
   */
  async function settledFill(run: BotRunRow, seq: number): Promise<ExecutedFill | null | 'again'> {
    const order = await repo.order(run.id, seq);
    if (!order || order.status === 'failed') return 'again';
    const executed = {
      baseAmount: BigInt(order.baseAmount),
      quoteAmount: BigInt(order.quoteAmount),
      signature: order.signature,
    };
    if (order.status === 'landed') return executed;
    const outcome = await trading.swapOutcome(run.userId, order.signature);
    if (outcome === 'in_flight') return null;
    if (outcome === 'unknown' && (await chain.getBlockHeight()) <= BigInt(order.lastValidBlockHeight)) {
      // No ticket was ever sent under it, yet it can still be: the process that recorded it is
      // about to send it, or stopped first. Only its blockhash's expiry makes another swap safe.
      return null;
    }
    await repo.setOrderStatus(run.id, seq, order.signature, outcome === 'landed' ? 'landed' : 'failed');
    return outcome === 'landed' ? executed : 'again';
  }

  async function executeOnce(
    run: BotRunRow,
    seq: number,
    fill: RuntimeFill,
    wallet: string,
  ): Promise<ExecutedFill | null> {
    // Reads only, made while the fill's record is read (the chain's in its thread, the database's
    // here): whether anything is traded is decided from the record alone.
    const signerRead = deps.wallet.signerOf(run.userId);
    const pairRead = trading.resolvePair(run.config.symbol);
    // Nothing new is sent while an earlier transaction of the bot may still land: a funding sell or
    // a draw whose answer was lost is unknown, not undone, and trading again on top of it would sell
    // or draw twice. The fill waits for the relay's verdict (asked now) and runs on a later pass.
    const settledRead = signerRead.then(async (signer) => {
      const [swaps, transfers] = await Promise.all([
        trading.swapsSettled(run.userId, signer.address),
        deps.wallet.transfersSettled(run.userId),
      ]);
      return swaps && transfers;
    });
    for (const read of [signerRead, pairRead, settledRead]) read.catch(() => undefined);
    const previous = await settledFill(run, seq);
    if (previous !== 'again') return previous;
    if (!(await settledRead)) return null;
    const signer = await signerRead;
    const pair = await pairRead;
    if (pair.quote.mint !== WRAPPED_SOL_MINT && pair.quote.mint !== USDC_MINT) {
      throw new BotFundsError('on-chain bots trade pairs quoted in SOL or USDC');
    }
    let baseAmount = fill.baseAmount;
    if (fill.side === 'Buy') await fundBuy(run, signer, wallet, pair, baseAmount);
    else {
      // Read after the verdict: a withdrawal the relay just settled as landed has left the balance.
      const held =
        pair.base.mint === WRAPPED_SOL_MINT
          ? await spendableLamports(signer.address)
          : await tokenHeld(signer.address, pair.base.mint);
      if (held <= 0n)
        throw new BotFundsError('it holds none of the position it should sell (was it withdrawn?)');
      if (held < baseAmount) baseAmount = held;
    }
    // Once signed, the swap is recorded before it is sent: if this throws after that, it may still
    // land, and the next pass asks the relay for its ticket's verdict before anything is traded again.
    let sent: ExecutedFill | undefined;
    const sending = trading.swapAsServerWallet(
      run.userId,
      signer,
      {
        symbol: run.config.symbol,
        order_type: 'Market',
        side: fill.side,
        quantity: fromBaseUnits(baseAmount, pair.base.decimals).toNumber(),
        slippage_bps: DEFAULT_SLIPPAGE_BPS,
        priority_fee_micro_lamports: 0,
      },
      async (swap) => {
        // Not recorded (so not sent) after a stop that came while this pass funded the fill (a draw
        // may wait seconds), nor once another process holds the key or recorded a swap for the fill.
        const now = deps.now();
        const recorded = await repo.recordOrder(
          {
            runId: run.id,
            seq,
            side: fill.side,
            baseAmount: swap.baseAmount.toString(),
            quoteAmount: swap.quoteAmount.toString(),
            signature: swap.signature,
            lastValidBlockHeight: swap.lastValidBlockHeight.toString(),
            status: 'sending',
            createdAt: now,
          },
          { userId: run.userId, holder, now, until: new Date(now.getTime() + BOT_KEY_CLAIM_MS) },
        );
        if (!recorded) throw new NotSent();
        sent = { baseAmount: swap.baseAmount, quoteAmount: swap.quoteAmount, signature: swap.signature };
      },
    );
    try {
      await sending;
    } catch (error) {
      // Refused before the relay sent it (no ticket under its signature): this process held the
      // only copy of the signed swap, so it is failed now rather than waited on until it expires.
      if (sent && (await trading.swapSent(run.userId, sent.signature).catch(() => true)) === false) {
        await repo.setOrderStatus(run.id, seq, sent.signature, 'failed');
      }
      throw error;
    }
    // Landed: the fill is done, and the key's claim ends with it (the caller's release is skipped).
    await repo.setOrderStatusAndReleaseKey(
      { runId: run.id, seq, signature: sent!.signature, status: 'landed' },
      { userId: run.userId, holder },
    );
    released.add(run.userId);
    return sent!;
  }

  /** This process, as the holder of the bot keys it claims. */
  const holder = randomUUID();
  /** Users whose key's claim a landed fill released (one fill per user at a time: see perUser). */
  const released = new Set<string>();
  const claimKey = (userId: string) => {
    const now = deps.now();
    return repo.claimKey(userId, holder, now, new Date(now.getTime() + BOT_KEY_CLAIM_MS));
  };

  /** The fills of one user, one at a time in this process (see the claim on the key above). */
  const perUser = createKeyedQueue();

  return {
    /**
     * Executes runtime fill `seq` of `run` (idempotent per fill), after any fill of the user's
     * other runs that is executing.
     *
     * @throws BotFundsError when the allowance or the bot's balance cannot cover it (the run stops).
     */
    async execute(
      run: BotRunRow,
      seq: number,
      fill: RuntimeFill,
      wallet: string,
    ): Promise<ExecutedFill | null> {
      try {
        return await perUser.run(run.userId, async () => {
          await deps.wallet.signerOf(run.userId); // makes the user's key (and its row) if it has none
          if (!(await claimKey(run.userId))) return null;
          released.delete(run.userId);
          try {
            return await executeOnce(run, seq, fill, wallet);
          } finally {
            if (!released.delete(run.userId)) await repo.releaseKey(run.userId, holder);
          }
        });
      } catch (error) {
        if (error instanceof NotSent) return null;
        if (isAppError(error) && error.code === 'TRADING__INSUFFICIENT_FUNDS') {
          throw new BotFundsError(
            `its balance cannot pay for this ${fill.side.toLowerCase()} (${error.message})`,
          );
        }
        throw error;
      }
    },
  };
}

export type OnChainExecutor = ReturnType<typeof createOnChainExecutor>;
