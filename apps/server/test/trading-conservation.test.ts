/**
 * Property: across random sequences of market swaps, limit orders, keeper fills, cancels (some of
 * them racing the keeper), late executions of built transactions and replays — against the real
 * server and its embedded LiteSVM cluster, not a model — value is conserved and nothing goes
 * negative:
 *
 * - globally, after every step: Σ lamports of every system and token account + Σ fees of every
 *   committed transaction is constant (the faucet included), every SPL mint's supply is the sum of
 *   its token accounts and changes only by what the faucet minted, and every transaction the
 *   cluster committed is accounted for;
 * - per step, exactly: every account's change (lamports, token amounts) is what the app's records
 *   say happened — the quoted swap legs, the escrow deposit, the keeper's fill legs at the maker's
 *   price (never worse than the limit) with the rest of the escrow refunded, the refund of a cancel,
 *   a closed token account's rent back to its owner — plus each landed transaction's fee and the
 *   rent of each token account it created,
 *   and the chain's new transactions are exactly the ones those records name; a refused action
 *   (unaffordable, expired, replayed, someone else's order) commits nothing and changes nothing;
 * - the records agree with the chain: one fill per filled order, settlements that landed, the
 *   escrow owner's token accounts holding exactly the pending limit orders' escrow, and each
 *   trader's balances as the wallet endpoints report them equal to the chain's;
 * - no answer is a server error, and an owner's cancel of a pending order succeeds unless the
 *   keeper settled it first or the wallet closed the token account the refund pays into;
 * - an adversary among the actors cannot drain the treasury, the maker or the escrow: quotes
 *   executed after their time to live are refused (the maker signs only at execute), a user-signed
 *   swap sent straight to the cluster's /rpc fails (no maker signature), closing the token account a
 *   limit order pays into makes the keeper refund instead of paying its rent, limits far through the
 *   market fill at the maker's price, and after every step the maker's holdings valued at the mid
 *   have not lost value (no riskless profit against it);
 * - nor through the public faucets: airdrops over the public /rpc (any amount, to any address,
 *   from several clients, raced and in batches) and POST /api/wallet/fund by several users at once.
 *   An accepted airdrop moves exactly its lamports from the treasury; an accepted fund moves its SOL
 *   and mints its USDC; a refused call moves nothing and its refusal is one the state explains. No
 *   airdrop leaves the treasury below its reserve (each run starts it a few SOL above, so the reserve
 *   is reached), public grants never exceed the per-address and per-client caps, a user's faucet
 *   grants never exceed its limit, and the maker loses nothing to either.
 *
 * One app and cluster serve every run (fresh traders each run), so the global invariants hold over
 * everything earlier runs left behind. The keeper's timer is stopped: it runs only when a step
 * ticks it, which keeps every step's expected changes exact.
 */
import fc from 'fast-check';
import {
  address,
  compileTransaction,
  createNoopSigner,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  signTransactionMessageWithSigners,
  type KeyPairSigner,
} from '@solana/kit';
import { getTransferSolInstruction, SYSTEM_PROGRAM_ADDRESS } from '@solana-program/system';
import {
  findAssociatedTokenPda,
  getCloseAccountInstruction,
  getMintDecoder,
  getTokenDecoder,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  getTokenBySymbol,
  USDC_MINT,
  WRAPPED_SOL_MINT,
  type TExecuteSignedTransactionResult,
  type TOrderBook,
  type TSpotOrder,
  type TUnsignedTransaction,
  type TWalletBalance,
} from '@solterm/contracts';
import { Dec } from '@solterm/engine';
import type { ClusterHost, TransactionRecord } from '@solterm/localnet';
import { spotOrders, spotTrades } from '../src/modules/trading/trading.tables';
import type { OrderRow, TradeRow } from '../src/modules/trading/trading.repository';
import {
  bearer,
  call,
  createTestApp,
  openTestDatabase,
  type Envelope,
  type TestApp,
  type TestDatabase,
} from './helpers/test-app';
import { getSetComputeUnitLimitInstruction } from '@solana-program/compute-budget';
import { messageOnLatestBlockhash } from './helpers/cluster-rpc';
import { createSolanaWallet, signInWithWallet, type SolanaSigningWallet } from './helpers/wallets';

// ---------------------------------------------------------------------------------------------
// Tokens and pairs

interface Token {
  symbol: string;
  mint: string;
  decimals: number;
}

const SOL: Token = { symbol: 'SOL', mint: WRAPPED_SOL_MINT, decimals: 9 };
const USDC: Token = { symbol: 'USDC', mint: USDC_MINT, decimals: 6 };
const BONK: Token = { symbol: 'BONK', mint: getTokenBySymbol('BONK')!.mint, decimals: 5 };
const TOKENS = [SOL, USDC, BONK];

interface Pair {
  symbol: string;
  base: Token;
  quote: Token;
  /** What to trade when the wallet holds none of the token it would size from. */
  fallbackQuantity: number;
}

const PAIRS: Pair[] = [
  { symbol: 'SOL/USDC', base: SOL, quote: USDC, fallbackQuantity: 0.5 },
  { symbol: 'BONK/SOL', base: BONK, quote: SOL, fallbackQuantity: 2_000_000 },
];

const tokenByMint = (mint: string): Token | undefined => TOKENS.find((token) => token.mint === mint);

/** A wire number (whole tokens) as base units; it must be a whole number of them. */
function unitsOf(amount: number, decimals: number): bigint {
  const units = new Dec(amount).times(new Dec(10).pow(decimals));
  if (!units.isInteger()) throw new Error(`${amount} is not a whole number of base units (${decimals})`);
  return BigInt(units.toFixed(0));
}

/** A positive number rounded to a few significant digits (what a trade form would send). */
const significant = (value: number, digits = 6): number => Number(value.toPrecision(digits));

// ---------------------------------------------------------------------------------------------
// Actions

type Side = 'Buy' | 'Sell';

interface OrderShape {
  trader: number;
  pair: number;
  side: Side;
  /**
   * Size as a fraction of what the wallet holds of the token it pays (> 1: cannot afford it), or
   * 'max': a sell of everything (for SOL, all but the network fee: the wallet's account closes).
   */
  fraction: number | 'max';
  priorityFee: number;
}

type Action =
  | ({ kind: 'market' } & OrderShape)
  /** A limit order at a limit crossing the maker's price or not, then maybe a keeper pass. */
  | ({ kind: 'limit'; crosses: boolean; far?: boolean; thenTick: boolean } & OrderShape)
  | ({ kind: 'build' } & OrderShape)
  /**
   * A take-profit, stop-loss or trailing stop just off the market (maybe linked one-cancels-the-other
   * with the trader's previous open order on the pair), then maybe the market moves and the keeper runs.
   */
  | ({
      kind: 'trigger';
      type: 'take_profit' | 'stop_loss' | 'trailing_stop';
      oco: boolean;
      slippageBps: number;
      moveMinutes: number;
    } & OrderShape)
  /** The market moves on (the app's clock: the simulated prices are a function of it), then the keeper runs. */
  | { kind: 'movePrice'; minutes: number }
  /** One signed swap sent twice at once. */
  | ({ kind: 'doubleExecute' } & OrderShape)
  /** Two swaps built (each affordable alone), then both executed: the second may no longer be. */
  | ({ kind: 'overspend' } & OrderShape)
  | { kind: 'executeBuilt'; index: number; expireFirst: boolean }
  | { kind: 'tick' }
  | { kind: 'concurrentTicks' }
  /** Cancels one of this run's limit orders, by its owner (by < 0) or by the trader at `by`. */
  | { kind: 'cancel'; order: number; by: number }
  | { kind: 'cancelRacingTick'; order: number }
  /** The owner cancels the same order twice at once. */
  | { kind: 'doubleCancel'; order: number }
  | { kind: 'replay'; index: number }
  // The adversary: free options, bypassing the server, closing accounts the keeper pays into.
  /** Takes a quote, waits past its time to live (the price moving meanwhile), then executes: refused. */
  | ({ kind: 'lateExecute' } & OrderShape)
  /** Signs a swap and sends it to the cluster's public JSON-RPC itself: the maker's signature is missing. */
  | ({ kind: 'directRpc' } & OrderShape)
  /** Closes an empty token account of the trader (e.g. the one a placed limit order will be paid into). */
  | { kind: 'closeAccount'; trader: number; token: 'USDC' | 'BONK' }
  // The faucets: neither may drain the treasury, whoever asks and however often.
  /** Public requestAirdrop calls over /rpc, all at once: one per request, or one batch per client. */
  | { kind: 'airdrops'; requests: AirdropRequest[]; batched: boolean }
  /** POST /api/wallet/fund by several users (the run's traders), all at once. */
  | { kind: 'fund'; requests: FundRequest[] };

/** Who receives a public airdrop: an address nobody uses (by index, so repeated), or a known one. */
type Recipient = { fresh: number } | { trader: number } | 'maker' | 'escrow' | 'treasury' | 'vault';

interface AirdropRequest {
  /** 0-2: clients of this run (their own IP); 3: the one client of every run (the real HTTP socket). */
  client: number;
  to: Recipient;
  /** Lamports as the JSON literal sent (any text: huge, negative, fractional, beyond u64). */
  lamports: string;
}

interface FundRequest {
  user: number;
  sol: number;
  usdc: number;
}

const SOL_LAMPORTS = 1_000_000_000n;
const U64_MAX = 2n ** 64n - 1n;

const airdropRequest: fc.Arbitrary<AirdropRequest> = fc.record({
  client: fc.nat({ max: 3 }),
  to: fc.oneof(
    { weight: 4, arbitrary: fc.record({ fresh: fc.nat({ max: 3 }) }) },
    { weight: 2, arbitrary: fc.record({ trader: fc.nat({ max: 2 }) }) },
    { weight: 1, arbitrary: fc.constantFrom<Recipient>('maker', 'escrow', 'treasury', 'vault') },
  ),
  lamports: fc.oneof(
    { weight: 3, arbitrary: fc.bigInt({ min: 1n, max: 6n * SOL_LAMPORTS }).map(String) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        '949946000000000', // issue #8: 949,946 SOL in one request
        '5000000000',
        '5000000000',
        '5000000001',
        '3000000000',
        '10000000000',
        '1000000000',
        '890880', // the rent-exempt minimum of a new account
        '1',
        '0',
        '-5000000000',
        '2500000000.5',
        '18446744073709551615', // u64::MAX
        '1e300',
      ),
    },
  ),
});

const fundRequest: fc.Arbitrary<FundRequest> = fc.record({
  user: fc.nat({ max: 2 }),
  sol: fc.constantFrom(0.5, 2, 5, 10, 10, 949_946),
  usdc: fc.constantFrom(0, 0, 250),
});

/** SOL the treasury holds above its reserve when a run's actions start (after funding its traders). */
const headroomArbitrary = fc.constantFrom(0, 0.5, 4, 9, 25);

