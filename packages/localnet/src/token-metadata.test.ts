/**
 * Genesis token metadata, decoded by Metaplex's own client (mpl-token-metadata's serializer) from
 * the account at the PDA web3.js derives — what a wallet does to show a token's name.
 */
import {
  getMetadataAccountDataSerializer,
  Key,
  TokenStandard,
} from '@metaplex-foundation/mpl-token-metadata';
import { isSome, unwrapOption } from '@metaplex-foundation/umi';
import { PublicKey } from '@solana/web3.js';
import { LISTED_TOKENS } from '@solterm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalCluster, type LocalCluster } from './local-cluster';
import { encodeFungibleMetadata, METADATA_ACCOUNT_LENGTH, TOKEN_METADATA_PROGRAM_ID } from './token-metadata';

let cluster: LocalCluster;

beforeAll(async () => {
  cluster = await createLocalCluster({ slotClock: 'manual' });
});

afterAll(async () => {
  await cluster.close();
});

function metadataAddress(mint: string): string {
  const program = new PublicKey(TOKEN_METADATA_PROGRAM_ID);
  const [pda] = PublicKey.findProgramAddressSync(
    [Buffer.from('metadata'), program.toBuffer(), new PublicKey(mint).toBuffer()],
    program,
  );
  return pda.toBase58();
}

describe('genesis token metadata', () => {
  it('every listed token has a MetadataV1 account Metaplex’s client decodes to its name and symbol', () => {
    for (const token of LISTED_TOKENS) {
      const account = cluster.getAccount(metadataAddress(token.mint));
      expect(account, token.symbol).not.toBeNull();
      expect(account!.owner).toBe(TOKEN_METADATA_PROGRAM_ID);
      expect(account!.data.length).toBe(METADATA_ACCOUNT_LENGTH);
      expect(account!.lamports).toBe(cluster.minimumBalanceForRentExemption(METADATA_ACCOUNT_LENGTH));
      const [decoded] = getMetadataAccountDataSerializer().deserialize(account!.data);
      expect(decoded.key).toBe(Key.MetadataV1);
      expect(decoded.mint).toBe(token.mint);
      expect(decoded.updateAuthority).toBe(cluster.treasury.address);
      expect(decoded.name).toBe(token.name);
      expect(decoded.symbol).toBe(token.symbol);
      expect(decoded.uri).toBe('');
      // As the program writes it: the name padded with NULs to its 32-byte maximum.
      expect(Buffer.from(account!.data).readUInt32LE(65)).toBe(32);
      expect(decoded.isMutable).toBe(false);
      expect(isSome(decoded.creators)).toBe(false);
      expect(unwrapOption(decoded.tokenStandard)).toBe(TokenStandard.Fungible);
    }
  });

  it('refuses a name longer than the program allows', () => {
    expect(() =>
      encodeFungibleMetadata({
        mint: LISTED_TOKENS[0]!.mint,
        updateAuthority: LISTED_TOKENS[0]!.mint,
        name: 'x'.repeat(33),
        symbol: 'X',
        uri: '',
      }),
    ).toThrow(RangeError);
  });
});
