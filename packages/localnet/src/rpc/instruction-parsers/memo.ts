/**
 * `jsonParsed` SPL Memo instructions (v1 and v3 program ids), as Agave's `parse_memo` in
 * `transaction-status/src/parse_instruction.rs`: `parsed` is the memo text itself. Agave decodes it
 * with `str::from_utf8`, so a memo that is not valid UTF-8 is not parsed (no lossy replacement).
 */
import { decodeUtf8, notParsable } from './decoding';

/** The memo text; throws NotParsableError when the data is not UTF-8. Accounts are not checked. */
export function parseMemoInstruction(data: Uint8Array): string {
  return decodeUtf8(data) ?? notParsable('memo is not UTF-8');
}
