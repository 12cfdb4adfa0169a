import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without type declarations
import { MAX_FUNCTION_LINES, measureFunctions } from './check-sizes.mjs';

const body = (lines: number) => Array.from({ length: lines }, (_, i) => `  const v${i} = ${i};`).join('\n');

describe('check-sizes', () => {
  it('counts a function by the lines it spans', () => {
    const [fn] = measureFunctions('a.ts', `function small() {\n${body(3)}\n}\n`);
    expect(fn).toMatchObject({ name: 'small', line: 1, own: 5 });
  });

  it("leaves a nested function's lines to the nested function", () => {
    const text = `export function outer() {\n${body(10)}\n  const inner = () => {\n${body(MAX_FUNCTION_LINES + 5)}\n  };\n  return inner;\n}\n`;
    const measured = measureFunctions('b.ts', text);
    const outer = measured.find((f: { name: string }) => f.name === 'outer');
    const inner = measured.find((f: { name: string }) => f.name === 'inner');
    expect(inner.own).toBe(MAX_FUNCTION_LINES + 7);
    expect(outer.own).toBe(10 + 3);
  });

  it('flags a component over the limit', () => {
    const text = `export function Page() {\n${body(MAX_FUNCTION_LINES)}\n  return null;\n}\n`;
    const [page] = measureFunctions('c.tsx', text);
    expect(page.own).toBeGreaterThan(MAX_FUNCTION_LINES);
  });
});
