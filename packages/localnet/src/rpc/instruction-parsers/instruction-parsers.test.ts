/**
 * The `jsonParsed` instruction parsers against the expectations of Agave's own unit tests
 * (`transaction-status/src/parse_*.rs`), with instructions built by the real client libraries.
 */
import {
  getAllocateInstruction,
  getCreateAccountAllowPrefundInstruction,
  getCreateAccountInstruction,
  getTransferSolInstruction,
  getUpgradeNonceAccountInstruction,
} from '@solana-program/system';
import {
  AuthorityType as KitAuthorityType,
  getApproveInstruction,
  getBatchInstruction,
  getBurnInstruction,
  getCloseAccountInstruction,
  getInitializeAccountInstruction,
  getInitializeMintInstruction,
  getRevokeInstruction,
  getSetAuthorityInstruction,
  getTransferCheckedInstruction,
  getTransferInstruction,
  getUnwrapLamportsInstruction,
} from '@solana-program/token';
import { address, createNoopSigner, type Address } from '@solana/kit';
import {
  AuthorityType,
  createAmountToUiAmountInstruction,
  createAssociatedTokenAccountIdempotentInstruction,
  createAssociatedTokenAccountInstruction,
  createBurnInstruction,
  createInitializeAccount3Instruction,
  createInitializeMint2Instruction,
  createInitializeMintCloseAuthorityInstruction,
  createInitializeMultisigInstruction,
  createInitializeTransferFeeConfigInstruction,
  createMintToCheckedInstruction,
  createRecoverNestedInstruction,
  createSetAuthorityInstruction,
  createTransferCheckedInstruction,
  createUiAmountToAmountInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import {
  AddressLookupTableProgram,
  PublicKey,
  SystemProgram,
  TransactionInstruction,
  type Transaction,
} from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { encodeBase58 } from '../../base58';
import {
  ADDRESS_LOOKUP_TABLE_PROGRAM_ID,
  ASSOCIATED_TOKEN_PROGRAM_ID,
  COMPUTE_BUDGET_PROGRAM_ID,
  MEMO_PROGRAM_ID,
  MEMO_V1_PROGRAM_ID,
  SYSTEM_PROGRAM_ID,
} from '../../program-ids';
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '../../token-layout';
import { JsonFloat, stringifyJson } from '../json';
import { parseInstruction } from './index';

const RENT_SYSVAR = 'SysvarRent111111111111111111111111111111111';
const RECENT_BLOCKHASHES_SYSVAR = 'SysvarRecentB1ockHashes11111111111111111111';

function uniqueKey(): PublicKey {
  return PublicKey.unique();
}

function kitAddress(key: PublicKey): Address {
  return address(key.toBase58());
}

interface KitInstruction {
  readonly programAddress: Address;
  readonly accounts?: readonly { readonly address: Address }[];
  readonly data?: ArrayLike<number>;
}

function parseKit(instruction: KitInstruction, stackHeight: number | null = null) {
  const accounts = (instruction.accounts ?? []).map((meta) => meta.address);
  return parseInstruction(
    instruction.programAddress,
    accounts,
    Uint8Array.from(instruction.data ?? []),
    stackHeight,
  );
}

function parseWeb3(instruction: TransactionInstruction, stackHeight: number | null = null) {
  const accounts = instruction.keys.map((meta) => meta.pubkey.toBase58());
  return parseInstruction(
    instruction.programId.toBase58(),
    accounts,
    new Uint8Array(instruction.data),
    stackHeight,
  );
}

/** The same instruction with its last `count` accounts removed. */
function withoutLastAccounts(instruction: TransactionInstruction, count = 1): TransactionInstruction {
  return new TransactionInstruction({
    programId: instruction.programId,
    keys: instruction.keys.slice(0, instruction.keys.length - count),
    data: instruction.data,
  });
}

function expectPartiallyDecoded(instruction: TransactionInstruction): void {
  expect(parseWeb3(instruction)).toEqual({
    accounts: instruction.keys.map((meta) => meta.pubkey.toBase58()),
    data: encodeBase58(new Uint8Array(instruction.data)),
    programId: instruction.programId.toBase58(),
    stackHeight: null,
  });
}

function expected(program: string, programId: string, type: string, info: Record<string, unknown>) {
  return { parsed: { info, type }, program, programId, stackHeight: null };
}

function uiAmount(amount: string, decimals: number, ui: number, uiString: string) {
  return { amount, decimals, uiAmount: new JsonFloat(ui), uiAmountString: uiString };
}

describe('parseInstruction: system', () => {
  const system = (type: string, info: Record<string, unknown>) =>
    expected('system', SYSTEM_PROGRAM_ID, type, info);

  it('parses createAccount, with u64 fields as bigint (test_parse_system_create_account_ix)', () => {
    const [from, to, owner] = [uniqueKey(), uniqueKey(), uniqueKey()];
    const instruction = getCreateAccountInstruction({
      payer: createNoopSigner(kitAddress(from)),
      newAccount: createNoopSigner(kitAddress(to)),
      lamports: 55,
      space: 128,
      programAddress: kitAddress(owner),
    });
    expect(parseKit(instruction)).toEqual(
      system('createAccount', {
        lamports: 55n,
        newAccount: to.toBase58(),
        owner: owner.toBase58(),
        source: from.toBase58(),
        space: 128n,
      }),
    );
    const legacy = SystemProgram.createAccount({
      fromPubkey: from,
      newAccountPubkey: to,
      lamports: 55,
      space: 128,
      programId: owner,
    });
    expect(parseWeb3(legacy)).toEqual(parseKit(instruction));
    expectPartiallyDecoded(withoutLastAccounts(legacy));
  });

  it('parses transfer and writes Agave’s JSON, keys sorted (test_parse_system_transfer_ix)', () => {
    const [from, to] = [uniqueKey(), uniqueKey()];
    const instruction = getTransferSolInstruction({
      source: createNoopSigner(kitAddress(from)),
      destination: kitAddress(to),
      amount: 55,
    });
    const result = parseKit(instruction);
    expect(result).toEqual(
      system('transfer', { destination: to.toBase58(), lamports: 55n, source: from.toBase58() }),
    );
    expect(stringifyJson(result)).toBe(
      `{"parsed":{"info":{"destination":"${to.toBase58()}","lamports":55,"source":"${from.toBase58()}"},` +
        `"type":"transfer"},"program":"system","programId":"${SYSTEM_PROGRAM_ID}","stackHeight":null}`,
    );
    expectPartiallyDecoded(
      withoutLastAccounts(SystemProgram.transfer({ fromPubkey: from, toPubkey: to, lamports: 55 })),
    );
  });

  it('writes u64 lamports beyond 2^53 exactly', () => {
    const [from, to] = [uniqueKey(), uniqueKey()];
    const result = parseWeb3(
      SystemProgram.transfer({ fromPubkey: from, toPubkey: to, lamports: 18446744073709551615n }),
    );
    expect(stringifyJson(result)).toContain('"lamports":18446744073709551615,');
  });

  it('parses assign (test_parse_system_assign_ix)', () => {
    const [account, owner] = [uniqueKey(), uniqueKey()];
    const instruction = SystemProgram.assign({ accountPubkey: account, programId: owner });
    expect(parseWeb3(instruction)).toEqual(
      system('assign', { account: account.toBase58(), owner: owner.toBase58() }),
    );
    expectPartiallyDecoded(withoutLastAccounts(instruction));
  });

  it('parses createAccountWithSeed (test_parse_system_create_account_with_seed_ix)', () => {
    const [from, to, base, owner] = [uniqueKey(), uniqueKey(), uniqueKey(), uniqueKey()];
    const instruction = SystemProgram.createAccountWithSeed({
      fromPubkey: from,
      newAccountPubkey: to,
      basePubkey: base,
      seed: 'test_seed',
      lamports: 55,
      space: 128,
      programId: owner,
    });
    expect(parseWeb3(instruction)).toEqual(
      system('createAccountWithSeed', {
        base: base.toBase58(),
        lamports: 55n,
        newAccount: to.toBase58(),
        owner: owner.toBase58(),
        seed: 'test_seed',
        source: from.toBase58(),
        space: 128n,
      }),
    );
    expectPartiallyDecoded(withoutLastAccounts(instruction, 2));
  });

  it('parses allocate, allocateWithSeed and assignWithSeed', () => {
    const [account, base, owner] = [uniqueKey(), uniqueKey(), uniqueKey()];
    expect(
      parseKit(getAllocateInstruction({ newAccount: createNoopSigner(kitAddress(account)), space: 128 })),
    ).toEqual(system('allocate', { account: account.toBase58(), space: 128n }));
    const allocateWithSeed = SystemProgram.allocate({
      accountPubkey: account,
      basePubkey: base,
      seed: 'test_seed',
      space: 128,
      programId: owner,
    });
    expect(parseWeb3(allocateWithSeed)).toEqual(
      system('allocateWithSeed', {
        account: account.toBase58(),
        base: base.toBase58(),
        owner: owner.toBase58(),
        seed: 'test_seed',
        space: 128n,
      }),
    );
    expectPartiallyDecoded(withoutLastAccounts(allocateWithSeed));
    const assignWithSeed = SystemProgram.assign({
      accountPubkey: account,
      basePubkey: base,
      seed: 'test_seed',
      programId: owner,
    });
    expect(parseWeb3(assignWithSeed)).toEqual(
      system('assignWithSeed', {
        account: account.toBase58(),
        base: base.toBase58(),
        owner: owner.toBase58(),
        seed: 'test_seed',
      }),
    );
  });

  it('parses transferWithSeed (test_parse_system_transfer_with_seed_ix)', () => {
    const [from, base, owner, to] = [uniqueKey(), uniqueKey(), uniqueKey(), uniqueKey()];
    const instruction = SystemProgram.transfer({
      fromPubkey: from,
      basePubkey: base,
      toPubkey: to,
      lamports: 55,
      seed: 'test_seed',
      programId: owner,
    });
    expect(parseWeb3(instruction)).toEqual(
      system('transferWithSeed', {
        destination: to.toBase58(),
        lamports: 55n,
        source: from.toBase58(),
        sourceBase: base.toBase58(),
        sourceOwner: owner.toBase58(),
        sourceSeed: 'test_seed',
      }),
    );
    expectPartiallyDecoded(withoutLastAccounts(instruction));
  });

  it('parses the nonce instructions (test_parse_system_*_nonce_*_ix)', () => {
    const [from, nonce, authority, to, newAuthority] = [
      uniqueKey(),
      uniqueKey(),
      uniqueKey(),
      uniqueKey(),
      uniqueKey(),
    ];
    const advance = SystemProgram.nonceAdvance({ noncePubkey: nonce, authorizedPubkey: authority });
    expect(parseWeb3(advance)).toEqual(
      system('advanceNonce', {
        nonceAccount: nonce.toBase58(),
        nonceAuthority: authority.toBase58(),
        recentBlockhashesSysvar: RECENT_BLOCKHASHES_SYSVAR,
      }),
    );
    expectPartiallyDecoded(withoutLastAccounts(advance));
    const withdraw = SystemProgram.nonceWithdraw({
      noncePubkey: nonce,
      authorizedPubkey: authority,
      toPubkey: to,
      lamports: 55,
    });
    expect(parseWeb3(withdraw)).toEqual(
      system('withdrawFromNonce', {
        destination: to.toBase58(),
        lamports: 55n,
        nonceAccount: nonce.toBase58(),
        nonceAuthority: authority.toBase58(),
        recentBlockhashesSysvar: RECENT_BLOCKHASHES_SYSVAR,
        rentSysvar: RENT_SYSVAR,
      }),
    );
    expectPartiallyDecoded(withoutLastAccounts(withdraw));
    const create: Transaction = SystemProgram.createNonceAccount({
      fromPubkey: from,
      noncePubkey: nonce,
      authorizedPubkey: authority,
      lamports: 55,
    });
    expect(parseWeb3(create.instructions[1]!)).toEqual(
      system('initializeNonce', {
        nonceAccount: nonce.toBase58(),
        nonceAuthority: authority.toBase58(),
        recentBlockhashesSysvar: RECENT_BLOCKHASHES_SYSVAR,
        rentSysvar: RENT_SYSVAR,
      }),
    );
    const authorize = SystemProgram.nonceAuthorize({
      noncePubkey: nonce,
      authorizedPubkey: authority,
      newAuthorizedPubkey: newAuthority,
    });
    expect(parseWeb3(authorize)).toEqual(
      system('authorizeNonce', {
        newAuthorized: newAuthority.toBase58(),
        nonceAccount: nonce.toBase58(),
        nonceAuthority: authority.toBase58(),
      }),
    );
    expect(parseKit(getUpgradeNonceAccountInstruction({ nonceAccount: kitAddress(nonce) }))).toEqual(
      system('upgradeNonce', { nonceAccount: nonce.toBase58() }),
    );
  });

  it('parses createAccountAllowPrefund with and without a payer', () => {
    const [to, from, owner] = [uniqueKey(), uniqueKey(), uniqueKey()];
    const withPayer = getCreateAccountAllowPrefundInstruction({
      newAccount: createNoopSigner(kitAddress(to)),
      payer: createNoopSigner(kitAddress(from)),
      lamports: 55,
      space: 128,
      programAddress: kitAddress(owner),
    });
    expect(parseKit(withPayer)).toEqual(
      system('createAccountAllowPrefund', {
        lamports: 55n,
        newAccount: to.toBase58(),
        owner: owner.toBase58(),
        source: from.toBase58(),
        space: 128n,
      }),
    );
    const data = Uint8Array.from(withPayer.data);
    data.fill(0, 4, 12); // lamports = 0: no payer, only the new account is named
    expect(parseInstruction(SYSTEM_PROGRAM_ID, [to.toBase58()], data, null)).toEqual(
      system('createAccountAllowPrefund', {
        newAccount: to.toBase58(),
        owner: owner.toBase58(),
        space: 128n,
      }),
    );
  });

  it('decodes partially: no accounts, truncated data, unknown variant, seed not UTF-8', () => {
    const [from, to] = [uniqueKey(), uniqueKey()];
    const transfer = SystemProgram.transfer({ fromPubkey: from, toPubkey: to, lamports: 55 });
    expectPartiallyDecoded(withoutLastAccounts(transfer, 2));
    expectPartiallyDecoded(new TransactionInstruction({ ...transfer, data: transfer.data.subarray(0, 11) }));
    const unknown = Buffer.from([14, 0, 0, 0]);
    expectPartiallyDecoded(new TransactionInstruction({ ...transfer, data: unknown }));
    const seeded = SystemProgram.assign({ accountPubkey: from, basePubkey: to, seed: 'ab', programId: to });
    const badSeed = Buffer.from(seeded.data);
    badSeed[4 + 32 + 8] = 0xff;
    expectPartiallyDecoded(new TransactionInstruction({ ...seeded, data: badSeed }));
  });
});

describe('parseInstruction: spl-token', () => {
  // Agave maps both token programs to its one `SplToken` program: Token-2022 instructions are "spl-token" too.
  describe.each([
    ['Token', TOKEN_PROGRAM_ID],
    ['Token-2022', TOKEN_2022_PROGRAM_ID],
  ])('%s (test_parse_token)', (_name, programId) => {
    const programKey = new PublicKey(programId);
    const token = (type: string, info: Record<string, unknown>) =>
      expected('spl-token', programId, type, info);
    const [mint, mintAuthority, freezeAuthority] = [uniqueKey(), uniqueKey(), uniqueKey()];
    const [account, owner, recipient] = [uniqueKey(), uniqueKey(), uniqueKey()];
    const [multisig, signer0, signer1, signer2] = [uniqueKey(), uniqueKey(), uniqueKey(), uniqueKey()];

    it('parses initializeMint with and without a freeze authority, and initializeMint2', () => {
      const withFreeze = getInitializeMintInstruction(
        {
          mint: kitAddress(mint),
          decimals: 2,
          mintAuthority: kitAddress(mintAuthority),
          freezeAuthority: kitAddress(freezeAuthority),
        },
        { programAddress: address(programId) },
      );
      expect(parseKit(withFreeze)).toEqual(
        token('initializeMint', {
          decimals: 2,
          freezeAuthority: freezeAuthority.toBase58(),
          mint: mint.toBase58(),
          mintAuthority: mintAuthority.toBase58(),
          rentSysvar: RENT_SYSVAR,
        }),
      );
      const withoutFreeze = getInitializeMintInstruction(
        { mint: kitAddress(mint), decimals: 2, mintAuthority: kitAddress(mintAuthority) },
        { programAddress: address(programId) },
      );
      expect(parseKit(withoutFreeze)).toEqual(
        token('initializeMint', {
          decimals: 2,
          mint: mint.toBase58(),
          mintAuthority: mintAuthority.toBase58(),
          rentSysvar: RENT_SYSVAR,
        }),
      );
      const mint2 = createInitializeMint2Instruction(mint, 2, mintAuthority, freezeAuthority, programKey);
      expect(parseWeb3(mint2)).toEqual(
        token('initializeMint2', {
          decimals: 2,
          freezeAuthority: freezeAuthority.toBase58(),
          mint: mint.toBase58(),
          mintAuthority: mintAuthority.toBase58(),
        }),
      );
      expectPartiallyDecoded(withoutLastAccounts(mint2));
    });

    it('parses initializeAccount, initializeAccount3 and initializeMultisig', () => {
      const initialize = getInitializeAccountInstruction(
        { account: kitAddress(account), mint: kitAddress(mint), owner: kitAddress(owner) },
        { programAddress: address(programId) },
      );
      expect(parseKit(initialize)).toEqual(
        token('initializeAccount', {
          account: account.toBase58(),
          mint: mint.toBase58(),
          owner: owner.toBase58(),
          rentSysvar: RENT_SYSVAR,
        }),
      );
      expect(parseWeb3(createInitializeAccount3Instruction(account, mint, owner, programKey))).toEqual(
        token('initializeAccount3', {
          account: account.toBase58(),
          mint: mint.toBase58(),
          owner: owner.toBase58(),
        }),
      );
      const initializeMultisig = createInitializeMultisigInstruction(
        multisig,
        [signer0, signer1, signer2],
        2,
        programKey,
      );
      expect(parseWeb3(initializeMultisig)).toEqual(
        token('initializeMultisig', {
          m: 2,
          multisig: multisig.toBase58(),
          rentSysvar: RENT_SYSVAR,
          signers: [signer0.toBase58(), signer1.toBase58(), signer2.toBase58()],
        }),
      );
    });

    it('parses transfer and approve, with a single and a multisig authority', () => {
      const transfer = getTransferInstruction(
        {
          source: kitAddress(account),
          destination: kitAddress(recipient),
          authority: kitAddress(owner),
          amount: 42,
        },
        { programAddress: address(programId) },
      );
      expect(parseKit(transfer)).toEqual(
        token('transfer', {
          amount: '42',
          authority: owner.toBase58(),
          destination: recipient.toBase58(),
          source: account.toBase58(),
        }),
      );
      const multisigTransfer = getTransferInstruction(
        {
          source: kitAddress(account),
          destination: kitAddress(recipient),
          authority: kitAddress(multisig),
          amount: 42,
          multiSigners: [createNoopSigner(kitAddress(signer0)), createNoopSigner(kitAddress(signer1))],
        },
        { programAddress: address(programId) },
      );
      expect(parseKit(multisigTransfer)).toEqual(
        token('transfer', {
          amount: '42',
          destination: recipient.toBase58(),
          multisigAuthority: multisig.toBase58(),
          signers: [signer0.toBase58(), signer1.toBase58()],
          source: account.toBase58(),
        }),
      );
      const approve = getApproveInstruction(
        {
          source: kitAddress(account),
          delegate: kitAddress(recipient),
          owner: kitAddress(multisig),
          amount: 42,
          multiSigners: [createNoopSigner(kitAddress(signer0)), createNoopSigner(kitAddress(signer1))],
        },
        { programAddress: address(programId) },
      );
      expect(parseKit(approve)).toEqual(
        token('approve', {
          amount: '42',
          delegate: recipient.toBase58(),
          multisigOwner: multisig.toBase58(),
          signers: [signer0.toBase58(), signer1.toBase58()],
          source: account.toBase58(),
        }),
      );
      const revoke = getRevokeInstruction(
        { source: kitAddress(account), owner: kitAddress(owner) },
        { programAddress: address(programId) },
      );
      expect(parseKit(revoke)).toEqual(
        token('revoke', { owner: owner.toBase58(), source: account.toBase58() }),
      );
    });

    it('parses setAuthority on a mint and on an account (null new authority)', () => {
      const [newFreezeAuthority] = [uniqueKey()];
      const onMint = createSetAuthorityInstruction(
        mint,
        freezeAuthority,
        AuthorityType.FreezeAccount,
        newFreezeAuthority,
        [],
        programKey,
      );
      expect(parseWeb3(onMint)).toEqual(
        token('setAuthority', {
          authority: freezeAuthority.toBase58(),
          authorityType: 'freezeAccount',
          mint: mint.toBase58(),
          newAuthority: newFreezeAuthority.toBase58(),
        }),
      );
      const onAccount = getSetAuthorityInstruction(
        {
          owned: kitAddress(account),
          owner: kitAddress(owner),
          authorityType: KitAuthorityType.CloseAccount,
          newAuthority: null,
        },
        { programAddress: address(programId) },
      );
      expect(parseKit(onAccount)).toEqual(
        token('setAuthority', {
          account: account.toBase58(),
          authority: owner.toBase58(),
          authorityType: 'closeAccount',
          newAuthority: null,
        }),
      );
      const multisigOwner = createSetAuthorityInstruction(
        account,
        multisig,
        AuthorityType.AccountOwner,
        recipient,
        [signer0, signer1],
        programKey,
      );
      expect(parseWeb3(multisigOwner)).toEqual(
        token('setAuthority', {
          account: account.toBase58(),
          authorityType: 'accountOwner',
          multisigAuthority: multisig.toBase58(),
          newAuthority: recipient.toBase58(),
          signers: [signer0.toBase58(), signer1.toBase58()],
        }),
      );
    });

    it('parses burn and closeAccount', () => {
      expect(parseWeb3(createBurnInstruction(account, mint, owner, 42, [], programKey))).toEqual(
        token('burn', {
          account: account.toBase58(),
          amount: '42',
          authority: owner.toBase58(),
          mint: mint.toBase58(),
        }),
      );
      const close = getCloseAccountInstruction(
        { account: kitAddress(account), destination: kitAddress(recipient), owner: kitAddress(owner) },
        { programAddress: address(programId) },
      );
      expect(parseKit(close)).toEqual(
        token('closeAccount', {
          account: account.toBase58(),
          destination: recipient.toBase58(),
          owner: owner.toBase58(),
        }),
      );
    });

    it('parses the *Checked instructions with a tokenAmount (uiAmount a JSON float)', () => {
      const transferChecked = createTransferCheckedInstruction(
        account,
        mint,
        recipient,
        owner,
        42,
        2,
        [],
        programKey,
      );
      const result = parseWeb3(transferChecked);
      expect(result).toEqual(
        token('transferChecked', {
          authority: owner.toBase58(),
          destination: recipient.toBase58(),
          mint: mint.toBase58(),
          source: account.toBase58(),
          tokenAmount: uiAmount('42', 2, 0.42, '0.42'),
        }),
      );
      expect(stringifyJson(result)).toContain(
        '"tokenAmount":{"amount":"42","decimals":2,"uiAmount":0.42,"uiAmountString":"0.42"}',
      );
      const multisigTransfer = getTransferCheckedInstruction(
        {
          source: kitAddress(account),
          mint: kitAddress(mint),
          destination: kitAddress(recipient),
          authority: kitAddress(multisig),
          amount: 100,
          decimals: 2,
          multiSigners: [createNoopSigner(kitAddress(signer0)), createNoopSigner(kitAddress(signer1))],
        },
        { programAddress: address(programId) },
      );
      const multisigResult = parseKit(multisigTransfer);
      expect(multisigResult).toEqual(
        token('transferChecked', {
          destination: recipient.toBase58(),
          mint: mint.toBase58(),
          multisigAuthority: multisig.toBase58(),
          signers: [signer0.toBase58(), signer1.toBase58()],
          source: account.toBase58(),
          tokenAmount: uiAmount('100', 2, 1, '1'),
        }),
      );
      expect(stringifyJson(multisigResult)).toContain('"uiAmount":1.0,');
      expect(
        parseWeb3(createMintToCheckedInstruction(mint, account, mintAuthority, 42, 2, [], programKey)),
      ).toEqual(
        token('mintToChecked', {
          account: account.toBase58(),
          mint: mint.toBase58(),
          mintAuthority: mintAuthority.toBase58(),
          tokenAmount: uiAmount('42', 2, 0.42, '0.42'),
        }),
      );
      expectPartiallyDecoded(withoutLastAccounts(transferChecked));
    });

    it('parses amountToUiAmount, uiAmountToAmount and getAccountDataSize with extension types', () => {
      expect(parseWeb3(createAmountToUiAmountInstruction(mint, 4242, programKey))).toEqual(
        token('amountToUiAmount', { amount: '4242', mint: mint.toBase58() }),
      );
      expect(parseWeb3(createUiAmountToAmountInstruction(mint, '42.42', programKey))).toEqual(
        token('uiAmountToAmount', { mint: mint.toBase58(), uiAmount: '42.42' }),
      );
      expect(parseInstruction(programId, [mint.toBase58()], Uint8Array.of(21), null)).toEqual(
        token('getAccountDataSize', { mint: mint.toBase58() }),
      );
      // ImmutableOwner (7) and MemoTransfer (8), u16 LE.
      expect(parseInstruction(programId, [mint.toBase58()], Uint8Array.of(21, 7, 0, 8, 0), null)).toEqual(
        token('getAccountDataSize', {
          extensionTypes: ['immutableOwner', 'memoTransfer'],
          mint: mint.toBase58(),
        }),
      );
    });
  });

  it('parses initializeMintCloseAuthority, with a null authority when none', () => {
    const [mint, closeAuthority] = [uniqueKey(), uniqueKey()];
    const programKey = new PublicKey(TOKEN_2022_PROGRAM_ID);
    const token = (type: string, info: Record<string, unknown>) =>
      expected('spl-token', TOKEN_2022_PROGRAM_ID, type, info);
    expect(
      parseWeb3(createInitializeMintCloseAuthorityInstruction(mint, closeAuthority, programKey)),
    ).toEqual(
      token('initializeMintCloseAuthority', {
        mint: mint.toBase58(),
        newAuthority: closeAuthority.toBase58(),
      }),
    );
    expect(parseWeb3(createInitializeMintCloseAuthorityInstruction(mint, null, programKey))).toEqual(
      token('initializeMintCloseAuthority', { mint: mint.toBase58(), newAuthority: null }),
    );
  });

  it('parses a batch of instructions (test_parse_batch) and unwrapLamports', () => {
    const [source, mint, destination, owner] = [
      kitAddress(uniqueKey()),
      kitAddress(uniqueKey()),
      kitAddress(uniqueKey()),
      kitAddress(uniqueKey()),
    ];
    const transfer = getTransferCheckedInstruction({
      source,
      mint,
      destination,
      authority: owner,
      amount: 10,
      decimals: 2,
    });
    const burn = getBurnInstruction({ account: source, mint, authority: owner, amount: 5 });
    const batch = getBatchInstruction([transfer, burn]);
    const accounts = batch.accounts.map((meta) => meta.address);
    expect(parseInstruction(TOKEN_PROGRAM_ID, accounts, Uint8Array.from(batch.data), 2)).toEqual({
      parsed: {
        info: {
          instructions: [
            {
              info: {
                authority: owner,
                destination,
                mint,
                source,
                tokenAmount: uiAmount('10', 2, 0.1, '0.1'),
              },
              type: 'transferChecked',
            },
            { info: { account: source, amount: '5', authority: owner, mint }, type: 'burn' },
          ],
        },
        type: 'batch',
      },
      program: 'spl-token',
      programId: TOKEN_PROGRAM_ID,
      stackHeight: 2,
    });
    // One account short for the last inner instruction: the whole batch is not parsed.
    expect(
      parseInstruction(TOKEN_PROGRAM_ID, accounts.slice(0, -1), Uint8Array.from(batch.data), 2),
    ).toHaveProperty('data');
    const unwrap = getUnwrapLamportsInstruction({ source, destination, authority: owner, amount: 7 });
    expect(parseKit(unwrap)).toEqual(
      expected('spl-token', TOKEN_PROGRAM_ID, 'unwrapLamports', {
        amount: '7',
        authority: owner,
        destination,
        source,
      }),
    );
  });

  it('decodes partially: truncated data, bad COption flag, extension instructions, ui amount overflow is null', () => {
    const [account, mint, recipient, owner] = [uniqueKey(), uniqueKey(), uniqueKey(), uniqueKey()];
    const transferChecked = createTransferCheckedInstruction(account, mint, recipient, owner, 42, 2);
    expectPartiallyDecoded(
      new TransactionInstruction({ ...transferChecked, data: transferChecked.data.subarray(0, 9) }),
    );
    const mint2 = createInitializeMint2Instruction(mint, 2, owner, null);
    const badFlag = Buffer.from(mint2.data);
    badFlag[34] = 2;
    expectPartiallyDecoded(new TransactionInstruction({ ...mint2, data: badFlag }));
    const transferFee = createInitializeTransferFeeConfigInstruction(
      mint,
      owner,
      owner,
      50,
      1000n,
      new PublicKey(TOKEN_2022_PROGRAM_ID),
    );
    expectPartiallyDecoded(transferFee);
    // 10^decimals overflows a u64 past 19 decimals: Agave writes `uiAmount: null`.
    const manyDecimals = createTransferCheckedInstruction(account, mint, recipient, owner, 42, 20);
    const parsed = parseWeb3(manyDecimals);
    expect(parsed).toHaveProperty('parsed.info.tokenAmount', {
      amount: '42',
      decimals: 20,
      uiAmount: null,
      uiAmountString: '0.00000000000000000042',
    });
  });
});

describe('parseInstruction: spl-associated-token-account', () => {
  const ata = (type: string, info: Record<string, unknown>) =>
    expected('spl-associated-token-account', ASSOCIATED_TOKEN_PROGRAM_ID, type, info);
  const [funder, wallet, mint] = [uniqueKey(), uniqueKey(), uniqueKey()];
  const associated = getAssociatedTokenAddressSync(mint, wallet, true);

  it('parses create and createIdempotent (test_parse_create, test_parse_create_idempotent)', () => {
    const createInfo = {
      account: associated.toBase58(),
      mint: mint.toBase58(),
      source: funder.toBase58(),
      systemProgram: SYSTEM_PROGRAM_ID,
      tokenProgram: TOKEN_PROGRAM_ID,
      wallet: wallet.toBase58(),
    };
    const create = createAssociatedTokenAccountInstruction(funder, associated, wallet, mint);
    expect(parseWeb3(create)).toEqual(ata('create', createInfo));
    const idempotent = createAssociatedTokenAccountIdempotentInstruction(funder, associated, wallet, mint);
    expect(parseWeb3(idempotent)).toEqual(ata('createIdempotent', createInfo));
    expectPartiallyDecoded(withoutLastAccounts(idempotent));
  });

  it('parses the deprecated create: empty data, extra rent sysvar account (test_parse_create_deprecated)', () => {
    const create = createAssociatedTokenAccountInstruction(funder, associated, wallet, mint);
    const deprecated = new TransactionInstruction({
      programId: create.programId,
      keys: [...create.keys, { pubkey: new PublicKey(RENT_SYSVAR), isSigner: false, isWritable: false }],
      data: Buffer.alloc(0),
    });
    expect(parseWeb3(deprecated)).toEqual(parseWeb3(create));
  });

  it('parses recoverNested (test_parse_recover_nested)', () => {
    const [ownerMint, nestedMint] = [uniqueKey(), uniqueKey()];
    const ownerAssociated = getAssociatedTokenAddressSync(ownerMint, wallet, true);
    const nestedAssociated = getAssociatedTokenAddressSync(nestedMint, ownerAssociated, true);
    const destination = getAssociatedTokenAddressSync(nestedMint, wallet, true);
    const recover = createRecoverNestedInstruction(
      nestedAssociated,
      nestedMint,
      destination,
      ownerAssociated,
      ownerMint,
      wallet,
    );
    expect(parseWeb3(recover)).toEqual(
      ata('recoverNested', {
        destination: destination.toBase58(),
        nestedMint: nestedMint.toBase58(),
        nestedOwner: ownerAssociated.toBase58(),
        nestedSource: nestedAssociated.toBase58(),
        ownerMint: ownerMint.toBase58(),
        tokenProgram: TOKEN_PROGRAM_ID,
        wallet: wallet.toBase58(),
      }),
    );
    expectPartiallyDecoded(withoutLastAccounts(recover));
  });

  it('decodes partially: unknown variant, trailing data', () => {
    const create = createAssociatedTokenAccountIdempotentInstruction(funder, associated, wallet, mint);
    expectPartiallyDecoded(new TransactionInstruction({ ...create, data: Buffer.from([3]) }));
    expectPartiallyDecoded(new TransactionInstruction({ ...create, data: Buffer.from([1, 0]) }));
  });
});

describe('parseInstruction: spl-memo', () => {
  it('parses the memo text for the v1 and v3 programs (test_parse)', () => {
    const dinosaur = Uint8Array.of(240, 159, 166, 150);
    expect(parseInstruction(MEMO_V1_PROGRAM_ID, [], dinosaur, null)).toEqual({
      parsed: '🦖',
      program: 'spl-memo',
      programId: MEMO_V1_PROGRAM_ID,
      stackHeight: null,
    });
    const signer = uniqueKey().toBase58();
    expect(parseInstruction(MEMO_PROGRAM_ID, [signer], dinosaur, 1)).toEqual({
      parsed: '🦖',
      program: 'spl-memo',
      programId: MEMO_PROGRAM_ID,
      stackHeight: 1,
    });
  });

  it('decodes a memo that is not UTF-8 partially, as Agave’s from_utf8 (test_parse_memo)', () => {
    expect(parseInstruction(MEMO_PROGRAM_ID, [], Uint8Array.of(128), null)).toEqual({
      accounts: [],
      data: encodeBase58(Uint8Array.of(128)),
      programId: MEMO_PROGRAM_ID,
      stackHeight: null,
    });
  });
});

describe('parseInstruction: address-lookup-table', () => {
  const alt = (type: string, info: Record<string, unknown>) =>
    expected('address-lookup-table', ADDRESS_LOOKUP_TABLE_PROGRAM_ID, type, info);
  const [table, authority, payer, recipient] = [uniqueKey(), uniqueKey(), uniqueKey(), uniqueKey()];

  it('parses createLookupTable, recentSlot as bigint (test_parse_create_address_lookup_table_ix)', () => {
    const fixedAuthority = new PublicKey('HkxY6vXdrKzoCQLmdJ3cYo9534FdZQxzBNWTyrJzzqJM');
    const [instruction, lookupTable] = AddressLookupTableProgram.createLookupTable({
      authority: fixedAuthority,
      payer,
      recentSlot: 42,
    });
    expect(parseWeb3(instruction)).toEqual(
      alt('createLookupTable', {
        bumpSeed: 254,
        lookupTableAccount: lookupTable.toBase58(),
        lookupTableAuthority: fixedAuthority.toBase58(),
        payerAccount: payer.toBase58(),
        recentSlot: 42n,
        systemProgram: SYSTEM_PROGRAM_ID,
      }),
    );
    expectPartiallyDecoded(withoutLastAccounts(instruction));
  });

  it('parses extendLookupTable with and without a payer (test_parse_extend_lookup_table_ix)', () => {
    const noPayer = AddressLookupTableProgram.extendLookupTable({
      lookupTable: table,
      authority,
      addresses: [],
    });
    expect(parseWeb3(noPayer)).toEqual(
      alt('extendLookupTable', {
        lookupTableAccount: table.toBase58(),
        lookupTableAuthority: authority.toBase58(),
        newAddresses: [],
      }),
    );
    expectPartiallyDecoded(withoutLastAccounts(noPayer));
    const [address0, address1] = [uniqueKey(), uniqueKey()];
    const withPayer = AddressLookupTableProgram.extendLookupTable({
      lookupTable: table,
      authority,
      payer,
      addresses: [address0, address1],
    });
    expect(parseWeb3(withPayer)).toEqual(
      alt('extendLookupTable', {
        lookupTableAccount: table.toBase58(),
        lookupTableAuthority: authority.toBase58(),
        newAddresses: [address0.toBase58(), address1.toBase58()],
        payerAccount: payer.toBase58(),
        systemProgram: SYSTEM_PROGRAM_ID,
      }),
    );
    // Three accounts: the payer is not named without the system program.
    expect(parseWeb3(withoutLastAccounts(withPayer))).toEqual(
      alt('extendLookupTable', {
        lookupTableAccount: table.toBase58(),
        lookupTableAuthority: authority.toBase58(),
        newAddresses: [address0.toBase58(), address1.toBase58()],
      }),
    );
    const short = Buffer.from(withPayer.data.subarray(0, withPayer.data.length - 1));
    expectPartiallyDecoded(new TransactionInstruction({ ...withPayer, data: short }));
  });

  it('parses freeze, deactivate and close', () => {
    const tableInfo = { lookupTableAccount: table.toBase58(), lookupTableAuthority: authority.toBase58() };
    const freeze = AddressLookupTableProgram.freezeLookupTable({ lookupTable: table, authority });
    expect(parseWeb3(freeze)).toEqual(alt('freezeLookupTable', tableInfo));
    expectPartiallyDecoded(withoutLastAccounts(freeze));
    const deactivate = AddressLookupTableProgram.deactivateLookupTable({ lookupTable: table, authority });
    expect(parseWeb3(deactivate)).toEqual(alt('deactivateLookupTable', tableInfo));
    const close = AddressLookupTableProgram.closeLookupTable({ lookupTable: table, authority, recipient });
    expect(parseWeb3(close)).toEqual(
      alt('closeLookupTable', { ...tableInfo, recipient: recipient.toBase58() }),
    );
    expectPartiallyDecoded(withoutLastAccounts(close));
  });
});

describe('parseInstruction: other programs', () => {
  it('leaves Compute Budget partially decoded: Agave does not parse it', () => {
    // SetComputeUnitLimit(200_000): tag 2, then the u32 LE units.
    const data = Uint8Array.of(2, 0x40, 0x0d, 0x03, 0x00);
    expect(parseInstruction(COMPUTE_BUDGET_PROGRAM_ID, [], data, 1)).toEqual({
      accounts: [],
      data: encodeBase58(data),
      programId: COMPUTE_BUDGET_PROGRAM_ID,
      stackHeight: 1,
    });
  });

  it('leaves an unknown program partially decoded, keeping the accounts in order', () => {
    const [programId, first, second] = [
      uniqueKey().toBase58(),
      uniqueKey().toBase58(),
      uniqueKey().toBase58(),
    ];
    expect(parseInstruction(programId, [first, second], Uint8Array.of(0, 0, 1, 2), 3)).toEqual({
      accounts: [first, second],
      data: encodeBase58(Uint8Array.of(0, 0, 1, 2)),
      programId,
      stackHeight: 3,
    });
  });
});
