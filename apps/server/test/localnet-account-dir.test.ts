import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';

// Issue #29: the app's embedded cluster loads `--account-dir` fixtures through a setting, so a
// project's validator fixtures work against the app's /rpc as against `npm run localnet`.

const FIXTURE = {
  pubkey: '4nTLDQiSTRHbngKZWPMfYnZdWTbKiNeuuPcX7yFUpSAc',
  account: {
    data: ['dGVzdCBkYXRh', 'base64'],
    executable: false,
    lamports: 5_000_000,
    owner: 'Config1111111111111111111111111111111111111',
    rentEpoch: 18446744073709551615n,
  },
};

let fixtures: string;
let app: TestApp;

beforeAll(async () => {
  fixtures = await fs.mkdtemp(path.join(os.tmpdir(), 'solterm-fixtures-'));
  // rentEpoch as the validator writes it: a u64 literal past 2^53.
  const text = JSON.stringify(FIXTURE, (_key, value: unknown) =>
    typeof value === 'bigint' ? `__${value}__` : value,
  ).replace(/"__(\d+)__"/g, '$1');
  await fs.writeFile(path.join(fixtures, 'account.json'), text);
  app = await createTestApp({ env: { LOCALNET_ACCOUNT_DIR: fixtures } });
});

afterAll(async () => {
  await app?.close();
  await fs.rm(fixtures, { recursive: true, force: true });
});

describe('LOCALNET_ACCOUNT_DIR', () => {
  it('places the directory’s accounts in the embedded cluster, served at /rpc as written', async () => {
    const response = await app.server.inject({
      method: 'POST',
      url: '/rpc',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'getAccountInfo',
        params: [FIXTURE.pubkey, { encoding: 'base64' }],
      }),
      remoteAddress: '203.0.113.9',
    });
    expect(response.statusCode).toBe(200);
    // The body's rentEpoch is u64::MAX: read it as text rather than through JSON.parse's doubles.
    expect(response.body).toContain('"rentEpoch":18446744073709551615');
    expect(response.json<{ result: { value: unknown } }>().result.value).toMatchObject({
      data: ['dGVzdCBkYXRh', 'base64'],
      executable: false,
      lamports: 5_000_000,
      owner: 'Config1111111111111111111111111111111111111',
      space: 9,
    });
  });
});
