import { ed25519 } from '@noble/curves/ed25519.js';
import {
  AccountRole,
  address,
  appendTransactionMessageInstruction,
  blockhash,
  compileTransaction,
  createTransactionMessage,
  getBase58Decoder,
  getTransactionDecoder,
  getTransactionEncoder,
  getUtf8Encoder,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Address,
  type SignatureBytes,
} from '@solana/kit';
import { SolanaSignMessage, SolanaSignTransaction } from '@solana/wallet-standard-features';
import { StandardConnect, StandardDisconnect, StandardEvents } from '@wallet-standard/features';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { generateLocalKeypair, signWithLocalKeypair, type LocalKeypair } from './local-keypair';
import { LOCAL_WALLET_CHAINS, LOCAL_WALLET_NAME, LocalWallet } from './local-wallet';

const MEMO_PROGRAM = address('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

/** A wire transaction paid by `feePayer` (already signed by it) that also needs `cosigner`'s signature. */
function buildTransaction(version: 0 | 'legacy', feePayer: LocalKeypair, cosigner: Address): Uint8Array {
  const message = pipe(
    createTransactionMessage({ version }),
    (m) => setTransactionMessageFeePayer(feePayer.address, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        {
          blockhash: blockhash(getBase58Decoder().decode(crypto.getRandomValues(new Uint8Array(32)))),
          lastValidBlockHeight: 100n,
        },
        m,
      ),
    (m) =>
      appendTransactionMessageInstruction(
        {
          programAddress: MEMO_PROGRAM,
          accounts: [{ address: cosigner, role: AccountRole.READONLY_SIGNER }],
          data: getUtf8Encoder().encode('solterm local wallet test'),
        },
        m,
      ),
  );
  const compiled = compileTransaction(message);
  const feePayerSignature = signWithLocalKeypair(
    feePayer,
    Uint8Array.from(compiled.messageBytes),
  ) as SignatureBytes;
  const partiallySigned = {
    ...compiled,
    signatures: { ...compiled.signatures, [feePayer.address]: feePayerSignature },
  };
  return Uint8Array.from(getTransactionEncoder().encode(partiallySigned));
}

async function connectedWallet(): Promise<LocalWallet> {
  const wallet = new LocalWallet(localStorage);
  wallet.create();
  await wallet.features[StandardConnect].connect();
  return wallet;
}

describe('LocalWallet as a Wallet Standard wallet', () => {
  beforeEach(() => localStorage.clear());

  it('has the Standard shape: version, name, data: icon, test chains, features', () => {
    const wallet = new LocalWallet(localStorage);
    expect(wallet.version).toBe('1.0.0');
    expect(wallet.name).toBe(LOCAL_WALLET_NAME);
    expect(wallet.icon).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(wallet.chains).toEqual(['solana:localnet', 'solana:devnet', 'solana:testnet']);
    expect(Object.keys(wallet.features).sort()).toEqual(
      [StandardConnect, StandardDisconnect, StandardEvents, SolanaSignMessage, SolanaSignTransaction].sort(),
    );
    expect(wallet.features[SolanaSignTransaction].supportedTransactionVersions).toEqual(['legacy', 0]);
    expect(wallet.accounts).toEqual([]);
  });

  it('connect needs a key; silent connect answers only for an app connected before', async () => {
    const wallet = new LocalWallet(localStorage);
    await expect(wallet.features[StandardConnect].connect()).rejects.toThrow('Create or import');
    expect((await wallet.features[StandardConnect].connect({ silent: true })).accounts).toEqual([]);

    const created = wallet.create();
    // Not trusted yet: a silent connect must not connect.
    expect((await wallet.features[StandardConnect].connect({ silent: true })).accounts).toEqual([]);

    const { accounts } = await wallet.features[StandardConnect].connect();
    expect(accounts.map((account) => account.address)).toEqual([created]);
    expect(accounts[0]!.chains).toEqual(LOCAL_WALLET_CHAINS);

    // A new page (new instance over the same storage) now reconnects silently.
    const reloaded = new LocalWallet(localStorage);
    expect((await reloaded.features[StandardConnect].connect({ silent: true })).accounts[0]?.address).toBe(
      created,
    );

    await reloaded.features[StandardDisconnect].disconnect();
    expect(reloaded.accounts).toEqual([]);
    const afterDisconnect = new LocalWallet(localStorage);
    expect((await afterDisconnect.features[StandardConnect].connect({ silent: true })).accounts).toEqual([]);
  });

  it('emits change events on connect, key replacement and disconnect', async () => {
    const wallet = new LocalWallet(localStorage);
    wallet.create();
    const listener = vi.fn();
    const off = wallet.features[StandardEvents].on('change', listener);

    await wallet.features[StandardConnect].connect();
    expect(listener).toHaveBeenLastCalledWith({ accounts: wallet.accounts });
    const next = wallet.create();
    expect(listener).toHaveBeenCalledTimes(2);
    expect(listener.mock.lastCall![0].accounts[0].address).toBe(next);
    await wallet.features[StandardDisconnect].disconnect();
    expect(listener).toHaveBeenLastCalledWith({ accounts: [] });

    off();
    await wallet.features[StandardConnect].connect();
    expect(listener).toHaveBeenCalledTimes(3);
  });

  it('signMessage returns an ed25519 signature that verifies against the account public key', async () => {
    const wallet = await connectedWallet();
    const account = wallet.accounts[0]!;
    const message = getUtf8Encoder().encode(
      'solterm.local wants you to sign in with your Solana account',
    ) as Uint8Array;

    const [output] = await wallet.features[SolanaSignMessage].signMessage({ account, message });

    expect(output!.signedMessage).toEqual(message);
    expect(output!.signatureType).toBe('ed25519');
    expect(ed25519.verify(output!.signature, message, Uint8Array.from(account.publicKey))).toBe(true);
    expect(
      ed25519.verify(
        output!.signature,
        getUtf8Encoder().encode('other') as Uint8Array,
        Uint8Array.from(account.publicKey),
      ),
    ).toBe(false);
  });

  it.each([0, 'legacy'] as const)(
    'signTransaction (%s) fills only its own slot with a valid signature and leaves the others untouched',
    async (version) => {
      const wallet = await connectedWallet();
      const account = wallet.accounts[0]!;
      const feePayer = generateLocalKeypair();
      const wire = buildTransaction(version, feePayer, account.address as Address);
      const before = getTransactionDecoder().decode(wire);
      expect(Object.keys(before.signatures)).toEqual([feePayer.address, account.address]);
      expect(before.signatures[account.address as Address]).toBeNull();

      const [output] = await wallet.features[SolanaSignTransaction].signTransaction({
        account,
        transaction: wire,
        chain: 'solana:localnet',
      });
      const after = getTransactionDecoder().decode(output!.signedTransaction);

      expect(Uint8Array.from(after.messageBytes)).toEqual(Uint8Array.from(before.messageBytes));
      expect(Object.keys(after.signatures)).toEqual([feePayer.address, account.address]);
      expect(after.signatures[feePayer.address]).toEqual(before.signatures[feePayer.address]);
      const signature = after.signatures[account.address as Address]!;
      expect(
        ed25519.verify(signature, Uint8Array.from(after.messageBytes), Uint8Array.from(account.publicKey)),
      ).toBe(true);
      // Same length on the wire: only the empty slot's 64 zero bytes were replaced.
      expect(output!.signedTransaction).toHaveLength(wire.length);
    },
  );

  it('refuses transactions it is not a signer of, mainnet, and signing while disconnected', async () => {
    const wallet = await connectedWallet();
    const account = wallet.accounts[0]!;
    const stranger = generateLocalKeypair();
    const notOurs = buildTransaction(0, stranger, generateLocalKeypair().address);
    await expect(
      wallet.features[SolanaSignTransaction].signTransaction({ account, transaction: notOurs }),
    ).rejects.toThrow('does not need a signature');
    const ours = buildTransaction(0, stranger, account.address as Address);
    await expect(
      wallet.features[SolanaSignTransaction].signTransaction({
        account,
        transaction: ours,
        chain: 'solana:mainnet',
      }),
    ).rejects.toThrow('does not sign for solana:mainnet');

    await wallet.features[StandardDisconnect].disconnect();
    await expect(
      wallet.features[SolanaSignMessage].signMessage({ account, message: new Uint8Array([1]) }),
    ).rejects.toThrow('not connected');
  });

  it('exports the key it imported', () => {
    const source = new LocalWallet(localStorage);
    source.create();
    const secret = source.exportSecretKey()!;
    localStorage.clear();
    const target = new LocalWallet(localStorage);
    expect(target.exportSecretKey()).toBeNull();
    expect(target.importSecretKey(secret)).toBe(source.address);
    expect(target.exportSecretKey()).toBe(secret);
  });
});
