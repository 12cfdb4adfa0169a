import type { RpcTransport } from '@solana/rpc-spec';
import {
  address,
  createDefaultRpcTransport,
  createSolanaRpcFromTransport,
  type Base64EncodedWireTransaction,
  type TransactionError,
  isAddress,
  lamports,
  type Address,
  type Signature,
  type SolanaRpcApi,
  type Rpc,
} from '@solana/kit';
import { getTokenDecoder } from '@solana-program/token';
import type { FastifyBaseLogger } from 'fastify';
import type { ErrorCode } from '@solterm/contracts';
import { AppError, isAppError } from '../../lib/app-error';
import { createSignatureWatch, type PubSubLink } from './signature-watch';
import { readLargestTokenAccounts, readParsedMint, type ParsedMint } from './token-reads';

/** The SPL Token program (token accounts of the identity map's mints live under it). */
export const TOKEN_PROGRAM_ADDRESS = address('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');

// The chain module's public face: transaction building and token legs are used by the modules that
// build transactions (wallet, trading), through this file only.
export {
  buildTransaction,
  LAMPORTS_PER_SIGNATURE,
  MAX_DEFAULT_COMPUTE_UNIT_LIMIT,
  priorityFeeLamports,
  type BlockhashLifetime,
} from './transaction-builder';
export { associatedTokenAddress, tokenLegInstructions } from './token-legs';
export type { LargestTokenAccount, ParsedExtension, ParsedMint, TokenProgramName } from './token-reads';
export { pollPacer, type ConfirmationWatch, type PubSubLink } from './signature-watch';

export interface ChainServiceDeps {
  /**
   * The JSON-RPC URL, read on every call: the embedded cluster's URL is only known once the server
   * listens (port 0 in tests). The client is rebuilt only when the URL changes.
   */
  rpcUrl: () => string;
  log: FastifyBaseLogger;
  /**
   * A JSON-RPC transport to use instead of HTTP to `rpcUrl` — the embedded cluster's handler, called
   * in-process (the same JSON-RPC text, without the loopback HTTP round trip).
   */
  transport?: RpcTransport;
  /**
   * Wraps whichever transport is used (embedded or HTTP): the fault-injection tests put themselves
   * between the server and the cluster here, so every call the server makes passes through them.
   */
  wrapTransport?: (inner: RpcTransport) => RpcTransport;
  /**
   * The embedded cluster's PubSub: a signature's `confirmed` notification wakes whoever waits for
   * it at once instead of at its next poll (the verdict is still read through the transport).
   */
  pubsub?: PubSubLink;
  /** How long requestAirdrop waits for `confirmed` before giving up (default 30 s). */
  confirmTimeoutMs?: number;
  /** The clock the airdrop's confirmation deadline is read from. */
  now: () => Date;
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

/** A signature's landing state in the sense of getSignatureStatuses. */
/** An SPL token account's state (base units). */
export interface TokenAccountState {
  mint: string;
  owner: string;
  amount: bigint;
  /** Who may move tokens out of it besides its owner, and how many more. */
  delegate: string | null;
  delegatedAmount: bigint;
}

export interface SignatureLanding {
  slot: bigint;
  err: TransactionError | null;
  confirmationStatus: 'processed' | 'confirmed' | 'finalized' | null;
}

/** What a simulation said: the transaction error (null when it would succeed) and its logs. */
export interface SimulationOutcome {
  err: TransactionError | null;
  logs: readonly string[];
  unitsConsumed: bigint | null;
}

/** An SPL mint account's facts (null for an address that is not a mint of the token program). */
export interface MintInfo {
  decimals: number;
  supply: bigint;
}

/** Size of an SPL Token mint account, and where its supply and decimals sit. */
const MINT_ACCOUNT_SIZE = 82;
const MINT_SUPPLY_OFFSET = 36;
const MINT_DECIMALS_OFFSET = 44;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A plain copy of an RPC failure for the log: kit's SolanaError carries a frozen context, and pino's
 * error serialiser tags every object it visits (a non-extensible one makes the log call itself throw,
 * which turned an RPC outage into a 500 instead of CHAIN__RPC_UNAVAILABLE).
 */
export function loggableError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const context = (error as { context?: Record<string, unknown> }).context;
  return {
    type: error.name,
    message: error.message,
    ...(context && typeof context.statusCode === 'number' ? { statusCode: context.statusCode } : {}),
    ...(context && typeof context.__code === 'number' ? { code: context.__code } : {}),
    ...(error.cause !== undefined ? { cause: loggableError(error.cause) } : {}),
    stack: error.stack,
  };
}

