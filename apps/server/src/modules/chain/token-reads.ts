import type { Address, Rpc, SolanaRpcApi } from '@solana/kit';

/** The two token programs a mint can belong to. */
export const TOKEN_PROGRAMS = {
  TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA: 'spl-token',
  TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb: 'spl-token-2022',
} as const;
export type TokenProgramName = (typeof TOKEN_PROGRAMS)[keyof typeof TOKEN_PROGRAMS];

/** A Token-2022 extension as jsonParsed shows it (`state` absent for extensions without one). */
export interface ParsedExtension {
  extension: string;
  state?: Record<string, unknown>;
}

/** A mint of either token program as the RPC's jsonParsed encoding shows it. */
export interface ParsedMint {
  program: TokenProgramName;
  decimals: number;
  supply: bigint;
  mintAuthority: string | null;
  freezeAuthority: string | null;
  extensions: ParsedExtension[];
}

/** One of a mint's largest token accounts and the wallet that owns it (null when unreadable). */
export interface LargestTokenAccount {
  tokenAccount: string;
  owner: string | null;
  amount: bigint;
}

interface ParsedMintInfo {
  decimals: number;
  supply: string;
  mintAuthority: string | null;
  freezeAuthority: string | null;
  extensions?: ParsedExtension[];
}

/**
 * The mint at `mint` read with jsonParsed (Agave and the local cluster parse Token-2022 extensions
 * alike), or null when the account is absent or is not a mint of a token program.
 */
export async function readParsedMint(client: Rpc<SolanaRpcApi>, mint: Address): Promise<ParsedMint | null> {
  const { value } = await client
    .getAccountInfo(mint, { encoding: 'jsonParsed', commitment: 'confirmed' })
    .send();
  if (!value) return null;
  const program = (TOKEN_PROGRAMS as Record<string, TokenProgramName | undefined>)[value.owner];
  const data = value.data as { parsed?: { type?: string; info?: ParsedMintInfo } } | unknown[];
  if (!program || Array.isArray(data) || data.parsed?.type !== 'mint' || !data.parsed.info) return null;
  const info = data.parsed.info;
  return {
    program,
    decimals: info.decimals,
    supply: BigInt(info.supply),
    mintAuthority: info.mintAuthority ?? null,
    freezeAuthority: info.freezeAuthority ?? null,
    extensions: info.extensions ?? [],
  };
}

/** The mint's largest token accounts (getTokenLargestAccounts, up to 20) with their owners. */
export async function readLargestTokenAccounts(
  client: Rpc<SolanaRpcApi>,
  mint: Address,
): Promise<LargestTokenAccount[]> {
  const { value: largest } = await client.getTokenLargestAccounts(mint, { commitment: 'confirmed' }).send();
  if (largest.length === 0) return [];
  const { value: accounts } = await client
    .getMultipleAccounts(
      largest.map((entry) => entry.address),
      { encoding: 'jsonParsed', commitment: 'confirmed' },
    )
    .send();
  return largest.map((entry, index) => {
    const data = accounts[index]?.data as { parsed?: { info?: { owner?: string } } } | undefined;
    return {
      tokenAccount: entry.address,
      owner: data?.parsed?.info?.owner ?? null,
      amount: BigInt(entry.amount),
    };
  });
}