const fraction = fc.oneof(
  { weight: 3, arbitrary: fc.double({ min: 0.0005, max: 0.6, noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: fc.constantFrom<number | 'max'>(0.97, 0.99, 0.995, 1, 1.05, 4, 'max') },
);
const orderShape = {
  trader: fc.nat({ max: 2 }),
  pair: fc.nat({ max: PAIRS.length - 1 }),
  side: fc.constantFrom<Side>('Buy', 'Sell'),
  fraction,
  priorityFee: fc.constantFrom(0, 0, 0, 2_000, 50_000),
};

const actionArbitrary: fc.Arbitrary<Action> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('market' as const), ...orderShape }) },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('limit' as const),
      crosses: fc.boolean(),
      // Far through the market (50 %): the fill must still be at the maker's price.
      far: fc.boolean(),
      thenTick: fc.boolean(),
      ...orderShape,
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('build' as const), ...orderShape }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('trigger' as const),
      type: fc.constantFrom<'take_profit' | 'stop_loss' | 'trailing_stop'>(
        'take_profit',
        'stop_loss',
        'trailing_stop',
      ),
      oco: fc.boolean(),
      // 0: the maker's spread alone is outside the bound, the triggered order is kept.
      slippageBps: fc.constantFrom(0, 100, 100, 300),
      moveMinutes: fc.constantFrom(0, 0, 1, 5, 30),
      ...orderShape,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('movePrice' as const), minutes: fc.constantFrom(1, 2, 10, 45) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('doubleExecute' as const), ...orderShape }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('overspend' as const),
      ...orderShape,
      fraction: fc.double({ min: 0.55, max: 0.95, noNaN: true }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('executeBuilt' as const),
      index: fc.nat(),
      expireFirst: fc.constantFrom(false, false, false, true),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('tick' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('concurrentTicks' as const) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('cancel' as const),
      order: fc.nat(),
      // Mostly the owner (-1); sometimes whoever that index names, possibly someone else.
      by: fc.oneof({ weight: 3, arbitrary: fc.constant(-1) }, { weight: 1, arbitrary: fc.nat() }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancelRacingTick' as const), order: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('doubleCancel' as const), order: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('replay' as const), index: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('lateExecute' as const), ...orderShape }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('directRpc' as const), ...orderShape }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('closeAccount' as const),
      trader: fc.nat({ max: 2 }),
      token: fc.constantFrom<'USDC' | 'BONK'>('USDC', 'BONK'),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('airdrops' as const),
      requests: fc.array(airdropRequest, { minLength: 1, maxLength: 8 }),
      batched: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('fund' as const),
      requests: fc.array(fundRequest, { minLength: 2, maxLength: 5 }),
    }),
  },
);

const fundingArbitrary = fc.record({
  sol: fc.constantFrom(0.05, 1, 5),
  usdc: fc.constantFrom(0, 60, 2000, 2000),
});

/**
 * Sequences every run tries first, so the paths that matter are covered whatever the seed (the
 * treasury 25 SOL above its reserve unless an example says otherwise).
 */
const EXAMPLES: [{ sol: number; usdc: number }[], Action[], number?][] = [
  [
    [
      { sol: 5, usdc: 2000 },
      { sol: 1, usdc: 0 },
    ],
    [
      // A crossing limit buy filled by the keeper; a resting limit sell; a crossing BONK buy that a
      // cancel races the keeper for; two cancels of one order at once.
      {
        kind: 'limit',
        crosses: true,
        thenTick: true,
        trader: 0,
        pair: 0,
        side: 'Buy',
        fraction: 0.2,
        priorityFee: 0,
      },
      {
        kind: 'limit',
        crosses: false,
        thenTick: false,
        trader: 0,
        pair: 0,
        side: 'Sell',
        fraction: 0.1,
        priorityFee: 2_000,
      },
      {
        kind: 'limit',
        crosses: true,
        thenTick: false,
        trader: 0,
        pair: 1,
        side: 'Buy',
        fraction: 0.05,
        priorityFee: 0,
      },
      { kind: 'cancelRacingTick', order: 2 },
      { kind: 'doubleCancel', order: 1 },
      // The second trader buys BONK (a new token account, its rent paid by the wallet), then sells
      // it through a crossing limit: BONK escrowed, SOL paid by the maker at the limit.
      { kind: 'market', trader: 1, pair: 1, side: 'Buy', fraction: 0.2, priorityFee: 50_000 },
      {
        kind: 'limit',
        crosses: true,
        thenTick: true,
        trader: 1,
        pair: 1,
        side: 'Sell',
        fraction: 0.5,
        priorityFee: 0,
      },
      // Two swaps each affordable alone; a replay; a built swap executed after its blockhash expired.
      { kind: 'overspend', trader: 0, pair: 0, side: 'Buy', fraction: 0.7, priorityFee: 0 },
      { kind: 'replay', index: 0 },
      { kind: 'build', trader: 1, pair: 0, side: 'Sell', fraction: 0.1, priorityFee: 0 },
      { kind: 'executeBuilt', index: 0, expireFirst: true },
    ],
  ],
  [
    [
      { sol: 1, usdc: 60 },
      { sol: 1, usdc: 60 },
    ],
    [
      // A limit order escrowing less SOL than the rent-exempt minimum of an account (0.00089088 SOL)
      // is refused; one escrowing 0.001 SOL rests. Then every other lamport is sold, so the wallet's
      // account closes, and the owner cancels: the refund must still land (it re-opens the account).
      {
        kind: 'limit',
        crosses: false,
        thenTick: false,
        trader: 0,
        pair: 0,
        side: 'Sell',
        fraction: 0.0005,
        priorityFee: 0,
      },
      {
        kind: 'limit',
        crosses: false,
        thenTick: false,
        trader: 0,
        pair: 0,
        side: 'Sell',
        fraction: 0.001,
        priorityFee: 0,
      },
      { kind: 'market', trader: 0, pair: 0, side: 'Sell', fraction: 'max', priorityFee: 0 },
      { kind: 'cancel', order: 0, by: -1 },
    ],
  ],
  [
    [
      { sol: 5, usdc: 2000 },
      { sol: 5, usdc: 0 },
    ],
    [
      // The adversary: a crossing BONK buy whose receiving account (opened by the placing
      // transaction, paid by the wallet) is closed before the keeper runs: refunded, no rent paid.
      {
        kind: 'limit',
        crosses: true,
        far: false,
        thenTick: false,
        trader: 1,
        pair: 1,
        side: 'Buy',
        fraction: 0.1,
        priorityFee: 0,
      },
      { kind: 'closeAccount', trader: 1, token: 'BONK' },
      { kind: 'tick' },
      // A limit far through the market: price improvement. Quotes executed late, and sent around the server.
      {
        kind: 'limit',
        crosses: true,
        far: true,
        thenTick: true,
        trader: 0,
        pair: 0,
        side: 'Buy',
        fraction: 0.3,
        priorityFee: 0,
      },
      { kind: 'lateExecute', trader: 0, pair: 0, side: 'Buy', fraction: 0.1, priorityFee: 0 },
      { kind: 'directRpc', trader: 1, pair: 0, side: 'Sell', fraction: 0.1, priorityFee: 0 },
      // Every BONK escrowed by a resting sell, the empty BONK account closed, then a cancel: refused
      // (the escrow would have to re-open the account), nothing moves.
      { kind: 'market', trader: 1, pair: 1, side: 'Buy', fraction: 0.1, priorityFee: 0 },
      {
        kind: 'limit',
        crosses: false,
        far: false,
        thenTick: false,
        trader: 1,
        pair: 1,
        side: 'Sell',
        fraction: 'max',
        priorityFee: 0,
      },
      { kind: 'closeAccount', trader: 1, token: 'BONK' },
      { kind: 'cancel', order: 2, by: -1 },
    ],
  ],
  [
    [
      { sol: 1, usdc: 60 },
      { sol: 1, usdc: 0 },
      { sol: 1, usdc: 2000 },
    ],
    // Found in CI (seed 819405244, path 7): a resting SOL/USDC buy escrowing USDC that no other
    // pending order's escrow covers, cancelled twice at once. When the losing cancel's refund was
    // simulated after the winner's had landed, the pooled escrow lacked the funds and the loser
    // answered 502 CHAIN__TRANSACTION_FAILED instead of 409 (nothing moved: the claim still guards).
    [
      { kind: 'market', trader: 1, pair: 1, side: 'Sell', fraction: 0.39454851656076895, priorityFee: 0 },
      { kind: 'cancelRacingTick', order: 1265096305 },
      {
        kind: 'airdrops',
        requests: [{ client: 2, to: 'treasury', lamports: '82143888' }],
        batched: true,
      },
      { kind: 'replay', index: 1600335548 },
      {
        kind: 'lateExecute',
        trader: 1,
        pair: 1,
        side: 'Buy',
        fraction: 0.0009011468754858409,
        priorityFee: 50_000,
      },
      {
        kind: 'limit',
        crosses: false,
        far: false,
        thenTick: true,
        trader: 0,
        pair: 0,
        side: 'Buy',
        fraction: 0.034211242749838555,
        priorityFee: 50_000,
      },
      { kind: 'doubleCancel', order: 1405794167 },
      { kind: 'doubleExecute', trader: 0, pair: 1, side: 'Buy', fraction: 0.99, priorityFee: 0 },
      {
        kind: 'fund',
        requests: [
          { user: 0, sol: 949_946, usdc: 0 },
          { user: 2, sol: 10, usdc: 250 },
          { user: 2, sol: 949_946, usdc: 250 },
          { user: 2, sol: 10, usdc: 0 },
        ],
      },
      { kind: 'executeBuilt', index: 1416909859, expireFirst: false },
    ],
    0.5,
  ],
];

/** Trigger orders, tried first too: an OCO take-profit / stop-loss pair on SOL, a trailing buy, the market moving. */
const TRIGGER_EXAMPLE: [{ sol: number; usdc: number }[], Action[]] = [
  [
    { sol: 5, usdc: 2000 },
    { sol: 1, usdc: 60 },
  ],
  [
    {
      kind: 'trigger',
      type: 'take_profit',
      oco: false,
      slippageBps: 100,
      moveMinutes: 0,
      trader: 0,
      pair: 0,
      side: 'Sell',
      fraction: 0.1,
      priorityFee: 0,
    },
    {
      kind: 'trigger',
      type: 'stop_loss',
      oco: true,
      slippageBps: 100,
      moveMinutes: 5,
      trader: 0,
      pair: 0,
      side: 'Sell',
      fraction: 0.1,
      priorityFee: 0,
    },
    {
      kind: 'trigger',
      type: 'trailing_stop',
      oco: false,
      slippageBps: 300,
      moveMinutes: 10,
      trader: 0,
      pair: 0,
      side: 'Buy',
      fraction: 0.05,
      priorityFee: 0,
    },
    {
      kind: 'trigger',
      type: 'stop_loss',
      oco: false,
      slippageBps: 0,
      moveMinutes: 30,
      trader: 1,
      pair: 0,
      side: 'Buy',
      fraction: 0.5,
      priorityFee: 0,
    },
    { kind: 'movePrice', minutes: 45 },
    { kind: 'cancelRacingTick', order: 0 },
    { kind: 'movePrice', minutes: 45 },
    { kind: 'cancel', order: 3, by: -1 },
  ],
];

/**
 * The faucets' adversary, tried first too: the treasury 9 SOL above its reserve, 949,946 SOL asked
 * at once, three clients' batches over the per-address cap and past the reserve, users funding at
 * once while the faucet is dry, then the one long-lived client airdropping to the maker, the
 * treasury itself and a trader.
 */
const FAUCET_EXAMPLE: [{ sol: number; usdc: number }[], number, Action[]] = [
  [
    { sol: 1, usdc: 0 },
    { sol: 5, usdc: 60 },
  ],
  9,
  [
    {
      kind: 'airdrops',
      batched: true,
      requests: [
        { client: 0, to: { fresh: 0 }, lamports: '949946000000000' },
        { client: 0, to: { fresh: 0 }, lamports: '5000000000' },
        { client: 1, to: { fresh: 0 }, lamports: '5000000000' },
        { client: 1, to: { fresh: 1 }, lamports: '5000000000' },
        { client: 2, to: { fresh: 2 }, lamports: '5000000000' },
        { client: 2, to: { fresh: 3 }, lamports: '1' },
      ],
    },
    {
      kind: 'fund',
      requests: [
        { user: 0, sol: 10, usdc: 250 },
        { user: 1, sol: 2, usdc: 0 },
        { user: 0, sol: 0.5, usdc: 250 },
        { user: 1, sol: 949_946, usdc: 0 },
      ],
    },
    { kind: 'market', trader: 1, pair: 0, side: 'Buy', fraction: 0.2, priorityFee: 0 },
    {
      kind: 'airdrops',
      batched: false,
      requests: [
        { client: 3, to: 'maker', lamports: '2000000000' },
        { client: 3, to: 'treasury', lamports: '1000000000' },
        { client: 3, to: { trader: 0 }, lamports: '5000000000' },
        { client: 0, to: { trader: 1 }, lamports: '18446744073709551615' },
      ],
    },
  ],
];

