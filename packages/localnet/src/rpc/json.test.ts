import { describe, expect, it } from 'vitest';
import { JsonFloat, stringifyJson } from './json';

describe('stringifyJson', () => {
  it('writes u64 values beyond 2^53 exactly and floats with a decimal point', () => {
    const text = stringifyJson({
      rentEpoch: 18446744073709551615n,
      uiAmount: new JsonFloat(1000),
      half: new JsonFloat(0.5),
    });
    expect(text).toBe('{"rentEpoch":18446744073709551615,"uiAmount":1000.0,"half":0.5}');
  });

  it('matches JSON.stringify for plain values and skips undefined members', () => {
    const value = { a: [1, 'x', null, true, { b: 'q"uote' }], c: undefined, d: -2.5 };
    expect(stringifyJson(value)).toBe(JSON.stringify(value));
    expect(stringifyJson([undefined])).toBe('[null]');
  });
});
