import { ed25519 } from '@noble/curves/ed25519.js';
import { getBase58Decoder } from '@solana/kit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEvmWallet, toChecksumAddress } from '../../../test/helpers/evm-test-wallet';
import {
  decodeBase58,
  isEvmAddress,
  isSolanaPublicKey,
  verifyEvmSignature,
  verifySolanaSignature,
} from './wallet-signature';

const toBase58 = (bytes: Uint8Array) => getBase58Decoder().decode(bytes);

function solanaKeypair() {
  const secretKey = ed25519.utils.randomSecretKey();
  return {
    address: toBase58(ed25519.getPublicKey(secretKey)),
    sign: (message: string) => ed25519.sign(new TextEncoder().encode(message), secretKey),
  };
}

describe('decodeBase58', () => {
  it('round-trips bytes, leading zeros included', () => {
    const bytes = new Uint8Array([0, 0, 1, 2, 255]);

    expect(decodeBase58(toBase58(bytes))).toEqual(bytes);
  });

  it.each(['', '0', 'O', 'I', 'l', 'abc+def', 'abc def', 'é'])('refuses %j', (text) => {
    expect(decodeBase58(text)).toBeUndefined();
  });
});

describe('isSolanaPublicKey', () => {
  it('accepts the base58 of exactly 32 bytes', () => {
    expect(isSolanaPublicKey(solanaKeypair().address)).toBe(true);
    expect(isSolanaPublicKey('11111111111111111111111111111111')).toBe(true);
  });

  it.each([
    ['31 bytes', toBase58(new Uint8Array(31).fill(9))],
    ['33 bytes', toBase58(new Uint8Array(33).fill(9))],
    ['an EVM address', `0x${'ab'.repeat(20)}`],
    ['not base58', 'So1anaAddre55WithZer0AndOhO0000000000000000'],
  ])('refuses %s', (_name, address) => {
    expect(isSolanaPublicKey(address)).toBe(false);
  });
});

describe('isEvmAddress', () => {
  it.each([
    [`0x${'ab'.repeat(20)}`, true],
    [`0x${'AB'.repeat(20)}`, true],
    [`0x${'ab'.repeat(19)}`, false],
    [`${'ab'.repeat(21)}`, false],
    [`0x${'zz'.repeat(20)}`, false],
    [`0x${'ab'.repeat(20)}\n`, false],
  ])('%j → %s', (address, expected) => {
    expect(isEvmAddress(address)).toBe(expected);
  });
});

describe('verifySolanaSignature', () => {
  const message = 'localhost wants you to sign in with your Solana account:\nNonce: 0123456789abcdef';

  it('accepts the signature in base58, base64 and hex', () => {
    const wallet = solanaKeypair();
    const signature = wallet.sign(message);

    for (const encoded of [
      toBase58(signature),
      Buffer.from(signature).toString('base64'),
      Buffer.from(signature).toString('hex'),
    ]) {
      expect(verifySolanaSignature(wallet.address, message, encoded)).toBe(true);
    }
  });

  it('refuses a signature by another key', () => {
    const wallet = solanaKeypair();

    expect(verifySolanaSignature(wallet.address, message, toBase58(solanaKeypair().sign(message)))).toBe(
      false,
    );
  });

  it('refuses a signature of another message', () => {
    const wallet = solanaKeypair();

    expect(verifySolanaSignature(wallet.address, `${message} `, toBase58(wallet.sign(message)))).toBe(false);
  });

  it.each([
    ['empty', ''],
    ['too short', toBase58(new Uint8Array(63).fill(1))],
    ['too long', toBase58(new Uint8Array(65).fill(1))],
    ['not any encoding', '!!!'],
    ['base64 of 48 bytes', Buffer.alloc(48, 1).toString('base64')],
    ['all zero bytes', toBase58(new Uint8Array(64))],
  ])('returns false, never throws, for a malformed signature (%s)', (_name, signature) => {
    expect(verifySolanaSignature(solanaKeypair().address, message, signature)).toBe(false);
  });

  it('refuses a small-order public key, for which one signature would verify against every message', () => {
    // The identity point: R = identity and S = 0 satisfy the cofactored equation for any message.
    const identity = new Uint8Array(32);
    identity[0] = 1;
    const forged = new Uint8Array(64);
    forged[0] = 1;

    expect(verifySolanaSignature(toBase58(identity), message, toBase58(forged))).toBe(false);
    expect(verifySolanaSignature(toBase58(identity), 'another message', toBase58(forged))).toBe(false);
  });

  it('returns false for a malformed address', () => {
    const wallet = solanaKeypair();

    expect(verifySolanaSignature('not-an-address', message, toBase58(wallet.sign(message)))).toBe(false);
  });

  it('holds for any message: the signature verifies, and flipping any bit of it fails', () => {
    const wallet = solanaKeypair();
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), fc.nat({ max: 511 }), (text, bit) => {
        const signature = wallet.sign(text);
        const flipped = signature.slice();
        flipped[bit >> 3]! ^= 1 << (bit & 7);

        expect(verifySolanaSignature(wallet.address, text, toBase58(signature))).toBe(true);
        expect(verifySolanaSignature(wallet.address, text, toBase58(flipped))).toBe(false);
      }),
      { numRuns: 40 },
    );
  });
});

