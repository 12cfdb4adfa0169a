import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ChainService } from '../../chain/chain.service';
import type { Relay } from '../../relay/relay.service';
import type { BotFundsRepository } from './bot-funds.repository';
import { createBotWallet, SIGNER_CACHE_MAX } from './bot-wallet';

/** A bot wallet over an in-memory key table that counts its reads. */
function walletWithKeys() {
  const keys = new Map<string, { userId: string; address: string; encryptedSecret: string }>();
  let reads = 0;
  const repo = {
    async keyOf(userId: string) {
      reads += 1;
      return keys.get(userId);
    },
    async insertKey(row: { userId: string; address: string; encryptedSecret: string }) {
      keys.set(row.userId, row);
      return row;
    },
  } as unknown as BotFundsRepository;
  const relay = { server: { registerKind: () => undefined } } as unknown as Relay;
  const wallet = createBotWallet({
    repo,
    chain: {} as ChainService,
    relay,
    encryptionKey: randomBytes(32),
    now: () => new Date(),
  });
  return { wallet, reads: () => reads };
}

describe('bot signer cache', () => {
  it('decrypts a bot key once per process, and again after the user revoked', async () => {
    // Given a user's bot key used once
    const { wallet, reads } = walletWithKeys();
    const first = await wallet.signerOf('user-1');
    const readsAfterFirst = reads();

    // When it signs again, the same signer answers without reading the key
    const again = await wallet.signerOf('user-1');
    expect(again).toBe(first);
    expect(reads()).toBe(readsAfterFirst);

    // Then a revoke evicts it: the next use reads and decrypts the key again (same address)
    wallet.forgetSigner('user-1');
    expect(wallet.cachedSigners()).toBe(0);
    const afterRevoke = await wallet.signerOf('user-1');
    expect(afterRevoke).not.toBe(first);
    expect(afterRevoke.address).toBe(first.address);
    expect(reads()).toBeGreaterThan(readsAfterFirst);
  });

  it('keeps at most SIGNER_CACHE_MAX signers, dropping the least recently used', async () => {
    const { wallet } = walletWithKeys();
    const oldest = await wallet.signerOf('user-0');
    for (let index = 1; index <= SIGNER_CACHE_MAX; index += 1) await wallet.signerOf(`user-${index}`);
    expect(wallet.cachedSigners()).toBe(SIGNER_CACHE_MAX);
    // user-0 was the least recently used: it was dropped, so it is loaded anew
    expect(await wallet.signerOf('user-0')).not.toBe(oldest);
  });
});
