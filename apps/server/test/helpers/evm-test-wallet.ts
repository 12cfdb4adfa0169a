import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { evmAddressOf, personalSignDigest } from '../../src/modules/auth/wallet-signature';

export interface EvmTestWallet {
  /** EIP-55 mixed-case, as MetaMask shows it. */
  address: `0x${string}`;
  sign(message: string): Promise<string>;
}

/** EIP-55: upper-case each hex letter whose nibble in keccak256(lower-case address) is 8 or more. */
export function toChecksumAddress(address: string): `0x${string}` {
  const lower = address.slice(2).toLowerCase();
  const hash = Buffer.from(keccak_256(new TextEncoder().encode(lower))).toString('hex');
  const mixed = [...lower].map((char, i) => (parseInt(hash[i]!, 16) >= 8 ? char.toUpperCase() : char));
  return `0x${mixed.join('')}`;
}

/** A MetaMask-like signer: EIP-191 personal_sign, r ‖ s ‖ v with v = 27 + recovery bit. */
export function createEvmWallet(secretKey = secp256k1.utils.randomSecretKey()): EvmTestWallet {
  const address = toChecksumAddress(evmAddressOf(secp256k1.getPublicKey(secretKey)));
  return {
    address,
    sign: async (message) => {
      const recovered = secp256k1.sign(personalSignDigest(message), secretKey, {
        prehash: false,
        format: 'recovered',
      });
      const signature = new Uint8Array(65);
      signature.set(recovered.subarray(1), 0);
      signature[64] = 27 + recovered[0]!;
      return `0x${Buffer.from(signature).toString('hex')}`;
    },
  };
}
