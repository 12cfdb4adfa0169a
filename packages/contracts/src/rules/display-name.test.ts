import { describe, it, expect } from 'vitest';
import {
  formatWalletTypeName,
  getDisplayName,
  getDisplaySubtitle,
  isWalletDerivedEmail,
  shortenAddress,
  type DisplayUser,
} from './display-name';

const ADDRESS = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';

function user(fields: Partial<DisplayUser>): DisplayUser {
  return { username: null, email: null, solana_wallet_address: null, wallet_type: null, ...fields };
}

describe('getDisplayName', () => {
  it.each([
    ['logged out', null, 'Guest'],
    ['undefined', undefined, 'Guest'],
    ['a plain username', user({ username: 'alice' }), 'alice'],
    ['exactly 20 characters', user({ username: 'abcdefghijklmnopqrst' }), 'abcdefghijklmnopqrst'],
    ['21 characters', user({ username: 'abcdefghijklmnopqrstu' }), 'abcdefghijklmnopq...'],
    [
      'a wallet username with a wallet type',
      user({ username: 'wallet_7xKXtg2C', wallet_type: 'phantom' }),
      'Phantom User',
    ],
    ['solflare', user({ username: 'wallet_abc', wallet_type: 'solflare' }), 'Solflare User'],
    [
      'metamask as the brand spells it',
      user({ username: 'wallet_abc', wallet_type: 'metamask' }),
      'MetaMask User',
    ],
    ['manual', user({ username: 'wallet_abc', wallet_type: 'manual' }), 'Manual User'],
    [
      'a wallet username without a wallet type uses the e-mail local part',
      user({ username: 'wallet_abc', email: 'trader.joe@example.com' }),
      'trader.joe',
    ],
    [
      'a long e-mail local part is cut too',
      user({ username: 'wallet_abc', email: 'wallet_7xKXtg2CW87d97TX@wallet.solterm' }),
      'wallet_7xKXtg2CW8...',
    ],
    ['no username falls to the wallet type', user({ wallet_type: 'phantom' }), 'Phantom User'],
    ['no username falls to the e-mail', user({ email: 'bob@example.com' }), 'bob'],
    ['a blank username falls to the e-mail', user({ username: '   ', email: 'bob@example.com' }), 'bob'],
    ['a wallet username with nothing else', user({ username: 'wallet_abc' }), 'User'],
    ['an e-mail with nothing before the @', user({ username: 'wallet_abc', email: '@example.com' }), 'User'],
    ['nothing at all', user({}), 'User'],
    ['wallet_ only counts as a prefix', user({ username: 'my_wallet_name' }), 'my_wallet_name'],
    ['the prefix is case-sensitive', user({ username: 'Wallet_Bob' }), 'Wallet_Bob'],
  ] as const)('%s', (_case, input, expected) => {
    expect(getDisplayName(input)).toBe(expected);
  });
});

describe('getDisplaySubtitle', () => {
  it.each([
    ['logged out', null, 'Not logged in'],
    [
      'a wallet address wins',
      user({ email: 'alice@example.com', solana_wallet_address: ADDRESS }),
      '7xKX...gAsU',
    ],
    ['a plain e-mail', user({ email: 'alice@example.com' }), 'alice@example.com'],
    ['a wallet-domain e-mail', user({ email: 'abc@wallet.solterm' }), 'Connected via Wallet'],
    ['an e-mail containing wallet_', user({ email: 'wallet_abc@example.com' }), 'Connected via Wallet'],
    ['a temporary e-mail', user({ email: 'temp123@example.com' }), 'Connected via Wallet'],
    ['TEMP in capitals', user({ email: 'User@TEMPMAIL.io' }), 'Connected via Wallet'],
    ['nothing', user({ username: 'alice' }), 'Connected'],
    ['blank address and e-mail', user({ email: ' ', solana_wallet_address: '' }), 'Connected'],
  ] as const)('%s', (_case, input, expected) => {
    expect(getDisplaySubtitle(input)).toBe(expected);
  });
});

describe('shortenAddress', () => {
  it.each([
    [ADDRESS, undefined, undefined, '7xKX...gAsU'],
    ['0x52908400098527886E0F7030069857D2E4169EE7', 6, 4, '0x5290...9EE7'],
    ['abcdefghijkl', 4, 4, 'abcd...ijkl'], // 12: one character saved
    ['abcdefghijk', 4, 4, 'abcdefghijk'], // 11: no gain, unchanged
    ['abc', 4, 4, 'abc'],
    ['', 4, 4, ''],
  ] as const)('shortenAddress(%j, %s, %s) = %j', (address, head, tail, expected) => {
    expect(shortenAddress(address, head, tail)).toBe(expected);
  });
});

describe('isWalletDerivedEmail / formatWalletTypeName', () => {
  it.each([
    ['x@wallet.solterm', true],
    ['X@WALLET.SOLTERM', true],
    ['x@wallet.solterm.com', false],
    ['wallet_1@gmail.com', true],
    ['contempt@example.com', true], // the spec's rule: any 'temp'
    ['alice@example.com', false],
  ] as const)('isWalletDerivedEmail(%j) = %s', (email, expected) => {
    expect(isWalletDerivedEmail(email)).toBe(expected);
  });

  it.each([
    ['phantom', 'Phantom'],
    ['Solflare', 'Solflare'],
    ['metamask', 'MetaMask'],
    ['solana', 'Solana'],
  ] as const)('formatWalletTypeName(%j) = %j', (type, expected) => {
    expect(formatWalletTypeName(type)).toBe(expected);
  });
});
