/**
 * `jsonParsed` Address Lookup Table instructions, as Agave's
 * `transaction-status/src/parse_address_lookup_table.rs`: bincode data (u32 LE variant, u64 LE
 * slot, u8 bump seed, u64-length-prefixed list of 32-byte addresses; trailing bytes allowed).
 * The recent slot is a JSON number, returned as bigint.
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

const TABLE_ACCOUNTS = ['lookupTableAccount', 'lookupTableAuthority'] as const;
const PUBKEY_BYTES = 32;

function createLookupTable(reader: ByteReader, accounts: Accounts): ParsedInstructionEnum {
  const recentSlot = reader.u64();
  const bumpSeed = reader.u8();
  const names = [...TABLE_ACCOUNTS, 'payerAccount', 'systemProgram'];
  return parsedAs('createLookupTable', { ...namedAccounts(accounts, names), recentSlot, bumpSeed });
}

/** ExtendLookupTable names the payer and system program only when both are given. */
function extendLookupTable(reader: ByteReader, accounts: Accounts): ParsedInstructionEnum {
  const count = reader.bincodeLength(PUBKEY_BYTES);
  const newAddresses = Array.from({ length: count }, () => reader.pubkey());
  const names = accounts.length >= 4 ? [...TABLE_ACCOUNTS, 'payerAccount', 'systemProgram'] : TABLE_ACCOUNTS;
  return parsedAs('extendLookupTable', { ...namedAccounts(accounts, names), newAddresses });
}

function tableAccountsOnly(type: string): VariantParser {
  return (_reader, accounts) => parsedAs(type, namedAccounts(accounts, TABLE_ACCOUNTS));
}

function closeLookupTable(_reader: ByteReader, accounts: Accounts): ParsedInstructionEnum {
  return parsedAs('closeLookupTable', namedAccounts(accounts, [...TABLE_ACCOUNTS, 'recipient']));
}

/** `ProgramInstruction` variants by their bincode index. */
const VARIANTS: readonly VariantParser[] = [
  createLookupTable,
  tableAccountsOnly('freezeLookupTable'),
  extendLookupTable,
  tableAccountsOnly('deactivateLookupTable'),
  closeLookupTable,
];

/** Parses an Address Lookup Table instruction; throws NotParsableError when Agave would not. */
export function parseAddressLookupTableInstruction(
  accounts: Accounts,
  data: Uint8Array,
): ParsedInstructionEnum {
  const reader = new ByteReader(data);
  const variant = VARIANTS[reader.u32()] ?? notParsable('unknown address lookup table instruction');
  // Agave first checks the instruction names at least one account (its `accounts.iter().max()`).
  requireAccounts(accounts, 1);
  return variant(reader, accounts);
}
