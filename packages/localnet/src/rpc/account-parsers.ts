/**
 * jsonParsed for the accounts a validator parses besides token accounts and mints: sysvars
 * ("sysvar"), durable-nonce accounts ("nonce"), address lookup tables ("address-lookup-table"),
 * upgradeable-loader accounts ("bpf-upgradeable-loader"), token multisigs, validator info
 * ("config"), vote and stake accounts, in the shapes of Agave's account-decoder (`parse_sysvar.rs`, `parse_nonce.rs`,
 * `parse_address_lookup_table.rs`, `parse_bpf_loader.rs`, `parse_token.rs`, `parse_config.rs`, `parse_vote.rs`, `parse_stake.rs`). Data that does not parse answers undefined, and the
 * caller falls back to base64 as a validator does.
 */
import { encodeBase58 } from '../base58';
import { NONCE_ACCOUNT_LENGTH } from '../durable-nonce';
import { ADDRESS_LOOKUP_TABLE_PROGRAM_ID, CONFIG_PROGRAM_ID, SYSTEM_PROGRAM_ID } from '../program-ids';
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '../token-layout';
import { ByteReader } from './instruction-parsers/decoding';
import { JsonFloat } from './json';

const SYSVAR_OWNER = 'Sysvar1111111111111111111111111111111111111';
const LOOKUP_TABLE_META_SIZE = 56;
const SLOT_HISTORY_ENTRIES = 1024 * 1024;
const BPF_UPGRADEABLE_LOADER_ID = 'BPFLoaderUpgradeab1e11111111111111111111111';
/** Metadata before the bytes of a loader buffer (tag, optional authority) and program data (tag, slot, optional authority). */
const BUFFER_METADATA_SIZE = 37;
const PROGRAM_DATA_METADATA_SIZE = 45;
/** A token multisig: m, n, is_initialized and 11 signer slots. */
const MULTISIG_SIZE = 355;
/** The first config key of a validator-info account (`solana_config_program::validator_info::id()`). */
const VALIDATOR_INFO_ID = 'Va1idator1nfo111111111111111111111111111111';

/** A bincode `Vec` of `itemBytes`-byte items. */
const vec = <T>(reader: ByteReader, itemBytes: number, read: () => T): T[] =>
  Array.from({ length: reader.bincodeLength(itemBytes) }, read);
const bool = (reader: ByteReader): boolean => reader.u8() !== 0;
const u128 = (reader: ByteReader): bigint => {
  const low = reader.u64();
  return (reader.u64() << 64n) + low;
};

const feeCalculator = (reader: ByteReader) => ({ lamportsPerSignature: reader.u64().toString() });

type Parsed = { type: string; info?: unknown };

const SYSVARS: Readonly<Record<string, (reader: ByteReader) => Parsed>> = {
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
      warmup: bool(reader),
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
    info: vec(reader, 40, () => ({ blockhash: reader.pubkey(), feeCalculator: feeCalculator(reader) })),
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
    info: vec(reader, 40, () => ({ slot: reader.u64(), hash: reader.pubkey() })),
  }),
  SysvarS1otHistory11111111111111111111111111: (reader) => {
    if (reader.u8() !== 1) throw new RangeError('slot history without bits');
    const blocks = vec(reader, 8, () => reader.u64());
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
    info: vec(reader, 32, () => ({
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
      parentBlockhash: reader.pubkey(),
      totalPoints: u128(reader).toString(),
      totalRewards: reader.u64().toString(),
      distributedRewards: reader.u64().toString(),
      active: bool(reader),
    },
  }),
};

function parseNonce(data: Uint8Array): Parsed | undefined {
  if (data.length !== NONCE_ACCOUNT_LENGTH) return undefined;
  const reader = new ByteReader(data);
  reader.u32(); // version: legacy and current nonces read alike
  // An uninitialised nonce does not parse: any allocated system account of this size would look like one.
  if (reader.u32() !== 1) return undefined;
  return {
    type: 'initialized',
    info: { authority: reader.pubkey(), blockhash: reader.pubkey(), feeCalculator: feeCalculator(reader) },
  };
}

