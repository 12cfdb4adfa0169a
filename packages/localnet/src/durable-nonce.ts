/**
 * Durable nonces: a transaction whose "recent blockhash" is the value stored in a nonce account,
 * and whose first instruction advances that nonce, is accepted however old it is — as Agave's
 * `check_transaction_age` does. The advance itself is the System program's, run by LiteSVM.
 *
 * One difference from a validator: LiteSVM derives the advanced value from the transaction's own
 * blockhash (the nonce it used), not from the bank's, so a nonce can advance more than once in a
 * slot. Each value is still usable once: advancing replaces it.
 */
import { createHash } from 'node:crypto';
import { SYSTEM_PROGRAM_ID } from './program-ids';
import type { AccountView } from './svm-runtime';
import { isStaticKeyWritable, type WireTransaction } from './wire-transaction';

/** Size of a nonce account (`nonce::state::Versions`, bincode). */
export const NONCE_ACCOUNT_LENGTH = 80;
const ADVANCE_NONCE_ACCOUNT = 4;
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
