import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getMintDecoder, getTokenDecoder } from '@solana-program/token';
import { generateKeyPairSigner } from '@solana/kit';
import { getListedToken, LISTED_TOKENS, TOKEN_IDENTITIES } from '@solterm/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_MARKET_MAKER_INVENTORY, findAssociatedTokenAddress, LAMPORTS_PER_SOL } from './genesis';
import { createLocalCluster, type LocalCluster } from './local-cluster';

const open: LocalCluster[] = [];
const directories: string[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((cluster) => cluster.close()));
  await Promise.all(
    directories.splice(0).map((directory) => rm(directory, { recursive: true, force: true })),
  );
});

describe('genesis of every listed token', () => {
  it('creates every listed token (identity map and market universe) with the maker holding its inventory', async () => {
    const cluster = await createLocalCluster({ slotClock: 'manual' });
    open.push(cluster);
    expect(cluster.mints.map((mint) => mint.symbol)).toEqual(LISTED_TOKENS.map((token) => token.symbol));
    const goat = getListedToken('GOAT')!;
    const mint = getMintDecoder().decode(cluster.getAccount(goat.mint)!.data);
    expect(mint.decimals).toBe(6);
    const makerAccount = await findAssociatedTokenAddress(cluster.marketMaker.address, goat.mint);
    const held = getTokenDecoder().decode(cluster.getAccount(makerAccount)!.data).amount;
    expect(held).toBe(DEFAULT_MARKET_MAKER_INVENTORY.tokens.GOAT! * 10n ** 6n);
    expect(mint.supply).toBe(held);
  });

  it('sizes the inventory of every listed token explicitly (no token falls back to the default)', () => {
    for (const token of LISTED_TOKENS) {
      expect(DEFAULT_MARKET_MAKER_INVENTORY.tokens[token.symbol], token.symbol).toBeDefined();
    }
  });

  it('adds the mints a data directory lacks on the next start, keeping its ledger state', async () => {
    // Given a data directory whose genesis knew only the identity map, with an airdrop in its ledger
    const dataDir = await mkdtemp(join(tmpdir(), 'localnet-genesis-'));
    directories.push(dataDir);
    const identityOnly = TOKEN_IDENTITIES.map(({ symbol, mint, decimals }) => ({ symbol, mint, decimals }));
    const first = await createLocalCluster({ dataDir, slotClock: 'manual', tokens: identityOnly });
    const goat = getListedToken('GOAT')!;
    expect(first.getAccount(goat.mint)).toBeNull();
    const user = await generateKeyPairSigner();
    await first.requestAirdrop(user.address, 2n * LAMPORTS_PER_SOL);
    await first.close();

    // When it starts again with today's genesis
    const second = await createLocalCluster({ dataDir, slotClock: 'manual' });
    open.push(second);

    // Then the missing mints exist with the maker's inventory, and the old state carried over
    expect(getMintDecoder().decode(second.getAccount(goat.mint)!.data).decimals).toBe(goat.decimals);
    const makerAccount = await findAssociatedTokenAddress(second.marketMaker.address, goat.mint);
    expect(getTokenDecoder().decode(second.getAccount(makerAccount)!.data).amount).toBeGreaterThan(0n);
    expect(second.getBalance(user.address)).toBe(2n * LAMPORTS_PER_SOL);
  });
});
