import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import serverArchitecture from '../eslint/module-boundaries.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SRC = 'apps/server/src';
const LAYERS = [['chain'], ['auth'], ['relay'], ['wallet'], ['trading']];

/** The rule's findings for `code` as if it were the file at `file` (relative to apps/server/src). */
function lint(file: string, code: string): string[] {
  const linter = new Linter({ cwd: ROOT });
  const messages = linter.verify(
    code,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser },
        plugins: { solterm: serverArchitecture },
        rules: { 'solterm/module-boundaries': ['error', { srcDir: SRC, layers: LAYERS }] },
      },
    ],
    path.join(ROOT, SRC, file),
  );
  return messages.map((message) => message.message);
}

describe('the server module-boundaries rule', () => {
  it('lets a module import a lower module through its public service file', () => {
    expect(
      lint('modules/trading/order-builder.ts', "import { createRelay } from '../relay/relay.service';"),
    ).toEqual([]);
    expect(
      lint('modules/wallet/wallet.service.ts', "import type { Relay } from '../relay/relay.service';"),
    ).toEqual([]);
    // Inside one module anything goes; platform code and the composition root are free to be imported.
    expect(lint('modules/trading/trading.service.ts', "import { x } from './trading.repository';")).toEqual(
      [],
    );
    expect(
      lint('modules/trading/trading.service.ts', "import { AppError } from '../../lib/app-error';"),
    ).toEqual([]);
    expect(
      lint('app.ts', "import { createTradingRepository } from './modules/trading/trading.repository';"),
    ).toEqual([]);
  });

  it("refuses a deliberate cross-module table import and a reach into another module's repository", () => {
    expect(
      lint('modules/trading/trading.service.ts', "import { users } from '../auth/auth.tables';"),
    ).toEqual([
      'Tables of the auth module are imported only by db/schema.ts and by tables files (foreign keys)',
    ]);
    expect(
      lint(
        'modules/trading/trading.service.ts',
        "import { isUniqueViolation } from '../auth/auth.repository';",
      ),
    ).toEqual([
      "'../auth/auth.repository' is internal to the auth module: import it through auth.service.ts",
    ]);
    // Foreign keys: a tables file may name another module's table, and the shared schema gathers them all.
    expect(lint('modules/trading/trading.tables.ts', "import { users } from '../auth/auth.tables';")).toEqual(
      [],
    );
    expect(lint('db/schema.ts', "export * from '../modules/trading/trading.tables';")).toEqual([]);
  });

  it('refuses an import that would close a cycle (a lower module importing a higher one)', () => {
    // wallet → trading while trading → wallet: the wallet-trading cycle the relay removed.
    expect(
      lint(
        'modules/wallet/wallet.service.ts',
        "import type { TradingService } from '../trading/trading.service';",
      ),
    ).toEqual([
      'The wallet module (layer 3) may not import the trading module (layer 4): modules import only lower layers, so the graph stays acyclic',
    ]);
    expect(lint('modules/relay/relay.service.ts', "export { x } from '../relay/relay.repository';")).toEqual(
      [],
    );
    expect(lint('modules/bots/bots.service.ts', "import { y } from '../trading/trading.service';")).toEqual([
      'The bots module has no layer: add it to the module-boundaries layers in eslint.config.js',
    ]);
  });

  it('keeps platform code free of modules', () => {
    expect(lint('lib/reply.ts', "import { z } from '../modules/market/market.service';")).toEqual([
      'lib/ is platform code: it must not import the market module',
    ]);
  });
});
