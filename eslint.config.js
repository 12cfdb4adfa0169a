import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import serverArchitecture from './apps/server/eslint/module-boundaries.js';
import webArchitecture from './apps/web/eslint/feature-boundaries.js';

/**
 * The server's modules, lowest layer first: a module imports only modules of lower layers. Bots,
 * backtests go above trading; futures beside them (it needs wallet, relay and market, not trading).
 * On top, side by side: token safety (handed the venue modules' accounts to label them) and fills (the
 * user's own fills on a chart, read from spot, bot and futures) and alerts (read market, bots,
 * futures; deliver through email and realtime).
 */
const SERVER_MODULE_LAYERS = [
  ['email', 'chain', 'health'],
  ['auth'],
  ['realtime'],
  ['market'],
  ['holders', 'relay'],
  ['wallet'],
  ['trading'],
  ['bots', 'futures'],
  ['safety', 'fills', 'alerts'],
];

/**
 * The web's features, lowest layer first: a feature imports only features of lower layers, through
 * their index.ts. Alerts sit at the bottom: the chart, the bot card and the position row offer "Alert
 * me". Market data sits below trading; the portfolio, futures and bots build on trading.
 */
const WEB_FEATURE_LAYERS = [
  ['auth', 'network', 'landing', 'alerts'],
  ['wallet'],
  ['market'],
  ['trading'],
  ['portfolio', 'futures', 'bots'],
  ['marketplace'],
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      'apps/server/drizzle/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
    },
  },
  // Dependency direction (docs/ARCHITECTURE.md, "Layout"): the engine and contracts are pure; apps never import each other.
  {
    files: ['packages/engine/**/*.ts', 'packages/contracts/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                'fastify*',
                '@fastify/*',
                'drizzle-orm*',
                '@electric-sql/*',
                'litesvm',
                'react*',
                'pg',
                'node:*',
              ],
              message: 'contracts and engine are pure: no I/O, framework or runtime imports.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@solterm/server', '**/apps/server/**'], message: 'apps do not import each other.' },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@solterm/web', '**/apps/web/**'], message: 'apps do not import each other.' },
            { group: ['litesvm'], message: 'the server reaches the chain only through RPC.' },
          ],
        },
      ],
    },
  },
  {
    // The composition root starts the embedded cluster; every other server module uses JSON-RPC.
    // The data-directory lock is plain files (the embedded database takes it too).
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/services.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@solterm/web', '**/apps/web/**'], message: 'apps do not import each other.' },
            {
              regex: '^(litesvm|@solterm/localnet)(/(?!data-dir-lock$).*)?$',
              message: 'the server reaches the chain only through RPC (services.ts starts the cluster).',
            },
          ],
        },
      ],
    },
  },
  {
    // The server's module graph (docs/ARCHITECTURE.md, "Server modules"): public files only, lower layers only, so no cycles.
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/**/*.test.ts'],
    plugins: { solterm: serverArchitecture },
    rules: {
      'solterm/module-boundaries': [
        'error',
        {
          srcDir: 'apps/server/src',
          layers: SERVER_MODULE_LAYERS,
          // pair-candles.ts: pure cross-pair candle maths, which the backtest worker thread runs
          // without loading the market service.
          publicFiles: { market: ['market.service', 'pair-candles'] },
        },
      ],
    },
  },
  {
    // The web's feature graph: other features only through their index, lower layers only, so no two
    // features import each other. Tests may reach into other features for fixtures and test helpers.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/**/*.test.{ts,tsx}', 'apps/web/src/**/test/**'],
    plugins: { solterm: webArchitecture },
    rules: {
      'solterm/feature-boundaries': ['error', { srcDir: 'apps/web/src', layers: WEB_FEATURE_LAYERS }],
    },
  },
);
