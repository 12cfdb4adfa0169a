/**
 * jsonParsed for the accounts a validator parses besides tokens: sysvars ("sysvar"), durable-nonce
 * accounts ("nonce") and address lookup tables ("address-lookup-table"), in the shapes of Agave's
 * account-decoder (`parse_sysvar.rs`, `parse_nonce.rs`, `parse_address_lookup_table.rs`). Data that
 * does not parse answers undefined, and the caller falls back to base64 as a validator does.
 */
import { encodeBase58 } from '../base58';
import { ADDRESS_LOOKUP_TABLE_PROGRAM_ID, SYSTEM_PROGRAM_ID } from '../program-ids';
import { JsonFloat } from './json';

const SYSVAR_OWNER = 'Sysvar1111111111111111111111111111111111111';
const NONCE_ACCOUNT_LENGTH = 80;
const LOOKUP_TABLE_META_SIZE = 56;
const SLOT_HISTORY_ENTRIES = 1024 * 1024;

/** Little-endian reads that throw past the end (caught: the account then does not parse). */
class Reader {
  private offset = 0;
  private readonly view: DataView;
  constructor(private readonly data: Uint8Array) {
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  }
  u8(): number {
    return this.view.getUint8(this.advance(1));
  }
  u32(): number {
    return this.view.getUint32(this.advance(4), true);
  }
  u64(): bigint {
    return this.view.getBigUint64(this.advance(8), true);
  }
  i64(): bigint {
    return this.view.getBigInt64(this.advance(8), true);
  }
  u128(): bigint {
    const low = this.u64();
    return (this.u64() << 64n) + low;
  }
  f64(): number {
    return this.view.getFloat64(this.advance(8), true);
  }
  bool(): boolean {
    return this.u8() !== 0;
  }
  key(): string {
    const start = this.advance(32);
    return encodeBase58(this.data.subarray(start, start + 32));
  }
  /** A bincode Vec: a u64 length, then that many items (bounded by the bytes left). */
  vec<T>(itemBytes: number, read: () => T): T[] {
    const length = this.u64();
    if (length * BigInt(itemBytes) > BigInt(this.data.length - this.offset))
      throw new RangeError('short vector');
    return Array.from({ length: Number(length) }, read);
  }
  private advance(bytes: number): number {
    if (this.offset + bytes > this.data.length) throw new RangeError('account data too short');
    const start = this.offset;
    this.offset += bytes;
    return start;
  }
}

const feeCalculator = (reader: Reader) => ({ lamportsPerSignature: reader.u64().toString() });

type Parsed = { type: string; info?: unknown };

const SYSVARS: Readonly<Record<string, (reader: Reader) => Parsed>> = {
  SysvarC1ock11111111111111111111111111111111: (reader) => {
    const slot = reader.u64();
    const epochStartTimestamp = reader.i64();
    const epoch = reader.u64();
    const leaderScheduleEpoch = reader.u64();
    const unixTimestamp = reader.i64();
    return { type: 'clock', info: { slot, epoch, epochStartTimestamp, leaderScheduleEpoch, unixTimestamp } };
  },
  SysvarEpochSchedu1e111111111111111111111111: (reader) => ({
    type: 'epochSchedule',
    info: {
      slotsPerEpoch: reader.u64(),
      leaderScheduleSlotOffset: reader.u64(),
      warmup: reader.bool(),
      firstNormalEpoch: reader.u64(),
      firstNormalSlot: reader.u64(),
    },
  }),
  SysvarFees111111111111111111111111111111111: (reader) => ({
    type: 'fees',
    info: { feeCalculator: feeCalculator(reader) },
  }),
  SysvarRecentB1ockHashes11111111111111111111: (reader) => ({
    type: 'recentBlockhashes',
    info: reader.vec(40, () => ({ blockhash: reader.key(), feeCalculator: feeCalculator(reader) })),
  }),
  SysvarRent111111111111111111111111111111111: (reader) => ({
    type: 'rent',
    info: {
      lamportsPerByteYear: reader.u64().toString(),
      exemptionThreshold: new JsonFloat(reader.f64()),
      burnPercent: reader.u8(),
    },
  }),
  SysvarS1otHashes111111111111111111111111111: (reader) => ({
    type: 'slotHashes',
    info: reader.vec(40, () => ({ slot: reader.u64(), hash: reader.key() })),
  }),
  SysvarS1otHistory11111111111111111111111111: (reader) => {
    if (reader.u8() !== 1) throw new RangeError('slot history without bits');
    const blocks = reader.vec(8, () => reader.u64());
    reader.u64(); // the bit vector's length
    const nextSlot = reader.u64();
    // Agave prints every one of the 1,048,576 bits (Debug of its BitVec), slot i at index i.
    const bits = new Uint8Array(SLOT_HISTORY_ENTRIES).fill(48);
    blocks.forEach((block, index) => {
      for (let bit = 0; bit < 64 && block !== 0n; bit += 1, block >>= 1n) {
        if ((block & 1n) === 1n) bits[index * 64 + bit] = 49;
      }
    });
    return { type: 'slotHistory', info: { nextSlot, bits: Buffer.from(bits).toString('latin1') } };
  },
  SysvarStakeHistory1111111111111111111111111: (reader) => ({
    type: 'stakeHistory',
    info: reader.vec(32, () => ({
      epoch: reader.u64(),
      stakeHistory: { effective: reader.u64(), activating: reader.u64(), deactivating: reader.u64() },
    })),
  }),
  SysvarLastRestartS1ot1111111111111111111111: (reader) => ({
    type: 'lastRestartSlot',
    info: { lastRestartSlot: reader.u64() },
  }),
  SysvarEpochRewards1111111111111111111111111: (reader) => ({
    type: 'epochRewards',
    info: {
      distributionStartingBlockHeight: reader.u64(),
      numPartitions: reader.u64(),
      parentBlockhash: reader.key(),
      totalPoints: reader.u128().toString(),
      totalRewards: reader.u64().toString(),
      distributedRewards: reader.u64().toString(),
      active: reader.bool(),
    },
  }),
};

