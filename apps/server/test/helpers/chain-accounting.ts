import { SYSTEM_PROGRAM_ADDRESS } from '@solana-program/system';
import { getMintDecoder, getTokenDecoder, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { getCompiledTransactionMessageDecoder, getTransactionDecoder } from '@solana/kit';
import type { ClusterHost, TransactionRecord } from '@solterm/localnet';

/** A landed transaction's fee payer: the first account of its message. */
export function feePayerOf(record: TransactionRecord): string {
  const { messageBytes } = getTransactionDecoder().decode(Buffer.from(record.transaction, 'base64'));
  return getCompiledTransactionMessageDecoder().decode(messageBytes).staticAccounts[0]!;
}

export interface ChainReading {
  /** Every system and token account's lamports, summed. */
  lamports: bigint;
  /** Every fee paid since the accounting started. */
  fees: bigint;
  supply: Map<string, bigint>;
  /** Token amounts by `${owner}:${mint}`. */
  tokens: Map<string, bigint>;
  /** What a delegate may still move out of an owner's token accounts, by `${owner}:${mint}`. */
  delegated: Map<string, bigint>;
  /** Transactions that landed since the previous reading, by fee payer (signatures). */
  newByPayer: Map<string, string[]>;
  /** Transactions in the cluster's log that no watched fee payer accounts for (must stay 0). */
  unaccounted: number;
}

/**
 * Reads the embedded cluster's whole state in one turn: lamports of every account, every mint's
 * supply, every token holding, and the fees of every transaction since the last reading — found
 * through the watched fee payers, and checked against the cluster's transaction count so a payer
 * the test forgot to watch shows up as `unaccounted` instead of as lamports that vanished.
 */
export function createChainAccounting(cluster: ClusterHost, watched: () => string[]) {
  const newest = new Map<string, string>();
  const counted = new Set<string>();
  let fees = 0n;
  let transactions: number | null = null;

  return async function read(): Promise<ChainReading> {
    const payers = watched();
    const snapshot = (await cluster.snapshot({
      programAccounts: [SYSTEM_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS],
      signaturesFor: payers.map((payer) => ({
        address: payer,
        options: { limit: 1_000_000, until: newest.get(payer) },
      })),
    })) as {
      transactionCount: number;
      programAccounts: { address: string; lamports: bigint; data: Uint8Array }[][];
      signatures: TransactionRecord[][];
    };
    let lamports = 0n;
    const supply = new Map<string, bigint>();
    const tokens = new Map<string, bigint>();
    const delegated = new Map<string, bigint>();
    for (const account of snapshot.programAccounts[0]!) lamports += account.lamports;
    for (const account of snapshot.programAccounts[1]!) {
      lamports += account.lamports;
      if (account.data.length === 82)
        supply.set(account.address, getMintDecoder().decode(account.data).supply);
      if (account.data.length !== 165) continue;
      const holding = getTokenDecoder().decode(account.data);
      const key = `${holding.owner}:${holding.mint}`;
      tokens.set(key, (tokens.get(key) ?? 0n) + holding.amount);
      if (holding.delegate.__option === 'Some') {
        delegated.set(key, (delegated.get(key) ?? 0n) + holding.delegatedAmount);
      }
    }
    const newByPayer = new Map<string, string[]>();
    let fresh = 0;
    for (const [index, payer] of payers.entries()) {
      const records = snapshot.signatures[index]!;
      if (records.length > 0) newest.set(payer, records[0]!.signature);
      // A transaction is listed for every address it names: its fee counts once, for its fee payer.
      for (const record of records) {
        if (counted.has(record.signature)) continue;
        counted.add(record.signature);
        fresh++;
        fees += BigInt(record.fee);
        const by = feePayerOf(record);
        newByPayer.set(by, [...(newByPayer.get(by) ?? []), record.signature]);
      }
    }
    const unaccounted = transactions === null ? 0 : snapshot.transactionCount - transactions - fresh;
    transactions = snapshot.transactionCount;
    return { lamports, fees, supply, tokens, delegated, newByPayer, unaccounted };
  };
}