// Signatures recorded from viem's `signMessage` (the reference implementation MetaMask-compatible
// wallets follow) with Hardhat's well-known first account, so the verifier is checked against bytes
// it did not produce itself.
const RECORDED_EVM = {
  address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  signatures: [
    [
      'localhost wants you to sign in with your Ethereum account:\nNonce: 0123456789abcdef',
      '0xba5a53c14051152fb3f6b472c490f239b7eeefc366fb88ebd8c7afa10abdc1bd28bb73a4172bf161d46fd192f39b590b17e93aee79cdbe6f35b93b4e9e1c797b1b',
    ],
    [
      'héllo — ✓',
      '0xff71f221ee6f2240f7a7d403aa44cce4c4650d3425cf8106cc6375c224a399047f7e7689270da945491a3f89d1c9d066eaecca7dc7f30083d347fbbfb1cc3a341c',
    ],
    [
      '',
      '0xc1977b761f1dd36c29795783460d241885c8e7f9d962dbe7bba2753fd94e89b444a1cd9ed855dd09afa3b73f7c2bd097ec9abc2d2775d737505a02d3f0cafa591b',
    ],
  ],
} as const;

describe('verifyEvmSignature', () => {
  const account = createEvmWallet();
  const message = 'localhost wants you to sign in with your Ethereum account:';

  it.each(RECORDED_EVM.signatures)(
    'accepts a recorded personal_sign signature of %j',
    async (text, signature) => {
      expect(await verifyEvmSignature(RECORDED_EVM.address, text, signature)).toBe(true);
      expect(await verifyEvmSignature(RECORDED_EVM.address, `${text}.`, signature)).toBe(false);
    },
  );

  it('accepts v as 0/1 as well as 27/28', async () => {
    const [text, signature] = RECORDED_EVM.signatures[0];
    const v = parseInt(signature.slice(-2), 16);

    const zeroBased = `${signature.slice(0, -2)}${(v - 27).toString(16).padStart(2, '0')}`;

    expect(await verifyEvmSignature(RECORDED_EVM.address, text, zeroBased)).toBe(true);
    expect(await verifyEvmSignature(RECORDED_EVM.address, text, `${signature.slice(0, -2)}1d`)).toBe(false);
  });

  it('derives the EIP-55 address of the recorded key', () => {
    const hardhatKey = Buffer.from('ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80', 'hex');

    expect(createEvmWallet(new Uint8Array(hardhatKey)).address).toBe(RECORDED_EVM.address);
    expect(toChecksumAddress(RECORDED_EVM.address.toLowerCase())).toBe(RECORDED_EVM.address);
  });

  it('accepts an EIP-191 signature by the address, in either case', async () => {
    const signature = await account.sign(message);

    expect(await verifyEvmSignature(account.address, message, signature)).toBe(true);
    expect(await verifyEvmSignature(account.address.toLowerCase(), message, signature)).toBe(true);
  });

  it('refuses a signature by another account or of another message', async () => {
    const other = createEvmWallet();

    expect(await verifyEvmSignature(account.address, message, await other.sign(message))).toBe(false);
    expect(await verifyEvmSignature(account.address, message, await account.sign(`${message}!`))).toBe(false);
  });

  it.each([
    ['empty', ''],
    ['without 0x', 'ab'.repeat(65)],
    ['too short', `0x${'ab'.repeat(64)}`],
    ['not hex', `0x${'zz'.repeat(65)}`],
    ['all zero', `0x${'00'.repeat(65)}`],
    ['r and s of all ones', `0x${'ff'.repeat(64)}1b`],
  ])('returns false, never throws, for a malformed signature (%s)', async (_name, signature) => {
    expect(await verifyEvmSignature(account.address, message, signature)).toBe(false);
  });

  it('returns false for a malformed address', async () => {
    expect(await verifyEvmSignature('0x1234', message, await account.sign(message))).toBe(false);
  });
});
