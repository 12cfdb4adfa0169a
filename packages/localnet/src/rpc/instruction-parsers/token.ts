/**
 * `jsonParsed` SPL Token instructions, as Agave's `transaction-status/src/parse_token.rs`, which
 * decodes both Token and Token-2022 with the Token-2022 instruction layout: a u8 tag, then packed
 * fields (u64 LE amounts, 32-byte keys, COption = u8 flag + value; trailing bytes ignored).
 *
 * Parsed: the base set (tags 0–24), InitializeMintCloseAuthority (25), WithdrawExcessLamports (38),
 * UnwrapLamports (45) and Batch (255) of p-token. Token-2022 extension instructions (26–37, 39–44,
 * 46, and the token-group / token-metadata interfaces) are not parsed here: the caller decodes them
 * partially, where Agave would parse them.
 */
import { toUiTokenAmount, type UiTokenAmount } from '../../token-layout';
import {
  ByteReader,
  namedAccounts,
  decodeUtf8,
  notParsable,
  parsedAs,
  requireAccounts,
  type ParsedInstructionEnum,
} from './decoding';

type Accounts = readonly string[];
type Info = Record<string, unknown>;
type TagParser = (reader: ByteReader, accounts: Accounts) => ParsedInstructionEnum;

const BATCH_TAG = 255;
/** `10_usize.checked_pow(decimals)` overflows past 10^19 on 64-bit, and Agave then writes no uiAmount. */
const MAX_UI_AMOUNT_DECIMALS = 19;

/** Agave's `UiAuthorityType` (camelCase) by the `AuthorityType` byte. */
const AUTHORITY_TYPES = [
  'mintTokens',
  'freezeAccount',
  'accountOwner',
  'closeAccount',
  'transferFeeConfig',
  'withheldWithdraw',
  'closeMint',
  'interestRate',
  'permanentDelegate',
  'confidentialTransferMint',
  'transferHookProgramId',
  'confidentialTransferFeeConfig',
  'metadataPointer',
  'groupPointer',
  'groupMemberPointer',
  'scaledUiAmount',
  'pause',
  'permissionedBurn',
] as const;

/** Authority types set on a token account; every other one is set on the mint. */
const ACCOUNT_AUTHORITY_TYPES: ReadonlySet<string> = new Set(['accountOwner', 'closeAccount']);

/** Agave's `UiExtensionType` (camelCase) by the Token-2022 `ExtensionType` u16. */
const EXTENSION_TYPES = [
  'uninitialized',
  'transferFeeConfig',
  'transferFeeAmount',
  'mintCloseAuthority',
  'confidentialTransferMint',
  'confidentialTransferAccount',
  'defaultAccountState',
  'immutableOwner',
  'memoTransfer',
  'nonTransferable',
  'interestBearingConfig',
  'cpiGuard',
  'permanentDelegate',
  'nonTransferableAccount',
  'transferHook',
  'transferHookAccount',
  'confidentialTransferFeeConfig',
  'confidentialTransferFeeAmount',
  'metadataPointer',
  'tokenMetadata',
  'groupPointer',
  'tokenGroup',
  'groupMemberPointer',
  'tokenGroupMember',
  'confidentialMintBurn',
  'scaledUiAmount',
  'pausable',
  'pausableAccount',
  'permissionedBurn',
] as const;

type UiTokenAmountOrNull = Omit<UiTokenAmount, 'uiAmount'> & {
  readonly uiAmount: UiTokenAmount['uiAmount'] | null;
};

/** Agave's `token_amount_to_ui_amount_v3` for a mint without interest or scaling. */
function tokenAmount(amount: bigint, decimals: number): UiTokenAmountOrNull {
  const uiTokenAmount = toUiTokenAmount(amount, decimals);
  return decimals <= MAX_UI_AMOUNT_DECIMALS ? uiTokenAmount : { ...uiTokenAmount, uiAmount: null };
}

/** A `COption<Pubkey>`: flag 0 is none, 1 a key; any other flag makes the data invalid. */
function optionalPubkey(reader: ByteReader): string | null {
  const flag = reader.u8();
  if (flag === 0) return null;
  return flag === 1 ? reader.pubkey() : notParsable('invalid COption flag');
}

/** A `COption<u64>`, like {@link optionalPubkey}. */
function optionalU64(reader: ByteReader): bigint | null {
  const flag = reader.u8();
  if (flag === 0) return null;
  return flag === 1 ? reader.u64() : notParsable('invalid COption flag');
}

/**
 * Agave's `parse_signers`: the authority at `authorityIndex`, named `single` when it signs alone,
 * or `multisig` with the `signers` that follow it.
 */
