/**
 * What a public caller of the JSON-RPC handler (an anonymous client of the app's /rpc) may ask of
 * the cluster, as public clusters limit it: batch size, answer size, token-program scans, and a
 * faucet capped per request, per address and per client. The server's own (internal) calls are not
 * limited, but no caller may airdrop the treasury below its reserve.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { LAMPORTS_PER_SOL } from '../genesis';
import { JSON_RPC_INTERNAL_ERROR, RpcError } from './rpc-error';

/** Who is calling: a public client (by id, e.g. its IP address) or the server itself. */
export type RpcCaller =
  { readonly kind: 'internal' } | { readonly kind: 'public'; readonly clientId: string };

/** The server's own calls (the faucet, the venue, the chain service). */
export const INTERNAL_CALLER: RpcCaller = Object.freeze({ kind: 'internal' });

export interface AirdropLimits {
  /** Largest airdrop one public request may ask for (devnet: 5 SOL). */
  readonly maxLamportsPerRequest: bigint;
  /** Lamports one address may receive from public airdrops within `windowMs`. */
  readonly maxLamportsPerAddress: bigint;
  /** Lamports one client may airdrop within `windowMs`, to any addresses. */
  readonly maxLamportsPerClient: bigint;
  readonly windowMs: number;
  /** The treasury never airdrops below this balance, whoever asks (internal callers included). */
  readonly treasuryReserveLamports: bigint;
}

export interface PublicRpcLimits {
  /** Requests in one public batch (providers allow about 100). */
  readonly maxBatchSize: number;
  /** Bytes of one public answer (a batch's answers together). */
  readonly maxResponseBytes: number;
  /**
   * Whether a public getProgramAccounts of a token program may go without a mint or owner filter
   * (as on `solana-test-validator`; public providers refuse it, the default here).
   */
  readonly unfilteredTokenScans: boolean;
  readonly airdrop: AirdropLimits;
}

export const DEFAULT_PUBLIC_RPC_LIMITS: PublicRpcLimits = Object.freeze({
  maxBatchSize: 100,
  maxResponseBytes: 2 * 1024 * 1024,
  unfilteredTokenScans: false,
  airdrop: Object.freeze({
    maxLamportsPerRequest: 5n * LAMPORTS_PER_SOL,
    maxLamportsPerAddress: 10n * LAMPORTS_PER_SOL,
    maxLamportsPerClient: 50n * LAMPORTS_PER_SOL,
    windowMs: 3_600_000,
    treasuryReserveLamports: 10_000n * LAMPORTS_PER_SOL,
  }),
});

/** Overrides of some limits; the rest keep their defaults. */
export type PublicRpcLimitOverrides = Partial<Omit<PublicRpcLimits, 'airdrop'>> & {
  readonly airdrop?: Partial<AirdropLimits>;
};

export function resolvePublicRpcLimits(overrides: PublicRpcLimitOverrides = {}): PublicRpcLimits {
  return Object.freeze({
    ...DEFAULT_PUBLIC_RPC_LIMITS,
    ...overrides,
    airdrop: Object.freeze({ ...DEFAULT_PUBLIC_RPC_LIMITS.airdrop, ...overrides.airdrop }),
  });
}

/** Lamports as the faucet writes SOL: `◎1.5`, exact (no float). */
export function formatSol(lamports: bigint): string {
  const negative = lamports < 0n;
  const value = negative ? -lamports : lamports;
  const whole = value / LAMPORTS_PER_SOL;
  const fraction = (value % LAMPORTS_PER_SOL).toString().padStart(9, '0').replace(/0+$/, '');
  return `◎${negative ? '-' : ''}${whole}${fraction === '' ? '' : `.${fraction}`}`;
}

interface Grant {
  readonly at: number;
  readonly lamports: bigint;
  readonly recipient: string;
  readonly clientId: string;
}

/** One grant as the state file stores it. */
interface StoredGrant {
  readonly at: number;
  readonly lamports: string;
  readonly recipient: string;
  readonly clientId: string;
}

/**
 * Sliding-window airdrop allowances of public callers, per recipient address and per client. A
 * grant is taken before the transfer is sent (so concurrent requests cannot both fit) and given
 * back when it fails. With a `statePath` (the cluster's data directory) the grants of the current
 * window are written there after each change and read back at start, so a restart resets nothing.
 */
