import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildChallengeMessage,
  CHALLENGE_TTL_MS,
  originOfPublicUrl,
  parseChallengeNonce,
  parseChallengeOrigin,
  type ChallengeFields,
} from './wallet-challenge';

const issuedAt = new Date('2025-01-02T03:04:05.000Z');
const fields: ChallengeFields = {
  domain: 'localhost:8080',
  uri: 'http://localhost:8080',
  address: '11111111111111111111111111111111',
  walletType: 'phantom',
  network: 'localnet',
  nonce: '0123456789abcdef0123456789abcdef',
  issuedAt,
  expiresAt: new Date(issuedAt.getTime() + CHALLENGE_TTL_MS),
};

describe('buildChallengeMessage', () => {
  it('lays a Solana challenge out like Sign-In-With-Solana', () => {
    expect(buildChallengeMessage(fields)).toBe(
      [
        'localhost:8080 wants you to sign in with your Solana account:',
        '11111111111111111111111111111111',
        '',
        'Sign in to solterm. This request will not trigger a blockchain transaction or cost any fees.',
        '',
        'URI: http://localhost:8080',
        'Version: 1',
        'Chain ID: localnet',
        'Nonce: 0123456789abcdef0123456789abcdef',
        'Issued At: 2025-01-02T03:04:05.000Z',
        'Expiration Time: 2025-01-02T03:09:05.000Z',
      ].join('\n'),
    );
  });

  it('names Ethereum and chain 1 for MetaMask', () => {
    const message = buildChallengeMessage({
      ...fields,
      walletType: 'metamask',
      address: `0x${'ab'.repeat(20)}`,
      network: 'devnet',
    });

    expect(message.split('\n')[0]).toBe('localhost:8080 wants you to sign in with your Ethereum account:');
    expect(message).toContain('\nChain ID: 1\n');
  });

  it('expires five minutes after it is issued', () => {
    expect(CHALLENGE_TTL_MS).toBe(300_000);
  });
});

describe('parseChallengeNonce', () => {
  it('reads the nonce back from a built challenge', () => {
    expect(parseChallengeNonce(buildChallengeMessage(fields))).toBe(fields.nonce);
  });

  it('round-trips any alphanumeric nonce of 8 to 64 characters', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9]{8,64}$/), (nonce) => {
        expect(parseChallengeNonce(buildChallengeMessage({ ...fields, nonce }))).toBe(nonce);
      }),
    );
  });

  it.each([
    ['no nonce line', 'Sign in to solterm'],
    ['a nonce shorter than 8', 'Nonce: abc123'],
    ['a nonce longer than 64', `Nonce: ${'a'.repeat(65)}`],
    ['punctuation in the nonce', 'Nonce: abcd-efgh-ijkl'],
    ['a nonce not at the start of its line', 'x Nonce: 0123456789abcdef'],
    ['a trailing space', 'Nonce: 0123456789abcdef '],
  ])('is undefined for %s', (_name, message) => {
    expect(parseChallengeNonce(message)).toBeUndefined();
  });
});

describe('parseChallengeOrigin', () => {
  it('reads the domain and URI of a Solana and an Ethereum challenge', () => {
    for (const walletType of ['phantom', 'metamask'] as const) {
      expect(parseChallengeOrigin(buildChallengeMessage({ ...fields, walletType }))).toEqual({
        domain: 'localhost:8080',
        uri: 'http://localhost:8080',
      });
    }
  });

  it('is undefined when a line is missing', () => {
    expect(parseChallengeOrigin('Sign in to solterm\nNonce: 0123456789abcdef')).toBeUndefined();
    expect(parseChallengeOrigin('x wants you to sign in with your Solana account:\nabc')).toBeUndefined();
  });
});

describe('originOfPublicUrl', () => {
  it('is the host and origin of the configured URL', () => {
    expect(originOfPublicUrl('https://solterm.example/app/')).toEqual({
      domain: 'solterm.example',
      uri: 'https://solterm.example',
    });
    expect(originOfPublicUrl('http://localhost:8080')).toEqual({
      domain: 'localhost:8080',
      uri: 'http://localhost:8080',
    });
  });
});
