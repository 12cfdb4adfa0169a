/**
 * Transaction fees as the runtime charges them: 5,000 lamports per signature plus the priority fee,
 * ceil(compute-unit price × compute-unit limit / 10^6). Without a SetComputeUnitLimit instruction
 * the limit defaults to 3,000 units per builtin-program instruction and 200,000 per other
 * instruction (checked against LiteSVM), capped at 1,400,000.
 */
import { encodeBase58 } from './base58';
import { COMPUTE_BUDGET_PROGRAM_ID, SYSTEM_PROGRAM_ID } from './program-ids';
import type { WireTransaction } from './wire-transaction';

export const LAMPORTS_PER_SIGNATURE = 5000n;
const MAX_COMPUTE_UNIT_LIMIT = 1_400_000n;
const DEFAULT_BUILTIN_INSTRUCTION_UNITS = 3_000n;
const DEFAULT_INSTRUCTION_UNITS = 200_000n;
const SET_COMPUTE_UNIT_LIMIT = 2;
const SET_COMPUTE_UNIT_PRICE = 3;

const BUILTIN_PROGRAM_IDS = new Set([
  SYSTEM_PROGRAM_ID,
  COMPUTE_BUDGET_PROGRAM_ID,
  'Vote111111111111111111111111111111111111111',
  'Stake11111111111111111111111111111111111111',
  'Config1111111111111111111111111111111111111',
  'AddressLookupTab1e1111111111111111111111111',
  'BPFLoader1111111111111111111111111111111111',
  'BPFLoader2111111111111111111111111111111111',
  'BPFLoaderUpgradeab1e11111111111111111111111',
  'LoaderV411111111111111111111111111111111111',
  'Ed25519SigVerify111111111111111111111111111',
  'KeccakSecp256k11111111111111111111111111111',
  'Secp256r1SigVerify1111111111111111111111111',
]);

/** The program of each instruction, by its account index (default: base58 of the static key). */
type ProgramIdOf = (programIdIndex: number) => string | undefined;

/**
 * What a transaction's Compute Budget instructions set: the compute-unit price (micro-lamports, 0
 * when unset) and limit, and the limit the runtime assumes without one.
 */
function readComputeBudget(
  transaction: WireTransaction,
  programIdOf: ProgramIdOf,
): { price: bigint; limit: bigint | undefined; defaultLimit: bigint } {
  let price = 0n;
  let limit: bigint | undefined;
  let defaultLimit = 0n;
  for (const instruction of transaction.instructions) {
    const programId = programIdOf(instruction.programIdIndex) ?? '';
    const data = instruction.data;
    if (programId === COMPUTE_BUDGET_PROGRAM_ID) {
      const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
      if (data[0] === SET_COMPUTE_UNIT_LIMIT && data.length >= 5) limit = BigInt(view.getUint32(1, true));
      if (data[0] === SET_COMPUTE_UNIT_PRICE && data.length >= 9) price = view.getBigUint64(1, true);
    }
    defaultLimit += BUILTIN_PROGRAM_IDS.has(programId)
      ? DEFAULT_BUILTIN_INSTRUCTION_UNITS
      : DEFAULT_INSTRUCTION_UNITS;
  }
  return { price, limit, defaultLimit };
}

const staticProgramIds =
  (transaction: WireTransaction): ProgramIdOf =>
  (index) =>
    encodeBase58(transaction.staticAccountKeys[index]!);

/**
 * The compute-unit price (micro-lamports) a transaction pays, 0 when it set none; `programIdOf`
 * saves the base58 encoding when the caller already resolved the keys.
 */
export function computeUnitPrice(
  transaction: WireTransaction,
  programIdOf: ProgramIdOf = staticProgramIds(transaction),
): bigint {
  return readComputeBudget(transaction, programIdOf).price;
}

/** The fee the runtime charges the fee payer for this transaction (or message). */
export function calculateTransactionFee(transaction: WireTransaction): bigint {
  const { price, limit, defaultLimit } = readComputeBudget(transaction, staticProgramIds(transaction));
  const units = limit ?? defaultLimit;
  const cappedUnits = units > MAX_COMPUTE_UNIT_LIMIT ? MAX_COMPUTE_UNIT_LIMIT : units;
  const priorityFee = (price * cappedUnits + 999_999n) / 1_000_000n;
  return LAMPORTS_PER_SIGNATURE * BigInt(transaction.header.numRequiredSignatures) + priorityFee;
}
