import { deriveAddress } from '../../lib/derived-address';
import { hash4, hashString, normal, uniform } from '../../lib/counter-hash';
import type { HolderAccount, HolderSource, HolderTag, WalletDirectory, WalletLabel } from './holder-source';

/** Largest holders the simulation materialises per token. */
export const SIMULATED_HOLDERS = 500;
const SHARE_SCALE = 1_000_000_000_000n;
const LAMPORTS_PER_SOL = 1_000_000_000;

const STREAM_SHARE = 0x5a11;
const STREAM_SOL = 0x501b;
const STREAM_ACTIVITY = 0xac71;
const STREAM_COST = 0xc057;
const STREAM_SOLD = 0x501d;
const STREAM_TOP = 0x70b5;
const STREAM_LABEL = 0x1abe;

/** What the simulation needs to know of a token (from the market simulator's universe). */
export interface HolderTokenFacts {
  decimals: number;
  /** Whole tokens. */
  totalSupply: string;
  /** Fallback price when no quote is available, USD. */
  basePrice: string;
  /** DEX of the token's main pool (its largest holder). */
  dex: string;
  holderCount: number;
}

export interface SimulatedHolderOptions {
  seed: string;
  now: () => Date;
  facts(mint: string): HolderTokenFacts | undefined;
  /** The token's current USD price (cost bases are drawn around it). */
  priceOf(mint: string): Promise<string | undefined>;
}

/**
 * The simulator's holder distribution: for each known token, a deterministic set of wallets
 * (derived addresses) whose balances follow a power law and sum to 45–85 % of the supply; the
 * largest is the token's main liquidity pool. Deterministic per (seed, token); last activity is
 * measured from the current hour, so it moves with time but not between requests.
 */
export function createSimulatedHolderSource(options: SimulatedHolderOptions): HolderSource {
  const seedKey = hashString(`solterm-holders:${options.seed}`);
  const shares = new Map<string, bigint[]>();

  /** Shares of the supply (scaled by 10^12) of the top holders, largest first. */
  function sharesOf(mint: string): bigint[] {
    const cached = shares.get(mint);
    if (cached) return cached;
    const key = hashString(mint);
    const weights: number[] = [];
    for (let index = 0; index < SIMULATED_HOLDERS; index += 1) {
      const jitter = 0.6 + 0.8 * uniform(hash4(seedKey, key ^ STREAM_SHARE, 0, index));
      weights.push((index + 1) ** -1.15 * jitter);
    }
    weights.sort((a, b) => b - a);
    const total = weights.reduce((sum, weight) => sum + weight, 0);
    const topShare = 0.45 + 0.4 * uniform(hash4(seedKey, key ^ STREAM_TOP, 0, 0));
    const result = weights.map((weight) =>
      BigInt(Math.floor((weight / total) * topShare * Number(SHARE_SCALE))),
    );
    shares.set(mint, result);
    return result;
  }

  return {
    name: 'simulator',

    async getTopHolders(mint, limit) {
      const facts = options.facts(mint);
      if (!facts) return undefined;
      const price = Number((await options.priceOf(mint)) ?? facts.basePrice);
      const key = hashString(mint);
      const supply = BigInt(facts.totalSupply) * 10n ** BigInt(facts.decimals);
      const hourStart = Math.floor(options.now().getTime() / 3_600_000) * 3_600_000;
      const holders: HolderAccount[] = sharesOf(mint)
        .slice(0, limit)
        .map((share, rank) => {
          const solLamports = Math.round(
            Math.exp(1.6 * normal(seedKey, key ^ STREAM_SOL, 0, rank) + 2.3) * LAMPORTS_PER_SOL,
          );
          const idleHours = 720 * uniform(hash4(seedKey, key ^ STREAM_ACTIVITY, 0, rank)) ** 2;
          // Cost bases are random draws around today's price; floats stay inside the simulation.
          const cost = price * Math.exp(0.45 * normal(seedKey, key ^ STREAM_COST, 0, rank));
          const sold = 85 * uniform(hash4(seedKey, key ^ STREAM_SOLD, 0, rank)) ** 1.5;
          return {
            owner: deriveAddress(`solterm-sim-holder:${options.seed}:${mint}:${rank}`),
            amount: (supply * share) / SHARE_SCALE,
            solLamports: BigInt(solLamports),
            lastActivity: new Date(hourStart - Math.round(idleHours * 60) * 60_000),
            averageCostUsd: String(Number(cost.toPrecision(10))),
            soldPercent: sold.toFixed(2),
          };
        });
      return {
        mint,
        decimals: facts.decimals,
        supply,
        holderCount: Math.max(holders.length, facts.holderCount),
        holders,
      };
    },
  };
}

const FUNDS = [
  'Northstar Ventures',
  'Lunar Capital',
  'Helix Partners',
  'Blue Reef Fund',
  'Orbit Labs',
  'Cinder Capital',
];
const KOLS = ['chart_wizard', 'sol_maxi', 'degen_daily', 'alpha_hunter', 'memecoin_mo', 'onchain_ollie'];
const REMARKS = [
  'early buyer',
  'sniper bot',
  'airdrop farmer',
  'market maker',
  'bridge wallet',
  'team vesting',
];

function shortAddress(address: string): string {
  return `${address.slice(0, 4)}...${address.slice(-4)}`;
}

/**
 * Deterministic wallet labels (fictional names): about 12 % smart money, 6 % KOL/VC, 10 % with a
 * remark and 6 % tracked, by a hash of the wallet. The largest holder of a token is its main pool.
 */
export function createSimulatedWalletDirectory(options: {
  seed: string;
  dexOf(mint: string): string | undefined;
}): WalletDirectory {
  const seedKey = hashString(`solterm-labels:${options.seed}`);
  return {
    describe(owner, context): WalletLabel {
      if (context.rank === 0) {
        const dex = options.dexOf(context.mint) ?? 'raydium';
        return { name: `${dex[0]!.toUpperCase()}${dex.slice(1)} pool`, tags: ['remarks'] };
      }
      const h = hash4(seedKey, hashString(owner), STREAM_LABEL, 0);
      const u = (salt: number) => uniform(hash4(seedKey, h, salt, 2));
      const pick = (list: readonly string[], salt: number) => list[hash4(seedKey, h, salt, 1) % list.length]!;
      const tags: HolderTag[] = [];
      let name: string | null = null;
      if (u(1) < 0.06) {
        tags.push('kol');
        name = u(5) < 0.5 ? `VC · ${pick(FUNDS, 1)}` : `KOL · @${pick(KOLS, 2)}`;
      }
      if (u(2) < 0.12) {
        tags.push('smart');
        name ??= `Smart money ${shortAddress(owner)}`;
      }
      if (u(3) < 0.1) {
        tags.push('remarks');
        name ??= `${shortAddress(owner)} (${pick(REMARKS, 3)})`;
      }
      if (u(4) < 0.06) tags.push('tracking');
      return { name, tags };
    },
  };
}
