/**
 * `jsonParsed` System Program instructions, as Agave's `transaction-status/src/parse_system.rs`:
 * bincode data (u32 LE variant, u64 LE integers, 32-byte keys, u64-length-prefixed UTF-8 seeds;
 * trailing bytes allowed). Lamports and space are JSON numbers, returned as bigint.
 */
import {
  ByteReader,
  namedAccounts,
  notParsable,
  parsedAs,
  requireAccounts,
  type ParsedInstructionEnum,
} from './decoding';

type Accounts = readonly string[];
type VariantParser = (reader: ByteReader, accounts: Accounts) => ParsedInstructionEnum;

function createAccount(reader: ByteReader, accounts: Accounts): ParsedInstructionEnum {
  const lamports = reader.u64();
  const space = reader.u64();
  const owner = reader.pubkey();
  return parsedAs('createAccount', {
    ...namedAccounts(accounts, ['source', 'newAccount']),
    lamports,
    owner,
    space,
  });
}

function assign(reader: ByteReader, accounts: Accounts): ParsedInstructionEnum {
  const owner = reader.pubkey();
  return parsedAs('assign', { ...namedAccounts(accounts, ['account']), owner });
}

function transfer(reader: ByteReader, accounts: Accounts): ParsedInstructionEnum {
  const lamports = reader.u64();
  return parsedAs('transfer', { ...namedAccounts(accounts, ['source', 'destination']), lamports });
}

function createAccountWithSeed(reader: ByteReader, accounts: Accounts): ParsedInstructionEnum {
  const base = reader.pubkey();
  const seed = reader.bincodeString();
  const lamports = reader.u64();
  const space = reader.u64();
  const owner = reader.pubkey();
  const info = { ...namedAccounts(accounts, ['source', 'newAccount']), base, seed, lamports, space, owner };
  return parsedAs('createAccountWithSeed', info);
}

function advanceNonce(_reader: ByteReader, accounts: Accounts): ParsedInstructionEnum {
  const names = ['nonceAccount', 'recentBlockhashesSysvar', 'nonceAuthority'];
  return parsedAs('advanceNonce', namedAccounts(accounts, names));
}

function withdrawFromNonce(reader: ByteReader, accounts: Accounts): ParsedInstructionEnum {
  const lamports = reader.u64();
  const names = ['nonceAccount', 'destination', 'recentBlockhashesSysvar', 'rentSysvar', 'nonceAuthority'];
  return parsedAs('withdrawFromNonce', { ...namedAccounts(accounts, names), lamports });
}

function initializeNonce(reader: ByteReader, accounts: Accounts): ParsedInstructionEnum {
  const nonceAuthority = reader.pubkey();
  const names = ['nonceAccount', 'recentBlockhashesSysvar', 'rentSysvar'];
  return parsedAs('initializeNonce', { ...namedAccounts(accounts, names), nonceAuthority });
}

function authorizeNonce(reader: ByteReader, accounts: Accounts): ParsedInstructionEnum {
  const newAuthorized = reader.pubkey();
  return parsedAs('authorizeNonce', {
    ...namedAccounts(accounts, ['nonceAccount', 'nonceAuthority']),
    newAuthorized,
  });
}

function allocate(reader: ByteReader, accounts: Accounts): ParsedInstructionEnum {
  const space = reader.u64();
  return parsedAs('allocate', { ...namedAccounts(accounts, ['account']), space });
}

function allocateWithSeed(reader: ByteReader, accounts: Accounts): ParsedInstructionEnum {
  const base = reader.pubkey();
  const seed = reader.bincodeString();
  const space = reader.u64();
  const owner = reader.pubkey();
  // Agave requires the base account too, but names only the allocated one.
  return parsedAs('allocateWithSeed', {
    ...namedAccounts(accounts, ['account'], 2),
    base,
    seed,
    space,
    owner,
  });
}

function assignWithSeed(reader: ByteReader, accounts: Accounts): ParsedInstructionEnum {
  const base = reader.pubkey();
  const seed = reader.bincodeString();
  const owner = reader.pubkey();
  return parsedAs('assignWithSeed', { ...namedAccounts(accounts, ['account'], 2), base, seed, owner });
}

function transferWithSeed(reader: ByteReader, accounts: Accounts): ParsedInstructionEnum {
  const lamports = reader.u64();
  const sourceSeed = reader.bincodeString();
  const sourceOwner = reader.pubkey();
  const info = {
    ...namedAccounts(accounts, ['source', 'sourceBase', 'destination']),
    lamports,
    sourceSeed,
    sourceOwner,
  };
  return parsedAs('transferWithSeed', info);
}

function upgradeNonce(_reader: ByteReader, accounts: Accounts): ParsedInstructionEnum {
  return parsedAs('upgradeNonce', namedAccounts(accounts, ['nonceAccount']));
}

/** Without lamports there is no payer: only the new account is named. */
function createAccountAllowPrefund(reader: ByteReader, accounts: Accounts): ParsedInstructionEnum {
  const lamports = reader.u64();
  const space = reader.u64();
  const owner = reader.pubkey();
  if (lamports === 0n)
    return parsedAs('createAccountAllowPrefund', {
      ...namedAccounts(accounts, ['newAccount']),
      space,
      owner,
    });
  const info = { ...namedAccounts(accounts, ['newAccount', 'source']), lamports, space, owner };
  return parsedAs('createAccountAllowPrefund', info);
}

/** `SystemInstruction` variants by their bincode index. */
const VARIANTS: readonly VariantParser[] = [
  createAccount,
  assign,
  transfer,
  createAccountWithSeed,
  advanceNonce,
  withdrawFromNonce,
  initializeNonce,
  authorizeNonce,
  allocate,
  allocateWithSeed,
  assignWithSeed,
  transferWithSeed,
  upgradeNonce,
  createAccountAllowPrefund,
];

/** Parses a System Program instruction; throws NotParsableError when Agave would not parse it. */
export function parseSystemInstruction(accounts: Accounts, data: Uint8Array): ParsedInstructionEnum {
  const reader = new ByteReader(data);
  const variant = VARIANTS[reader.u32()] ?? notParsable('unknown system instruction');
  // Agave first checks the instruction names at least one account (its `accounts.iter().max()`).
  requireAccounts(accounts, 1);
  return variant(reader, accounts);
}
