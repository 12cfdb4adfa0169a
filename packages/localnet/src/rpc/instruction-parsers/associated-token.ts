/**
 * `jsonParsed` Associated Token Account instructions, as Agave's
 * `transaction-status/src/parse_associated_token.rs`: empty data is the original Create, otherwise
 * one borsh enum byte (0 Create, 1 CreateIdempotent, 2 RecoverNested) and nothing after it.
 */
import { namedAccounts, notParsable, parsedAs, type ParsedInstructionEnum } from './decoding';

type Accounts = readonly string[];

const CREATE_ACCOUNTS = ['source', 'account', 'wallet', 'mint', 'systemProgram', 'tokenProgram'] as const;
const RECOVER_NESTED_ACCOUNTS = [
  'nestedSource',
  'nestedMint',
  'destination',
  'nestedOwner',
  'ownerMint',
  'wallet',
  'tokenProgram',
] as const;

/** Instruction types by their borsh variant index. */
const VARIANTS = [
  { type: 'create', names: CREATE_ACCOUNTS },
  { type: 'createIdempotent', names: CREATE_ACCOUNTS },
  { type: 'recoverNested', names: RECOVER_NESTED_ACCOUNTS },
] as const;

/** The borsh variant index; `try_from_slice` rejects data left over after it. */
function variantIndex(data: Uint8Array): number {
  if (data.length === 0) return 0;
  if (data.length > 1) notParsable('trailing data');
  return data[0]!;
}

/** Parses an Associated Token Account instruction; throws NotParsableError when Agave would not. */
export function parseAssociatedTokenInstruction(accounts: Accounts, data: Uint8Array): ParsedInstructionEnum {
  const variant = VARIANTS[variantIndex(data)] ?? notParsable('unknown associated token instruction');
  // Extra accounts (the rent sysvar of the deprecated Create) are allowed and not named.
  return parsedAs(variant.type, namedAccounts(accounts, variant.names));
}