export class AirdropAllowance {
  private readonly byAddress = new Map<string, Grant[]>();
  private readonly byClient = new Map<string, Grant[]>();
  private taken = 0;

  constructor(
    private readonly limits: AirdropLimits,
    private readonly now: () => number,
    private readonly statePath?: string,
  ) {
    if (statePath !== undefined) this.load(statePath);
  }

  /** Takes `lamports` from both allowances or throws the faucet's error; returns the undo. */
  take(recipient: string, clientId: string, lamports: bigint): () => void {
    const { maxLamportsPerRequest, maxLamportsPerAddress, maxLamportsPerClient } = this.limits;
    if (lamports > maxLamportsPerRequest) {
      throw new RpcError(
        JSON_RPC_INTERNAL_ERROR,
        `request too large; req: ${formatSol(lamports)}, cap: ${formatSol(maxLamportsPerRequest)}`,
      );
    }
    const at = this.now();
    const toAddress = this.recent(this.byAddress, recipient, at);
    const fromClient = this.recent(this.byClient, clientId, at);
    const addressTotal = sum(toAddress);
    if (addressTotal + lamports > maxLamportsPerAddress) {
      throw new RpcError(
        JSON_RPC_INTERNAL_ERROR,
        `limit reached; req: ${formatSol(lamports)}, to: ${recipient}, current: ${formatSol(addressTotal)}, cap: ${formatSol(maxLamportsPerAddress)}`,
      );
    }
    const clientTotal = sum(fromClient);
    if (clientTotal + lamports > maxLamportsPerClient) {
      throw new RpcError(
        JSON_RPC_INTERNAL_ERROR,
        `limit reached for this client; req: ${formatSol(lamports)}, current: ${formatSol(clientTotal)}, cap: ${formatSol(maxLamportsPerClient)}`,
      );
    }
    const grant: Grant = { at, lamports, recipient, clientId };
    toAddress.push(grant);
    fromClient.push(grant);
    this.byAddress.set(recipient, toAddress);
    this.byClient.set(clientId, fromClient);
    if (++this.taken % 1024 === 0) this.prune(at);
    this.save();
    return () => {
      remove(toAddress, grant);
      remove(fromClient, grant);
      this.save();
    };
  }

  private load(path: string): void {
    let stored: StoredGrant[];
    try {
      stored = (JSON.parse(readFileSync(path, 'utf8')) as { grants: StoredGrant[] }).grants;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of stored) {
      const grant: Grant = { ...entry, lamports: BigInt(entry.lamports) };
      this.byAddress.set(grant.recipient, [...(this.byAddress.get(grant.recipient) ?? []), grant]);
      this.byClient.set(grant.clientId, [...(this.byClient.get(grant.clientId) ?? []), grant]);
    }
  }

  /** Writes the grants still inside the window (a few, small; synchronous, off the API's thread). */
  private save(): void {
    if (this.statePath === undefined) return;
    const since = this.now() - this.limits.windowMs;
    const grants: StoredGrant[] = [];
    for (const list of this.byAddress.values()) {
      for (const grant of list) {
        if (grant.at > since) grants.push({ ...grant, lamports: grant.lamports.toString() });
      }
    }
    const temporary = `${this.statePath}.tmp`;
    writeFileSync(temporary, JSON.stringify({ version: 1, grants }));
    renameSync(temporary, this.statePath);
  }

  private recent(map: Map<string, Grant[]>, key: string, at: number): Grant[] {
    const since = at - this.limits.windowMs;
    return (map.get(key) ?? []).filter((grant) => grant.at > since);
  }

  /** Forgets keys whose grants have all left the window, so the maps stay bounded. */
  private prune(at: number): void {
    const since = at - this.limits.windowMs;
    for (const map of [this.byAddress, this.byClient]) {
      for (const [key, grants] of map) {
        if (grants.every((grant) => grant.at <= since)) map.delete(key);
      }
    }
  }
}

function sum(grants: readonly Grant[]): bigint {
  return grants.reduce((total, grant) => total + grant.lamports, 0n);
}

function remove(grants: Grant[], grant: Grant): void {
  const index = grants.indexOf(grant);
  if (index !== -1) grants.splice(index, 1);
}
