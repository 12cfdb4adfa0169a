/**
 * Token-2022 mints and token accounts with extensions, written at genesis (the risk demonstration
 * tokens): the base layout, zero padding to 165 bytes, the account-type byte, then TLV entries
 * (u16 type, u16 length, value), as the Token-2022 program lays them out.
 */
import { AccountState, getMintEncoder } from '@solana-program/token';
import { getAddressEncoder, type Address } from '@solana/kit';
import type { RiskTokenSetup } from '@solterm/contracts';
import { TOKEN_ACCOUNT_SIZE } from './token-layout';

const ACCOUNT_TYPE_MINT = 1;
const ACCOUNT_TYPE_ACCOUNT = 2;
const EXTENSION_TRANSFER_FEE_CONFIG = 1;
const EXTENSION_TRANSFER_FEE_AMOUNT = 2;
const EXTENSION_IMMUTABLE_OWNER = 7;
const EXTENSION_PERMANENT_DELEGATE = 12;

function tlv(type: number, value: Uint8Array): Uint8Array {
  const entry = new Uint8Array(4 + value.length);
  const view = new DataView(entry.buffer);
  view.setUint16(0, type, true);
  view.setUint16(2, value.length, true);
  entry.set(value, 4);
  return entry;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

const pubkey = (text: string) => new Uint8Array(getAddressEncoder().encode(text as Address));

/** TransferFeeConfig: both authorities, nothing withheld, the same fee for the older and newer epoch. */
function transferFeeConfig(fee: NonNullable<RiskTokenSetup['transferFee']>): Uint8Array {
  const value = new Uint8Array(108);
  const view = new DataView(value.buffer);
  value.set(pubkey(fee.authority), 0);
  value.set(pubkey(fee.authority), 32);
  view.setBigUint64(64, 0n, true);
  for (const offset of [72, 90]) {
    view.setBigUint64(offset, 0n, true);
    view.setBigUint64(offset + 8, fee.maximumFee, true);
    view.setUint16(offset + 16, fee.basisPoints, true);
  }
  return value;
}

/** Base layout padded to the token-account size, then the account type (Token-2022's extended form). */
function extended(base: Uint8Array, accountType: number, extensions: readonly Uint8Array[]): Uint8Array {
  const head = new Uint8Array(TOKEN_ACCOUNT_SIZE + 1);
  head.set(base, 0);
  head[TOKEN_ACCOUNT_SIZE] = accountType;
  return concat([head, ...extensions]);
}

/** A Token-2022 mint with the setup's extensions. */
export function encodeToken2022Mint(
  fields: {
    mintAuthority: Address | null;
    freezeAuthority: Address | null;
    supply: bigint;
    decimals: number;
  },
  setup: RiskTokenSetup,
): Uint8Array {
  const base = new Uint8Array(getMintEncoder().encode({ ...fields, isInitialized: true }));
  const extensions: Uint8Array[] = [];
  if (setup.transferFee)
    extensions.push(tlv(EXTENSION_TRANSFER_FEE_CONFIG, transferFeeConfig(setup.transferFee)));
  if (setup.permanentDelegate)
    extensions.push(tlv(EXTENSION_PERMANENT_DELEGATE, pubkey(setup.permanentDelegate)));
  return extended(base, ACCOUNT_TYPE_MINT, extensions);
}

/**
 * A Token-2022 associated token account (the classic 165-byte layout in `base`): immutable owner, as
 * the associated token program creates it, and a withheld-fee amount when the mint charges a fee.
 */
export function encodeToken2022Account(base: Uint8Array, setup: RiskTokenSetup): Uint8Array {
  if (base[108] !== AccountState.Initialized) throw new Error('a genesis token account is initialised');
  const extensions = [tlv(EXTENSION_IMMUTABLE_OWNER, new Uint8Array(0))];
  if (setup.transferFee) extensions.push(tlv(EXTENSION_TRANSFER_FEE_AMOUNT, new Uint8Array(8)));
  return extended(base, ACCOUNT_TYPE_ACCOUNT, extensions);
}
