/**
 * JSON for Solana RPC answers. Two things JSON.stringify cannot do on Node 20: write a u64 beyond
 * 2^53 as an exact integer literal (kit parses integer literals into bigint), and write an f64 that
 * happens to be integral with a fraction (`1000.0`), as serde does, so kit keeps it a number.
 */

/** A floating-point value (`uiAmount`) written with a decimal point even when it is integral. */
export class JsonFloat {
  constructor(readonly value: number) {}
}

/** Serialises a value whose integers may be bigint and whose floats may be {@link JsonFloat}. */
export function stringifyJson(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'bigint':
      return value.toString();
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (value instanceof JsonFloat) {
        const float = value.value;
        if (!Number.isFinite(float)) return 'null';
        return Number.isInteger(float) && Math.abs(float) < 1e21 ? `${float}.0` : String(float);
      }
      if (Array.isArray(value)) {
        let out = '[';
        for (let index = 0; index < value.length; index += 1) {
          if (index > 0) out += ',';
          const item: unknown = value[index];
          out += item === undefined || typeof item === 'function' ? 'null' : stringifyJson(item);
        }
        return `${out}]`;
      }
      if (value instanceof Uint8Array) return stringifyJson(Array.from(value));
      let out = '{';
      let first = true;
      for (const key of Object.keys(value)) {
        const item: unknown = (value as Record<string, unknown>)[key];
        if (item === undefined || typeof item === 'function') continue;
        out += `${first ? '' : ','}${JSON.stringify(key)}:${stringifyJson(item)}`;
        first = false;
      }
      return `${out}}`;
    }
    default:
      return 'null';
  }
}

/** Integer literals too long to be exact as a double (2^53 has 16 digits). */
const LONG_INTEGER = /-?\d{16,}/;
const BIGINT_MARK = '\u0000u64:';

/**
 * Parses a JSON-RPC request body with integer literals beyond 2^53 read exactly, as bigint (a
 * validator's serde parses u64 params exactly). Throws SyntaxError as JSON.parse does. Only
 * bodies holding a long digit run pay for the scan.
 */
export function parseJsonRequest(text: string): unknown {
  if (!LONG_INTEGER.test(text) || text.includes('\\u0000u64:')) return JSON.parse(text);
  let out = '';
  let last = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 0x5c)
        index += 1; // backslash: skip the escaped character
      else if (char === 0x22) inString = false;
      continue;
    }
    if (char === 0x22) {
      inString = true;
      continue;
    }
    const isDigit = char >= 0x30 && char <= 0x39;
    if (!isDigit && char !== 0x2d) continue;
    let end = index + (char === 0x2d ? 1 : 0);
    while (end < text.length && text.charCodeAt(end) >= 0x30 && text.charCodeAt(end) <= 0x39) end += 1;
    const next = text[end];
    const isInteger = next !== '.' && next !== 'e' && next !== 'E';
    if (isInteger && end - index > 15) {
      const literal = text.slice(index, end);
      if (!Number.isSafeInteger(Number(literal))) {
        out += `${text.slice(last, index)}"\\u0000u64:${literal}"`;
        last = end;
      }
    }
    index = end - 1;
  }
  if (last === 0) return JSON.parse(text);
  out += text.slice(last);
  return JSON.parse(out, (_key, value: unknown) =>
    typeof value === 'string' && value.startsWith(BIGINT_MARK)
      ? BigInt(value.slice(BIGINT_MARK.length))
      : value,
  );
}
