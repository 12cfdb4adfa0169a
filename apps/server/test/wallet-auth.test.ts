import { ed25519 } from '@noble/curves/ed25519.js';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { custodialWallets } from '../src/modules/auth/auth.tables';
import { decryptSecret } from '../src/lib/server-keys';
import { decodeBase58 } from '../src/modules/auth/wallet-signature';
import {
  bearer,
  call,
  createTestApp,
  databaseTargets,
  openTestDatabase,
  registerUser,
  type AuthData,
  type TestApp,
  type TestDatabase,
} from './helpers/test-app';
import {
  createEvmWallet,
  createSolanaWallet,
  getChallenge,
  signInWithWallet,
  toBase58,
  type SolanaTestWallet,
} from './helpers/wallets';

const WALLET_ENCRYPTION_KEY = 'a1'.repeat(32);
const CHALLENGE_TTL_MS = 5 * 60 * 1000;

type User = AuthData['user'];

describe.each(databaseTargets())('wallet sign-in API on %s', (target) => {
  let database: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    database = await openTestDatabase(target);
    app = await createTestApp({ database, env: { WALLET_ENCRYPTION_KEY } });
  });

  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  const connect = (payload: Record<string, unknown>) =>
    call<AuthData>(app, { method: 'POST', url: '/api/auth/connect-wallet', payload });
  const profile = (token: string) =>
    call<User>(app, { method: 'GET', url: '/api/user/profile', headers: bearer(token) });

  describe('challenge', () => {
    it('is a Sign-In-With-Solana message bound to the address, host and a fresh nonce, valid for 5 minutes', async () => {
      const wallet = createSolanaWallet();

      const first = await getChallenge(app, wallet.address, 'phantom');
      const second = await getChallenge(app, wallet.address, 'phantom');

      const lines = first.message.split('\n');
      // PUBLIC_URL is unset in tests: the origin is http://localhost:$PORT (8080), never the Host header.
      expect(lines[0]).toBe('localhost:8080 wants you to sign in with your Solana account:');
      expect(first.message).toContain('URI: http://localhost:8080\n');
      expect(lines[1]).toBe(wallet.address);
      expect(first.message).toContain(`Nonce: ${first.nonce}`);
      expect(first.message).toContain('Chain ID: localnet');
      expect(new Date(first.expires_at).getTime() - new Date(first.issued_at).getTime()).toBe(
        CHALLENGE_TTL_MS,
      );
      expect(second.nonce).not.toBe(first.nonce);
    });

    it.each([
      ['Host', { host: 'phish.example' }],
      ['X-Forwarded-Host', { 'x-forwarded-host': 'phish.example', 'x-forwarded-proto': 'https' }],
    ])('names the configured origin whatever the %s header says', async (_name, headers) => {
      const wallet = createSolanaWallet();

      const { status, body } = await call<{ message: string }>(app, {
        method: 'GET',
        url: '/api/auth/wallet-challenge',
        query: { wallet_address: wallet.address, wallet_type: 'phantom' },
        headers,
      });

      expect(status).toBe(200);
      expect(body.data.message.split('\n')[0]).toBe(
        'localhost:8080 wants you to sign in with your Solana account:',
      );
      expect(body.data.message).toContain('URI: http://localhost:8080\n');
      expect(body.data.message).not.toContain('phish');
    });

    it('refuses an address that is not a Solana public key (or an EVM address for MetaMask)', async () => {
      const evm = createEvmWallet();
      const cases: [string, string][] = [
        ['not-base58-0OIl', 'phantom'],
        [toBase58(new Uint8Array(31).fill(7)), 'solflare'],
        [evm.address, 'phantom'],
        [createSolanaWallet().address, 'metamask'],
      ];

      for (const [address, walletType] of cases) {
        const { status, body } = await call(app, {
          method: 'GET',
          url: '/api/auth/wallet-challenge',
          query: { wallet_address: address, wallet_type: walletType },
        });
        expect(status, `${walletType} ${address}`).toBe(400);
        expect(body.code).toBe('WALLET__ADDRESS_INVALID');
      }
    });

    it('cannot be requested for a manual wallet', async () => {
      const { status } = await call(app, {
        method: 'GET',
        url: '/api/auth/wallet-challenge',
        query: { wallet_address: createSolanaWallet().address, wallet_type: 'manual' },
      });

      expect(status).toBe(400);
    });
  });

  describe('connect-wallet with a Solana wallet', () => {
    it.each([
      ['phantom', 'base58'],
      ['solflare', 'base64'],
      ['solana', 'base58'],
      ['phantom', 'hex'],
    ] as const)(
      'signs in a %s wallet with a %s signature and creates its account once',
      async (walletType, encoding) => {
        const wallet = createSolanaWallet();

        const first = await signInWithWallet(app, wallet, walletType, { encoding });
        const second = await signInWithWallet(app, wallet, walletType, { encoding });

        expect(first.status).toBe(200);
        expect(first.body.data.user).toMatchObject({
          username: `wallet_${wallet.address.slice(0, 8)}`,
          email: null,
          solana_wallet_address: wallet.address,
          wallet_type: walletType,
          is_watch_only: false,
          has_password: false,
        });
        expect(second.status).toBe(200);
        expect(second.body.data.user.id).toBe(first.body.data.user.id);
        expect(second.body.data.token).not.toBe(first.body.data.token);
        expect((await profile(second.body.data.token)).body.data.id).toBe(first.body.data.user.id);
      },
    );

    it('refuses a replayed challenge', async () => {
      const wallet = createSolanaWallet();
      const challenge = await getChallenge(app, wallet.address, 'phantom');
      const payload = {
        wallet_address: wallet.address,
        wallet_type: 'phantom',
        signature: wallet.sign(challenge.message),
        message: challenge.message,
      };

      const first = await connect(payload);
      const replay = await connect(payload);

      expect(first.status).toBe(200);
      expect(replay.status).toBe(400);
      expect(replay.body).toEqual({
        success: false,
        error: 'Sign-in challenge is unknown or was already used. Please try again.',
        code: 'WALLET__CHALLENGE_INVALID',
      });
    });

    it('refuses a signature made by another key with 401', async () => {
      const wallet = createSolanaWallet();
      const impostor = createSolanaWallet();
      const challenge = await getChallenge(app, wallet.address, 'phantom');

      const { status, body } = await connect({
        wallet_address: wallet.address,
        wallet_type: 'phantom',
        signature: impostor.sign(challenge.message),
        message: challenge.message,
      });

      expect(status).toBe(401);
      expect(body).toEqual({
        success: false,
        error: 'Wallet signature verification failed',
        code: 'WALLET__SIGNATURE_INVALID',
      });
    });

    it('refuses a forged signature for a small-order address (one signature that fits every message)', async () => {
      const identityPoint = new Uint8Array(32);
      identityPoint[0] = 1;
      const forged = new Uint8Array(64);
      forged[0] = 1;
      const address = toBase58(identityPoint);
      const challenge = await getChallenge(app, address, 'phantom');

      const { status, body } = await connect({
        wallet_address: address,
        wallet_type: 'phantom',
        signature: toBase58(forged),
        message: challenge.message,
      });

      expect(status).toBe(401);
      expect(body.code).toBe('WALLET__SIGNATURE_INVALID');
    });

    it('refuses a signature that is not 64 bytes in any supported encoding', async () => {
      const wallet = createSolanaWallet();
      const challenge = await getChallenge(app, wallet.address, 'phantom');

      const { status, body } = await connect({
        wallet_address: wallet.address,
        wallet_type: 'phantom',
        signature: wallet.sign(challenge.message).slice(0, -4),
        message: challenge.message,
      });

      expect(status).toBe(401);
      expect(body.code).toBe('WALLET__SIGNATURE_INVALID');
    });

    it('refuses a challenge signed after its 5 minutes', async () => {
      const wallet = createSolanaWallet();
      const challenge = await getChallenge(app, wallet.address, 'phantom');
      app.clock.advance(CHALLENGE_TTL_MS + 1000);

      const { status, body } = await connect({
        wallet_address: wallet.address,
        wallet_type: 'phantom',
        signature: wallet.sign(challenge.message),
        message: challenge.message,
      });

      expect(status).toBe(400);
      expect(body).toEqual({
        success: false,
        error: 'Sign-in challenge expired. Please try again.',
        code: 'WALLET__CHALLENGE_EXPIRED',
      });
    });

    it('refuses a challenge whose text was changed, even when the change is signed', async () => {
      const wallet = createSolanaWallet();
      const challenge = await getChallenge(app, wallet.address, 'phantom');
      const tampered = challenge.message.replace('localhost:80', 'evil.example');

      const { status, body } = await connect({
        wallet_address: wallet.address,
        wallet_type: 'phantom',
        signature: wallet.sign(tampered),
        message: tampered,
      });

      expect(status).toBe(400);
      expect(body.code).toBe('WALLET__CHALLENGE_MISMATCH');
    });

    it('refuses a message without a nonce', async () => {
      const wallet = createSolanaWallet();
      const message = 'Sign in to solterm';

      const { status, body } = await connect({
        wallet_address: wallet.address,
        wallet_type: 'phantom',
        signature: wallet.sign(message),
        message,
      });

      expect(status).toBe(400);
      expect(body.code).toBe('WALLET__CHALLENGE_MISMATCH');
    });

    it("refuses another wallet's challenge, even signed by its owner", async () => {
      const victim = createSolanaWallet();
      const attacker = createSolanaWallet();
      const challenge = await getChallenge(app, victim.address, 'phantom');

      const { status, body } = await connect({
        wallet_address: attacker.address,
        wallet_type: 'phantom',
        signature: attacker.sign(challenge.message),
        message: challenge.message,
      });

      expect(status).toBe(400);
      expect(body.code).toBe('WALLET__CHALLENGE_MISMATCH');
    });

    it('refuses an invalid address', async () => {
      const { status, body } = await connect({
        wallet_address: 'definitely-not-an-address',
        wallet_type: 'phantom',
        signature: 'x',
        message: 'y',
      });

      expect(status).toBe(400);
      expect(body).toEqual({
        success: false,
        error: 'Invalid wallet address for this wallet type',
        code: 'WALLET__ADDRESS_INVALID',
      });
    });

    it('refuses a signing wallet type without a signature or message', async () => {
      const wallet = createSolanaWallet();
      const challenge = await getChallenge(app, wallet.address, 'phantom');

      const noSignature = await connect({
        wallet_address: wallet.address,
        wallet_type: 'phantom',
        message: challenge.message,
      });
      const noMessage = await connect({
        wallet_address: wallet.address,
        wallet_type: 'phantom',
        signature: wallet.sign(challenge.message),
      });

      for (const { status, body } of [noSignature, noMessage]) {
        expect(status).toBe(400);
        expect(body).toEqual({
          success: false,
          error: 'A signed sign-in message is required for this wallet',
          code: 'WALLET__SIGNATURE_REQUIRED',
        });
      }
    });
  });

  describe('connect-wallet with MetaMask', () => {
    it('signs in with an EIP-191 signature, whatever the case of the address', async () => {
      const wallet = createEvmWallet();

      const first = await signInWithWallet(app, wallet, 'metamask');
      const challenge = await getChallenge(app, wallet.address, 'metamask');
      const lowerCase = await connect({
        wallet_address: wallet.address.toLowerCase(),
        wallet_type: 'metamask',
        chain_id: '0x89',
        signature: await wallet.sign(challenge.message),
        message: challenge.message,
      });

      expect(challenge.message).toContain('wants you to sign in with your Ethereum account:');
      expect(challenge.message).toContain('Chain ID: 1');
      expect(first.status).toBe(200);
      expect(first.body.data.user).toMatchObject({ wallet_type: 'metamask', is_watch_only: false });
      expect(lowerCase.status).toBe(200);
      expect(lowerCase.body.data.user.id).toBe(first.body.data.user.id);
    });

    it('refuses a signature by another account with 401', async () => {
      const wallet = createEvmWallet();
      const other = createEvmWallet();
      const challenge = await getChallenge(app, wallet.address, 'metamask');

      const { status, body } = await connect({
        wallet_address: wallet.address,
        wallet_type: 'metamask',
        signature: await other.sign(challenge.message),
        message: challenge.message,
      });

      expect(status).toBe(401);
      expect(body.code).toBe('WALLET__SIGNATURE_INVALID');
    });

    it('refuses a Solana challenge signed for MetaMask', async () => {
      const solana = createSolanaWallet();
      const evm = createEvmWallet();
      const challenge = await getChallenge(app, solana.address, 'phantom');

      const { status } = await connect({
        wallet_address: evm.address,
        wallet_type: 'metamask',
        signature: await evm.sign(challenge.message),
        message: challenge.message,
      });

      expect(status).toBe(400);
    });
  });

  describe('a message signed for another site', () => {
    // A phishing deployment whose challenges land in the same database: its messages are real, stored,
    // unexpired challenges, but they name the phishing site, so this server must refuse them.
    let phishing: TestApp;

    beforeAll(async () => {
      phishing = await createTestApp({
        database,
        env: { WALLET_ENCRYPTION_KEY, PUBLIC_URL: 'https://solterm-login.example' },
      });
    });

    afterAll(async () => {
      await phishing?.close();
    });

    async function signedElsewhere(wallet: SolanaTestWallet) {
      const challenge = await getChallenge(phishing, wallet.address, 'phantom');
      expect(challenge.message).toMatch(/^solterm-login\.example wants you/);
      return {
        wallet_address: wallet.address,
        wallet_type: 'phantom',
        signature: wallet.sign(challenge.message),
        message: challenge.message,
      };
    }

    it('is refused by connect-wallet with 400 and no account is created', async () => {
      const wallet = createSolanaWallet();

      const { status, body } = await connect(await signedElsewhere(wallet));

      expect(status).toBe(400);
      expect(body).toEqual({
        success: false,
        error: 'The signed message was issued for another website. Only sign messages shown by this site.',
        code: 'WALLET__CHALLENGE_WRONG_SITE',
      });
      const { rows } = (await app.database.db.execute(
        `select count(*)::int as n from wallet_identities where address = '${wallet.address}'`,
      )) as unknown as { rows: { n: number }[] };
      expect(rows[0]!.n).toBe(0);
    });

    it('is refused by connect-wallet-to-user', async () => {
      const owner = await registerUser(app);
      const wallet = createSolanaWallet();

      const { status, body } = await call(app, {
        method: 'POST',
        url: '/api/auth/connect-wallet-to-user',
        headers: bearer(owner.token),
        payload: await signedElsewhere(wallet),
      });

      expect(status).toBe(400);
      expect(body.code).toBe('WALLET__CHALLENGE_WRONG_SITE');
      expect((await profile(owner.token)).body.data.solana_wallet_address).toBeNull();
    });
  });

  describe('watch-only isolation', () => {
    it('keeps a typed address apart from the account of the wallet that signs for it', async () => {
      const wallet = createSolanaWallet();
      const manual = { wallet_address: wallet.address, wallet_type: 'manual' };

      const watch = await connect(manual);
      const signed = await signInWithWallet(app, wallet, 'phantom');
      const watchAgain = await connect(manual);

      expect(watch.status).toBe(200);
      expect(watch.body.data.user).toMatchObject({
        solana_wallet_address: wallet.address,
        wallet_type: 'manual',
        is_watch_only: true,
      });
      expect(signed.status).toBe(200);
      expect(signed.body.data.user.is_watch_only).toBe(false);
      expect(signed.body.data.user.id).not.toBe(watch.body.data.user.id);
      expect(watchAgain.body.data.user.id).toBe(watch.body.data.user.id);
      expect(watchAgain.body.data.user.is_watch_only).toBe(true);
    });

    it('signing in with a wallet whose address was typed before gives a signing account, not the watch one', async () => {
      const wallet = createSolanaWallet();
      const signedFirst = await signInWithWallet(app, wallet, 'solflare');

      const watch = await connect({ wallet_address: wallet.address, wallet_type: 'manual' });

      expect(watch.body.data.user.id).not.toBe(signedFirst.body.data.user.id);
      expect(watch.body.data.user.is_watch_only).toBe(true);
    });

    it('a watch-only account can neither create a custodial wallet nor link a wallet', async () => {
      const watched = createSolanaWallet();
      const token = (await connect({ wallet_address: watched.address, wallet_type: 'manual' })).body.data
        .token;

      const createWallet = await call(app, {
        method: 'POST',
        url: '/api/auth/create-wallet',
        headers: bearer(token),
      });
      const linkSigned = await signInWithWallet(app, watched, 'phantom', {
        url: '/api/auth/connect-wallet-to-user',
        headers: bearer(token),
      });
      const linkManual = await call(app, {
        method: 'POST',
        url: '/api/auth/connect-wallet-to-user',
        headers: bearer(token),
        payload: { wallet_address: createSolanaWallet().address, wallet_type: 'manual' },
      });

      expect(createWallet.status).toBe(403);
      expect(createWallet.body.code).toBe('WALLET__WATCH_ONLY');
      for (const link of [linkSigned, linkManual]) {
        expect(link.status).toBe(403);
        expect(link.body.code).toBe('WALLET__WATCH_ONLY_ACCOUNT');
      }
      expect((await profile(token)).body.data.solana_wallet_address).toBe(watched.address);
    });
  });

  describe('linking a wallet to an account', () => {
    it('links a signed wallet to a password account; signing in with that wallet then reaches the same account', async () => {
      const owner = await registerUser(app);
      const wallet = createSolanaWallet();

      const linked = await signInWithWallet<User>(app, wallet, 'phantom', {
        url: '/api/auth/connect-wallet-to-user',
        headers: bearer(owner.token),
      });
      const signedIn = await signInWithWallet(app, wallet, 'phantom');

      expect(linked.status).toBe(200);
      expect(linked.body.data).toMatchObject({
        id: owner.user.id,
        solana_wallet_address: wallet.address,
        wallet_type: 'phantom',
        has_password: true,
      });
      expect(signedIn.status).toBe(200);
      expect(signedIn.body.data.user.id).toBe(owner.user.id);
      expect(signedIn.body.data.user.email).toBe(owner.email);
    });

    it('refuses to link a wallet that already belongs to another account with 409', async () => {
      const owner = await registerUser(app);
      const other = await registerUser(app);
      const wallet = createSolanaWallet();
      await signInWithWallet(app, wallet, 'phantom', {
        url: '/api/auth/connect-wallet-to-user',
        headers: bearer(owner.token),
      });

      const { status, body } = await signInWithWallet(app, wallet, 'phantom', {
        url: '/api/auth/connect-wallet-to-user',
        headers: bearer(other.token),
      });

      expect(status).toBe(409);
      expect(body).toEqual({
        success: false,
        error: 'This wallet is already linked to another account',
        code: 'WALLET__ALREADY_LINKED',
      });
      expect((await profile(other.token)).body.data.solana_wallet_address).toBeNull();
    });

    it('refuses to link a wallet that signed in on its own before', async () => {
      const wallet = createSolanaWallet();
      await signInWithWallet(app, wallet, 'phantom');
      const owner = await registerUser(app);

      const { status } = await signInWithWallet(app, wallet, 'phantom', {
        url: '/api/auth/connect-wallet-to-user',
        headers: bearer(owner.token),
      });

      expect(status).toBe(409);
    });

    it('refuses to link with a signature by another key', async () => {
      const owner = await registerUser(app);
      const wallet = createSolanaWallet();
      const impostor: SolanaTestWallet = { address: wallet.address, sign: createSolanaWallet().sign };

      const { status } = await signInWithWallet(app, impostor, 'phantom', {
        url: '/api/auth/connect-wallet-to-user',
        headers: bearer(owner.token),
      });

      expect(status).toBe(401);
    });

    it('needs a session', async () => {
      const { status } = await call(app, {
        method: 'POST',
        url: '/api/auth/connect-wallet-to-user',
        payload: { wallet_address: createSolanaWallet().address, wallet_type: 'manual' },
      });

      expect(status).toBe(401);
    });

    it('disconnect-wallet clears the connected wallet but keeps its sign-in', async () => {
      const wallet = createSolanaWallet();
      const { token, user } = (await signInWithWallet(app, wallet, 'phantom')).body.data;

      const disconnected = await call<User>(app, {
        method: 'POST',
        url: '/api/auth/disconnect-wallet',
        headers: bearer(token),
      });

      expect(disconnected.status).toBe(200);
      expect(disconnected.body.data).toMatchObject({
        id: user.id,
        solana_wallet_address: null,
        wallet_type: null,
      });
      expect((await profile(token)).body.data).toMatchObject({
        solana_wallet_address: null,
        wallet_type: null,
      });

      const signedInAgain = await signInWithWallet(app, wallet, 'phantom');

      expect(signedInAgain.body.data.user).toMatchObject({
        id: user.id,
        solana_wallet_address: wallet.address,
      });
    });
    it('disconnect-wallet: the next request of the session acts for the account without its wallet', async () => {
      const wallet = createSolanaWallet();
      const { token } = (await signInWithWallet(app, wallet, 'phantom')).body.data;
      const status = async () =>
        (
          await call<{ connected: boolean }>(app, {
            method: 'GET',
            url: '/api/wallet/status',
            headers: bearer(token),
          })
        ).body.data;
      expect(await status()).toMatchObject({ connected: true });

      await call(app, { method: 'POST', url: '/api/auth/disconnect-wallet', headers: bearer(token) });

      expect(await status()).toMatchObject({ connected: false });
    });
  });

  describe('create-wallet', () => {
    it('creates one custodial wallet per user, whose stored secret is encrypted', async () => {
      const { token, user } = await registerUser(app);

      // The web client posts without a body; an empty JSON object must work the same.
      const first = await call<{ wallet_address: string; wallet_type: string; created: boolean }>(app, {
        method: 'POST',
        url: '/api/auth/create-wallet',
        headers: bearer(token),
      });
      const second = await call<{ wallet_address: string; created: boolean }>(app, {
        method: 'POST',
        url: '/api/auth/create-wallet',
        headers: bearer(token),
        payload: {},
      });

      expect(first.status).toBe(200);
      expect(first.body.data).toMatchObject({ wallet_type: 'custodial', created: true });
      expect(decodeBase58(first.body.data.wallet_address)).toHaveLength(32);
      expect(second.body.data).toEqual({
        wallet_address: first.body.data.wallet_address,
        wallet_type: 'custodial',
        created: false,
      });

      const rows = await app.database.db
        .select()
        .from(custodialWallets)
        .where(eq(custodialWallets.userId, user.id));
      expect(rows).toHaveLength(1);
      const row = rows[0]!;
      expect(row.publicKey).toBe(first.body.data.wallet_address);
      const seed = decryptSecret(
        Buffer.from(WALLET_ENCRYPTION_KEY, 'hex'),
        row.encryptedSecret,
        row.publicKey,
      );
      expect(seed).toHaveLength(32);
      // The decrypted seed is the key of the address, and no encoding of it appears in the stored text.
      expect(toBase58(ed25519.getPublicKey(seed))).toBe(row.publicKey);
      const stored = Buffer.from(row.encryptedSecret, 'base64');
      expect(stored.includes(Buffer.from(seed))).toBe(false);
      for (const encoding of ['hex', 'base64', 'base64url'] as const) {
        expect(row.encryptedSecret).not.toContain(Buffer.from(seed).toString(encoding));
      }
      expect(row.encryptedSecret).not.toContain(toBase58(seed));
    });

    it('gives each user a different wallet, also users signed in with a wallet', async () => {
      const passwordUser = await registerUser(app);
      const walletUser = (await signInWithWallet(app, createSolanaWallet(), 'phantom')).body.data;

      const a = await call<{ wallet_address: string }>(app, {
        method: 'POST',
        url: '/api/auth/create-wallet',
        headers: bearer(passwordUser.token),
      });
      const b = await call<{ wallet_address: string }>(app, {
        method: 'POST',
        url: '/api/auth/create-wallet',
        headers: bearer(walletUser.token),
      });

      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      expect(a.body.data.wallet_address).not.toBe(b.body.data.wallet_address);
    });
  });
});