function signers(accounts: Accounts, authorityIndex: number, single: string, multisig: string): Info {
  const authority = accounts[authorityIndex];
  if (authority === undefined) return {};
  if (accounts.length > authorityIndex + 1) {
    return { [multisig]: authority, signers: accounts.slice(authorityIndex + 1) };
  }
  return { [single]: authority };
}

/** Instructions whose data is one u64 amount, written as a string, and then signers. */
function amountParser(type: string, names: readonly string[], single: string, multisig: string): TagParser {
  return (reader, accounts) => {
    const amount = reader.u64().toString();
    const info = {
      ...namedAccounts(accounts, names, names.length + 1),
      amount,
      ...signers(accounts, names.length, single, multisig),
    };
    return parsedAs(type, info);
  };
}

/** The *Checked instructions: u64 amount and u8 decimals, written as a `tokenAmount`. */
function checkedParser(type: string, names: readonly string[], single: string, multisig: string): TagParser {
  return (reader, accounts) => {
    const amount = reader.u64();
    const decimals = reader.u8();
    const info = {
      ...namedAccounts(accounts, names, names.length + 1),
      tokenAmount: tokenAmount(amount, decimals),
      ...signers(accounts, names.length, single, multisig),
    };
    return parsedAs(type, info);
  };
}

/** Instructions without data beyond the tag, whose accounts end with an authority and signers. */
function authorityParser(
  type: string,
  names: readonly string[],
  single: string,
  multisig: string,
): TagParser {
  return (_reader, accounts) =>
    parsedAs(type, {
      ...namedAccounts(accounts, names, names.length + 1),
      ...signers(accounts, names.length, single, multisig),
    });
}

/** Instructions without data beyond the tag that only name their accounts. */
function accountsParser(type: string, names: readonly string[]): TagParser {
  return (_reader, accounts) => parsedAs(type, namedAccounts(accounts, names));
}

function initializeMintParser(type: string, names: readonly string[]): TagParser {
  return (reader, accounts) => {
    const decimals = reader.u8();
    const mintAuthority = reader.pubkey();
    const freezeAuthority = optionalPubkey(reader);
    const info: Info = { ...namedAccounts(accounts, names), decimals, mintAuthority };
    if (freezeAuthority !== null) info.freezeAuthority = freezeAuthority;
    return parsedAs(type, info);
  };
}

function initializeAccountWithOwner(type: string, names: readonly string[]): TagParser {
  return (reader, accounts) => {
    const owner = reader.pubkey();
    return parsedAs(type, { ...namedAccounts(accounts, names), owner });
  };
}

/** InitializeMultisig/2: every account after the named ones is a signer. */
function initializeMultisigParser(type: string, names: readonly string[]): TagParser {
  return (reader, accounts) => {
    const m = reader.u8();
    requireAccounts(accounts, names.length + 1);
    return parsedAs(type, { ...namedAccounts(accounts, names), m, signers: accounts.slice(names.length) });
  };
}

function setAuthority(reader: ByteReader, accounts: Accounts): ParsedInstructionEnum {
  const authorityType = AUTHORITY_TYPES[reader.u8()] ?? notParsable('unknown authority type');
  const newAuthority = optionalPubkey(reader);
  const owned = ACCOUNT_AUTHORITY_TYPES.has(authorityType) ? 'account' : 'mint';
  const info = {
    ...namedAccounts(accounts, [owned], 2),
    authorityType,
    newAuthority,
    ...signers(accounts, 1, 'authority', 'multisigAuthority'),
  };
  return parsedAs('setAuthority', info);
}

/** GetAccountDataSize: the rest of the data is u16 LE extension types, listed only when present. */
function getAccountDataSize(reader: ByteReader, accounts: Accounts): ParsedInstructionEnum {
  const extensionTypes: string[] = [];
  while (reader.remaining > 0) {
    extensionTypes.push(EXTENSION_TYPES[reader.u16()] ?? notParsable('unknown extension type'));
  }
  const info: Info = namedAccounts(accounts, ['mint']);
  if (extensionTypes.length > 0) info.extensionTypes = extensionTypes;
  return parsedAs('getAccountDataSize', info);
}

function amountToUiAmount(reader: ByteReader, accounts: Accounts): ParsedInstructionEnum {
  const amount = reader.u64().toString();
  return parsedAs('amountToUiAmount', { ...namedAccounts(accounts, ['mint']), amount });
}

/** UiAmountToAmount: the rest of the data is the amount as UTF-8 text, written as given. */
function uiAmountToAmount(reader: ByteReader, accounts: Accounts): ParsedInstructionEnum {
  const uiAmount = decodeUtf8(reader.rest()) ?? notParsable('ui amount is not UTF-8');
  return parsedAs('uiAmountToAmount', { ...namedAccounts(accounts, ['mint']), uiAmount });
}