// ---------------------------------------------------------------------------------------------
// Chain and record snapshots

interface ChainSnapshot {
  /** Lamports of every system-program and token-program account. */
  lamports: Map<string, bigint>;
  /** Token amounts by `${owner} ${mint}` (summed over the owner's accounts of the mint). */
  tokens: Map<string, bigint>;
  tokenAccounts: Set<string>;
  supply: Map<string, bigint>;
  /** How many committed transactions the log held (see `transactionLog`). */
  transactionCount: number;
  /** Σ fees of those transactions. */
  fees: bigint;
}

interface RecordSnapshot {
  orders: Map<string, OrderRow>;
  trades: TradeRow[];
}

interface Snapshot {
  chain: ChainSnapshot;
  records: RecordSnapshot;
}

const transactionDecoder = getTransactionDecoder();
const messageDecoder = getCompiledTransactionMessageDecoder();

/** Fee payer first, then every other account the transaction names. */
function accountKeysOf(record: TransactionRecord): string[] {
  const transaction = transactionDecoder.decode(Buffer.from(record.transaction, 'base64'));
  const message = messageDecoder.decode(transaction.messageBytes);
  return [
    ...message.staticAccounts.map(String),
    ...record.loadedAddresses.writable,
    ...record.loadedAddresses.readonly,
  ];
}

const tokenKey = (owner: string, mint: string) => `${owner} ${mint}`;

/** A signed change of value: `SOL <account>` for lamports of any account, `<symbol> <owner>` for tokens. */
class Changes {
  readonly map = new Map<string, bigint>();

  add(key: string, amount: bigint): void {
    const next = (this.map.get(key) ?? 0n) + amount;
    if (next === 0n) this.map.delete(key);
    else this.map.set(key, next);
  }

  /** `amount` of `mint` (native SOL for the wrapped-SOL mint) from one owner to another. */
  move(mint: string, from: string, to: string, amount: bigint): void {
    this.add(assetKey(mint, from), -amount);
    this.add(assetKey(mint, to), amount);
  }

  labelled(names: Map<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [key, amount] of [...this.map].sort(([a], [b]) => a.localeCompare(b))) {
      const [asset, account] = key.split(' ') as [string, string];
      out[`${asset} ${names.get(account) ?? account}`] = amount.toString();
    }
    return out;
  }
}

function assetKey(mint: string, owner: string): string {
  if (mint === WRAPPED_SOL_MINT) return `SOL ${owner}`;
  return `${tokenByMint(mint)?.symbol ?? mint} ${owner}`;
}

// ---------------------------------------------------------------------------------------------

interface Trader {
  name: string;
  token: string;
  wallet: SolanaSigningWallet;
}

interface BuiltSwap {
  trader: Trader;
  signed: string;
  orderId: string;
}

interface RunState {
  traders: Trader[];
  /** Addresses nobody holds a key of, airdropped to by index (so the same one is asked for again). */
  fresh: string[];
  /** This run's public clients (IP addresses); the long-lived one is the real HTTP socket's. */
  clients: string[];
  /** Limit orders placed this run (any status now), with their owner. */
  limitOrders: { id: string; owner: Trader }[];
  /** Built and signed, not executed yet. */
  built: BuiltSwap[];
  /** Executed signed transactions (for replays). */
  executed: { trader: Trader; signed: string }[];
}

/** What the records may show after a step; everything else must be unchanged. */
interface StepExpectation {
  /** New orders and the status each must have. */
  newOrders: Map<string, 'Filled' | 'Pending'>;
  /** Whether the keeper ran (pending limit orders may have filled). */
  keeperRan: boolean;
  /** Orders that must have become Cancelled, or Filled. */
  cancelled: Set<string>;
  filled: Set<string>;
  /** Traders whose wallet view to compare with the chain afterwards. */
  involved: Trader[];
  /** Transactions a trader sent itself (closing an account), and each closed account's beneficiary. */
  ownTransactions: Set<string>;
  closedAccounts: Map<string, string>;
  /** Value the step moved besides orders and fees: accepted airdrops and funds, the treasury's top-ups. */
  moves: Changes;
  /** Of `ownTransactions`, the airdrops (the treasury's transfers that the reserve limits). */
  airdrops: Set<string>;
  /**
   * Of `ownTransactions`, those the chain committed with an error the step allows (an airdrop below
   * the rent-exempt minimum to an empty account, as a validator's faucet lands it): they moved only
   * their fee.
   */
  failedOnChain: Set<string>;
  /** Reads the step's outcome before it is verified (which airdrops failed on chain). */
  settle?: (after: Snapshot, before: Snapshot) => void;
  /** What else to check once the step's outcome is read (a faucet's refusals). */
  check?: (after: Snapshot, before: Snapshot) => void;
}

const expectation = (involved: Trader[] = []): StepExpectation => ({
  newOrders: new Map(),
  keeperRan: false,
  cancelled: new Set(),
  filled: new Set(),
  involved,
  ownTransactions: new Set(),
  closedAccounts: new Map(),
  moves: new Changes(),
  airdrops: new Set(),
  failedOnChain: new Set(),
});

/** Codes a refused order may carry: the spec's checks before anything is built or sent. */
const BUILD_REFUSALS = ['TRADING__INSUFFICIENT_FUNDS', 'TRADING__AMOUNT_TOO_SMALL', 'TRADING__NO_LIQUIDITY'];
/** Codes a signed transaction may be refused with once the chain has moved on since it was built. */
const EXECUTE_REFUSALS = [
  'TRADING__INSUFFICIENT_FUNDS',
  'TRADING__INSUFFICIENT_BALANCE',
  'TRADING__SIMULATION_FAILED',
  'TRADING__TRANSACTION_EXPIRED',
  // A swap executed late: the maker no longer honours its quote (too old, or the price moved); the
  // maker signs only at execute, so nothing moves — which every step's checks then confirm.
  'TRADING__QUOTE_EXPIRED',
];

