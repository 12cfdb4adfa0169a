import { ed25519 } from '@noble/curves/ed25519.js';
import {
  address,
  createKeyPairSignerFromPrivateKeyBytes,
  createSolanaRpc,
  getBase64EncodedWireTransaction,
  getCompiledTransactionMessageDecoder,
  getSignatureFromTransaction,
  getTransactionDecoder,
  signTransaction,
  type KeyPairSigner,
} from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USDC_MINT } from '@solterm/contracts';
import type { NewTicket, Relay } from '../src/modules/relay/relay.service';
import { createWalletService } from '../src/modules/wallet/wallet.service';
import { createWalletRepository } from '../src/modules/wallet/wallet.repository';
import {
  bearer,
  call,
  createTestApp,
  openTestDatabase,
  registerUser,
  type AuthData,
  type TestApp,
  type TestDatabase,
} from './helpers/test-app';
import {
  createEvmWallet,
  createSolanaWallet,
  signInWithWallet,
  toBase58,
  type SolanaTestWallet,
} from './helpers/wallets';

interface TransferTransaction {
  unsigned_transaction: string;
  last_valid_block_height: string;
  from_address: string;
  to_address: string;
  mint_address: string | null;
  amount: number;
  size_bytes: number;
}

interface KitUser {
  token: string;
  address: string;
  signer: KeyPairSigner;
}

const FEE_LAMPORTS = 5000n;
const TOKEN_ACCOUNT_RENT = 2_039_280n;

/** A Phantom-like wallet whose key also signs transactions (kit KeyPairSigner from the same bytes). */
async function createKitWallet(): Promise<SolanaTestWallet & { signer: KeyPairSigner }> {
  const secretKey = ed25519.utils.randomSecretKey();
  const signer = await createKeyPairSignerFromPrivateKeyBytes(secretKey);
  return {
    address: signer.address,
    signer,
    sign(message, encoding = 'base58') {
      const signature = ed25519.sign(new TextEncoder().encode(message), secretKey);
      return encoding === 'base58' ? toBase58(signature) : Buffer.from(signature).toString(encoding);
    },
  };
}

