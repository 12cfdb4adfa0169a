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