describe('value conservation across random trading on the embedded cluster', () => {
  let database: TestDatabase;
  let app: TestApp;
  let cluster: ClusterHost;
  let escrow: string;
  let maker: string;
  let tokenAccountRent: bigint;
  /** Σ lamports + Σ fees, fixed by the first snapshot. */
  let totalLamports: bigint | undefined;
  /** Mint supplies at the first snapshot plus what the faucet minted since. */
  const expectedSupply = new Map<string, bigint>();
  /** Quote units of each built swap (from its quote), by order id. */
  const quotedUnits = new Map<string, bigint>();
  const feePayers = new Set<string>();
  /** Every committed transaction seen so far: by signature, and in the order first seen. */
  const transactions = new Map<string, TransactionRecord>();
  const transactionLog: TransactionRecord[] = [];
  const newestPaidBy = new Map<string, string>();
  let feesPaid = 0n;
  const names = new Map<string, string>();
  let traderCount = 0;
  let runCount = 0;
  /**
   * Holds the treasury's SOL beyond what a run needs, so each run can start the treasury a few SOL
   * above its reserve (the faucets' adversary then reaches it) and still fund the next run's traders.
   */
  let vault: KeyPairSigner;
  let treasury: KeyPairSigner;
  let reserve: bigint;
  let airdropCaps: { request: bigint; address: bigint; client: bigint };
  let faucetMax: number;
  /** Lamports granted to public airdrops so far, per recipient and per client (the window spans the file). */
  const publicGrants = { byAddress: new Map<string, bigint>(), byClient: new Map<string, bigint>() };
  /** Faucet (POST /wallet/fund) grants taken so far, per user. */
  const fundGrants = new Map<string, number>();
  /** How often the faucets refused because the treasury had reached its reserve. */
  const faucetStats = { dryAirdrops: 0, dryFunds: 0, acceptedAirdrops: 0, acceptedFunds: 0 };
  /** Trigger orders the keeper filled, OCO partners it refunded, and triggered orders it kept (slippage). */
  const triggerStats = { placed: 0, filled: 0, ocoCancelled: 0, kept: 0 };

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    app = await createTestApp({
      database,
      // The keeper is driven by hand (keeper.tick); its own timer is stopped below.
      env: {
        LIMIT_KEEPER_INTERVAL_MS: '60000',
        // One faucet call funds each trader; the adversary's funds race for the other two.
        FAUCET_RATE_LIMIT_MAX: '3',
        // Public airdrops: devnet's 5 SOL per request, lower per-address and per-client caps so a
        // run's few clients reach them, a window longer than the file (grants add up over it), and
        // the reserve each run starts the treasury just above (see setTreasury).
        RPC_AIRDROP_MAX_SOL: '5',
        RPC_AIRDROP_ADDRESS_MAX_SOL: '8',
        RPC_AIRDROP_CLIENT_MAX_SOL: '12',
        // (a year: the trigger steps move the app's clock by hours over the file).
        RPC_AIRDROP_WINDOW_MS: String(365 * 24 * 3_600_000),
        FAUCET_RATE_LIMIT_WINDOW_MS: String(365 * 24 * 3_600_000),
        RPC_AIRDROP_RESERVE_SOL: '10000',
      },
    });
    await app.server.listen({ port: 0, host: '127.0.0.1' });
    cluster = app.cluster!;
    escrow = app.keeper!.escrowAddress;
    maker = cluster.marketMaker.address;
    tokenAccountRent = await cluster.minimumBalanceForRentExemption(165);
    for (const [address, name] of [
      [escrow, 'escrow'],
      [maker, 'maker'],
      [cluster.treasury.address, 'treasury'],
    ] as const) {
      names.set(address, name);
      feePayers.add(address);
    }
    // The keeper starts once the server listens and first tops the escrow owner up with SOL for fees.
    for (let waited = 0; (await cluster.getBalance(escrow)) === 0n; waited += 20) {
      if (waited > 20_000) throw new Error('the limit keeper never started');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    await app.scheduler.stop();
    // The perp keeper's first pass funded its vault (the vault key pays to open its USDC account).
    names.set(app.perpVenue.trading!.vaultAddress, 'perp vault');
    feePayers.add(app.perpVenue.trading!.vaultAddress);

    const limits = app.config.rpc.airdrop;
    reserve = limits.treasuryReserveLamports;
    airdropCaps = {
      request: limits.maxLamportsPerRequest,
      address: limits.maxLamportsPerAddress,
      client: limits.maxLamportsPerClient,
    };
    faucetMax = app.config.faucetRateLimit.max;
    treasury = cluster.treasury;
    vault = await generateKeyPairSigner();
    names.set(vault.address, 'vault');
    feePayers.add(vault.address);
    // The operator parks all but 20 SOL above the reserve in the vault (the treasury signs it itself).
    const parked = (await cluster.getBalance(treasury.address)) - reserve - 20n * SOL_LAMPORTS;
    await transferSol(treasury, vault.address, parked);
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  // -------------------------------------------------------------------------------------------
  // Reading the chain

  async function readChain(): Promise<ChainSnapshot & { count: number }> {
    const lamports = new Map<string, bigint>();
    const tokens = new Map<string, bigint>();
    const tokenAccounts = new Set<string>();
    const supply = new Map<string, bigint>();
    // Every fee payer's new transactions since the last look, read with the accounts in one turn of
    // the cluster's worker: nothing can land in between.
    const payers = [...feePayers];
    const read = await cluster.snapshot({
      programAccounts: [SYSTEM_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS],
      signaturesFor: payers.map((payer) => ({
        address: payer,
        options: { limit: 1_000_000, until: newestPaidBy.get(payer) },
      })),
    });
    const [systemAccounts, tokenProgramAccounts] = read.programAccounts;
    for (const account of systemAccounts!) {
      lamports.set(account.address, account.lamports);
    }
    for (const account of tokenProgramAccounts!) {
      lamports.set(account.address, account.lamports);
      if (account.data.length === 82) {
        supply.set(account.address, getMintDecoder().decode(account.data).supply);
      } else if (account.data.length === 165) {
        const holding = getTokenDecoder().decode(account.data);
        tokenAccounts.add(account.address);
        const key = tokenKey(holding.owner, holding.mint);
        tokens.set(key, (tokens.get(key) ?? 0n) + holding.amount);
        if (holding.isNative.__option === 'Some') {
          // Wrapped SOL: the amount is the lamports above the rent reserve.
          expect(holding.amount, `wrapped SOL account ${account.address}`).toBe(
            account.lamports - holding.isNative.value,
          );
        }
      }
    }
    // Every transaction's fee payer is one of these: collect what each paid for since the last look.
    for (const [index, payer] of payers.entries()) {
      const fresh = read.signatures[index]!;
      if (fresh.length > 0) newestPaidBy.set(payer, fresh[0]!.signature);
      for (const record of fresh.reverse()) {
        if (transactions.has(record.signature)) continue;
        transactions.set(record.signature, record);
        transactionLog.push(record);
        feesPaid += BigInt(record.fee);
      }
    }
    return {
      lamports,
      tokens,
      tokenAccounts,
      supply,
      transactionCount: transactionLog.length,
      fees: feesPaid,
      count: read.transactionCount,
    };
  }

  /** The global invariants, and a snapshot of chain and records. */
  async function snapshot(): Promise<Snapshot> {
    // Read in one go: nothing can land in between.
    const { count, ...chain } = await readChain();
    expect(chain.transactionCount, 'every committed transaction has a known fee payer').toBe(count);

    // SOL: what the accounts hold plus what fees burnt never changes.
    let total = chain.fees;
    for (const value of chain.lamports.values()) {
      expect(value >= 0n).toBe(true);
      total += value;
    }
    totalLamports ??= total;
    expect(total, 'Σ lamports + Σ fees is conserved').toBe(totalLamports);

    // Tokens: each mint's supply is what its accounts hold, and only the faucet changes it.
    const held = new Map<string, bigint>();
    for (const [key, amount] of chain.tokens) {
      expect(amount >= 0n, key).toBe(true);
      const mint = key.split(' ')[1]!;
      held.set(mint, (held.get(mint) ?? 0n) + amount);
    }
    for (const [mint, supply] of chain.supply) {
      if (mint === WRAPPED_SOL_MINT) continue; // native: the wrapped amount is not in the mint's supply
      expect(held.get(mint) ?? 0n, `Σ token accounts of ${mint} = supply`).toBe(supply);
      if (!expectedSupply.has(mint)) expectedSupply.set(mint, supply);
      expect(supply, `supply of ${mint}`).toBe(expectedSupply.get(mint));
    }

    const [orders, trades] = await Promise.all([
      app.database.db.select().from(spotOrders),
      app.database.db.select().from(spotTrades),
    ]);
    expect(await cluster.transactionCount(), 'nothing landed while the records were read').toBe(count);
    return { chain, records: { orders: new Map(orders.map((row) => [row.id, row])), trades } };
  }

  const lamportsOf = (snap: Snapshot, owner: string) => snap.chain.lamports.get(owner) ?? 0n;
  const holdingOf = (snap: Snapshot, owner: string, token: Token) =>
    token.mint === WRAPPED_SOL_MINT
      ? lamportsOf(snap, owner)
      : (snap.chain.tokens.get(tokenKey(owner, token.mint)) ?? 0n);

  // -------------------------------------------------------------------------------------------
  // What a step must have done

  const landedBetween = (before: Snapshot, after: Snapshot) =>
    transactionLog.slice(before.chain.transactionCount, after.chain.transactionCount);

  /** The exact change every account must show, from the new transactions and the records. */
  function expectedChanges(before: Snapshot, after: Snapshot, step?: StepExpectation): Changes {
    const changes = new Changes();
    // A closed token account's rent goes back to its owner.
    for (const [account, beneficiary] of step?.closedAccounts ?? []) {
      const rent = before.chain.lamports.get(account) ?? 0n;
      changes.add(`SOL ${account}`, -rent);
      changes.add(`SOL ${beneficiary}`, rent);
    }
    for (const [key, amount] of step?.moves.map ?? []) changes.add(key, amount);
    const newTransactions = landedBetween(before, after);
    const newTokenAccounts = [...after.chain.tokenAccounts].filter(
      (account) => !before.chain.tokenAccounts.has(account),
    );
    for (const record of newTransactions) {
      const keys = accountKeysOf(record);
      changes.add(`SOL ${keys[0]!}`, -BigInt(record.fee));
      // The fee payer pays the rent of the token accounts its transaction creates (held nothing before it).
      const created = newTokenAccounts.filter((account) => {
        const index = keys.indexOf(account);
        return index >= 0 && record.preBalances[index] === '0' && record.postBalances[index] !== '0';
      });
      for (const account of created) {
        changes.add(`SOL ${keys[0]!}`, -tokenAccountRent);
        changes.add(`SOL ${account}`, tokenAccountRent);
      }
    }

    for (const order of after.records.orders.values()) {
      const previous = before.records.orders.get(order.id);
      if (order.orderType === 'Market') {
        if (previous || order.status !== 'Filled') continue;
        const quote = quotedUnits.get(order.id);
        expect(quote, `quote of market order ${order.id}`).toBeDefined();
        const base = BigInt(order.baseAmount);
        if (order.side === 'Buy') {
          changes.move(order.quoteMint, order.walletAddress, maker, quote!);
          changes.move(order.baseMint, maker, order.walletAddress, base);
        } else {
          changes.move(order.baseMint, order.walletAddress, maker, base);
          changes.move(order.quoteMint, maker, order.walletAddress, quote!);
        }
        continue;
      }
      const escrowMint = order.escrowLeg === 'base' ? order.baseMint : order.quoteMint;
      const settleMint = order.escrowLeg === 'base' ? order.quoteMint : order.baseMint;
      const escrowAmount = BigInt(order.escrowAmount!);
      // The deposit: the wallet pays the escrow owner.
      if (!previous && order.status !== 'Failed') {
        changes.move(escrowMint, order.walletAddress, escrow, escrowAmount);
      }
      const wasPending = !previous || previous.status === 'Pending';
      if (wasPending && order.status === 'Filled') {
        // The fill, at the maker's price when better than the limit: the escrow pays the maker, the
        // maker pays the wallet, and the rest of the escrow goes back to the wallet.
        const toMaker = order.fillMakerAmount === null ? escrowAmount : BigInt(order.fillMakerAmount);
        const toTrader = BigInt(order.fillTraderAmount ?? order.settleAmount!);
        // Never worse for the trader than the limit: pays at most the escrow, receives at least the settlement.
        expect(
          toMaker <= escrowAmount && toTrader >= BigInt(order.settleAmount!),
          `fill of ${order.id}`,
        ).toBe(true);
        changes.move(escrowMint, escrow, maker, toMaker);
        if (toMaker < escrowAmount)
          changes.move(escrowMint, escrow, order.walletAddress, escrowAmount - toMaker);
        changes.move(settleMint, maker, order.walletAddress, toTrader);
      }
      if (wasPending && order.status === 'Cancelled') {
        changes.move(escrowMint, escrow, order.walletAddress, escrowAmount);
      }
    }
    return changes;
  }

  function observedChanges(before: Snapshot, after: Snapshot): Changes {
    const changes = new Changes();
    const accounts = new Set([...before.chain.lamports.keys(), ...after.chain.lamports.keys()]);
    for (const account of accounts) {
      changes.add(
        `SOL ${account}`,
        (after.chain.lamports.get(account) ?? 0n) - (before.chain.lamports.get(account) ?? 0n),
      );
    }
    const holdings = new Set([...before.chain.tokens.keys(), ...after.chain.tokens.keys()]);
    for (const key of holdings) {
      const [owner, mint] = key.split(' ') as [string, string];
      changes.add(
        `${tokenByMint(mint)?.symbol ?? mint} ${owner}`,
        (after.chain.tokens.get(key) ?? 0n) - (before.chain.tokens.get(key) ?? 0n),
      );
    }
    return changes;
  }

  /** The records changed only as the step allows, and the chain moved exactly what they say. */
  function verifyStep(label: string, before: Snapshot, after: Snapshot, expected: StepExpectation): void {
    const { orders: was } = before.records;
    const { orders: now } = after.records;
    const signaturesNamed = new Set<string>();
    for (const order of now.values()) {
      expect(order.status, `${label}: order ${order.id} left settling`).not.toMatch(/^Settling/);
      const previous = was.get(order.id);
      if (previous?.status !== order.status) {
        if (order.status === 'Filled' && order.triggerPrice !== null) triggerStats.filled++;
        if (order.status === 'Cancelled' && ocoPartnerFilled(now, order)) triggerStats.ocoCancelled++;
      }
      if (!previous) {
        // A new limit order may already be filled when the keeper ran in the same step.
        const status =
          isEscrowed(order) &&
          expected.keeperRan &&
          (order.status === 'Filled' || (order.status === 'Cancelled' && ocoPartnerFilled(now, order)))
            ? 'Pending'
            : order.status;
        expect(expected.newOrders.get(order.id), `${label}: unexpected new order ${order.id}`).toBe(status);
        if (status !== order.status) signaturesNamed.add(order.settlementTxHash!);
        signaturesNamed.add(order.txHash!);
        if (order.orderType === 'Limit') checkLimitAmounts(order);
        continue;
      }
      if (previous.status === order.status) {
        if (order.statusReason && !previous.statusReason) triggerStats.kept++;
        continue;
      }

      const allowed =
        previous.status === 'Pending' &&
        ((order.status === 'Filled' && expected.keeperRan) ||
          (order.status === 'Cancelled' && expected.cancelled.has(order.id)) ||
          // The keeper refunds an open order whose one-cancels-the-other partner filled.
          (order.status === 'Cancelled' && expected.keeperRan && ocoPartnerFilled(now, order)) ||
          // The keeper refunds (never fills) an order whose receiving token account the wallet closed.
          (order.status === 'Cancelled' && expected.keeperRan && !canReceiveFill(before, order)));
      expect(allowed, `${label}: order ${order.id} went ${previous.status} → ${order.status}`).toBe(true);
      expect(order.settlementTxHash, `${label}: settlement of ${order.id}`).toEqual(expect.any(String));
      signaturesNamed.add(order.settlementTxHash!);
    }
    for (const id of expected.newOrders.keys()) expect(now.has(id), `${label}: order ${id}`).toBe(true);
    for (const id of expected.cancelled) expect(now.get(id)?.status, `${label}: ${id}`).toBe('Cancelled');
    for (const id of expected.filled) expect(now.get(id)?.status, `${label}: ${id}`).toBe('Filled');

    // The chain committed exactly the transactions the records name, and each succeeded.
    for (const signature of expected.ownTransactions) signaturesNamed.add(signature);
    const landed = landedBetween(before, after);
    expect(new Set(landed.map((record) => record.signature)), `${label}: transactions`).toEqual(
      signaturesNamed,
    );
    for (const record of landed) {
      if (!expected.failedOnChain.has(record.signature))
        expect(record.err, `${label}: ${record.signature}`).toBeNull();
    }

    // Every account changed by exactly what those transactions and records account for.
    expect(observedChanges(before, after).labelled(names), `${label}: account changes`).toEqual(
      expectedChanges(before, after, expected).labelled(names),
    );

    // One fill per filled order; the new fills are those of the newly filled orders.
    const tradesBefore = new Set(before.records.trades.map((trade) => trade.id));
    const newTrades = after.records.trades.filter((trade) => !tradesBefore.has(trade.id));
    const newlyFilled = [...now.values()].filter(
      (order) => order.status === 'Filled' && was.get(order.id)?.status !== 'Filled',
    );
    expect(newTrades.map((trade) => trade.orderId).sort(), `${label}: fills`).toEqual(
      newlyFilled.map((order) => order.id).sort(),
    );
    for (const trade of newTrades) {
      const order = now.get(trade.orderId)!;
      expect(trade.txHash).toBe(isEscrowed(order) ? order.settlementTxHash : order.txHash);
      expect(new Dec(trade.quantity).eq(order.quantity), `${label}: fill quantity`).toBe(true);
    }
  }

  /** Orders whose funds sit in escrow until the keeper settles them: limits and trigger orders. */
  const isEscrowed = (order: OrderRow) => order.orderType !== 'Market';
  /** Whether an order's one-cancels-the-other partner (either direction of the link) has filled. */
  const ocoPartnerFilled = (orders: Map<string, OrderRow>, order: OrderRow) =>
    [...orders.values()].some(
      (other) =>
        other.status === 'Filled' &&
        other.id !== order.id &&
        (other.id === order.ocoWith || other.ocoWith === order.id),
    );
  const isLinked = (snap: Snapshot, order: OrderRow) =>
    order.ocoWith !== null || [...snap.records.orders.values()].some((other) => other.ocoWith === order.id);

  /** Whether the wallet still had the token account a limit order's fill (or refund) pays into. */
  function hasAccount(snap: Snapshot, owner: string, mint: string): boolean {
    return mint === WRAPPED_SOL_MINT || snap.chain.tokens.has(tokenKey(owner, mint));
  }
  const settleMintOf = (order: OrderRow) => (order.escrowLeg === 'base' ? order.quoteMint : order.baseMint);
  const escrowMintOf = (order: OrderRow) => (order.escrowLeg === 'base' ? order.baseMint : order.quoteMint);
  const canReceiveFill = (snap: Snapshot, order: OrderRow) =>
    hasAccount(snap, order.walletAddress, settleMintOf(order));
  const canReceiveRefund = (snap: Snapshot, order: OrderRow) =>
    hasAccount(snap, order.walletAddress, escrowMintOf(order));

  /** A limit order's escrow and settlement amounts are its quantity at its limit, rounded against the trader. */
  function checkLimitAmounts(order: OrderRow): void {
    const base = tokenByMint(order.baseMint)!;
    const quote = tokenByMint(order.quoteMint)!;
    const quoteUnits = new Dec(order.baseAmount)
      .times(order.price!)
      .times(new Dec(10).pow(quote.decimals - base.decimals));
    const [escrowAmount, settleAmount] =
      order.side === 'Buy'
        ? [quoteUnits.ceil(), new Dec(order.baseAmount)]
        : [new Dec(order.baseAmount), quoteUnits.floor()];
    expect({ escrow: order.escrowAmount, settle: order.settleAmount }, `limit order ${order.id}`).toEqual({
      escrow: escrowAmount.toFixed(0),
      settle: settleAmount.toFixed(0),
    });
  }

  /**
   * No riskless profit against the maker: whatever a step did, the maker's holdings valued at the
   * market mid of that moment never lose value (it trades only at its quoted price or a limit filled
   * at it, both on its side of the mid; a quote executed late or around the server never lands).
   */
  async function verifyMakerValue(label: string, before: Snapshot, after: Snapshot): Promise<void> {
    const delta = (token: Token) =>
      new Dec((holdingOf(after, maker, token) - holdingOf(before, maker, token)).toString()).div(
        new Dec(10).pow(token.decimals),
      );
    const [sol, usdc, bonk] = [delta(SOL), delta(USDC), delta(BONK)];
    if (sol.isZero() && usdc.isZero() && bonk.isZero()) return;
    const mid = async (pair: Pair) => {
      const book = await call<TOrderBook>(app, {
        method: 'GET',
        url: `/api/trading/orderbook/${encodeURIComponent(pair.symbol)}`,
      });
      expect(book.status).toBe(200);
      return new Dec(book.body.data.mid_price);
    };
    const [solInUsdc, bonkInSol] = await Promise.all([mid(PAIRS[0]!), mid(PAIRS[1]!)]);
    const change = usdc.plus(sol.times(solInUsdc)).plus(bonk.times(bonkInSol).times(solInUsdc));
    expect(change.gte('-0.000001'), `${label}: the maker's value changed by ${change.toFixed()} USDC`).toBe(
      true,
    );
  }

  /** Records vs chain for every order so far, and the escrow owner's holdings. */
  function verifyRecords(snap: Snapshot): void {
    const fills = new Map<string, number>();
    for (const trade of snap.records.trades) fills.set(trade.orderId, (fills.get(trade.orderId) ?? 0) + 1);
    const pendingEscrow = new Map<string, bigint>();
    for (const order of snap.records.orders.values()) {
      const landed = (signature: string | null) => {
        const record = signature ? transactions.get(signature) : undefined;
        expect(record?.err, `order ${order.id}: ${signature}`).toBeNull();
      };
      landed(order.txHash);
      expect(fills.get(order.id) ?? 0, `fills of ${order.id} (${order.status})`).toBe(
        order.status === 'Filled' ? 1 : 0,
      );
      if (isEscrowed(order) && order.status !== 'Pending') landed(order.settlementTxHash);
      // One-cancels-the-other: never both filled.
      if (order.status === 'Filled' && order.ocoWith) {
        expect(snap.records.orders.get(order.ocoWith)?.status, `OCO partner of ${order.id}`).not.toBe(
          'Filled',
        );
      }
      if (isEscrowed(order) && order.status === 'Pending') {
        expect(order.settlementTxHash).toBeNull();
        const mint = order.escrowLeg === 'base' ? order.baseMint : order.quoteMint;
        pendingEscrow.set(mint, (pendingEscrow.get(mint) ?? 0n) + BigInt(order.escrowAmount!));
      }
    }
    for (const token of TOKENS) {
      const escrowed = pendingEscrow.get(token.mint) ?? 0n;
      if (token.mint === WRAPPED_SOL_MINT) {
        // Escrowed SOL shares the escrow owner's account with what it pays fees and rent from.
        expect(lamportsOf(snap, escrow) >= escrowed, 'escrow owner holds the escrowed SOL').toBe(true);
      } else {
        expect(holdingOf(snap, escrow, token), `escrow owner's ${token.symbol}`).toBe(escrowed);
      }
    }
  }

  /** The wallet endpoints report each trader's balances exactly as the chain holds them. */
  async function verifyWalletView(snap: Snapshot, traders: Trader[]): Promise<void> {
    for (const trader of new Set(traders)) {
      const address = trader.wallet.address;
      const sol = await call<{ lamports: string }>(app, {
        method: 'GET',
        url: '/api/wallet/solana-balance',
        headers: bearer(trader.token),
      });
      expect(sol.status).toBe(200);
      expect(BigInt(sol.body.data.lamports), `${trader.name} SOL`).toBe(lamportsOf(snap, address));
      for (const token of [USDC, BONK]) {
        const held = await call<{ amount: string }>(app, {
          method: 'GET',
          url: `/api/wallet/token-balance/${address}/${token.symbol}`,
          headers: bearer(trader.token),
        });
        expect(held.status).toBe(200);
        expect(BigInt(held.body.data.amount), `${trader.name} ${token.symbol}`).toBe(
          holdingOf(snap, address, token),
        );
      }
    }
  }

  // -------------------------------------------------------------------------------------------
  // The API

  async function newTrader(funding: { sol: number; usdc: number }): Promise<Trader> {
    const wallet = createSolanaWallet();
    const name = `trader${traderCount++}`;
    names.set(wallet.address, name);
    feePayers.add(wallet.address);
    const { status, body } = await signInWithWallet(app, wallet, 'phantom');
    expect(status).toBe(200);
    const trader = { name, token: body.data.token, wallet };
    const before = await snapshot();
    const funded = await call(app, {
      method: 'POST',
      url: '/api/wallet/fund',
      headers: bearer(trader.token),
      payload: { amount_sol: funding.sol, amount_usdc: funding.usdc },
    });
    expect(funded.status, JSON.stringify(funded.body)).toBe(200);
    fundGrants.set(name, 1);
    // The faucet mints what was asked: the USDC supply grows by exactly that.
    const minted = unitsOf(funding.usdc, USDC.decimals);
    expectedSupply.set(USDC.mint, expectedSupply.get(USDC.mint)! + minted);
    const after = await snapshot();
    const expected = expectedChanges(before, after);
    expected.move(WRAPPED_SOL_MINT, cluster.treasury.address, wallet.address, unitsOf(funding.sol, 9));
    expected.add(assetKey(USDC.mint, wallet.address), minted);
    expect(observedChanges(before, after).labelled(names), 'funding').toEqual(expected.labelled(names));
    return trader;
  }

  const unsigned = (trader: Trader, order: object) =>
    call<TUnsignedTransaction>(app, {
      method: 'POST',
      url: '/api/trading/get-unsigned-transaction',
      headers: bearer(trader.token),
      payload: order,
    });

  const execute = (trader: Trader, signed: string) =>
    call<TExecuteSignedTransactionResult>(app, {
      method: 'POST',
      url: '/api/trading/execute-signed-transaction',
      headers: bearer(trader.token),
      payload: { signed_transaction: signed },
    });

  const cancel = (trader: Trader, orderId: string) =>
    call<TSpotOrder>(app, {
      method: 'POST',
      url: `/api/trading/orders/${orderId}/cancel`,
      headers: bearer(trader.token),
    });

  async function bestPrices(pair: Pair): Promise<{ bid: number; ask: number }> {
    const book = await call<TOrderBook>(app, {
      method: 'GET',
      url: `/api/trading/orderbook/${encodeURIComponent(pair.symbol)}`,
    });
    expect(book.status, JSON.stringify(book.body)).toBe(200);
    return { bid: book.body.data.buys[0]!.price, ask: book.body.data.sells[0]!.price };
  }

  /** A JSON-RPC call to the cluster's public /rpc endpoint, as any client can make it. */
  async function rpc(method: string, params: unknown[]): Promise<{ result?: unknown; error?: unknown }> {
    const response = await fetch(app.rpcUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    return (await response.json()) as { result?: unknown; error?: unknown };
  }

  const sendToCluster = (signedBase64: string) =>
    rpc('sendTransaction', [signedBase64, { encoding: 'base64' }]);

  let sentAroundServer = 0;
  /**
   * A compute limit no other transaction sent around the server used (it changes no fee): the same
   * move twice within one blockhash — one slot — would otherwise be byte-identical, and the cluster
   * would refuse the second as already processed.
   */
  const distinctComputeLimit = () =>
    getSetComputeUnitLimitInstruction({ units: 10_000 + (sentAroundServer += 1) });

  /** The wallet closes its empty token account of `mint` (its rent back to the wallet), around the server. */
  async function closeTokenAccount(trader: Trader, mint: string) {
    const owner = createNoopSigner(address(trader.wallet.address));
    const [account] = await findAssociatedTokenPda({
      owner: owner.address,
      mint: address(mint),
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    });
    const message = await messageOnLatestBlockhash(rpc, owner, [
      distinctComputeLimit(),
      getCloseAccountInstruction({ account, destination: owner.address, owner }),
    ]);
    const signed = trader.wallet.signTransaction(
      getBase64EncodedWireTransaction(compileTransaction(message)),
    );
    const signature = await sendAndConfirm(signed);
    return { account: String(account), signature };
  }

  /** Sends a signed transaction to the cluster's /rpc and waits until it is confirmed. */
  async function sendAndConfirm(signedBase64: string): Promise<string> {
    const sent = await sendToCluster(signedBase64);
    expect(sent.error, JSON.stringify(sent)).toBeUndefined();
    const signature = sent.result as string;
    for (let waited = 0; ; waited += 20) {
      const statuses = (await rpc('getSignatureStatuses', [[signature]])).result as {
        value: ({ confirmationStatus: string } | null)[];
      };
      const status = statuses.value[0];
      if (status && status.confirmationStatus !== 'processed') return signature;
      if (waited > 10_000) throw new Error(`${signature} never confirmed`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** A plain SOL transfer signed by `from` (which pays the fee), sent around the server. */
  async function transferSol(from: KeyPairSigner, to: string, lamports: bigint): Promise<string> {
    const message = await messageOnLatestBlockhash(rpc, from, [
      distinctComputeLimit(),
      getTransferSolInstruction({ source: from, destination: address(to), amount: lamports }),
    ]);
    return sendAndConfirm(getBase64EncodedWireTransaction(await signTransactionMessageWithSigners(message)));
  }

  /**
   * The operator moves SOL between the vault and the treasury so the treasury holds `target` lamports
   * (at least `target` when `raiseOnly`), checked as a step of its own.
   */
  async function setTreasury(target: bigint, raiseOnly: boolean): Promise<void> {
    const before = await snapshot();
    const held = lamportsOf(before, treasury.address);
    const expected = expectation();
    if (held < target) {
      expected.ownTransactions.add(await transferSol(vault, treasury.address, target - held));
      expected.moves.move(WRAPPED_SOL_MINT, vault.address, treasury.address, target - held);
    } else if (!raiseOnly && held - target > 5000n) {
      // The treasury pays the transfer's fee too.
      const amount = held - target - 5000n;
      expected.ownTransactions.add(await transferSol(treasury, vault.address, amount));
      expected.moves.move(WRAPPED_SOL_MINT, treasury.address, vault.address, amount);
    } else {
      return;
    }
    verifyStep(`treasury to ${target}`, before, await snapshot(), expected);
  }

  /** The client id the real HTTP socket's requests carry (the server listens on 127.0.0.1). */
  const SOCKET_CLIENT = '127.0.0.1';

  /** A JSON-RPC body (text) sent to the public /rpc as `client`; the parsed answer. */
  async function publicRpc(client: string, body: string): Promise<unknown> {
    if (client === SOCKET_CLIENT) {
      const response = await fetch(app.rpcUrl(), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(response.status).toBe(200);
      return response.json();
    }
    const response = await app.server.inject({
      method: 'POST',
      url: '/rpc',
      headers: { 'content-type': 'application/json' },
      payload: body,
      remoteAddress: client,
    });
    expect(response.statusCode).toBe(200);
    return response.json();
  }

  function recipientOf(run: RunState, to: Recipient): string {
    if (to === 'maker') return maker;
    if (to === 'escrow') return escrow;
    if (to === 'treasury') return treasury.address;
    if (to === 'vault') return vault.address;
    if ('fresh' in to) return run.fresh[to.fresh % run.fresh.length]!;
    return traderOf(run, to.trader).wallet.address;
  }

  /** Lamports the faucet can still give: the treasury less an airdrop's fee and the reserve. */
  const available = (snap: Snapshot) => lamportsOf(snap, treasury.address) - 5000n - reserve;

  /**
   * Public airdrops, raced: each accepted one must fit the caps and moves exactly its lamports; each
   * refusal must be one the caps, the reserve or the runtime explain (checked once the step is read).
   */
  async function publicAirdrops(
    run: RunState,
    action: { requests: AirdropRequest[]; batched: boolean },
    expected: StepExpectation,
  ): Promise<(after: Snapshot, before: Snapshot) => void> {
    const requests = action.requests.map((request, id) => ({
      ...request,
      id,
      clientId: run.clients[request.client % run.clients.length]!,
      recipient: recipientOf(run, request.to),
    }));
    const bodyOf = (request: (typeof requests)[number]) =>
      `{"jsonrpc":"2.0","id":${request.id},"method":"requestAirdrop","params":["${request.recipient}",${request.lamports}]}`;
    type Answer = { id: number; result?: string; error?: { code: number; message: string } };
    let answers: Answer[];
    if (action.batched) {
      const byClient = new Map<string, typeof requests>();
      for (const request of requests)
        byClient.set(request.clientId, [...(byClient.get(request.clientId) ?? []), request]);
      const batches = await Promise.all(
        [...byClient].map(([client, batch]) => publicRpc(client, `[${batch.map(bodyOf).join(',')}]`)),
      );
      answers = batches.flatMap((batch) => batch as Answer[]);
    } else {
      answers = (await Promise.all(
        requests.map((request) => publicRpc(request.clientId, bodyOf(request))),
      )) as Answer[];
    }
    expect(answers.map((answer) => answer.id).sort((a, b) => a - b)).toEqual(requests.map(({ id }) => id));
    const refused: { request: (typeof requests)[number]; error: { code: number; message: string } }[] = [];
    const accepted: (typeof requests)[number][] = [];
    const signatureOf = new Map<(typeof requests)[number], string>();
    for (const answer of answers) {
      const request = requests[answer.id]!;
      const label = `airdrop ${JSON.stringify(request)}: ${JSON.stringify(answer)}`;
      if (answer.error) {
        refused.push({ request, error: answer.error });
        continue;
      }
      expect(answer.result, label).toEqual(expect.any(String));
      accepted.push(request);
      signatureOf.set(request, answer.result!);
      const lamports = BigInt(request.lamports);
      expect(lamports <= airdropCaps.request, label).toBe(true);
      expected.ownTransactions.add(answer.result!);
      expected.airdrops.add(answer.result!);
      expected.moves.move(WRAPPED_SOL_MINT, treasury.address, request.recipient, lamports);
      for (const [map, key] of [
        [publicGrants.byAddress, request.recipient],
        [publicGrants.byClient, request.clientId],
      ] as const) {
        map.set(key, (map.get(key) ?? 0n) + lamports);
      }
      faucetStats.acceptedAirdrops++;
    }
    // As a validator's faucet: an airdrop that would leave an empty account below the rent-exempt
    // minimum lands with its error, moving only its fee (it keeps its grant).
    expected.settle = (after, before) => {
      const landed = new Map(landedBetween(before, after).map((record) => [record.signature, record]));
      for (const request of accepted) {
        const signature = signatureOf.get(request)!;
        const record = landed.get(signature);
        if (!record?.err) continue;
        const label = `airdrop ${JSON.stringify(request)} failed on chain`;
        expect(record.err, label).toEqual({ InsufficientFundsForRent: { account_index: 1 } });
        expect(lamportsOf(before, request.recipient), label).toBe(0n);
        expect(BigInt(request.lamports) < 890_880n, label).toBe(true);
        expected.failedOnChain.add(signature);
        expected.moves.move(WRAPPED_SOL_MINT, request.recipient, treasury.address, BigInt(request.lamports));
      }
    };
    return (after, before) => {
      // A request that passed every check holds its grant and its lamports (counted in flight against
      // the reserve) until it settles, and the racing requests are checked meanwhile. Two kinds give
      // theirs back, so a refusal made while they were held saw less than the step's end shows: one
      // the runtime then refused (a new account below the rent-exempt minimum) gives back its grant
      // and its lamports, an airdrop to the treasury itself its lamports (it pays only the fee).
      const failed = refused
        .filter(({ error }) => error.message.startsWith('airdrop transfer failed: '))
        .map(({ request }) => request);
      const sum = (list: typeof requests, lamportsOf: (request: (typeof requests)[number]) => bigint) =>
        list.reduce((total, request) => total + lamportsOf(request), 0n);
      const heldInFlight =
        sum(failed, (request) => BigInt(request.lamports) + 5000n) +
        sum(
          accepted.filter((request) => request.recipient === treasury.address),
          (request) => BigInt(request.lamports),
        );
      // Within the window (the whole file), no recipient and no client got more than its cap.
      for (const { recipient, clientId } of requests) {
        expect(
          publicGrants.byAddress.get(recipient) ?? 0n,
          `public grants to ${recipient}`,
        ).toBeLessThanOrEqual(airdropCaps.address);
        expect(publicGrants.byClient.get(clientId) ?? 0n, `public grants of ${clientId}`).toBeLessThanOrEqual(
          airdropCaps.client,
        );
      }
      for (const { request, error } of refused) {
        const label = `refused airdrop ${JSON.stringify(request)}: ${error.message}`;
        const text = request.lamports;
        // Lamports are a u64 read exactly (as Agave does): past it, or zero, is a bad parameter.
        if (!/^\d+$/.test(text) || BigInt(text) === 0n || BigInt(text) > U64_MAX) {
          expect(error.code, label).toBe(-32602);
          continue;
        }
        const lamports = BigInt(text);
        expect(error.code, label).toBe(-32603);
        // Each refusal was true when made: grants and spending only grow in a step, but for what the
        // requests that settled later held meanwhile (see above).
        if (error.message.startsWith('request too large;')) {
          expect(lamports > airdropCaps.request, label).toBe(true);
          expect(error.message, label).toMatch(/^request too large; req: ◎[\d.]+, cap: ◎5$/);
        } else if (error.message.startsWith('limit reached for this client;')) {
          const held = sum(
            failed.filter((other) => other.clientId === request.clientId),
            (other) => BigInt(other.lamports),
          );
          expect(
            (publicGrants.byClient.get(request.clientId) ?? 0n) + held + lamports > airdropCaps.client,
            label,
          ).toBe(true);
        } else if (error.message.startsWith('limit reached;')) {
          const held = sum(
            failed.filter((other) => other.recipient === request.recipient),
            (other) => BigInt(other.lamports),
          );
          expect(
            (publicGrants.byAddress.get(request.recipient) ?? 0n) + held + lamports > airdropCaps.address,
            label,
          ).toBe(true);
        } else if (error.message.startsWith('the airdrop faucet has run dry;')) {
          expect(lamports > available(after) - heldInFlight, label).toBe(true);
          faucetStats.dryAirdrops++;
        } else {
          // The runtime refuses a new account below the rent-exempt minimum.
          expect(error.message, label).toMatch(/^airdrop transfer failed: /);
          expect(lamportsOf(before, request.recipient), label).toBe(0n);
          expect(lamports < 890_880n, label).toBe(true);
        }
      }
    };
  }

  /**
   * Users fund their wallets at once: an accepted call airdrops its SOL and mints its USDC; a refused
   * one (over the user's limit, or the faucet dry) moves nothing; every answer is one of those.
   */
  async function fundAtOnce(
    run: RunState,
    requests: FundRequest[],
    expected: StepExpectation,
  ): Promise<(after: Snapshot) => void> {
    const calls = requests.map((request) => ({ ...request, trader: traderOf(run, request.user) }));
    const answers = await Promise.all(
      calls.map(({ trader, sol, usdc }) =>
        call<{ signature: string; usdc_signature: string | null; amount_sol: number; amount_usdc: number }>(
          app,
          {
            method: 'POST',
            url: '/api/wallet/fund',
            headers: bearer(trader.token),
            payload: { amount_sol: sol, amount_usdc: usdc },
          },
        ),
      ),
    );
    const dry: bigint[] = [];
    const limited: Trader[] = [];
    for (const [index, answer] of answers.entries()) {
      const { trader, sol, usdc } = calls[index]!;
      const label = `fund ${JSON.stringify({ trader: trader.name, sol, usdc })}: ${answer.status} ${JSON.stringify(answer.body)}`;
      expected.involved.push(trader);
      if (sol > 10) {
        expect(answer.status, label).toBe(400);
        continue;
      }
      if (answer.status === 429) {
        expect(answer.body.code, label).toBe('WALLET__FAUCET_RATE_LIMITED');
        limited.push(trader);
        continue;
      }
      // Anything else took one of the user's faucet grants.
      fundGrants.set(trader.name, (fundGrants.get(trader.name) ?? 0) + 1);
      if (answer.status === 502) {
        expect(answer.body.code, label).toBe('CHAIN__AIRDROP_FAILED');
        dry.push(unitsOf(sol, 9));
        faucetStats.dryFunds++;
        continue;
      }
      expect(answer.status, label).toBe(200);
      const { signature, usdc_signature: usdcSignature } = answer.body.data;
      expected.ownTransactions.add(signature);
      expected.airdrops.add(signature);
      expected.moves.move(WRAPPED_SOL_MINT, treasury.address, trader.wallet.address, unitsOf(sol, 9));
      const minted = unitsOf(usdc, USDC.decimals);
      expect(usdcSignature === null, label).toBe(minted === 0n);
      if (usdcSignature !== null) {
        expected.ownTransactions.add(usdcSignature);
        expected.moves.add(assetKey(USDC.mint, trader.wallet.address), minted);
        expectedSupply.set(USDC.mint, expectedSupply.get(USDC.mint)! + minted);
      }
      faucetStats.acceptedFunds++;
    }
    return (after) => {
      for (const { trader } of calls) {
        expect(fundGrants.get(trader.name) ?? 0, `faucet grants of ${trader.name}`).toBeLessThanOrEqual(
          faucetMax,
        );
      }
      for (const trader of limited) {
        expect(fundGrants.get(trader.name), `${trader.name} refused under its limit`).toBe(faucetMax);
      }
      for (const lamports of dry)
        expect(lamports > available(after), `fund of ${lamports} refused`).toBe(true);
    };
  }

  /**
   * No airdrop (public, or the server's own) left the treasury below its reserve: each one's
   * post-balance is at least the reserve. Only the faucet's USDC mints (their fee and the rent of the
   * token account they open, paid by the treasury as mint authority) may take it lower.
   */
  function verifyTreasury(label: string, before: Snapshot, after: Snapshot, expected: StepExpectation): void {
    let otherCosts = 0n;
    for (const record of landedBetween(before, after)) {
      if (accountKeysOf(record)[0] !== treasury.address) continue;
      const post = BigInt(record.postBalances[0]!);
      if (expected.airdrops.has(record.signature)) {
        expect(post >= reserve, `${label}: airdrop ${record.signature} left the treasury at ${post}`).toBe(
          true,
        );
      } else {
        otherCosts += BigInt(record.preBalances[0]!) - post;
      }
    }
    const floor =
      (lamportsOf(before, treasury.address) < reserve ? lamportsOf(before, treasury.address) : reserve) -
      otherCosts;
    expect(
      lamportsOf(after, treasury.address) >= floor,
      `${label}: the treasury fell below its reserve`,
    ).toBe(true);
  }

  /** A quantity of base tokens worth `fraction` of what the wallet holds of the token it pays. */
  function sized(
    snap: Snapshot,
    trader: Trader,
    pair: Pair,
    side: Side,
    fraction: number | 'max',
    price: number,
    networkFee: bigint,
  ) {
    const paid = side === 'Buy' ? pair.quote : pair.base;
    const units = holdingOf(snap, trader.wallet.address, paid);
    if (fraction === 'max' && side === 'Sell') {
      const sellable = paid.mint === WRAPPED_SOL_MINT ? units - networkFee : units;
      if (sellable > 0n) return new Dec(sellable.toString()).div(new Dec(10).pow(paid.decimals)).toNumber();
    }
    const share = fraction === 'max' ? 1 : fraction;
    const held = Number(units) / 10 ** paid.decimals;
    const quantity = side === 'Buy' ? (share * held) / price : share * held;
    return quantity > 0 ? significant(quantity) : pair.fallbackQuantity;
  }

  /** The network fee the server estimates: 5,000 lamports per signature plus the priority fee at 200k CU. */
  const networkFee = (signatures: number, priorityFee: number) =>
    5000n * BigInt(signatures) + BigInt(Math.ceil((priorityFee * 200_000) / 1_000_000));

  function expectRefused(label: string, response: { status: number; body: Envelope }, codes: string[]) {
    expect(response.status, `${label}: ${JSON.stringify(response.body)}`).toBeGreaterThanOrEqual(400);
    expect(response.status, `${label}: ${JSON.stringify(response.body)}`).toBeLessThan(500);
    expect(codes, `${label}: ${JSON.stringify(response.body)}`).toContain(response.body.code);
  }

  /** Builds a market order; undefined when it was refused before anything was built. */
  async function buildMarket(
    snap: Snapshot,
    trader: Trader,
    shape: OrderShape,
  ): Promise<BuiltSwap | undefined> {
    const pair = PAIRS[shape.pair]!;
    const { bid, ask } = await bestPrices(pair);
    const quantity = sized(
      snap,
      trader,
      pair,
      shape.side,
      shape.fraction,
      shape.side === 'Buy' ? ask : bid,
      // A wallet receiving a token it has no account for also pays that account's rent.
      networkFee(2, shape.priorityFee) +
        (shape.side === 'Sell' &&
        pair.quote.mint !== WRAPPED_SOL_MINT &&
        !snap.chain.tokens.has(tokenKey(trader.wallet.address, pair.quote.mint))
          ? tokenAccountRent
          : 0n),
    );
    const built = await unsigned(trader, {
      symbol: pair.symbol,
      side: shape.side,
      quantity,
      priority_fee_micro_lamports: shape.priorityFee,
    });
    if (built.status !== 200) {
      expectRefused(`build ${pair.symbol} ${shape.side} ${quantity}`, built, BUILD_REFUSALS);
      return undefined;
    }
    const { quote } = built.body.data;
    const orderId = built.body.data.order_id!;
    quotedUnits.set(orderId, unitsOf(quote!.quote_amount, pair.quote.decimals));
    return { trader, orderId, signed: trader.wallet.signTransaction(built.body.data.unsigned_transaction) };
  }

  /** Executes a built swap; any refusal must be one the chain's state explains. */
  async function executeBuilt(run: RunState, swap: BuiltSwap, expected: StepExpectation, fresh: boolean) {
    const result = await execute(swap.trader, swap.signed);
    if (result.status === 200) {
      expect(result.body.data.order).toMatchObject({ id: swap.orderId, status: 'Filled' });
      expected.newOrders.set(swap.orderId, 'Filled');
      run.executed.push({ trader: swap.trader, signed: swap.signed });
      return true;
    }
    // A freshly built swap was checked affordable, but the chain may still refuse it (rent).
    expectRefused(fresh ? 'fresh execute' : 'late execute', result, EXECUTE_REFUSALS);
    return false;
  }

  const traderOf = (run: RunState, index: number) => run.traders[index % run.traders.length]!;

  /** A trigger order just off the market (so a move of the market fires it), escrowed like a limit. */
  async function placeTrigger(
    run: RunState,
    snap: Snapshot,
    action: Extract<Action, { kind: 'trigger' }>,
  ): Promise<StepExpectation> {
    const trader = traderOf(run, action.trader);
    const expected = expectation([trader]);
    const pair = PAIRS[action.pair]!;
    const book = await call<TOrderBook>(app, {
      method: 'GET',
      url: `/api/trading/orderbook/${encodeURIComponent(pair.symbol)}`,
    });
    const mid = book.body.data.mid_price;
    // A take-profit fires on a rise for a sell (a fall for a buy), a stop the other way round.
    const rises = (action.type === 'take_profit') === (action.side === 'Sell');
    const trigger = significant(mid * (rises ? 1.0005 : 0.9995));
    const quantity = sized(
      snap,
      trader,
      pair,
      action.side,
      action.fraction,
      trigger,
      networkFee(1, action.priorityFee) + tokenAccountRent,
    );
    const partner = action.oco
      ? [...run.limitOrders]
          .reverse()
          .find(
            ({ id, owner }) =>
              owner === trader &&
              snap.records.orders.get(id)?.status === 'Pending' &&
              snap.records.orders.get(id)?.symbol === pair.symbol,
          )
      : undefined;
    const order = {
      symbol: pair.symbol,
      side: action.side,
      order_type: action.type,
      amount: quantity,
      ...(action.type === 'trailing_stop' ? { trail_percent: 0.15 } : { trigger_price: trigger }),
      max_slippage_bps: action.slippageBps,
      priority_fee_micro_lamports: action.priorityFee,
      ...(partner ? { oco_with: partner.id } : {}),
    };
    const built = await call<TUnsignedTransaction>(app, {
      method: 'POST',
      url: '/api/trading/spot/order',
      headers: bearer(trader.token),
      payload: order,
    });
    if (built.status !== 200) {
      expectRefused(`trigger ${JSON.stringify(order)}`, built, [...BUILD_REFUSALS, 'TRADING__OCO_INVALID']);
      return expected;
    }
    const signed = trader.wallet.signTransaction(built.body.data.unsigned_transaction);
    const result = await execute(trader, signed);
    if (result.status !== 200) {
      expectRefused(`trigger execute ${JSON.stringify(order)}`, result, EXECUTE_REFUSALS);
      return expected;
    }
    const orderId = built.body.data.order_id!;
    expect(result.body.data.order).toMatchObject({ id: orderId, status: 'Pending' });
    expected.newOrders.set(orderId, 'Pending');
    triggerStats.placed++;
    run.limitOrders.push({ id: orderId, owner: trader });
    run.executed.push({ trader, signed });
    if (action.moveMinutes > 0) {
      expected.keeperRan = true;
      expected.involved = run.traders;
      app.clock.advance(action.moveMinutes * 60_000);
      await app.keeper!.tick();
    }
    return expected;
  }

  async function perform(run: RunState, snap: Snapshot, action: Action): Promise<StepExpectation> {
    switch (action.kind) {
      case 'market': {
        const trader = traderOf(run, action.trader);
        const expected = expectation([trader]);
        const swap = await buildMarket(snap, trader, action);
        if (swap) await executeBuilt(run, swap, expected, true);
        return expected;
      }
      case 'build': {
        const trader = traderOf(run, action.trader);
        const swap = await buildMarket(snap, trader, action);
        if (swap) run.built.push(swap);
        return expectation([trader]);
      }
      case 'executeBuilt': {
        const swap = run.built[action.index % Math.max(run.built.length, 1)];
        if (!swap) return expectation();
        const expected = expectation([swap.trader]);
        if (action.expireFirst) {
          await cluster.advanceSlots(200);
          // Re-base the slot clock, or it would stand still until wall time caught up with the jump.
          await cluster.stopSlotClock();
          await cluster.startSlotClock();
        }
        if (await executeBuilt(run, swap, expected, false)) run.built.splice(run.built.indexOf(swap), 1);
        return expected;
      }
      case 'doubleExecute': {
        const trader = traderOf(run, action.trader);
        const expected = expectation([trader]);
        const swap = await buildMarket(snap, trader, action);
        if (!swap) return expected;
        // The same signed transaction twice at once: one settles, the other is refused.
        const results = await Promise.all([execute(trader, swap.signed), execute(trader, swap.signed)]);
        const accepted = results.filter((result) => result.status === 200);
        expect(accepted.length, JSON.stringify(results.map((result) => result.body))).toBeLessThanOrEqual(1);
        for (const result of results) {
          if (result.status !== 200)
            expectRefused('double execute', result, ['TRADING__ALREADY_EXECUTED', ...EXECUTE_REFUSALS]);
        }
        if (accepted.length === 1) {
          expected.newOrders.set(swap.orderId, 'Filled');
          run.executed.push({ trader, signed: swap.signed });
        }
        return expected;
      }
      case 'overspend': {
        const trader = traderOf(run, action.trader);
        const expected = expectation([trader]);
        const first = await buildMarket(snap, trader, action);
        const second = await buildMarket(snap, trader, action);
        for (const swap of [first, second]) if (swap) await executeBuilt(run, swap, expected, false);
        return expected;
      }
      case 'limit': {
        const trader = traderOf(run, action.trader);
        const expected = expectation([trader]);
        const pair = PAIRS[action.pair]!;
        const { bid, ask } = await bestPrices(pair);
        const price =
          action.side === 'Buy'
            ? significant(ask * (action.crosses ? (action.far ? 1.5 : 1.03) : 0.7))
            : significant(bid * (action.crosses ? (action.far ? 0.5 : 0.97) : 1.4));
        const quantity = sized(
          snap,
          trader,
          pair,
          action.side,
          action.fraction,
          price,
          networkFee(1, action.priorityFee) + tokenAccountRent,
        );
        const order = {
          symbol: pair.symbol,
          side: action.side,
          order_type: 'Limit',
          quantity,
          price,
          priority_fee_micro_lamports: action.priorityFee,
        };
        const built = await unsigned(trader, order);
        if (built.status !== 200) {
          expectRefused(`limit ${JSON.stringify(order)}`, built, BUILD_REFUSALS);
          return expected;
        }
        const signed = trader.wallet.signTransaction(built.body.data.unsigned_transaction);
        const result = await execute(trader, signed);
        if (result.status !== 200) {
          expectRefused(`limit execute ${JSON.stringify(order)}`, result, EXECUTE_REFUSALS);
          return expected;
        }
        const orderId = built.body.data.order_id!;
        expect(result.body.data.order).toMatchObject({ id: orderId, status: 'Pending', order_type: 'Limit' });
        expected.newOrders.set(orderId, 'Pending');
        run.limitOrders.push({ id: orderId, owner: trader });
        run.executed.push({ trader, signed });
        if (action.thenTick) {
          expected.keeperRan = true;
          expected.involved = run.traders;
          await app.keeper!.tick();
        }
        return expected;
      }
      case 'trigger':
        return placeTrigger(run, snap, action);
      case 'movePrice': {
        const expected = expectation(run.traders);
        expected.keeperRan = true;
        app.clock.advance(action.minutes * 60_000);
        await app.keeper!.tick();
        return expected;
      }
      case 'tick': {
        const expected = expectation(run.traders);
        expected.keeperRan = true;
        await app.keeper!.tick();
        return expected;
      }
      case 'concurrentTicks': {
        const expected = expectation(run.traders);
        expected.keeperRan = true;
        await Promise.all([app.keeper!.tick(), app.keeper!.tick()]);
        return expected;
      }
      case 'doubleCancel': {
        const target = run.limitOrders[action.order % Math.max(run.limitOrders.length, 1)];
        if (!target) return expectation();
        const expected = expectation([target.owner]);
        const row = snap.records.orders.get(target.id);
        // A refund into a token account the wallet closed is refused (the escrow pays no rent).
        const pending = row?.status === 'Pending' && canReceiveRefund(snap, row);
        const responses = await Promise.all([
          cancel(target.owner, target.id),
          cancel(target.owner, target.id),
        ]);
        const statuses = responses.map((response) => response.status).sort();
        expect(statuses, JSON.stringify(responses.map((response) => response.body))).toEqual(
          pending ? [200, 409] : [409, 409],
        );
        if (pending) expected.cancelled.add(target.id);
        return expected;
      }
      case 'cancel':
      case 'cancelRacingTick': {
        const target = run.limitOrders[action.order % Math.max(run.limitOrders.length, 1)];
        const by =
          action.kind === 'cancel' && action.by >= 0
            ? traderOf(run, action.by)
            : (target?.owner ?? traderOf(run, 0));
        const orderId = target?.id ?? '00000000-0000-4000-8000-000000000000';
        const status = snap.records.orders.get(orderId)?.status;
        const expected = expectation(run.traders);
        let response;
        if (action.kind === 'cancelRacingTick') {
          expected.keeperRan = true;
          [response] = await Promise.all([cancel(by, orderId), app.keeper!.tick()]);
        } else {
          response = await cancel(by, orderId);
        }
        const row = snap.records.orders.get(orderId);
        if (!target || target.owner !== by) {
          expect(response.status, 'cancel of an order that is not yours').toBe(404);
        } else if (status !== 'Pending') {
          expect(response.status, `cancel of a ${status} order`).toBe(409);
        } else if (row && !canReceiveRefund(snap, row)) {
          // The wallet closed the token account the refund pays into: refused, the escrow pays no rent.
          expect(response.status, JSON.stringify(response.body)).toBe(409);
          expect(response.body.code).toBe('TRADING__TOKEN_ACCOUNT_CLOSED');
        } else if (action.kind === 'cancelRacingTick' && response.status === 409) {
          // Only the keeper settling it first may beat the owner's cancel: a fill, or a refund when
          // the wallet closed the account the fill pays into (or, for a linked order, its partner filled).
          if (row && isLinked(snap, row)) expected.keeperRan = true;
          else if (row && canReceiveFill(snap, row)) expected.filled.add(orderId);
          else expected.cancelled.add(orderId);
        } else {
          const body = JSON.stringify(response.body);
          expect(response.status, `the owner's cancel of pending order ${orderId}: ${body}`).toBe(200);
          expect(response.body.data).toMatchObject({ id: orderId, status: 'Cancelled' });
          expected.cancelled.add(orderId);
        }
        return expected;
      }
      case 'lateExecute': {
        const trader = traderOf(run, action.trader);
        const swap = await buildMarket(snap, trader, action);
        if (!swap) return expectation([trader]);
        // Past RFQ_QUOTE_TTL_MS (10 s): the simulated market has moved on, the maker no longer signs.
        app.clock.advance(10_001);
        const result = await execute(trader, swap.signed);
        expectRefused('late execute of a quote', result, ['TRADING__QUOTE_EXPIRED']);
        return expectation([trader]);
      }
      case 'directRpc': {
        const trader = traderOf(run, action.trader);
        const swap = await buildMarket(snap, trader, action);
        if (!swap) return expectation([trader]);
        const sent = await sendToCluster(swap.signed);
        expect(
          sent.error,
          `a user-signed swap sent around the server: ${JSON.stringify(sent)}`,
        ).toBeDefined();
        // Still executable through the server while its quote holds.
        run.built.push(swap);
        return expectation([trader]);
      }
      case 'closeAccount': {
        const trader = traderOf(run, action.trader);
        const expected = expectation([trader]);
        const mint = action.token === 'USDC' ? USDC.mint : BONK.mint;
        const held = snap.chain.tokens.get(tokenKey(trader.wallet.address, mint));
        if (held !== 0n) return expected; // no account, or not empty: cannot be closed
        // A wallet that sold all its SOL (a 'max' sell closes its account) cannot pay the fee.
        if ((snap.chain.lamports.get(trader.wallet.address) ?? 0n) < 10_000n) return expected;
        const { account, signature } = await closeTokenAccount(trader, mint);
        expected.ownTransactions.add(signature);
        expected.closedAccounts.set(account, trader.wallet.address);
        return expected;
      }
      case 'airdrops': {
        const expected = expectation(run.traders);
        expected.check = await publicAirdrops(run, action, expected);
        return expected;
      }
      case 'fund': {
        const expected = expectation();
        expected.check = await fundAtOnce(run, action.requests, expected);
        return expected;
      }
      case 'replay': {
        const replayed = run.executed[action.index % Math.max(run.executed.length, 1)];
        if (!replayed) return expectation();
        const result = await execute(replayed.trader, replayed.signed);
        expect(result.status).toBe(409);
        expect(result.body.code).toBe('TRADING__ALREADY_EXECUTED');
        return expectation([replayed.trader]);
      }
    }
  }

  // -------------------------------------------------------------------------------------------

  it('conserves every token, never goes negative, and the records agree with the chain', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fundingArbitrary, { minLength: 2, maxLength: 3 }),
        headroomArbitrary,
        fc.array(actionArbitrary, { minLength: 3, maxLength: 10 }),
        async (fundings, headroom, actions) => {
          // The background jobs stay stopped: the keeper runs only when a step ticks it.
          await app.scheduler.stop();
          const runIndex = runCount++;
          const run: RunState = {
            traders: [],
            fresh: Array.from({ length: 4 }, (_, index) => {
              const { address: fresh } = createSolanaWallet();
              names.set(fresh, `run${runIndex}-fresh${index}`);
              return fresh;
            }),
            // Three clients of this run, and the long-lived one (capped early, refused ever after).
            clients: [0, 1, 2].map((client) => `10.${runIndex >> 8}.${runIndex & 255}.${client + 1}`),
            limitOrders: [],
            built: [],
            executed: [],
          };
          run.clients.push(SOCKET_CLIENT);
          // Enough for the traders' funding, then the treasury starts the actions `headroom` SOL
          // above its reserve: the faucets' adversary reaches the reserve within the run.
          await setTreasury(reserve + 16n * SOL_LAMPORTS, true);
          for (const funding of fundings) run.traders.push(await newTrader(funding));
          await setTreasury(reserve + unitsOf(headroom, 9), false);
          let before = await snapshot();
          for (const [index, action] of actions.entries()) {
            const label = `step ${index} ${JSON.stringify(action)}`;
            const expected = await perform(run, before, action);
            const after = await snapshot();
            expected.settle?.(after, before);
            verifyStep(label, before, after, expected);
            expected.check?.(after, before);
            verifyTreasury(label, before, after, expected);
            await verifyMakerValue(label, before, after);
            verifyRecords(after);
            await verifyWalletView(after, expected.involved);
            before = after;
          }
          const balances = await Promise.all(
            run.traders.map((trader) =>
              call<TWalletBalance>(app, {
                method: 'GET',
                url: '/api/wallet/balance',
                headers: bearer(trader.token),
              }),
            ),
          );
          for (const [index, { status, body }] of balances.entries()) {
            expect(status).toBe(200);
            const address = run.traders[index]!.wallet.address;
            expect(body.data.sol_balance).toBeCloseTo(Number(lamportsOf(before, address)) / 1e9, 9);
            expect(body.data.usdc_balance).toBeCloseTo(Number(holdingOf(before, address, USDC)) / 1e6, 6);
            expect(body.data.sol_balance >= 0 && body.data.usdc_balance >= 0).toBe(true);
          }
        },
      ),
      // CONSERVATION_RUNS lowers the number of random runs while developing (the examples always run).
      {
        numRuns: Number(process.env.CONSERVATION_RUNS ?? 30),
        // No shrinking: the runs share one cluster, so a shrunk replay meets another state, and each
        // replay costs a full run — shrinking one failure ran past the time-out, which then hid it.
        // The failure is reported as found, with the seed and path to replay it.
        endOnFailure: true,
        // CONSERVATION_SEED replays a reported failure: the same runs in the same order, from the start.
        ...(process.env.CONSERVATION_SEED ? { seed: Number(process.env.CONSERVATION_SEED) } : {}),
        examples: [
          FAUCET_EXAMPLE,
          ...[...EXAMPLES, TRIGGER_EXAMPLE].map(([fundings, actions, headroom]): typeof FAUCET_EXAMPLE => [
            fundings,
            headroom ?? 25,
            actions,
          ]),
        ],
      },
    );
    // The faucets were tried in earnest: some airdrops and funds landed, and the reserve was reached.
    expect(faucetStats.acceptedAirdrops, JSON.stringify(faucetStats)).toBeGreaterThan(0);
    expect(faucetStats.acceptedFunds, JSON.stringify(faucetStats)).toBeGreaterThan(0);
    expect(faucetStats.dryAirdrops + faucetStats.dryFunds, JSON.stringify(faucetStats)).toBeGreaterThan(0);
    // Trigger orders were placed (whether the market reached them is the random path's: the
    // integration tests in trading.test.ts fire each kind on a path they choose).
    expect(triggerStats.placed, JSON.stringify(triggerStats)).toBeGreaterThan(0);
    console.info('trigger orders', JSON.stringify(triggerStats));
  }, 180_000);
});
