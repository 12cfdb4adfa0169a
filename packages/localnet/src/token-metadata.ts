/**
 * Metaplex Token Metadata accounts, so wallets and explorers pointed at the cluster show a token's
 * name and symbol: the `MetadataV1` account at the mint's metadata PDA, laid out byte for byte as
 * the Token Metadata program writes it (strings padded to their maximum length with NULs, the
 * account padded to 679 bytes). The program itself is not loaded — no registry package ships its
 * binary — so these genesis accounts are read-only data: clients read and decode them exactly as
 * on mainnet, but no metadata can be created or updated on this cluster.
 */
import { address, getAddressEncoder, getProgramDerivedAddress } from '@solana/kit';

export const TOKEN_METADATA_PROGRAM_ID = 'metaqbxxUerdq28cj1RbAWkYQm3ybzjb6a8bt518x1s';
/** `MAX_METADATA_LEN`: the size the program allocates for every metadata account. */
export const METADATA_ACCOUNT_LENGTH = 679;
const KEY_METADATA_V1 = 4;
const MAX_NAME_LENGTH = 32;
const MAX_SYMBOL_LENGTH = 10;
const MAX_URI_LENGTH = 200;
const TOKEN_STANDARD_FUNGIBLE = 2;

export interface FungibleMetadata {
  readonly mint: string;
  readonly updateAuthority: string;
  readonly name: string;
  readonly symbol: string;
  /** Off-chain JSON; empty when there is none. */
  readonly uri: string;
}

/** The metadata PDA of a mint: seeds `["metadata", program id, mint]`. */
export async function findMetadataAddress(mint: string): Promise<string> {
  const encoder = getAddressEncoder();
  const [derived] = await getProgramDerivedAddress({
    programAddress: address(TOKEN_METADATA_PROGRAM_ID),
    seeds: ['metadata', encoder.encode(address(TOKEN_METADATA_PROGRAM_ID)), encoder.encode(address(mint))],
  });
  return derived;
}

/** A fungible token's `MetadataV1` account data (immutable, no creators, no collection). */
export function encodeFungibleMetadata(metadata: FungibleMetadata): Uint8Array {
  const data = new Uint8Array(METADATA_ACCOUNT_LENGTH);
  const view = new DataView(data.buffer);
  const encoder = getAddressEncoder();
  let offset = 0;
  data[offset++] = KEY_METADATA_V1;
  data.set(encoder.encode(address(metadata.updateAuthority)), offset);
  offset += 32;
  data.set(encoder.encode(address(metadata.mint)), offset);
  offset += 32;
  for (const [text, length] of [
    [metadata.name, MAX_NAME_LENGTH],
    [metadata.symbol, MAX_SYMBOL_LENGTH],
    [metadata.uri, MAX_URI_LENGTH],
  ] as const) {
    const bytes = new TextEncoder().encode(text);
    if (bytes.length > length) throw new RangeError(`metadata field "${text}" exceeds ${length} bytes`);
    // Borsh string of the padded text: its length is always the field's maximum.
    view.setUint32(offset, length, true);
    data.set(bytes, offset + 4);
    offset += 4 + length;
  }
  view.setUint16(offset, 0, true); // seller fee basis points
  offset += 2;
  data[offset++] = 0; // creators: None
  data[offset++] = 0; // primary sale happened
  data[offset++] = 0; // is mutable: no program here could change it
  data[offset++] = 0; // edition nonce: None
  data[offset++] = 1; // token standard: Some(Fungible)
  data[offset++] = TOKEN_STANDARD_FUNGIBLE;
  // collection, uses, collection details, programmable config: None (zero bytes), then padding.
  return data;
}