function parseNonce(data: Uint8Array): Parsed | undefined {
  if (data.length !== NONCE_ACCOUNT_LENGTH) return undefined;
  const reader = new Reader(data);
  reader.u32(); // version: legacy and current nonces read alike
  // An uninitialised nonce does not parse: any allocated system account of this size would look like one.
  if (reader.u32() !== 1) return undefined;
  return {
    type: 'initialized',
    info: { authority: reader.key(), blockhash: reader.key(), feeCalculator: feeCalculator(reader) },
  };
}

function parseLookupTable(data: Uint8Array): Parsed | undefined {
  const reader = new Reader(data);
  const state = reader.u32();
  if (state === 0) return { type: 'uninitialized' };
  if (
    state !== 1 ||
    data.length < LOOKUP_TABLE_META_SIZE ||
    (data.length - LOOKUP_TABLE_META_SIZE) % 32 !== 0
  ) {
    return undefined;
  }
  const deactivationSlot = reader.u64().toString();
  const lastExtendedSlot = reader.u64().toString();
  const lastExtendedSlotStartIndex = reader.u8();
  const authority = reader.u8() === 1 ? reader.key() : undefined;
  const addresses: string[] = [];
  for (let offset = LOOKUP_TABLE_META_SIZE; offset < data.length; offset += 32) {
    addresses.push(encodeBase58(data.subarray(offset, offset + 32)));
  }
  return {
    type: 'lookupTable',
    info: {
      deactivationSlot,
      lastExtendedSlot,
      lastExtendedSlotStartIndex,
      ...(authority === undefined ? {} : { authority }),
      addresses,
    },
  };
}

/** `{ program, parsed, space }` of a sysvar, nonce or lookup-table account, or undefined. */
export function parseNonTokenAccount(
  address: string,
  owner: string,
  data: Uint8Array,
): { program: string; parsed: Parsed; space: bigint } | undefined {
  let program: string;
  let parsed: Parsed | undefined;
  try {
    if (owner === SYSVAR_OWNER && Object.hasOwn(SYSVARS, address)) {
      program = 'sysvar';
      parsed = SYSVARS[address]!(new Reader(data));
    } else if (owner === SYSTEM_PROGRAM_ID) {
      program = 'nonce';
      parsed = parseNonce(data);
    } else if (owner === ADDRESS_LOOKUP_TABLE_PROGRAM_ID) {
      program = 'address-lookup-table';
      parsed = parseLookupTable(data);
    } else {
      return undefined;
    }
  } catch {
    return undefined;
  }
  return parsed === undefined ? undefined : { program, parsed, space: BigInt(data.length) };
}
