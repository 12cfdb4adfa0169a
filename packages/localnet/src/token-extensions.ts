/**
 * Token-2022 extensions as Agave's account decoder shows them in `jsonParsed`
 * (`parse_token_extension`): the TLV entries after the account-type byte, each as
 * `{ extension, state }` in camelCase, u64 values as JSON integers, an absent authority as null.
 * Entries this decoder does not know read `{ extension: 'unparseable' }`, as Agave's do.
 */
import { encodeBase58 } from './base58';

const TLV_START = 166;

class Reader {
  constructor(
    private readonly data: Uint8Array,
    private offset: number,
  ) {}
  private view(): DataView {
    return new DataView(this.data.buffer, this.data.byteOffset, this.data.byteLength);
  }
  /** An OptionalNonZeroPubkey: all zeros is None. */
  optionalPubkey(): string | null {
    const bytes = this.data.subarray(this.offset, this.offset + 32);
    this.offset += 32;
    return bytes.every((byte) => byte === 0) ? null : encodeBase58(bytes);
  }
  pubkey(): string {
    const bytes = this.data.subarray(this.offset, this.offset + 32);
    this.offset += 32;
    return encodeBase58(bytes);
  }
  u64(): bigint {
    const value = this.view().getBigUint64(this.offset, true);
    this.offset += 8;
    return value;
  }
  i64(): bigint {
    const value = this.view().getBigInt64(this.offset, true);
    this.offset += 8;
    return value;
  }
  u16(): number {
    const value = this.view().getUint16(this.offset, true);
    this.offset += 2;
    return value;
  }
  i16(): number {
    const value = this.view().getInt16(this.offset, true);
    this.offset += 2;
    return value;
  }
  u8(): number {
    const value = this.data[this.offset]!;
    this.offset += 1;
    return value;
  }
  f64(): number {
    const value = this.view().getFloat64(this.offset, true);
    this.offset += 8;
    return value;
  }
  /** A borsh string (u32 length, UTF-8). */
  string(): string {
    const length = this.view().getUint32(this.offset, true);
    this.offset += 4;
    const text = Buffer.from(this.data.subarray(this.offset, this.offset + length)).toString('utf8');
    this.offset += length;
    return text;
  }
  u32(): number {
    const value = this.view().getUint32(this.offset, true);
    this.offset += 4;
    return value;
  }
}

const ACCOUNT_STATES = ['uninitialized', 'initialized', 'frozen'];

function transferFee(reader: Reader): object {
  return { epoch: reader.u64(), maximumFee: reader.u64(), transferFeeBasisPoints: reader.u16() };
}

/** Extension type → its name and state decoder (null: an extension without state). */
const EXTENSIONS: Readonly<Record<number, readonly [string, ((reader: Reader) => object) | null]>> = {
  1: [
    'transferFeeConfig',
    (r) => ({
      transferFeeConfigAuthority: r.optionalPubkey(),
      withdrawWithheldAuthority: r.optionalPubkey(),
      withheldAmount: r.u64(),
      olderTransferFee: transferFee(r),
      newerTransferFee: transferFee(r),
    }),
  ],
  2: ['transferFeeAmount', (r) => ({ withheldAmount: r.u64() })],
  3: ['mintCloseAuthority', (r) => ({ closeAuthority: r.optionalPubkey() })],
  6: ['defaultAccountState', (r) => ({ accountState: ACCOUNT_STATES[r.u8()] ?? 'uninitialized' })],
  7: ['immutableOwner', null],
  8: ['memoTransfer', (r) => ({ requireIncomingTransferMemos: r.u8() === 1 })],
  9: ['nonTransferable', null],
  10: [
    'interestBearingConfig',
    (r) => ({
      rateAuthority: r.optionalPubkey(),
      initializationTimestamp: r.i64(),
      preUpdateAverageRate: r.i16(),
      lastUpdateTimestamp: r.i64(),
      currentRate: r.i16(),
    }),
  ],
  11: ['cpiGuard', (r) => ({ lockCpi: r.u8() === 1 })],
  12: ['permanentDelegate', (r) => ({ delegate: r.optionalPubkey() })],
  13: ['nonTransferableAccount', null],
  14: ['transferHook', (r) => ({ authority: r.optionalPubkey(), programId: r.optionalPubkey() })],
  15: ['transferHookAccount', (r) => ({ transferring: r.u8() === 1 })],
  18: ['metadataPointer', (r) => ({ authority: r.optionalPubkey(), metadataAddress: r.optionalPubkey() })],
  19: [
    'tokenMetadata',
    (r) => {
      const updateAuthority = r.optionalPubkey();
      const mint = r.pubkey();
      const name = r.string();
      const symbol = r.string();
      const uri = r.string();
      const count = r.u32();
      const additionalMetadata: [string, string][] = [];
      for (let index = 0; index < count; index += 1) additionalMetadata.push([r.string(), r.string()]);
      return { updateAuthority, mint, name, symbol, uri, additionalMetadata };
    },
  ],
  20: ['groupPointer', (r) => ({ authority: r.optionalPubkey(), groupAddress: r.optionalPubkey() })],
  22: ['groupMemberPointer', (r) => ({ authority: r.optionalPubkey(), memberAddress: r.optionalPubkey() })],
  25: [
    'scaledUiAmountConfig',
    (r) => ({
      authority: r.optionalPubkey(),
      multiplier: String(r.f64()),
      newMultiplierEffectiveTimestamp: r.i64(),
      newMultiplier: String(r.f64()),
    }),
  ],
  26: ['pausableConfig', (r) => ({ authority: r.optionalPubkey(), paused: r.u8() === 1 })],
  27: ['pausableAccount', null],
};

/** The extensions of a Token-2022 mint or account in Agave's `jsonParsed` shape (empty: none). */
export function parseTokenExtensions(data: Uint8Array): object[] {
  const extensions: object[] = [];
  let offset = TLV_START;
  while (offset + 4 <= data.length) {
    const view = new DataView(data.buffer, data.byteOffset + offset, 4);
    const type = view.getUint16(0, true);
    const length = view.getUint16(2, true);
    if (type === 0) break;
    const value = data.subarray(offset + 4, offset + 4 + length);
    offset += 4 + length;
    const known = EXTENSIONS[type];
    if (known === undefined || value.length < length) {
      extensions.push({ extension: 'unparseable' });
      continue;
    }
    const [extension, decode] = known;
    if (decode === null) {
      extensions.push({ extension });
      continue;
    }
    try {
      extensions.push({ extension, state: decode(new Reader(value, 0)) });
    } catch {
      extensions.push({ extension: 'unparseable' });
    }
  }
  return extensions;
}
