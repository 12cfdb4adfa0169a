/**
 * The `jsonParsed` form of a transaction instruction, as a Solana validator writes it (Agave's
 * `transaction-status/src/parse_instruction.rs`): instructions of the programs Agave parses become
 * `{ parsed, program, programId, stackHeight }`; any other instruction, and one a parser cannot
 * parse (bad data, too few accounts), stays partially decoded as
 * `{ accounts, data (base58), programId, stackHeight }`.
 *
 * Parsed programs here: System, SPL Token and Token-2022 (base instructions), Associated Token
 * Account, Memo (v1 and v3) and Address Lookup Table. Compute Budget is not parsed by Agave (it is
 * not among its parsable programs), so its instructions stay partially decoded; so do those of the
 * stake, vote and BPF loader programs, which Agave parses but this cluster does not.
 */
import { encodeBase58 } from '../../base58';
import {
  ADDRESS_LOOKUP_TABLE_PROGRAM_ID,
  ASSOCIATED_TOKEN_PROGRAM_ID,
  MEMO_PROGRAM_ID,
  MEMO_V1_PROGRAM_ID,
  SYSTEM_PROGRAM_ID,
} from '../../program-ids';
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '../../token-layout';
import { parseAddressLookupTableInstruction } from './address-lookup-table';
import { parseAssociatedTokenInstruction } from './associated-token';
import { parseMemoInstruction } from './memo';
import { parseSystemInstruction } from './system';
import { parseTokenInstruction } from './token';

export interface ParsedInstructionJson {
  program: string;
  programId: string;
  parsed: unknown;
  stackHeight: number | null;
}

export interface PartiallyDecodedInstructionJson {
  programId: string;
  accounts: string[];
  /** base58 */
  data: string;
  stackHeight: number | null;
}

interface ParsableProgram {
  /** Agave's `ParsableProgram` variant in kebab case. */
  readonly name: string;
  /** The `parsed` value; throws when Agave would not parse the instruction. */
  readonly parse: (accounts: readonly string[], data: Uint8Array) => unknown;
}

const SPL_TOKEN: ParsableProgram = { name: 'spl-token', parse: parseTokenInstruction };
const SPL_MEMO: ParsableProgram = {
  name: 'spl-memo',
  parse: (_accounts, data) => parseMemoInstruction(data),
};

/**
 * Agave's `PARSABLE_PROGRAM_IDS`. Both token programs map to its one `SplToken` variant, so
 * Token-2022 instructions are also `"spl-token"` (unlike Token-2022 accounts, `"spl-token-2022"`).
 */
const PARSABLE_PROGRAMS: ReadonlyMap<string, ParsableProgram> = new Map([
  [
    ADDRESS_LOOKUP_TABLE_PROGRAM_ID,
    { name: 'address-lookup-table', parse: parseAddressLookupTableInstruction },
  ],
  [
    ASSOCIATED_TOKEN_PROGRAM_ID,
    { name: 'spl-associated-token-account', parse: parseAssociatedTokenInstruction },
  ],
  [MEMO_V1_PROGRAM_ID, SPL_MEMO],
  [MEMO_PROGRAM_ID, SPL_MEMO],
  [SYSTEM_PROGRAM_ID, { name: 'system', parse: parseSystemInstruction }],
  [TOKEN_PROGRAM_ID, SPL_TOKEN],
  [TOKEN_2022_PROGRAM_ID, SPL_TOKEN],
]);

/** The parsed value, or undefined when the program's parser rejects the instruction. */
function tryParse(program: ParsableProgram, accounts: readonly string[], data: Uint8Array): unknown {
  try {
    return program.parse(accounts, data);
  } catch {
    // NotParsableError, or any unforeseen decoding failure: Agave falls back the same way.
    return undefined;
  }
}

/**
 * The `jsonParsed` JSON of an instruction. `accounts` are the instruction's account addresses
 * already resolved (base58), in instruction order. Never throws: what is not parsed is returned
 * partially decoded. Keys are in the alphabetical order Agave's RPC writes; u64 JSON numbers are
 * bigint and floats `JsonFloat`, for `stringifyJson`.
 */
export function parseInstruction(
  programId: string,
  accounts: readonly string[],
  data: Uint8Array,
  stackHeight: number | null,
): ParsedInstructionJson | PartiallyDecodedInstructionJson {
  const program = PARSABLE_PROGRAMS.get(programId);
  const parsed = program === undefined ? undefined : tryParse(program, accounts, data);
  if (program === undefined || parsed === undefined) {
    return { accounts: [...accounts], data: encodeBase58(data), programId, stackHeight };
  }
  return { parsed, program: program.name, programId, stackHeight };
}
