import {
  address,
  createSolanaRpc,
  isAddress,
  lamports,
  type Address,
  type Signature,
  type SolanaRpcApi,
  type Rpc,
} from '@solana/kit';
import type { FastifyBaseLogger } from 'fastify';
import { AppError, isAppError } from '../../lib/app-error';

/** The SPL Token program (token accounts of the identity map's mints live under it). */
export const TOKEN_PROGRAM_ADDRESS = address('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');

export interface ChainServiceDeps {
  /**
   * The JSON-RPC URL, read on every call: the embedded cluster's URL is only known once the server
   * listens (port 0 in tests). The client is rebuilt only when the URL changes.
   */
  rpcUrl: () => string;
  log: FastifyBaseLogger;
  /** How long requestAirdrop waits for `confirmed` before giving up (default 30 s). */
  confirmTimeoutMs?: number;
}

/** One SPL token balance of an owner, summed over its token accounts of that mint. */
export interface TokenBalance {
  mint: string;
  /** Base units. */
  amount: bigint;
  decimals: number;
}

interface ParsedTokenAccountInfo {
  mint: string;
  tokenAmount: { amount: string; decimals: number };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The server's only door to the chain: the standard Solana JSON-RPC through @solana/kit's
 * `createSolanaRpc`, whether the URL is the embedded local cluster or a real one.
 */
export function createChainService(deps: ChainServiceDeps) {
  let cached: { url: string; rpc: Rpc<SolanaRpcApi> } | undefined;
  const confirmTimeoutMs = deps.confirmTimeoutMs ?? 30_000;

  function rpc(): Rpc<SolanaRpcApi> {
    const url = deps.rpcUrl();
    if (cached?.url !== url) cached = { url, rpc: createSolanaRpc(url) };
    return cached.rpc;
  }

  /** Runs one RPC call; transport and node failures become CHAIN__RPC_UNAVAILABLE (logged). */
  async function call<T>(method: string, run: (client: Rpc<SolanaRpcApi>) => Promise<T>): Promise<T> {
    try {
      return await run(rpc());
    } catch (error) {
      if (isAppError(error)) throw error;
      deps.log.error({ err: error, method }, 'solana rpc call failed');
      throw new AppError('CHAIN__RPC_UNAVAILABLE');
    }
  }

  function toAddress(value: string): Address {
    if (!isAddress(value)) throw new AppError('WALLET__ADDRESS_INVALID');
    return value;
  }

  return {
    /** 'ok' when the node answers getHealth. */
    getHealth(): Promise<string> {
      return call('getHealth', (client) => client.getHealth().send());
    },

    /** Lamports held by an address. */
    async getBalance(owner: string): Promise<bigint> {
      const result = await call('getBalance', (client) => client.getBalance(toAddress(owner)).send());
      return result.value;
    },

    /** The owner's SPL Token balances by mint (jsonParsed token accounts, summed per mint). */
    async getTokenBalances(owner: string): Promise<Map<string, TokenBalance>> {
      const result = await call('getTokenAccountsByOwner', (client) =>
        client
          .getTokenAccountsByOwner(
            toAddress(owner),
            { programId: TOKEN_PROGRAM_ADDRESS },
            { encoding: 'jsonParsed' },
          )
          .send(),
      );
      const balances = new Map<string, TokenBalance>();
      for (const { account } of result.value) {
        const info = account.data.parsed.info as unknown as ParsedTokenAccountInfo;
        const previous = balances.get(info.mint);
        balances.set(info.mint, {
          mint: info.mint,
          amount: (previous?.amount ?? 0n) + BigInt(info.tokenAmount.amount),
          decimals: info.tokenAmount.decimals,
        });
      }
      return balances;
    },

    /**
     * Requests an airdrop and waits until it is `confirmed` (polling getSignatureStatuses).
     * Only test clusters grant airdrops; callers refuse mainnet first.
     */
    async requestAirdrop(recipient: string, amount: bigint): Promise<string> {
      const client = rpc();
      let signature: Signature;
      try {
        signature = await client.requestAirdrop(toAddress(recipient), lamports(amount)).send();
      } catch (error) {
        if (isAppError(error)) throw error;
        deps.log.error({ err: error }, 'airdrop request failed');
        throw new AppError('CHAIN__AIRDROP_FAILED');
      }
      const deadline = Date.now() + confirmTimeoutMs;
      for (let attempt = 0; ; attempt++) {
        const { value } = await call('getSignatureStatuses', (c) =>
          c.getSignatureStatuses([signature]).send(),
        );
        const status = value[0];
        if (status?.err) {
          deps.log.error({ signature, err: status.err }, 'airdrop transaction failed');
          throw new AppError('CHAIN__AIRDROP_FAILED');
        }
        if (status?.confirmationStatus === 'confirmed' || status?.confirmationStatus === 'finalized') {
          return signature;
        }
        if (Date.now() >= deadline) throw new AppError('CHAIN__CONFIRMATION_TIMEOUT');
        await sleep(Math.min(20 * 2 ** attempt, 500));
      }
    },
  };
}

export type ChainService = ReturnType<typeof createChainService>;
