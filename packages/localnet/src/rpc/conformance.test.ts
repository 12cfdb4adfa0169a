/**
 * RPC conformance: @solana/kit's own client against the standalone HTTP server. Every answer must
 * parse into kit's types (bigints, addresses, typed errors) exactly as against a real validator.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getMintDecoder,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import {
  address,
  createSolanaRpc,
  generateKeyPairSigner,
  isSolanaError,
  lamports,
  signature as toSignature,
  SOLANA_ERROR__JSON_RPC__INVALID_PARAMS,
  SOLANA_ERROR__JSON_RPC__METHOD_NOT_FOUND,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE,
  SOLANA_ERROR__TRANSACTION_ERROR__ACCOUNT_NOT_FOUND,
  SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED,
  SOLANA_ERROR__TRANSACTION_ERROR__BLOCKHASH_NOT_FOUND,
  SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM,
  type Base64EncodedWireTransaction,
  type KeyPairSigner,
  type Rpc,
  type Signature,
  type SolanaRpcApi,
  type TransactionMessageBytesBase64,
} from '@solana/kit';
import { USDC_MINT } from '@solterm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAMPORTS_PER_SOL } from '../genesis';
import { startLocalnetServer, type LocalnetServer } from '../http-server';
import { createLocalCluster, type LocalCluster } from '../local-cluster';
import { signInstructions, signTransfer, type SignedTransaction } from '../test-helpers';
import { createJsonRpcHandler } from './json-rpc-handler';

const USDC = address(USDC_MINT);
let dataDir: string;
let cluster: LocalCluster;
let server: LocalnetServer;
let rpc: Rpc<SolanaRpcApi>;

async function rawCall(
  method: string,
  params: unknown[],
): Promise<{ result?: unknown; error?: { code: number; message: string; data?: unknown } }> {
  const response = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await response.json()) as {
    result?: unknown;
    error?: { code: number; message: string; data?: unknown };
  };
}

async function send(transaction: SignedTransaction): Promise<Signature> {
  return rpc
    .sendTransaction(transaction.base64 as Base64EncodedWireTransaction, { encoding: 'base64' })
    .send();
}

async function sendError(transaction: SignedTransaction): Promise<unknown> {
  return send(transaction).then(
    () => {
      throw new Error('expected sendTransaction to fail');
    },
    (error: unknown) => error,
  );
}

async function latestLifetime(): Promise<{ blockhash: string; lastValidBlockHeight: bigint }> {
  const { value } = await rpc.getLatestBlockhash().send();
  return value;
}

async function airdrop(recipient: KeyPairSigner, sol: bigint): Promise<Signature> {
  const signature = await rpc.requestAirdrop(recipient.address, lamports(sol * LAMPORTS_PER_SOL)).send();
  await cluster.flush();
  return signature;
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'localnet-rpc-'));
  cluster = await createLocalCluster({ dataDir, slotClock: 'manual' });
  server = await startLocalnetServer({ handler: createJsonRpcHandler(cluster), port: 0 });
  rpc = createSolanaRpc(server.url);
});

afterAll(async () => {
  await server.close();
  await cluster.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('cluster methods parse with kit', () => {
  it('getHealth, getVersion, getSlot, getBlockHeight, getEpochInfo', async () => {
    cluster.advanceSlots(3);
    expect(await rpc.getHealth().send()).toBe('ok');
    expect((await rpc.getVersion().send())['solana-core']).toMatch(/^\d+\.\d+\.\d+/);
    // processed: the slot being produced; confirmed: the last complete one.
    expect(await rpc.getSlot({ commitment: 'processed' }).send()).toBe(BigInt(cluster.slot));
    const slot = await rpc.getSlot({ commitment: 'confirmed' }).send();
    expect(slot).toBe(BigInt(cluster.slot - 1));
    expect(await rpc.getBlockHeight({ commitment: 'confirmed' }).send()).toBe(
      BigInt(cluster.blockHeight - 1),
    );
    const epoch = await rpc.getEpochInfo({ commitment: 'confirmed' }).send();
    expect(epoch).toMatchObject({ absoluteSlot: slot, epoch: 0n, slotIndex: slot, slotsInEpoch: 432_000n });
    expect(typeof epoch.transactionCount).toBe('bigint');
  });

  it('getLatestBlockhash, isBlockhashValid, getFeeForMessage, getMinimumBalanceForRentExemption', async () => {
    cluster.advanceSlots(40);
    // A finalized blockhash is the root's: 32 slots old, so valid for 118 more.
    const latest = await rpc.getLatestBlockhash({ commitment: 'finalized' }).send();
    expect(latest.context.slot).toBe(BigInt(cluster.slot - 32));
    expect(latest.value.lastValidBlockHeight).toBe(BigInt(cluster.blockHeight - 32 + 150));
    const confirmed = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
    expect(confirmed.value.lastValidBlockHeight).toBe(BigInt(cluster.blockHeight - 1 + 150));
    const processed = await rpc.getLatestBlockhash({ commitment: 'processed' }).send();
    expect(processed.value.lastValidBlockHeight).toBe(BigInt(cluster.blockHeight + 150));
    expect(await rpc.getSlot({ commitment: 'finalized' }).send()).toBe(BigInt(cluster.slot - 32));
    expect(await rpc.getBlockHeight({ commitment: 'finalized' }).send()).toBe(BigInt(cluster.slot - 32));
    expect((await rpc.isBlockhashValid(latest.value.blockhash).send()).value).toBe(true);
    const payer = await generateKeyPairSigner();
    const transfer = await signTransfer(payer, payer.address, 1n, latest.value);
    const fee = await rpc.getFeeForMessage(transfer.messageBase64 as TransactionMessageBytesBase64).send();
    expect(fee.value).toBe(5000n);
    expect(await rpc.getMinimumBalanceForRentExemption(165n).send()).toBe(2_039_280n);
  });

  it('rejects unknown methods and bad params with the JSON-RPC codes', async () => {
    const error = await rpc
      .getBalance('not-an-address' as never)
      .send()
      .catch((caught: unknown) => caught);
    expect(isSolanaError(error, SOLANA_ERROR__JSON_RPC__INVALID_PARAMS)).toBe(true);
    expect((await rawCall('getBogus', [])).error?.code).toBe(SOLANA_ERROR__JSON_RPC__METHOD_NOT_FOUND);
    expect((await rawCall('getSlot', [{ commitment: 'soon' }])).error?.code).toBe(-32602);
    expect((await rawCall('getSlot', [{ minContextSlot: 10_000_000 }])).error?.code).toBe(-32016);
  });

  it('parses sysvars as a validator does (jsonParsed)', async () => {
    const clock = await rpc
      .getAccountInfo(address('SysvarC1ock11111111111111111111111111111111'), { encoding: 'jsonParsed' })
      .send();
    expect(clock.value?.data).toMatchObject({
      program: 'sysvar',
      parsed: { type: 'clock', info: { slot: BigInt(cluster.slot), epoch: 0n } },
      space: 40n,
    });
    const rent = await rawCall('getAccountInfo', [
      'SysvarRent111111111111111111111111111111111',
      { encoding: 'jsonParsed' },
    ]);
    expect((rent.result as { value: { data: unknown } }).value.data).toEqual({
      program: 'sysvar',
      parsed: { type: 'rent', info: { lamportsPerByteYear: '3480', exemptionThreshold: 2, burnPercent: 50 } },
      space: 17,
    });
    // The threshold is an f64, written as one (2.0), as serde_json writes it.
    const rentText = await (
      await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'getAccountInfo',
          params: ['SysvarRent111111111111111111111111111111111', { encoding: 'jsonParsed' }],
        }),
      })
    ).text();
    expect(rentText).toContain('"exemptionThreshold":2.0');
    const hashes = await rawCall('getAccountInfo', [
      'SysvarS1otHashes111111111111111111111111111',
      { encoding: 'jsonParsed' },
    ]);
    const entries = (
      hashes.result as { value: { data: { parsed: { info: { slot: number; hash: string }[] } } } }
    ).value.data.parsed.info;
    expect(entries[0]).toEqual({ slot: cluster.slot, hash: expect.any(String) });
    // A system account that is not a nonce stays base64, as on a validator.
    const plain = await rawCall('getAccountInfo', [cluster.treasury.address, { encoding: 'jsonParsed' }]);
    expect((plain.result as { value: { data: unknown } }).value.data).toEqual(['', 'base64']);
  });

  // kit's getProgramAccounts test of the Sysvar program: a validator funds every sysvar rent-exempt
  // and sizes RecentBlockhashes and StakeHistory for their most entries; the Clock and SlotHashes,
  // rewritten every slot, stay so.
  it('holds the sysvars rent-exempt and at Agave sizes, slot after slot', async () => {
    cluster.advanceSlots(2);
    const sysvars = await rpc
      .getProgramAccounts(address('Sysvar1111111111111111111111111111111111111'), { encoding: 'jsonParsed' })
      .send();
    const held = (type: string, space: bigint, lamports: bigint) => ({
      account: {
        data: { parsed: { info: expect.any(Object), type }, program: 'sysvar', space },
        executable: false,
        lamports,
        owner: 'Sysvar1111111111111111111111111111111111111',
        rentEpoch: expect.any(BigInt),
        space,
      },
      pubkey: expect.any(String),
    });
    expect(sysvars).toStrictEqual(
      expect.arrayContaining([
        held('clock', 40n, 1_169_280n),
        held('epochSchedule', 33n, 1_120_560n),
        held('recentBlockhashes', 6008n, 42_706_560n),
        held('rent', 17n, 1_009_200n),
        held('slotHistory', 131_097n, 913_326_000n),
        held('stakeHistory', 16_392n, 114_979_200n),
        held('slotHashes', 20_488n, 143_487_360n),
      ]),
    );
  });

  // A validator rewrites RecentBlockhashes every slot: the newest blockhashes first, each with the
  // fee per signature; LiteSVM alone keeps its genesis blockhash there.
  it('lists the recent blockhashes newest first, slot after slot', async () => {
    cluster.advanceSlots(3);
    const { value: latest } = await rpc.getLatestBlockhash({ commitment: 'processed' }).send();
    const sysvar = await rawCall('getAccountInfo', [
      'SysvarRecentB1ockHashes11111111111111111111',
      { encoding: 'jsonParsed', commitment: 'processed' },
    ]);
    const entries = (
      sysvar.result as {
        value: { data: { parsed: { info: { blockhash: string; feeCalculator: object }[] } } };
      }
    ).value.data.parsed.info;
    expect(entries[0]).toEqual({
      blockhash: latest.blockhash,
      feeCalculator: { lamportsPerSignature: '5000' },
    });
    expect(entries.length).toBe(Math.min(150, cluster.slot + 1));
    expect(new Set(entries.map((entry) => entry.blockhash)).size).toBe(entries.length);
  });

  it('answers batches in order', async () => {
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 'a', method: 'getSlot' },
        { jsonrpc: '2.0', id: 'b', method: 'getHealth' },
      ]),
    });
    expect(await response.json()).toEqual([
      // getSlot's default commitment is finalized.
      { jsonrpc: '2.0', id: 'a', result: cluster.slotAt('finalized') },
      { jsonrpc: '2.0', id: 'b', result: 'ok' },
    ]);
  });
});

describe('account and token methods parse with kit', () => {
  it('getBalance, getAccountInfo (base64 and jsonParsed), getMultipleAccounts', async () => {
    const balance = await rpc.getBalance(cluster.treasury.address).send();
    expect(typeof balance.value).toBe('bigint');
    const mint = await rpc.getAccountInfo(USDC, { encoding: 'base64' }).send();
    expect(mint.value?.owner).toBe(TOKEN_PROGRAM_ADDRESS);
    // kit's type no longer lists rentEpoch, but validators still send it (u64::MAX when exempt).
    expect((mint.value as unknown as { rentEpoch: bigint }).rentEpoch).toBe(18446744073709551615n);
    const decoded = getMintDecoder().decode(Buffer.from(mint.value!.data[0], 'base64'));
    expect(decoded.decimals).toBe(6);
    const parsed = await rpc.getAccountInfo(USDC, { encoding: 'jsonParsed' }).send();
    expect(parsed.value?.data).toMatchObject({
      program: 'spl-token',
      parsed: { type: 'mint', info: { decimals: 6 } },
    });
    const nobody = await generateKeyPairSigner();
    const many = await rpc.getMultipleAccounts([USDC, nobody.address], { encoding: 'base64' }).send();
    expect(many.value[0]?.space).toBe(82n);
    expect(many.value[1]).toBeNull();
  });

  it('getTokenAccountsByOwner by mint and by program, getTokenAccountBalance, getTokenLargestAccounts', async () => {
    const maker = cluster.marketMaker.address;
    const byMint = await rpc
      .getTokenAccountsByOwner(maker, { mint: USDC }, { encoding: 'jsonParsed' })
      .send();
    expect(byMint.value).toHaveLength(1);
    const info = byMint.value[0]!.account.data.parsed.info;
    expect(info.tokenAmount).toEqual({
      amount: '50000000000000',
      decimals: 6,
      uiAmount: 50_000_000,
      uiAmountString: '50000000',
    });
    expect(info.owner).toBe(maker);
    const byProgram = await rpc
      .getTokenAccountsByOwner(maker, { programId: TOKEN_PROGRAM_ADDRESS }, { encoding: 'base64' })
      .send();
    // The maker's accounts of SPL Token mints (the risk demonstration tokens' Token-2022 ones are apart).
    const splTokenMints = cluster.mints.filter((mint) => mint.setup?.program !== 'spl-token-2022');
    expect(byProgram.value.length).toBe(splTokenMints.length);
    const balance = await rpc.getTokenAccountBalance(byMint.value[0]!.pubkey).send();
    expect(balance.value).toEqual({
      amount: '50000000000000',
      decimals: 6,
      uiAmount: 50_000_000,
      uiAmountString: '50000000',
    });
    const largest = await rpc.getTokenLargestAccounts(USDC).send();
    expect(largest.value[0]).toMatchObject({ address: byMint.value[0]!.pubkey, amount: '50000000000000' });
  });
});

describe('transactions through kit', () => {
  it('sends a kit-built SOL transfer and confirms it with getSignatureStatuses and getTransaction', async () => {
    // Given a funded payer
    const payer = await generateKeyPairSigner();
    const airdropSignature = await airdrop(payer, 2n);
    const airdropStatus = await rpc.getSignatureStatuses([airdropSignature]).send();
    expect(airdropStatus.value[0]?.confirmationStatus).toBe('confirmed');
    const recipient = await generateKeyPairSigner();

    // When a transfer built and signed with kit is sent over JSON-RPC
    const transfer = await signTransfer(
      payer,
      recipient.address,
      LAMPORTS_PER_SOL / 2n,
      await latestLifetime(),
    );
    const sent = await send(transfer);
    expect(sent).toBe(transfer.signature);
    await cluster.flush();

    // Then its status is confirmed and both balances moved, the fee paid by the payer
    const statuses = await rpc
      .getSignatureStatuses([sent, toSignature(transfer.signature)], { searchTransactionHistory: true })
      .send();
    expect(statuses.value[0]).toMatchObject({
      err: null,
      status: { Ok: null },
      confirmationStatus: 'confirmed',
      slot: BigInt(cluster.slot),
    });
    expect((await rpc.getBalance(recipient.address).send()).value).toBe(LAMPORTS_PER_SOL / 2n);
    expect((await rpc.getBalance(payer.address).send()).value).toBe(
      2n * LAMPORTS_PER_SOL - LAMPORTS_PER_SOL / 2n - 5000n,
    );
    const fetched = await rpc
      .getTransaction(sent, { commitment: 'confirmed', encoding: 'json', maxSupportedTransactionVersion: 0 })
      .send();
    expect(fetched?.meta?.fee).toBe(5000n);
    expect(fetched?.meta?.err).toBeNull();
    expect(fetched?.meta?.postBalances[1]).toBe(LAMPORTS_PER_SOL / 2n);
    expect(fetched?.version).toBe(0);
    expect(fetched?.transaction.message.accountKeys[0]).toBe(payer.address);
    const asBase64 = await rpc
      .getTransaction(sent, {
        commitment: 'confirmed',
        maxSupportedTransactionVersion: 0,
        encoding: 'base64',
      })
      .send();
    expect(asBase64?.transaction[0]).toBe(transfer.base64);
    // Finalized needs 32 more slots; until then a finalized read does not see it.
    const finalized = {
      commitment: 'finalized',
      encoding: 'json',
      maxSupportedTransactionVersion: 0,
    } as const;
    expect(await rpc.getTransaction(sent, finalized).send()).toBeNull();
    cluster.advanceSlots(32);
    expect((await rpc.getTransaction(sent, finalized).send())?.slot).toBe(fetched?.slot);
    const history = await rpc.getSignaturesForAddress(recipient.address).send();
    expect(history.map((entry) => entry.signature)).toEqual([sent]);
  });

  it('moves SPL tokens between associated token accounts', async () => {
    // Given a payer holding USDC from the market maker
    const payer = await generateKeyPairSigner();
    await airdrop(payer, 1n);
    const recipient = await generateKeyPairSigner();
    const [makerUsdc] = await findAssociatedTokenPda({
      owner: cluster.marketMaker.address,
      mint: USDC,
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    });
    const [payerUsdc] = await findAssociatedTokenPda({
      owner: payer.address,
      mint: USDC,
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    });
    const [recipientUsdc] = await findAssociatedTokenPda({
      owner: recipient.address,
      mint: USDC,
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    });
    const funding = await signInstructions(
      payer,
      [
        getCreateAssociatedTokenIdempotentInstruction({
          payer,
          ata: payerUsdc,
          owner: payer.address,
          mint: USDC,
        }),
        getTransferCheckedInstruction({
          source: makerUsdc,
          mint: USDC,
          destination: payerUsdc,
          authority: cluster.marketMaker,
          amount: 100_000_000n,
          decimals: 6,
        }),
      ],
      await latestLifetime(),
    );
    await send(funding);

    // When the payer creates the recipient's account and sends 25 USDC with transferChecked
    const transfer = await signInstructions(
      payer,
      [
        getCreateAssociatedTokenIdempotentInstruction({
          payer,
          ata: recipientUsdc,
          owner: recipient.address,
          mint: USDC,
        }),
        getTransferCheckedInstruction({
          source: payerUsdc,
          mint: USDC,
          destination: recipientUsdc,
          authority: payer,
          amount: 25_000_000n,
          decimals: 6,
        }),
      ],
      await latestLifetime(),
    );
    await send(transfer);
    await cluster.flush();

    // Then both token balances read back through getTokenAccountBalance
    expect((await rpc.getTokenAccountBalance(payerUsdc).send()).value).toMatchObject({
      amount: '75000000',
      uiAmountString: '75',
    });
    expect((await rpc.getTokenAccountBalance(recipientUsdc).send()).value).toMatchObject({
      amount: '25000000',
      uiAmount: 25,
    });
    const fetched = await rpc
      .getTransaction(toSignature(transfer.signature), {
        commitment: 'confirmed',
        encoding: 'json',
        maxSupportedTransactionVersion: 0,
      })
      .send();
    const post = fetched?.meta?.postTokenBalances?.find((balance) => balance.owner === recipient.address);
    expect(post?.uiTokenAmount.amount).toBe('25000000');
    expect(fetched?.meta?.innerInstructions?.length).toBeGreaterThan(0);
  });

  it('simulates without committing, with post-state accounts', async () => {
    const payer = await generateKeyPairSigner();
    await airdrop(payer, 1n);
    const recipient = await generateKeyPairSigner();
    const transfer = await signTransfer(payer, recipient.address, 1_000_000n, await latestLifetime());
    const simulation = await rpc
      .simulateTransaction(transfer.base64 as Base64EncodedWireTransaction, {
        encoding: 'base64',
        sigVerify: true,
        accounts: { addresses: [recipient.address], encoding: 'base64' },
      })
      .send();
    expect(simulation.value.err).toBeNull();
    expect(simulation.value.unitsConsumed).toBeGreaterThan(0n);
    expect(simulation.value.accounts[0]?.lamports).toBe(1_000_000n);
    expect(simulation.value.fee).toBe(5000n);
    expect((await rpc.getBalance(recipient.address).send()).value).toBe(0n);
    const replaced = await rpc
      .simulateTransaction(transfer.base64 as Base64EncodedWireTransaction, {
        encoding: 'base64',
        replaceRecentBlockhash: true,
      })
      .send();
    expect(replaced.value.replacementBlockhash?.blockhash).toBe(cluster.getLatestBlockhash().blockhash);
  });

  it('answers an expired blockhash with "Blockhash not found"', async () => {
    const payer = await generateKeyPairSigner();
    await airdrop(payer, 1n);
    const transfer = await signTransfer(payer, cluster.treasury.address, 1n, await latestLifetime());
    cluster.advanceSlots(151);
    const error = await sendError(transfer);
    expect(
      isSolanaError(error, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE),
    ).toBe(true);
    expect(isSolanaError((error as Error).cause, SOLANA_ERROR__TRANSACTION_ERROR__BLOCKHASH_NOT_FOUND)).toBe(
      true,
    );
    const raw = await rawCall('sendTransaction', [transfer.base64, { encoding: 'base64' }]);
    expect(raw.error).toMatchObject({
      code: -32002,
      message: 'Transaction simulation failed: Blockhash not found',
      data: { err: 'BlockhashNotFound' },
    });
    // Without preflight a validator accepts and then drops it: nothing lands.
    expect(
      (await rawCall('sendTransaction', [transfer.base64, { encoding: 'base64', skipPreflight: true }]))
        .result,
    ).toBe(transfer.signature);
    expect((await rpc.getSignatureStatuses([toSignature(transfer.signature)]).send()).value[0]).toBeNull();
  });

  it('refuses a replayed transaction', async () => {
    const payer = await generateKeyPairSigner();
    await airdrop(payer, 1n);
    const transfer = await signTransfer(payer, cluster.treasury.address, 1_000n, await latestLifetime());
    await send(transfer);
    const balance = (await rpc.getBalance(payer.address).send()).value;
    const error = await sendError(transfer);
    expect(isSolanaError((error as Error).cause, SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED)).toBe(
      true,
    );
    expect((await rpc.getBalance(payer.address).send()).value).toBe(balance);
  });

  it('answers insufficient funds with -32002, the real error text and the simulation logs', async () => {
    // A payer that never received lamports: the runtime cannot even charge the fee.
    const broke = await generateKeyPairSigner();
    const noCredit = await signTransfer(broke, cluster.treasury.address, 1n, await latestLifetime());
    const raw = await rawCall('sendTransaction', [noCredit.base64, { encoding: 'base64' }]);
    expect(raw.error).toMatchObject({
      code: -32002,
      message:
        'Transaction simulation failed: Attempt to debit an account but found no record of a prior credit.',
      data: { err: 'AccountNotFound', logs: [] },
    });
    const kitError = await sendError(noCredit);
    expect(isSolanaError((kitError as Error).cause, SOLANA_ERROR__TRANSACTION_ERROR__ACCOUNT_NOT_FOUND)).toBe(
      true,
    );

    // A payer with some SOL sending more than it has: the system program refuses.
    const poor = await generateKeyPairSigner();
    await airdrop(poor, 1n);
    const tooMuch = await signTransfer(
      poor,
      cluster.treasury.address,
      5n * LAMPORTS_PER_SOL,
      await latestLifetime(),
    );
    const error = await sendError(tooMuch);
    expect(
      isSolanaError(error, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE),
    ).toBe(true);
    expect(isSolanaError((error as Error).cause, SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM)).toBe(true);
    const logs = (error as { context: { logs: string[] } }).context.logs;
    expect(logs.some((line) => line.startsWith('Transfer: insufficient lamports'))).toBe(true);
    expect((await rpc.getBalance(poor.address).send()).value).toBe(LAMPORTS_PER_SOL);
  });

  it('answers a bad signature with -32003 and malformed bytes with -32602', async () => {
    const payer = await generateKeyPairSigner();
    await airdrop(payer, 1n);
    const transfer = await signTransfer(payer, cluster.treasury.address, 1n, await latestLifetime());
    const tampered = Buffer.from(transfer.bytes);
    tampered[10]! ^= 0xff;
    const bad = { ...transfer, base64: tampered.toString('base64') };
    expect(
      isSolanaError(
        await sendError(bad),
        SOLANA_ERROR__JSON_RPC__SERVER_ERROR_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE,
      ),
    ).toBe(true);
    const truncated = await rawCall('sendTransaction', [
      transfer.base64.slice(0, 40),
      { encoding: 'base64' },
    ]);
    expect(truncated.error?.code).toBe(-32602);
    expect(truncated.error?.message).toMatch(/^failed to deserialize/);
    const base58 = await rawCall('sendTransaction', [Buffer.from('not base58 0OIl').toString()]);
    expect(base58.error?.code).toBe(-32602);
  });
});

describe('node, supply and economics methods parse with kit', () => {
  it('a one-node cluster: its identity leads, no votes, no snapshot, mainnet inflation constants', async () => {
    const identity = (await rpc.getIdentity().send()).identity;
    const [node] = await rpc.getClusterNodes().send();
    expect(node?.pubkey).toBe(identity);
    expect(await rpc.getVoteAccounts().send()).toEqual({ current: [], delinquent: [] });
    expect(await rpc.getSlotLeader().send()).toBe(identity);
    expect(await rpc.getSlotLeaders(0n, 10).send()).toEqual(Array(10).fill(identity));
    const schedule = await rpc.getLeaderSchedule(null, { identity }).send();
    expect(schedule?.[identity]?.length).toBe(432_000);
    const snapshot = await rawCall('getHighestSnapshotSlot', []);
    expect(snapshot.error).toEqual({ code: -32008, message: 'No snapshot' });
    expect((await rpc.getStakeMinimumDelegation().send()).value).toBe(1n);
    const governor = await rpc.getInflationGovernor().send();
    expect(Number(governor.initial)).toBe(0.08);
    expect(Number(governor.terminal)).toBe(0.015);
    expect((await rpc.getInflationRate().send()).epoch).toBe(0n);
    expect(await rpc.getInflationReward([address(identity)]).send()).toEqual([null]);
    expect(Array.isArray(await rpc.getRecentPerformanceSamples(5).send())).toBe(true);
    // The 432,000-slot leader schedule is a 3 MB answer: 3.8 s at load 13, near vitest's 5 s.
  }, 30_000);

  it('getSupply and getLargestAccounts count every lamport; the treasury is the non-circulating part', async () => {
    const supply = (await rpc.getSupply().send()).value;
    const treasury = (await rpc.getBalance(cluster.treasury.address).send()).value;
    expect(supply.nonCirculating).toBe(treasury);
    expect(supply.circulating + supply.nonCirculating).toBe(supply.total);
    expect(supply.nonCirculatingAccounts).toEqual([cluster.treasury.address]);
    expect(
      (await rpc.getSupply({ excludeNonCirculatingAccountsList: true }).send()).value.nonCirculatingAccounts,
    ).toEqual([]);
    // A transfer between wallets moves lamports, it creates none; the fee is burnt.
    const payer = await generateKeyPairSigner();
    await airdrop(payer, 1n);
    const before = (await rpc.getSupply().send()).value.total;
    await send(await signTransfer(payer, cluster.treasury.address, 1_000n, await latestLifetime()));
    await cluster.flush();
    expect((await rpc.getSupply().send()).value.total).toBe(before - 5_000n);
    const largest = (await rpc.getLargestAccounts().send()).value;
    expect(largest.some((entry) => entry.address === cluster.treasury.address)).toBe(true);
    expect(largest.every((entry, i) => i === 0 || entry.lamports <= largest[i - 1]!.lamports)).toBe(true);
    expect(largest.length).toBeLessThanOrEqual(20);
    const circulating = (await rpc.getLargestAccounts({ filter: 'circulating' }).send()).value;
    expect(circulating.some((entry) => entry.address === cluster.treasury.address)).toBe(false);
  });

  it('getTokenAccountsByDelegate finds the accounts a delegate may spend from', async () => {
    const delegate = await generateKeyPairSigner();
    const [makerUsdc] = await findAssociatedTokenPda({
      owner: cluster.marketMaker.address,
      mint: USDC,
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    });
    const { getApproveInstruction } = await import('@solana-program/token');
    await send(
      await signInstructions(
        cluster.marketMaker,
        [
          getApproveInstruction({
            source: makerUsdc,
            delegate: delegate.address,
            owner: cluster.marketMaker,
            amount: 5n,
          }),
        ],
        await latestLifetime(),
      ),
    );
    const found = (
      await rpc
        .getTokenAccountsByDelegate(delegate.address, { mint: USDC }, { encoding: 'jsonParsed' })
        .send()
    ).value;
    expect(found.map((entry) => entry.pubkey)).toEqual([makerUsdc]);
    expect(found[0]!.account.data.parsed.info.delegate).toBe(delegate.address);
    const none = (
      await rpc.getTokenAccountsByDelegate((await generateKeyPairSigner()).address, { mint: USDC }).send()
    ).value;
    expect(none).toEqual([]);
  });
});