/**
 * The server's only door to the chain: the standard Solana JSON-RPC through @solana/kit's
 * `createSolanaRpc`, whether the URL is the embedded local cluster or a real one.
 */
export function createChainService(deps: ChainServiceDeps) {
  let cached: { url: string; rpc: Rpc<SolanaRpcApi> } | undefined;
  const confirmTimeoutMs = deps.confirmTimeoutMs ?? 30_000;

  const wrap = deps.wrapTransport ?? ((inner: RpcTransport) => inner);
  const direct = deps.transport ? createSolanaRpcFromTransport(wrap(deps.transport)) : undefined;
  const signatureWatch = createSignatureWatch(deps.pubsub);

  function rpc(): Rpc<SolanaRpcApi> {
    if (direct) return direct;
    const url = deps.rpcUrl();
    if (cached?.url !== url) {
      cached = { url, rpc: createSolanaRpcFromTransport(wrap(createDefaultRpcTransport({ url }))) };
    }
    return cached.rpc;
  }

  /** Runs one RPC call; transport and node failures become CHAIN__RPC_UNAVAILABLE (logged). */
  async function call<T>(method: string, run: (client: Rpc<SolanaRpcApi>) => Promise<T>): Promise<T> {
    try {
      return await run(rpc());
    } catch (error) {
      if (isAppError(error)) throw error;
      deps.log.error({ err: loggableError(error), method }, 'solana rpc call failed');
      throw new AppError('CHAIN__RPC_UNAVAILABLE');
    }
  }

  function toAddress(value: string): Address {
    if (!isAddress(value)) throw new AppError('WALLET__ADDRESS_INVALID');
    return value;
  }

  /** Simulates a signed transaction with signature verification, at the confirmed state. */
  async function simulateTransaction(wireBase64: string): Promise<SimulationOutcome> {
    const { value } = await call('simulateTransaction', (client) =>
      client
        .simulateTransaction(wireBase64 as Base64EncodedWireTransaction, {
          encoding: 'base64',
          sigVerify: true,
          replaceRecentBlockhash: false,
          commitment: 'confirmed',
        })
        .send(),
    );
    return { err: value.err, logs: value.logs ?? [], unitsConsumed: value.unitsConsumed ?? null };
  }

  /**
   * Sends signed bytes without preflight (the caller has just simulated them) and no node-side
   * retries: the caller rebroadcasts the same bytes itself until they land or expire.
   */
  function sendTransaction(wireBase64: string): Promise<Signature> {
    return call('sendTransaction', (client) =>
      client
        .sendTransaction(wireBase64 as Base64EncodedWireTransaction, {
          encoding: 'base64',
          skipPreflight: true,
          maxRetries: 0n,
        })
        .send(),
    );
  }

  /** Landing state of each signature (null: the node has not seen it). */
  async function getSignatureStatuses(signatures: readonly string[]): Promise<(SignatureLanding | null)[]> {
    const { value } = await call('getSignatureStatuses', (client) =>
      client.getSignatureStatuses(signatures as Signature[], { searchTransactionHistory: true }).send(),
    );
    return value.map((status) =>
      status
        ? { slot: status.slot, err: status.err, confirmationStatus: status.confirmationStatus ?? null }
        : null,
    );
  }

  /**
   * Polls until an airdrop's `signature` is confirmed: a failed one throws `failure` (logged), a slow
   * one CHAIN__CONFIRMATION_TIMEOUT. (Transactions the server holds the bytes of are landed by the
   * relay, which rebroadcasts them; an airdrop is the node's own transaction.)
   */
  async function waitUntilConfirmed(signature: string, failure: ErrorCode): Promise<void> {
    const deadline = deps.now().getTime() + confirmTimeoutMs;
    for (let attempt = 0; ; attempt++) {
      const [status] = await getSignatureStatuses([signature]);
      if (status?.err) {
        deps.log.error({ signature, err: status.err }, 'transaction failed on chain');
        throw new AppError(failure);
      }
      if (status?.confirmationStatus === 'confirmed' || status?.confirmationStatus === 'finalized') return;
      if (deps.now().getTime() >= deadline) throw new AppError('CHAIN__CONFIRMATION_TIMEOUT');
      await sleep(Math.min(10 * 2 ** attempt, 100));
    }
  }

  async function accountExists(account: string): Promise<boolean> {
    const { value } = await call('getAccountInfo', (client) =>
      client
        .getAccountInfo(toAddress(account), { encoding: 'base64', dataSlice: { offset: 0, length: 0 } })
        .send(),
    );
    return value !== null;
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

    /** The latest blockhash and the block height after which transactions using it are refused. */
    async getLatestBlockhash(): Promise<{ blockhash: string; lastValidBlockHeight: bigint }> {
      const { value } = await call('getLatestBlockhash', (client) =>
        client.getLatestBlockhash({ commitment: 'confirmed' }).send(),
      );
      return { blockhash: value.blockhash, lastValidBlockHeight: value.lastValidBlockHeight };
    },

    /** The chain's current block height. */
    getBlockHeight(): Promise<bigint> {
      return call('getBlockHeight', (client) => client.getBlockHeight({ commitment: 'confirmed' }).send());
    },

    /** The mint's decimals and supply, or null when `mint` is not an SPL Token mint account. */
    async getMintInfo(mint: string): Promise<MintInfo | null> {
      const { value } = await call('getAccountInfo', (client) =>
        client.getAccountInfo(toAddress(mint), { encoding: 'base64' }).send(),
      );
      if (!value || value.owner !== TOKEN_PROGRAM_ADDRESS) return null;
      const data = Buffer.from(value.data[0], 'base64');
      if (data.length !== MINT_ACCOUNT_SIZE) return null;
      return { supply: data.readBigUInt64LE(MINT_SUPPLY_OFFSET), decimals: data[MINT_DECIMALS_OFFSET]! };
    },

    /** The amount (base units) of one SPL token account, or null when there is no such account. */
    async getTokenAccountAmount(account: string): Promise<bigint | null> {
      try {
        const { value } = await call('getTokenAccountBalance', (client) =>
          client.getTokenAccountBalance(toAddress(account), { commitment: 'confirmed' }).send(),
        );
        return BigInt(value.amount);
      } catch (error) {
        // The node answers an error for a missing (or non-token) account.
        if (!(await accountExists(account))) return null;
        throw error;
      }
    },

    /**
     * One SPL token account as the token program stores it (owner, amount, delegate and the
     * allowance left), or null when there is no token account at `account`.
     */
    async getTokenAccount(account: string): Promise<TokenAccountState | null> {
      const { value } = await call('getAccountInfo', (client) =>
        client.getAccountInfo(toAddress(account), { encoding: 'base64', commitment: 'confirmed' }).send(),
      );
      if (!value || value.owner !== TOKEN_PROGRAM_ADDRESS) return null;
      const token = getTokenDecoder().decode(Buffer.from(value.data[0], 'base64'));
      const delegate = token.delegate.__option === 'Some' ? token.delegate.value : null;
      return {
        mint: token.mint,
        owner: token.owner,
        amount: token.amount,
        delegate,
        delegatedAmount: delegate === null ? 0n : token.delegatedAmount,
      };
    },

    /** Whether an account exists (holds lamports) at `account`. */
    accountExists,

    /** The fee a landed transaction paid, in lamports, or null when the node does not know it. */
    async getTransactionFee(signature: string): Promise<bigint | null> {
      const result = await call('getTransaction', (client) =>
        client
          .getTransaction(signature as Signature, {
            encoding: 'json',
            commitment: 'confirmed',
            maxSupportedTransactionVersion: 0,
          })
          .send(),
      );
      return result?.meta ? BigInt(result.meta.fee) : null;
    },

    /** A mint of SPL Token or Token-2022 (jsonParsed, extensions included), or null when it is none. */
    getParsedMint(mint: string): Promise<ParsedMint | null> {
      return call('getAccountInfo', (client) => readParsedMint(client, toAddress(mint)));
    },

    /** The mint's largest token accounts with the wallets owning them. */
    getLargestTokenAccounts(mint: string) {
      return call('getTokenLargestAccounts', (client) => readLargestTokenAccounts(client, toAddress(mint)));
    },

    simulateTransaction,
    sendTransaction,
    getSignatureStatuses,

    /**
     * Watches a signature until it is confirmed (call before sending it): `notified` resolves on the
     * node's notification, and never without a PubSub link. Cancel it once the wait is over.
     */
    watchConfirmation: (signature: string) => signatureWatch.watch(signature),

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
        deps.log.error({ err: loggableError(error) }, 'airdrop request failed');
        throw new AppError('CHAIN__AIRDROP_FAILED');
      }
      await waitUntilConfirmed(signature, 'CHAIN__AIRDROP_FAILED');
      return signature;
    },
  };
}

export type ChainService = ReturnType<typeof createChainService>;