function parseLookupTable(data: Uint8Array): Parsed | undefined {
  const reader = new ByteReader(data);
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
  const authority = reader.u8() === 1 ? reader.pubkey() : undefined;
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

function optionalPubkey(reader: ByteReader): string | null {
  const some = reader.u8() === 1;
  const key = reader.pubkey();
  return some ? key : null;
}

/** `UpgradeableLoaderState` (bincode), with the bytes after a buffer's or program data's metadata. */
function parseUpgradeableLoader(data: Uint8Array): Parsed | undefined {
  const reader = new ByteReader(data);
  const tag = reader.u32();
  const rest = (from: number) => [Buffer.from(data.subarray(from)).toString('base64'), 'base64'];
  if (tag === 0) return { type: 'uninitialized' };
  if (tag === 1)
    return { type: 'buffer', info: { authority: optionalPubkey(reader), data: rest(BUFFER_METADATA_SIZE) } };
  if (tag === 2) return { type: 'program', info: { programData: reader.pubkey() } };
  if (tag === 3) {
    const slot = reader.u64();
    const authority = optionalPubkey(reader);
    return { type: 'programData', info: { slot, authority, data: rest(PROGRAM_DATA_METADATA_SIZE) } };
  }
  return undefined;
}

function parseMultisig(data: Uint8Array): Parsed | undefined {
  if (data.length !== MULTISIG_SIZE || data[2] !== 1) return undefined;
  const numValidSigners = data[1]!;
  const signers: string[] = [];
  for (let index = 0; index < numValidSigners && index < 11; index += 1) {
    signers.push(encodeBase58(data.subarray(3 + index * 32, 35 + index * 32)));
  }
  return {
    type: 'multisig',
    info: { numRequiredSigners: data[0]!, numValidSigners, isInitialized: true, signers },
  };
}

/** A serde `short_vec` length (compact-u16): at most three bytes, canonical, up to 65,535. */
function shortVecLength(reader: ByteReader): number {
  let value = 0;
  for (let index = 0; index < 3; index += 1) {
    const byte = reader.u8();
    value |= (byte & 0x7f) << (7 * index);
    if ((byte & 0x80) === 0) {
      if ((byte === 0 && index > 0) || value > 0xffff) return Number.NaN;
      return value;
    }
  }
  return Number.NaN;
}

/**
 * A Config-program account whose first key is the validator-info id: its keys, then a bincode
 * string of JSON (Agave's `parse_config`; other config data, the stake config's included, is not
 * parsed here and answers base64).
 */
function parseValidatorInfo(data: Uint8Array): Parsed | undefined {
  const reader = new ByteReader(data);
  const count = shortVecLength(reader);
  if (!(count > 0)) return undefined;
  const keys: { pubkey: string; signer: boolean }[] = [];
  for (let index = 0; index < count; index += 1) {
    const pubkey = reader.pubkey();
    const signer = reader.u8();
    if (signer > 1) return undefined;
    keys.push({ pubkey, signer: signer === 1 });
  }
  if (keys[0]!.pubkey !== VALIDATOR_INFO_ID) return undefined;
  const configData: unknown = JSON.parse(reader.bincodeString());
  return { type: 'validatorInfo', info: { keys, configData } };
}

const VOTE_PROGRAM_ID = 'Vote111111111111111111111111111111111111111';
const STAKE_PROGRAM_ID = 'Stake11111111111111111111111111111111111111';
const DEFAULT_PUBKEY = '11111111111111111111111111111111';
/** The entries of a vote state's prior-voters circular buffer. */
const PRIOR_VOTERS = 32;

/**
 * A vote account (`parse_vote.rs`): `VoteStateVersions` 1 (1.14.11: lockouts) and 2 (current: landed
 * votes, a latency byte before each lockout), with the prior voters whose key is set. The 0.23.5
 * layout is not parsed (answers base64).
 */
function parseVote(data: Uint8Array): Parsed | undefined {
  const reader = new ByteReader(data);
  const version = reader.u32();
  if (version !== 1 && version !== 2) return undefined;
  const nodePubkey = reader.pubkey();
  const authorizedWithdrawer = reader.pubkey();
  const commission = reader.u8();
  const votes = vec(reader, version === 2 ? 13 : 12, () => {
    if (version === 2) reader.u8(); // latency
    return { slot: reader.u64(), confirmationCount: reader.u32() };
  });
  const rootSlot = reader.u8() === 1 ? reader.u64() : null;
  const authorizedVoters = vec(reader, 40, () => ({ epoch: reader.u64(), authorizedVoter: reader.pubkey() }));
  const priorVoters: {
    authorizedPubkey: string;
    epochOfLastAuthorizedSwitch: bigint;
    targetEpoch: bigint;
  }[] = [];
  for (let index = 0; index < PRIOR_VOTERS; index += 1) {
    const authorizedPubkey = reader.pubkey();
    const epochOfLastAuthorizedSwitch = reader.u64();
    const targetEpoch = reader.u64();
    if (authorizedPubkey !== DEFAULT_PUBKEY) {
      priorVoters.push({ authorizedPubkey, epochOfLastAuthorizedSwitch, targetEpoch });
    }
  }
  reader.u64(); // the buffer's index
  reader.u8(); // is_empty
  const epochCredits = vec(reader, 24, () => ({
    epoch: reader.u64(),
    credits: reader.u64().toString(),
    previousCredits: reader.u64().toString(),
  }));
  const lastTimestamp = { slot: reader.u64(), timestamp: reader.i64() };
  return {
    type: 'vote',
    info: {
      nodePubkey,
      authorizedWithdrawer,
      commission,
      votes,
      rootSlot,
      authorizedVoters,
      priorVoters,
      epochCredits,
      lastTimestamp,
    },
  };
}

/** A stake account (`parse_stake.rs` of Agave 2.3, whose delegation still shows `warmupCooldownRate`). */
function parseStake(data: Uint8Array): Parsed | undefined {
  const reader = new ByteReader(data);
  const tag = reader.u32();
  if (tag === 0) return { type: 'uninitialized' };
  if (tag === 3) return { type: 'rewardsPool' };
  if (tag !== 1 && tag !== 2) return undefined;
  const rentExemptReserve = reader.u64().toString();
  const authorized = { staker: reader.pubkey(), withdrawer: reader.pubkey() };
  const unixTimestamp = reader.i64();
  const epoch = reader.u64();
  const meta = {
    rentExemptReserve,
    authorized,
    lockup: { unixTimestamp, epoch, custodian: reader.pubkey() },
  };
  if (tag === 1) return { type: 'initialized', info: { meta, stake: null } };
  const delegation = {
    voter: reader.pubkey(),
    stake: reader.u64().toString(),
    activationEpoch: reader.u64().toString(),
    deactivationEpoch: reader.u64().toString(),
    warmupCooldownRate: new JsonFloat(reader.f64()),
  };
  return { type: 'delegated', info: { meta, stake: { delegation, creditsObserved: reader.u64() } } };
}

/** `{ program, parsed, space }` of an account parsed here, or undefined. */
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
      parsed = SYSVARS[address]!(new ByteReader(data));
    } else if (owner === SYSTEM_PROGRAM_ID) {
      program = 'nonce';
      parsed = parseNonce(data);
    } else if (owner === ADDRESS_LOOKUP_TABLE_PROGRAM_ID) {
      program = 'address-lookup-table';
      parsed = parseLookupTable(data);
    } else if (owner === BPF_UPGRADEABLE_LOADER_ID) {
      program = 'bpf-upgradeable-loader';
      parsed = parseUpgradeableLoader(data);
    } else if (owner === CONFIG_PROGRAM_ID) {
      program = 'config';
      parsed = parseValidatorInfo(data);
    } else if (owner === VOTE_PROGRAM_ID) {
      program = 'vote';
      parsed = parseVote(data);
    } else if (owner === STAKE_PROGRAM_ID) {
      program = 'stake';
      parsed = parseStake(data);
    } else if (owner === TOKEN_PROGRAM_ID || owner === TOKEN_2022_PROGRAM_ID) {
      program = owner === TOKEN_2022_PROGRAM_ID ? 'spl-token-2022' : 'spl-token';
      parsed = parseMultisig(data);
    } else {
      return undefined;
    }
  } catch {
    return undefined;
  }
  return parsed === undefined ? undefined : { program, parsed, space: BigInt(data.length) };
}