function initializeMintCloseAuthority(reader: ByteReader, accounts: Accounts): ParsedInstructionEnum {
  const newAuthority = optionalPubkey(reader);
  return parsedAs('initializeMintCloseAuthority', { ...namedAccounts(accounts, ['mint']), newAuthority });
}

/** UnwrapLamports: the amount is written only when given (otherwise the whole balance moves). */
function unwrapLamports(reader: ByteReader, accounts: Accounts): ParsedInstructionEnum {
  const amount = optionalU64(reader);
  const info: Info = {
    ...namedAccounts(accounts, ['source', 'destination'], 3),
    ...signers(accounts, 2, 'authority', 'multisigAuthority'),
  };
  if (amount !== null) info.amount = amount.toString();
  return parsedAs('unwrapLamports', info);
}

/**
 * Batch: per inner instruction a u8 account count and a u8 data length, then the data; the outer
 * accounts are the inner ones concatenated. Every inner instruction must parse; none may be a batch.
 */
function batch(reader: ByteReader, accounts: Accounts): ParsedInstructionEnum {
  const instructions: ParsedInstructionEnum[] = [];
  let accountCursor = 0;
  while (reader.remaining > 0) {
    const accountCount = reader.u8();
    const innerData = reader.take(reader.u8());
    const innerAccounts = accounts.slice(accountCursor, accountCursor + accountCount);
    if (innerAccounts.length < accountCount) notParsable('batch accounts past the end');
    accountCursor += accountCount;
    if (innerData[0] === BATCH_TAG) notParsable('nested batch');
    instructions.push(parseTokenInstruction(innerAccounts, innerData));
  }
  return parsedAs('batch', { instructions });
}

/** Parsers by instruction tag. */
const TAGS = new Map<number, TagParser>([
  [0, initializeMintParser('initializeMint', ['mint', 'rentSysvar'])],
  [1, accountsParser('initializeAccount', ['account', 'mint', 'owner', 'rentSysvar'])],
  [2, initializeMultisigParser('initializeMultisig', ['multisig', 'rentSysvar'])],
  [3, amountParser('transfer', ['source', 'destination'], 'authority', 'multisigAuthority')],
  [4, amountParser('approve', ['source', 'delegate'], 'owner', 'multisigOwner')],
  [5, authorityParser('revoke', ['source'], 'owner', 'multisigOwner')],
  [6, setAuthority],
  [7, amountParser('mintTo', ['mint', 'account'], 'mintAuthority', 'multisigMintAuthority')],
  [8, amountParser('burn', ['account', 'mint'], 'authority', 'multisigAuthority')],
  [9, authorityParser('closeAccount', ['account', 'destination'], 'owner', 'multisigOwner')],
  [10, authorityParser('freezeAccount', ['account', 'mint'], 'freezeAuthority', 'multisigFreezeAuthority')],
  [11, authorityParser('thawAccount', ['account', 'mint'], 'freezeAuthority', 'multisigFreezeAuthority')],
  [12, checkedParser('transferChecked', ['source', 'mint', 'destination'], 'authority', 'multisigAuthority')],
  [13, checkedParser('approveChecked', ['source', 'mint', 'delegate'], 'owner', 'multisigOwner')],
  [14, checkedParser('mintToChecked', ['mint', 'account'], 'mintAuthority', 'multisigMintAuthority')],
  [15, checkedParser('burnChecked', ['account', 'mint'], 'authority', 'multisigAuthority')],
  [16, initializeAccountWithOwner('initializeAccount2', ['account', 'mint', 'rentSysvar'])],
  [17, accountsParser('syncNative', ['account'])],
  [18, initializeAccountWithOwner('initializeAccount3', ['account', 'mint'])],
  [19, initializeMultisigParser('initializeMultisig2', ['multisig'])],
  [20, initializeMintParser('initializeMint2', ['mint'])],
  [21, getAccountDataSize],
  [22, accountsParser('initializeImmutableOwner', ['account'])],
  [23, amountToUiAmount],
  [24, uiAmountToAmount],
  [25, initializeMintCloseAuthority],
  [
    38,
    authorityParser('withdrawExcessLamports', ['source', 'destination'], 'authority', 'multisigAuthority'),
  ],
  [45, unwrapLamports],
  [BATCH_TAG, batch],
]);

/** Parses a Token or Token-2022 instruction; throws NotParsableError when it is not parsed here. */
export function parseTokenInstruction(accounts: Accounts, data: Uint8Array): ParsedInstructionEnum {
  // Agave first checks the instruction names at least one account (its `accounts.iter().max()`).
  requireAccounts(accounts, 1);
  const reader = new ByteReader(data);
  const parser = TAGS.get(reader.u8()) ?? notParsable('token instruction not parsed');
  return parser(reader, accounts);
}
