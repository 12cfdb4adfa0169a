import { describe, expect, it } from 'vitest';
import { strToU8, zipSync } from 'fflate';
import { strategyFromZip } from './strategy-zip';

const zip = (files: Record<string, string>) =>
  zipSync(Object.fromEntries(Object.entries(files).map(([name, text]) => [name, strToU8(text)])));

describe('a .zip strategy upload', () => {
  it('reads a lone file as it is', () => {
    expect(strategyFromZip(zip({ 'mine/strategy.py': 'def on_candle(c, ctx):\n    return None\n' }))).toEqual(
      {
        ok: true,
        language: 'python',
        code: 'def on_candle(c, ctx):\n    return None\n',
        entry: 'strategy.py',
        modules: [],
      },
    );
  });

  it('embeds Python modules ahead of main.py, importable by name, as valid Python string literals', () => {
    const module = 'FACTOR = 2\ndef double(x):\n    return x * FACTOR  # "quoted" \\ back\n';
    const read = strategyFromZip(
      zip({
        'main.py': 'import helpers\ndef on_candle(c, ctx):\n    return None\n',
        'lib/helpers.py': module,
      }),
    );
    expect(read.ok && read.language).toBe('python');
    if (!read.ok) return;
    expect(read.modules).toEqual(['helpers.py']);
    expect(read.code).toContain(`_zip_module("helpers", ${JSON.stringify(module)})`);
    expect(
      read.code.endsWith('# ---- main.py ----\nimport helpers\ndef on_candle(c, ctx):\n    return None\n'),
    ).toBe(true);
  });

  it('gives JavaScript modules a CommonJS require that the entry file calls', () => {
    const read = strategyFromZip(
      zip({
        'index.js':
          "const { double } = require('./math');\nfunction onCandle(c) { return double(c.close) > 10 ? { action: 'buy' } : null; }",
        'math.js': 'module.exports.double = (x) => x * 2;',
        'README.md': '# not code',
      }),
    );
    if (!read.ok) throw new Error(read.error);
    expect(read.language).toBe('javascript');
    // The bundle is one script: evaluate it as the sandbox would and call its onCandle.
    const onCandle = new Function(`${read.code}\nreturn onCandle;`)() as (c: { close: number }) => unknown;
    expect(onCandle({ close: 6 })).toEqual({ action: 'buy' });
    expect(onCandle({ close: 4 })).toBeNull();
  });

  it('refuses what it cannot run, with the reason', () => {
    const refused = (bytes: Uint8Array) => {
      const read = strategyFromZip(bytes);
      return read.ok ? null : read.error;
    };
    expect(refused(new Uint8Array([1, 2, 3]))).toBe('The .zip file could not be read');
    expect(refused(zip({ 'notes.txt': 'hi' }))).toBe('The .zip file holds no .py or .js file');
    expect(refused(zip({ 'a.py': '', 'b.py': '' }))).toMatch(/Name the entry file of the .zip main.py/);
    expect(refused(zip({ 'main.py': '', 'x/util.py': '', 'y/util.py': '' }))).toBe(
      'Two modules of the .zip are named util.py',
    );
    // Four times the code limit of zeros compresses to a few kB: refused before it is inflated.
    expect(refused(zip({ 'main.py': '0'.repeat(900_000) }))).toMatch(/expands past 200,000 characters/);
  });
});
