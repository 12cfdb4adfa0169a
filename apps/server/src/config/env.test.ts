import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS, loadConfig } from './env';

function configError(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected loadConfig to throw');
}

describe('loadConfig', () => {
  it('applies the defaults to an empty environment', () => {
    const config = loadConfig({});

    expect(config).toMatchObject({
      port: 8080,
      host: 'localhost',
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      jwtSecret: undefined,
      walletEncryptionKey: undefined,
      network: 'localnet',
      publicUrl: undefined,
      smtpUrl: undefined,
      emailFrom: 'solterm <no-reply@solterm.local>',
      logLevel: 'info',
      bodyLimitBytes: 256 * 1024,
      authRateLimit: { max: 20, windowMs: 60_000 },
      sessionTtlHours: 24,
      walletChangeLockMs: 86_400_000,
      rememberMeTtlDays: 30,
      webDistDir: undefined,
      trustProxy: false,
    });
  });

  it('is frozen', () => {
    const config = loadConfig({});

    expect(Object.isFrozen(config)).toBe(true);
  });

  it('parses every setting it is given', () => {
    const config = loadConfig({
      PORT: '0',
      HOST: '0.0.0.0',
      DATA_DIR: '/var/lib/solterm',
      DATABASE_URL: 'postgres://u@db:5432/solterm',
      JWT_SECRET: 's'.repeat(32),
      WALLET_ENCRYPTION_KEY: 'AbCdEf'.padEnd(64, '0'),
      SOLANA_NETWORK: 'devnet',
      PUBLIC_URL: 'https://solterm.example',
      SMTP_URL: 'smtp://mail:25',
      EMAIL_FROM: 'ops@solterm.example',
      LOG_LEVEL: 'warn',
      BODY_LIMIT_BYTES: '1024',
      AUTH_RATE_LIMIT_MAX: '5',
      AUTH_RATE_LIMIT_WINDOW_MS: '1000',
      SESSION_TTL_HOURS: '2',
      WALLET_CHANGE_LOCK_MS: '60000',
      REMEMBER_ME_TTL_DAYS: '7',
      WEB_DIST_DIR: 'apps/web/dist',
      TRUST_PROXY: '1',
    });

    expect(config).toMatchObject({
      port: 0,
      host: '0.0.0.0',
      dataDir: '/var/lib/solterm',
      databaseUrl: 'postgres://u@db:5432/solterm',
      network: 'devnet',
      publicUrl: 'https://solterm.example',
      logLevel: 'warn',
      bodyLimitBytes: 1024,
      authRateLimit: { max: 5, windowMs: 1000 },
      sessionTtlHours: 2,
      walletChangeLockMs: 60_000,
      rememberMeTtlDays: 7,
      webDistDir: path.resolve('apps/web/dist'),
      trustProxy: 1,
    });
  });

  it('ignores keys it does not know and treats empty values as unset', () => {
    const config = loadConfig({ PATH: '/usr/bin', NODE_ENV: 'production', PORT: '', JWT_SECRET: '' });

    expect(config.port).toBe(8080);
    expect(config.jwtSecret).toBeUndefined();
  });

  it('lists every bad key at once', () => {
    const message = configError({
      PORT: 'eighty',
      JWT_SECRET: 'short',
      WALLET_ENCRYPTION_KEY: 'not-hex',
      SOLANA_NETWORK: 'moonnet',
      DATABASE_URL: 'not a url',
      TRUST_PROXY: 'yes',
      HOST: '0.0.0.0',
    });

    expect(message).toMatch(/^Invalid configuration:/);
    for (const key of [
      'PORT',
      'JWT_SECRET',
      'WALLET_ENCRYPTION_KEY',
      'SOLANA_NETWORK',
      'DATABASE_URL',
      'TRUST_PROXY',
    ]) {
      expect(message).toContain(`  ${key}: `);
    }
    expect(message).not.toContain('HOST');
    expect(message).toContain('JWT_SECRET must be at least 32 characters');
    expect(message).toContain('WALLET_ENCRYPTION_KEY must be 64 hex characters (32 bytes)');
  });

  it.each([
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['BODY_LIMIT_BYTES', '0'],
    ['AUTH_RATE_LIMIT_MAX', '1.5'],
    ['LOG_LEVEL', 'verbose'],
  ])('refuses %s=%s', (key, value) => {
    expect(configError({ [key]: value })).toContain(`  ${key}: `);
  });

  it('turns the dev price hook on for localnet only, unless DEV_MARKET says otherwise', () => {
    expect(loadConfig({}).devMarket).toBe(true);
    expect(loadConfig({ SOLANA_NETWORK: 'devnet' }).devMarket).toBe(false);
    expect(loadConfig({ SOLANA_NETWORK: 'devnet', DEV_MARKET: 'on' }).devMarket).toBe(true);
    expect(loadConfig({ DEV_MARKET: 'off' }).devMarket).toBe(false);
    expect(loadConfig({ SOLANA_NETWORK: 'mainnet' }).devMarket).toBe(false);
    expect(configError({ SOLANA_NETWORK: 'mainnet', DEV_MARKET: 'on' })).toContain(
      '  DEV_MARKET: DEV_MARKET=on is refused on mainnet',
    );
  });

  it('turns the dev outbox on for localnet only, unless DEV_OUTBOX says otherwise', () => {
    expect(loadConfig({}).devOutbox).toBe(true);
    expect(loadConfig({ SOLANA_NETWORK: 'devnet' }).devOutbox).toBe(false);
    expect(loadConfig({ SOLANA_NETWORK: 'devnet', DEV_OUTBOX: 'on' }).devOutbox).toBe(true);
    expect(loadConfig({ DEV_OUTBOX: 'off' }).devOutbox).toBe(false);
    expect(loadConfig({ SOLANA_NETWORK: 'mainnet' }).devOutbox).toBe(false);
    expect(configError({ SOLANA_NETWORK: 'mainnet', DEV_OUTBOX: 'on' })).toContain(
      '  DEV_OUTBOX: DEV_OUTBOX=on is refused on mainnet',
    );
    expect(configError({ DEV_OUTBOX: 'yes' })).toContain('  DEV_OUTBOX: ');
  });

  it.each([
    ['false', false],
    ['0', false],
    ['1', 1],
    ['2', 2],
    ['10.0.0.1', ['10.0.0.1']],
    [' 10.0.0.1 , 10.9.0.0/16,fd00::/8 ', ['10.0.0.1', '10.9.0.0/16', 'fd00::/8']],
    ['loopback,uniquelocal', ['loopback', 'uniquelocal']],
  ])('reads TRUST_PROXY=%s as a hop count or a list of proxies', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it('refuses TRUST_PROXY=true, which would trust every hop, and says what to write instead', () => {
    expect(configError({ TRUST_PROXY: 'true' })).toContain(
      '  TRUST_PROXY: TRUST_PROXY=true would trust every hop',
    );
  });

  it.each(['yes', '1.5', '-1', '10.0.0.300', '10.0.0.0/33', '10.0.0.1,,10.0.0.2'])(
    'refuses TRUST_PROXY=%s',
    (value) => {
      expect(configError({ TRUST_PROXY: value })).toContain('  TRUST_PROXY: ');
    },
  );

  it('reads the per-account sign-in limit, with its defaults', () => {
    expect(loadConfig({}).loginThrottle).toEqual({
      maxFailures: 5,
      windowMs: 900_000,
      backoffMaxMs: 900_000,
    });
    expect(
      loadConfig({
        LOGIN_FAILURES_MAX: '3',
        LOGIN_FAILURES_WINDOW_MS: '60000',
        LOGIN_BACKOFF_MAX_MS: '120000',
      }).loginThrottle,
    ).toEqual({ maxFailures: 3, windowMs: 60_000, backoffMaxMs: 120_000 });
  });

  it('reads the embedded cluster’s account fixture directories (LOCALNET_ACCOUNT_DIR, path-delimited)', () => {
    expect(loadConfig({}).localnetAccountDirs).toEqual([]);
    expect(
      loadConfig({ LOCALNET_ACCOUNT_DIR: ['fixtures/a', '', '/srv/b'].join(path.delimiter) })
        .localnetAccountDirs,
    ).toEqual([path.resolve('fixtures/a'), '/srv/b']);
  });

  it('refuses private webhook targets unless ALERT_WEBHOOK_ALLOW_PRIVATE is on', () => {
    expect(loadConfig({}).alerts).toEqual({ intervalMs: 2000, allowPrivateWebhooks: false });
    expect(loadConfig({ ALERT_WEBHOOK_ALLOW_PRIVATE: 'on' }).alerts.allowPrivateWebhooks).toBe(true);
    expect(configError({ ALERT_WEBHOOK_ALLOW_PRIVATE: 'yes' })).toContain('  ALERT_WEBHOOK_ALLOW_PRIVATE: ');
  });

  it('names every setting in CONFIG_KEYS', () => {
    expect(CONFIG_KEYS).toEqual(
      expect.arrayContaining([
        'PORT',
        'HOST',
        'DATA_DIR',
        'DATABASE_URL',
        'JWT_SECRET',
        'WALLET_ENCRYPTION_KEY',
        'SOLANA_NETWORK',
        'PUBLIC_URL',
        'SMTP_URL',
        'EMAIL_FROM',
        'LOG_LEVEL',
        'BODY_LIMIT_BYTES',
        'AUTH_RATE_LIMIT_MAX',
        'AUTH_RATE_LIMIT_WINDOW_MS',
        'SESSION_TTL_HOURS',
        'WALLET_CHANGE_LOCK_MS',
        'REMEMBER_ME_TTL_DAYS',
        'WEB_DIST_DIR',
        'TRUST_PROXY',
      ]),
    );
  });

  it('has a row in the README configuration table for every setting', () => {
    const readme = fs.readFileSync(
      path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../README.md'),
      'utf8',
    );
    const documented = new Set(
      [...readme.matchAll(/^\| `([A-Z][A-Z0-9_]*)` +\|/gm)].map((match) => match[1]),
    );
    expect(CONFIG_KEYS.filter((key) => !documented.has(key))).toEqual([]);
  });
});
