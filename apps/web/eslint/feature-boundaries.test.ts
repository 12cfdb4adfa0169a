import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import webArchitecture from './feature-boundaries.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SRC = 'apps/web/src';
const LAYERS = [['auth'], ['wallet'], ['market'], ['trading'], ['portfolio', 'futures']];

/** The rule's findings for `code` as if it were the file at `file` (relative to apps/web/src). */
function lint(file: string, code: string): string[] {
  const linter = new Linter({ cwd: ROOT });
  const messages = linter.verify(
    code,
    [
      {
        files: ['**/*.{ts,tsx}'],
        languageOptions: { parser: tseslint.parser },
        plugins: { solterm: webArchitecture },
        rules: { 'solterm/feature-boundaries': ['error', { srcDir: SRC, layers: LAYERS }] },
      },
    ],
    path.join(ROOT, SRC, file),
  );
  return messages.map((message) => message.message);
}

describe('the web feature-boundaries rule', () => {
  it('lets a feature import a lower feature through its index', () => {
    expect(
      lint(
        'features/trading/components/quick-trade-panel.tsx',
        "import { TokenAvatar } from '../../market';",
      ),
    ).toEqual([]);
    expect(
      lint(
        'features/portfolio/portfolio-queries.ts',
        "import type { WalletAccess } from '../trading/index';",
      ),
    ).toEqual([]);
    // Inside one feature anything goes; lib/, components/ and the app are free to be imported.
    expect(
      lint('features/market/components/pair-header.tsx', "import { x } from '../hooks/use-market-data';"),
    ).toEqual([]);
    expect(
      lint(
        'features/market/components/pair-header.tsx',
        "import { formatPrice } from '../../../lib/format';",
      ),
    ).toEqual([]);
    // Routes and the app shell compose features and may reach into them.
    expect(
      lint(
        'app/routes/trade.tsx',
        "import { OrderForm } from '../../features/trading/components/order-form';",
      ),
    ).toEqual([]);
  });

  it("refuses a reach into another feature's files", () => {
    expect(
      lint(
        'features/portfolio/components/portfolio-overview.tsx',
        "import { getWalletAccess } from '../../trading/wallet-access';",
      ),
    ).toEqual([
      "'../../trading/wallet-access' is internal to the trading feature: import it through features/trading/index.ts",
    ]);
    expect(
      lint('features/trading/trading-form.ts', "export { useWallet } from '../wallet/wallet-context';"),
    ).toEqual([
      "'../wallet/wallet-context' is internal to the wallet feature: import it through features/wallet/index.ts",
    ]);
  });

  it('refuses an import that would make two features import each other', () => {
    // market → trading while trading → market: the two-way edge the Trending Tokens Buy once made.
    expect(
      lint(
        'features/market/components/trending-tokens.tsx',
        "import { orderPrefillStore } from '../../trading';",
      ),
    ).toEqual([
      'The market feature (layer 2) may not import the trading feature (layer 3): features import only lower layers, so no two features import each other',
    ]);
    // Features of one layer do not import each other either.
    expect(lint('features/futures/use-futures.ts', "import { usePortfolio } from '../portfolio';")).toEqual([
      'The futures feature (layer 4) may not import the portfolio feature (layer 4): features import only lower layers, so no two features import each other',
    ]);
    expect(lint('features/bots/use-bots.ts', "const trading = import('../trading');")).toEqual([
      'The bots feature has no layer: add it to the feature-boundaries layers in eslint.config.js',
    ]);
  });

  it('keeps lib/ free of features', () => {
    expect(lint('lib/query-keys.ts', "import { marketKeys } from '../features/market';")).toEqual([
      'lib/ is shared code: it must not import the market feature',
    ]);
  });
});
