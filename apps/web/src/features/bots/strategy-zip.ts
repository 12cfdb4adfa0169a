import { BOT_CODE_MAX_CHARS } from '@solterm/contracts';
import { unzipSync } from 'fflate';
import { formatCount } from '../../lib/format';

const MAX_FILES = 50;

/** Entry files looked for first, in this order; otherwise the archive's only .py or .js file. */
const ENTRY_NAMES = ['main.py', 'strategy.py', 'bot.py', 'main.js', 'strategy.js', 'index.js', 'bot.js'];

export type ZipStrategy =
  | { ok: true; language: 'javascript' | 'python'; code: string; entry: string; modules: string[] }
  | { ok: false; error: string };

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const moduleName = (path: string) => baseName(path).replace(/\.(py|js)$/, '');

/**
 * A .zip strategy as one source the sandbox runs and the editor shows: one entry file plus modules of
 * the same language, which the entry imports by name (`import indicators` in Python; in JavaScript,
 * CommonJS: `require('./indicators')` and `module.exports`). The modules are embedded ahead of the
 * entry with their own file names, so an error still names the module and its line.
 */
export function strategyFromZip(bytes: Uint8Array): ZipStrategy {
  let total = 0;
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, {
      // Sizes are checked before anything is inflated: a small archive cannot expand into gigabytes.
      filter: (file) => {
        if (file.name.endsWith('/') || /(^|\/)(__MACOSX|\.)/.test(file.name)) return false;
        total += file.originalSize;
        if (total > BOT_CODE_MAX_CHARS * 4) throw new RangeError('too large');
        return /\.(py|js)$/i.test(file.name);
      },
    });
  } catch (error) {
    return {
      ok: false,
      error:
        error instanceof RangeError
          ? `The archive expands past ${formatCount(BOT_CODE_MAX_CHARS)} characters`
          : 'The .zip file could not be read',
    };
  }
  const paths = Object.keys(files).sort();
  if (paths.length === 0) return { ok: false, error: 'The .zip file holds no .py or .js file' };
  if (paths.length > MAX_FILES)
    return { ok: false, error: `The .zip file holds more than ${MAX_FILES} files` };
  const entry =
    ENTRY_NAMES.map((name) => paths.find((path) => baseName(path) === name)).find(Boolean) ??
    (paths.length === 1 ? paths[0] : undefined);
  if (!entry) {
    return {
      ok: false,
      error: `Name the entry file of the .zip main.py or main.js (it holds ${paths.length} files)`,
    };
  }
  const language = entry.endsWith('.py') ? 'python' : 'javascript';
  const extension = language === 'python' ? '.py' : '.js';
  const decoder = new TextDecoder();
  const modules = paths.filter((path) => path !== entry && path.endsWith(extension));
  const names = modules.map(moduleName);
  const duplicate = names.find((name, index) => names.indexOf(name) !== index);
  if (duplicate) return { ok: false, error: `Two modules of the .zip are named ${duplicate}${extension}` };
  const source = (path: string) => decoder.decode(files[path]);
  const code =
    language === 'python'
      ? pythonBundle(
          entry,
          source(entry),
          modules.map((path) => [moduleName(path), source(path)]),
        )
      : javascriptBundle(
          entry,
          source(entry),
          modules.map((path) => [moduleName(path), source(path)]),
        );
  if (code.length > BOT_CODE_MAX_CHARS) {
    return {
      ok: false,
      error: `The strategy is longer than ${formatCount(BOT_CODE_MAX_CHARS)} characters`,
    };
  }
  return { ok: true, language, code, entry: baseName(entry), modules: modules.map(baseName) };
}

// JSON string literals are valid Python string literals with the same meaning (\", \\, \n, \uXXXX).
function pythonBundle(entry: string, main: string, modules: [string, string][]): string {
  if (modules.length === 0) return main;
  return [
    `# Modules of the uploaded .zip (${modules.map(([name]) => `${name}.py`).join(', ')}), loaded before ${baseName(entry)}.`,
    'import sys as _sys, types as _types',
    'def _zip_module(_name, _source):',
    '    _module = _types.ModuleType(_name)',
    '    _module.params = params',
    '    _sys.modules[_name] = _module',
    "    exec(compile(_source, _name + '.py', 'exec'), _module.__dict__)",
    ...modules.map(([name, source]) => `_zip_module(${JSON.stringify(name)}, ${JSON.stringify(source)})`),
    `# ---- ${baseName(entry)} ----`,
    main,
  ].join('\n');
}

function javascriptBundle(entry: string, main: string, modules: [string, string][]): string {
  if (modules.length === 0) return main;
  return [
    `// Modules of the uploaded .zip (${modules.map(([name]) => `${name}.js`).join(', ')}), loaded before ${baseName(entry)}: CommonJS, require('./name').`,
    'const require = (function () {',
    '  const sources = {',
    ...modules.map(
      ([name, source]) =>
        `    ${JSON.stringify(name)}: function (module, exports, require) {\n${source}\n    },`,
    ),
    '  };',
    '  const cache = {};',
    '  return function require(name) {',
    "    const key = String(name).replace(/^\\.\\//, '').replace(/\\.js$/, '');",
    "    if (!(key in sources)) throw new Error(`Cannot find module '${name}'`);",
    '    if (!(key in cache)) {',
    '      const module = { exports: {} };',
    '      cache[key] = module;',
    '      sources[key](module, module.exports, require);',
    '    }',
    '    return cache[key].exports;',
    '  };',
    '})();',
    `// ---- ${baseName(entry)} ----`,
    main,
  ].join('\n');
}