describe('transfers built for the wallet to sign, on the embedded cluster', () => {
  let database: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    app = await createTestApp({ database });
    await app.server.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  async function kitUser(funding?: { amount_sol: number; amount_usdc: number }): Promise<KitUser> {
    const wallet = await createKitWallet();
    const { status, body } = await signInWithWallet(app, wallet, 'phantom');
    expect(status).toBe(200);
    const user = { token: body.data.token, address: wallet.address, signer: wallet.signer };
    if (funding) expect((await post(user.token, '/api/wallet/fund', funding)).status).toBe(200);
    return user;
  }

  const post = <T = TransferTransaction>(token: string, url: string, payload: object) =>
    call<T>(app, { method: 'POST', url, headers: bearer(token), payload });
  const lamportsOf = async (owner: string) =>
    (await createSolanaRpc(app.rpcUrl()).getBalance(address(owner)).send()).value;
  const usdcOf = async (user: KitUser) =>
    BigInt(
      (
        await call<{ amount: string }>(app, {
          method: 'GET',
          url: `/api/solana/token-balance?mint_address=${USDC_MINT}`,
          headers: bearer(user.token),
        })
      ).body.data.amount,
    );

  /** Signs the server's unsigned transaction with the wallet's key and sends it straight to the cluster. */
  async function signAndSend(signer: KeyPairSigner, unsignedBase64: string): Promise<void> {
    const transaction = getTransactionDecoder().decode(Buffer.from(unsignedBase64, 'base64'));
    // Only the wallet signs: it is the fee payer and its signature slot is still empty.
    expect(Object.keys(transaction.signatures)).toEqual([signer.address]);
    expect(transaction.signatures[signer.address]).toBeNull();
    const message = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
    expect(message.version).toBe(0);
    expect(message.staticAccounts[0]).toBe(signer.address);

    const signed = await signTransaction([signer.keyPair], transaction);
    const signature = getSignatureFromTransaction(signed);
    const rpc = createSolanaRpc(app.rpcUrl());
    await rpc.sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64' }).send();
    for (let attempt = 0; attempt < 200; attempt++) {
      const [status] = (await rpc.getSignatureStatuses([signature]).send()).value;
      if (status?.err) throw new Error(`transfer failed: ${JSON.stringify(status.err)}`);
      if (status?.confirmationStatus === 'confirmed' || status?.confirmationStatus === 'finalized') return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('transfer not confirmed');
  }

  describe('SOL', () => {
    it.each(['/api/wallet/transfer', '/api/solana/transfer'])(
      '%s builds an unsigned transfer that moves SOL once the wallet signs it',
      async (url) => {
        const sender = await kitUser({ amount_sol: 2, amount_usdc: 0 });
        const recipient = (await createKitWallet()).address;
        const { status, body } = await post(sender.token, url, { to_address: recipient, amount: 0.5 });
        expect(status).toBe(200);
        expect(body.data).toMatchObject({
          from_address: sender.address,
          to_address: recipient,
          mint_address: null,
          amount: 0.5,
        });
        expect(body.data.last_valid_block_height).toMatch(/^\d+$/);
        expect(body.data.size_bytes).toBe(Buffer.from(body.data.unsigned_transaction, 'base64').length);
        // Building it moved nothing.
        expect(await lamportsOf(sender.address)).toBe(2_000_000_000n);

        await signAndSend(sender.signer, body.data.unsigned_transaction);
        expect(await lamportsOf(recipient)).toBe(500_000_000n);
        expect(await lamportsOf(sender.address)).toBe(1_500_000_000n - FEE_LAMPORTS);
      },
    );

    it('rounds the amount down to whole lamports', async () => {
      const sender = await kitUser({ amount_sol: 1, amount_usdc: 0 });
      const { status, body } = await post(sender.token, '/api/wallet/transfer', {
        to_address: createSolanaWallet().address,
        amount: 0.0123456789,
      });
      expect(status).toBe(200);
      expect(body.data.amount).toBe(0.012345678);
    });

    it('can send the whole balance minus the fee', async () => {
      const sender = await kitUser({ amount_sol: 1, amount_usdc: 0 });
      const recipient = createSolanaWallet().address;
      const { status, body } = await post(sender.token, '/api/solana/transfer', {
        to_address: recipient,
        amount: 0.999995,
      });
      expect(status).toBe(200);
      await signAndSend(sender.signer, body.data.unsigned_transaction);
      expect(await lamportsOf(sender.address)).toBe(0n);
      expect(await lamportsOf(recipient)).toBe(999_995_000n);
    });
  });

  describe('SPL tokens', () => {
    it('creates the recipient token account, then reuses it, and moves USDC each time', async () => {
      const sender = await kitUser({ amount_sol: 1, amount_usdc: 100 });
      const recipientWallet = await createKitWallet();
      const signedIn = await signInWithWallet(app, recipientWallet, 'solflare');
      const recipient: KitUser = {
        token: signedIn.body.data.token,
        address: recipientWallet.address,
        signer: recipientWallet.signer,
      };

      const first = await post(sender.token, '/api/solana/transfer-token', {
        to_address: recipient.address,
        amount: 25.5,
        mint_address: USDC_MINT,
      });
      expect(first.status).toBe(200);
      expect(first.body.data).toMatchObject({
        from_address: sender.address,
        to_address: recipient.address,
        mint_address: USDC_MINT,
        amount: 25.5,
      });
      expect(await usdcOf(sender)).toBe(100_000_000n);
      await signAndSend(sender.signer, first.body.data.unsigned_transaction);
      expect(await usdcOf(sender)).toBe(74_500_000n);
      expect(await usdcOf(recipient)).toBe(25_500_000n);
      // The sender paid the fee and the new account's rent.
      expect(await lamportsOf(sender.address)).toBe(1_000_000_000n - FEE_LAMPORTS - TOKEN_ACCOUNT_RENT);

      // By symbol, to the now existing account.
      const second = await post(sender.token, '/api/solana/transfer-token', {
        to_address: recipient.address,
        amount: 74.5,
        mint_address: 'USDC',
      });
      expect(second.status).toBe(200);
      expect(second.body.data.mint_address).toBe(USDC_MINT);
      await signAndSend(sender.signer, second.body.data.unsigned_transaction);
      expect(await usdcOf(sender)).toBe(0n);
      expect(await usdcOf(recipient)).toBe(100_000_000n);
      expect(await lamportsOf(sender.address)).toBe(1_000_000_000n - 2n * FEE_LAMPORTS - TOKEN_ACCOUNT_RENT);
    });
  });

  it('is sent by POST /trading/execute-signed-transaction once signed, and only by its own user', async () => {
    const sender = await kitUser({ amount_sol: 1, amount_usdc: 20 });
    const recipient = createSolanaWallet().address;
    const built = await post(sender.token, '/api/solana/transfer-token', {
      to_address: recipient,
      amount: 20,
      mint_address: USDC_MINT,
    });
    expect(built.status).toBe(200);
    const transaction = getTransactionDecoder().decode(
      Buffer.from(built.body.data.unsigned_transaction, 'base64'),
    );
    const signedTransaction = await signTransaction([sender.signer.keyPair], transaction);
    const signed = getBase64EncodedWireTransaction(signedTransaction);

    // Another user cannot relay it: the ticket is the sender's.
    const other = await kitUser();
    const foreign = await post(other.token, '/api/trading/execute-signed-transaction', {
      signed_transaction: signed,
    });
    expect(foreign.status).toBe(400);
    expect(await usdcOf(sender)).toBe(20_000_000n);

    const executed = await post<{ transaction_hash: string; order: unknown }>(
      sender.token,
      '/api/trading/execute-signed-transaction',
      { signed_transaction: signed },
    );
    expect(executed.status).toBe(200);
    expect(executed.body.data).toMatchObject({
      transaction_hash: getSignatureFromTransaction(signedTransaction),
      order: null,
    });
    expect(await usdcOf(sender)).toBe(0n);
  });

  describe('refusals change nothing on chain', () => {
    let sender: KitUser;
    let lamportsBefore: bigint;
    let usdcBefore: bigint;

    beforeAll(async () => {
      sender = await kitUser({ amount_sol: 1, amount_usdc: 50 });
      lamportsBefore = await lamportsOf(sender.address);
      usdcBefore = await usdcOf(sender);
    });

    const stranger = () => createSolanaWallet().address;

    it.each([
      ['0', 0, 'amount: amount must be greater than 0'],
      ['-1', -1, 'amount: amount must be greater than 0'],
      ['1e308', 1e308, 'amount: amount is too large'],
      ['a string', 'NaN', 'amount: amount must be a number'],
      ['null', null, 'amount: amount must be a number'],
    ])('refuses amount %s on every transfer route with the schema message', async (_label, amount, error) => {
      for (const [url, extra] of [
        ['/api/wallet/transfer', {}],
        ['/api/solana/transfer', {}],
        ['/api/solana/transfer-token', { mint_address: USDC_MINT }],
      ] as const) {
        const { status, body } = await post(sender.token, url, { to_address: stranger(), amount, ...extra });
        expect(status).toBe(400);
        expect(body).toMatchObject({
          success: false,
          code: 'VALIDATION__INVALID_INPUT',
          field: 'amount',
          error,
        });
      }
    });

    it('refuses a NaN literal as malformed JSON', async () => {
      const response = await app.server.inject({
        method: 'POST',
        url: '/api/wallet/transfer',
        headers: { ...bearer(sender.token), 'content-type': 'application/json' },
        payload: `{"to_address": "${stranger()}", "amount": NaN}`,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'REQUEST__MALFORMED_JSON' });
    });

    it('refuses a missing recipient or mint with the schema message', async () => {
      const noRecipient = await post(sender.token, '/api/wallet/transfer', { amount: 1 });
      expect(noRecipient.status).toBe(400);
      expect(noRecipient.body).toMatchObject({
        field: 'to_address',
        error: 'to_address: to_address is required',
      });
      const noMint = await post(sender.token, '/api/solana/transfer-token', {
        to_address: stranger(),
        amount: 1,
      });
      expect(noMint.status).toBe(400);
      expect(noMint.body).toMatchObject({
        field: 'mint_address',
        error: 'mint_address: mint_address is required',
      });
    });

    it.each([
      ['an invalid address', 'not-an-address'],
      ['an EVM address', '0x52908400098527886E0F7030069857D2E4169EE7'],
      ['base58 that is not 32 bytes', '1111111111111111111111111111111'],
    ])('refuses %s as the recipient', async (_label, toAddress) => {
      for (const [url, extra] of [
        ['/api/wallet/transfer', {}],
        ['/api/solana/transfer-token', { mint_address: USDC_MINT }],
      ] as const) {
        const { status, body } = await post(sender.token, url, {
          to_address: toAddress,
          amount: 0.1,
          ...extra,
        });
        expect(status).toBe(400);
        expect(body).toMatchObject({
          code: 'WALLET__RECIPIENT_INVALID',
          error: 'Please enter a valid Solana address to send to',
        });
      }
    });

    it('refuses sending to the own wallet', async () => {
      for (const [url, extra] of [
        ['/api/solana/transfer', {}],
        ['/api/solana/transfer-token', { mint_address: USDC_MINT }],
      ] as const) {
        const { status, body } = await post(sender.token, url, {
          to_address: sender.address,
          amount: 0.1,
          ...extra,
        });
        expect(status).toBe(400);
        expect(body).toMatchObject({
          code: 'WALLET__RECIPIENT_IS_SENDER',
          error: 'You cannot send to your own wallet',
        });
      }
    });

    it('refuses an amount below one base unit', async () => {
      const sol = await post(sender.token, '/api/wallet/transfer', { to_address: stranger(), amount: 1e-10 });
      expect(sol.status).toBe(400);
      expect(sol.body).toMatchObject({
        code: 'WALLET__AMOUNT_TOO_SMALL',
        error: 'amount must be greater than 0',
      });
      const usdc = await post(sender.token, '/api/solana/transfer-token', {
        to_address: stranger(),
        amount: 0.0000001,
        mint_address: USDC_MINT,
      });
      expect(usdc.status).toBe(400);
      expect(usdc.body).toMatchObject({
        code: 'WALLET__AMOUNT_TOO_SMALL',
        error: 'amount must be greater than 0',
      });
    });

    it('refuses more SOL than the balance covers with the fee', async () => {
      const message = 'Insufficient balance: Please check your wallet balance.';
      for (const amount of [2, 1, 1e12]) {
        const { status, body } = await post(sender.token, '/api/wallet/transfer', {
          to_address: stranger(),
          amount,
        });
        expect(status).toBe(400);
        expect(body).toMatchObject({ code: 'WALLET__INSUFFICIENT_BALANCE', error: message });
      }
    });

    it('refuses a transfer the runtime would reject for rent', async () => {
      const dust = await post(sender.token, '/api/wallet/transfer', {
        to_address: stranger(),
        amount: 0.0001,
      });
      expect(dust.status).toBe(400);
      expect(dust.body).toMatchObject({
        code: 'WALLET__RECIPIENT_BELOW_RENT',
        error: 'The recipient account is new and must receive at least 0.00089088 SOL',
      });
      // 1 SOL − 0.9999 − fee leaves 95,000 lamports: neither empty nor rent-exempt.
      const leftover = await post(sender.token, '/api/wallet/transfer', {
        to_address: stranger(),
        amount: 0.9999,
      });
      expect(leftover.status).toBe(400);
      expect(leftover.body.code).toBe('WALLET__SENDER_BELOW_RENT');
    });

    it('refuses more tokens than held, or too little SOL for the fee and the new account', async () => {
      const tooMuch = await post(sender.token, '/api/solana/transfer-token', {
        to_address: stranger(),
        amount: 50.000001,
        mint_address: USDC_MINT,
      });
      expect(tooMuch.status).toBe(400);
      expect(tooMuch.body.code).toBe('WALLET__INSUFFICIENT_BALANCE');
      const notHeld = await post(sender.token, '/api/solana/transfer-token', {
        to_address: stranger(),
        amount: 1,
        mint_address: 'BONK',
      });
      expect(notHeld.status).toBe(400);
      expect(notHeld.body.code).toBe('WALLET__INSUFFICIENT_BALANCE');

      const poor = await kitUser({ amount_sol: 0.001, amount_usdc: 10 });
      const refused = await post(poor.token, '/api/solana/transfer-token', {
        to_address: stranger(),
        amount: 1,
        mint_address: USDC_MINT,
      });
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe('WALLET__INSUFFICIENT_BALANCE');
      expect(await lamportsOf(poor.address)).toBe(1_000_000n);
    });

    it('refuses a mint that is not an SPL token mint, or not a mint at all', async () => {
      for (const [mint, code, error] of [
        [stranger(), 'WALLET__TOKEN_NOT_FOUND', 'This address is not an SPL token mint'],
        [sender.address, 'WALLET__TOKEN_NOT_FOUND', 'This address is not an SPL token mint'],
        ['NOTATOKEN', 'WALLET__MINT_INVALID', 'Please enter a valid token mint address or symbol'],
      ]) {
        const { status, body } = await post(sender.token, '/api/solana/transfer-token', {
          to_address: stranger(),
          amount: 1,
          mint_address: mint,
        });
        expect(status).toBe(400);
        expect(body).toMatchObject({ code, error });
      }
    });

    it('left the sender exactly as funded', async () => {
      expect(await lamportsOf(sender.address)).toBe(lamportsBefore);
      expect(await usdcOf(sender)).toBe(usdcBefore);
    });
  });

  it('registers each built transfer as a ticket holding the exact message the wallet signs', async () => {
    const registered: (Omit<NewTicket<unknown>, 'kind'> & { kind: string })[] = [];
    const wallet = createWalletService({
      chain: app.services.chain,
      market: app.services.market,
      network: 'localnet',
      faucetRateLimit: app.config.faucetRateLimit,
      faucetGrants: createWalletRepository(app.database.db),
      now: () => new Date(),
      // The relay as far as the wallet uses it: kinds registered, built transfers remembered.
      relay: {
        ...app.services.relay,
        registerKind() {},
        server: { ...app.services.relay.server, registerKind() {} },
        async register(ticket: NewTicket<unknown>) {
          registered.push({ ...ticket, kind: ticket.kind.kind });
          return { id: `ticket-${registered.length}` };
        },
      } as Relay,
    });
    const sender = await kitUser({ amount_sol: 1, amount_usdc: 10 });
    const owner = {
      id: 'user-1',
      solanaWalletAddress: sender.address,
      walletType: 'phantom',
      isWatchOnly: false,
    };
    const to = createSolanaWallet().address;
    const sol = await wallet.transferSol(owner, { to_address: to, amount: 0.25 });
    const usdc = await wallet.transferToken(owner, { to_address: to, amount: 1.5, mint_address: 'usdc' });

    expect(registered).toHaveLength(2);
    for (const [ticket, built, payload] of [
      [registered[0]!, sol, { to_address: to, mint_address: null, amount_base_units: '250000000' }],
      [registered[1]!, usdc, { to_address: to, mint_address: USDC_MINT, amount_base_units: '1500000' }],
    ] as const) {
      const transaction = getTransactionDecoder().decode(Buffer.from(built.unsigned_transaction, 'base64'));
      expect(ticket).toMatchObject({
        userId: 'user-1',
        kind: 'transfer',
        walletAddress: sender.address,
        payload,
      });
      expect(Buffer.from(ticket.messageBytes).equals(Buffer.from(transaction.messageBytes))).toBe(true);
      expect(ticket.lastValidBlockHeight.toString()).toBe(built.last_valid_block_height);
    }
  });

  describe('wallets that cannot sign', () => {
    const attempts = (to: string) =>
      [
        ['/api/wallet/transfer', { to_address: to, amount: 0.1 }],
        ['/api/solana/transfer', { to_address: to, amount: 0.1 }],
        ['/api/solana/transfer-token', { to_address: to, amount: 0.1, mint_address: USDC_MINT }],
      ] as const;

    it('a watch-only session is refused as watch-only', async () => {
      const wallet = createSolanaWallet();
      const watch = await call<AuthData>(app, {
        method: 'POST',
        url: '/api/auth/connect-wallet',
        payload: { wallet_address: wallet.address, wallet_type: 'manual' },
      });
      for (const [url, payload] of attempts(createSolanaWallet().address)) {
        const { status, body } = await post(watch.body.data.token, url, payload);
        expect(status).toBe(403);
        expect(body).toMatchObject({
          code: 'WALLET__WATCH_ONLY',
          error: 'This is a watch-only wallet. Connect a signing wallet (Phantom, Solflare) to trade.',
        });
      }
    });

    it('a MetaMask session gets the Solana-only message', async () => {
      const { body: signedIn } = await signInWithWallet(app, createEvmWallet(), 'metamask');
      for (const [url, payload] of attempts(createSolanaWallet().address)) {
        const { status, body } = await post(signedIn.data.token, url, payload);
        expect(status).toBe(400);
        expect(body.code).toBe('WALLET__SOLANA_ONLY');
      }
    });

    it('an account with no wallet is told to connect one', async () => {
      const user = await registerUser(app);
      for (const [url, payload] of attempts(createSolanaWallet().address)) {
        const { status, body } = await post(user.token, url, payload);
        expect(status).toBe(400);
        expect(body).toMatchObject({
          code: 'WALLET__NOT_CONNECTED',
          error: 'No wallet connected. Please connect a wallet first.',
        });
      }
    });

    it('requires a session', async () => {
      for (const [url, payload] of attempts(createSolanaWallet().address)) {
        expect((await call(app, { method: 'POST', url, payload })).status).toBe(401);
      }
    });
  });
});
