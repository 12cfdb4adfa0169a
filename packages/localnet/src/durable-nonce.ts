/**
 * Durable nonces: a transaction whose "recent blockhash" is the value stored in a nonce account,
 * and whose first instruction advances that nonce, is accepted however old it is — as Agave's
 * `check_transaction_age` does. The advance itself is the System program's, run by LiteSVM.
 *
 * LiteSVM derives a new nonce value from the blockhash of the transaction it runs; a validator
 * from the bank's. So the cluster runs a transaction that initialises or advances a nonce with the
 * bank's blockhash in place of its own ({@link setsNonceValue}, `LocalCluster.sendTransaction`),
 * having verified its signatures itself: the next value is the validator's, and a nonce advances
 * at most once a slot (Custom 7, NonceBlockhashNotExpired), as on a validator.
 */
import { createHash, createPublicKey, verify } from 'node:crypto';
import { SYSTEM_PROGRAM_ID } from './program-ids';
import type { AccountView } from './svm-runtime';
import { isStaticKeyWritable, type WireTransaction } from './wire-transaction';

/** Size of a nonce account (`nonce::state::Versions`, bincode). */
export const NONCE_ACCOUNT_LENGTH = 80;
const ADVANCE_NONCE_ACCOUNT = 4;
const INITIALIZE_NONCE_ACCOUNT = 6;
const VERSION_CURRENT = 1;
const STATE_INITIALIZED = 1;

/** `DurableNonce::from_blockhash`: sha256("DURABLE_NONCE" ‖ blockhash). */
export function durableNonceFromBlockhash(blockhash: Uint8Array): Uint8Array {
  return new Uint8Array(createHash('sha256').update('DURABLE_NONCE').update(blockhash).digest());
}

/**
 * The nonce account a transaction whose blockhash is not a recent one may use instead, or null:
 * when its first instruction does not advance a nonce, or does but the account is not an
 * initialised nonce holding that value, or its authority did not sign — all of which a validator
 * reports as BlockhashNotFound.
 */
export function durableNonceAccountOf(
  transaction: WireTransaction,
  addressOf: (key: Uint8Array) => string,
  getAccount: (address: string) => AccountView | null,
): string | null {
  const first = transaction.instructions[0];
  if (first === undefined) return null;
  const programKey = transaction.staticAccountKeys[first.programIdIndex];
  if (programKey === undefined || addressOf(programKey) !== SYSTEM_PROGRAM_ID) return null;
  const { data } = first;
  if (
    data.length < 4 ||
    new DataView(data.buffer, data.byteOffset, 4).getUint32(0, true) !== ADVANCE_NONCE_ACCOUNT
  ) {
    return null;
  }
  const nonceIndex = first.accountIndexes[0];
  const nonceKey = nonceIndex === undefined ? undefined : transaction.staticAccountKeys[nonceIndex];
  if (nonceKey === undefined || !isStaticKeyWritable(transaction, nonceIndex!)) return null;
  const nonceAccount = addressOf(nonceKey);
  const account = getAccount(nonceAccount);
  if (
    account === null ||
    account.owner !== SYSTEM_PROGRAM_ID ||
    account.data.length !== NONCE_ACCOUNT_LENGTH
  ) {
    return null;
  }
  const view = new DataView(account.data.buffer, account.data.byteOffset, NONCE_ACCOUNT_LENGTH);
  if (view.getUint32(0, true) !== VERSION_CURRENT || view.getUint32(4, true) !== STATE_INITIALIZED) {
    return null;
  }
  const authority = account.data.subarray(8, 40);
  const stored = account.data.subarray(40, 72);
  const used = transaction.bytes.subarray(transaction.blockhashOffset, transaction.blockhashOffset + 32);
  if (!sameBytes(stored, used)) return null;
  const signers = transaction.staticAccountKeys.slice(0, transaction.header.numRequiredSignatures);
  if (!signers.some((key) => sameBytes(key, authority))) return null;
  return nonceAccount;
}

function sameBytes(left: Uint8Array, right: Uint8Array): boolean {
  if (left.length !== right.length) return false;
  for (let index = 0; index < left.length; index += 1) if (left[index] !== right[index]) return false;
  return true;
}

/**
 * Whether a top-level instruction of the transaction is the System program's AdvanceNonceAccount
 * or InitializeNonceAccount: the two that store a value derived from the bank's blockhash.
 */
export function setsNonceValue(
  transaction: WireTransaction,
  addressOf: (key: Uint8Array) => string,
): boolean {
  for (const instruction of transaction.instructions) {
    const { data } = instruction;
    if (data.length < 4) continue;
    const discriminator = new DataView(data.buffer, data.byteOffset, 4).getUint32(0, true);
    if (discriminator !== ADVANCE_NONCE_ACCOUNT && discriminator !== INITIALIZE_NONCE_ACCOUNT) continue;
    const programKey = transaction.staticAccountKeys[instruction.programIdIndex];
    if (programKey !== undefined && addressOf(programKey) === SYSTEM_PROGRAM_ID) return true;
  }
  return false;
}

/** DER prefix of an Ed25519 SubjectPublicKeyInfo; the 32 key bytes follow. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** Whether every required signature of the transaction verifies over its message. */
export function signaturesVerify(transaction: WireTransaction): boolean {
  const message = transaction.bytes.subarray(transaction.messageOffset);
  const count = transaction.header.numRequiredSignatures;
  if (transaction.signatures.length !== count) return false;
  for (let index = 0; index < count; index += 1) {
    const key = transaction.staticAccountKeys[index];
    if (key === undefined) return false;
    const publicKey = createPublicKey({
      key: Buffer.concat([ED25519_SPKI_PREFIX, key]),
      format: 'der',
      type: 'spki',
    });
    if (!verify(null, message, publicKey, transaction.signatures[index]!)) return false;
  }
  return true;
}

/** The transaction's bytes with `blockhash` in place of its recent blockhash (a copy). */
export function withBlockhash(transaction: WireTransaction, blockhash: Uint8Array): Uint8Array {
  const bytes = new Uint8Array(transaction.bytes);
  bytes.set(blockhash, transaction.blockhashOffset);
  return bytes;
}
