import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getMintDecoder, getTokenDecoder } from '@solana-program/token';
import { generateKeyPairSigner } from '@solana/kit';
import { getListedToken, LISTED_TOKENS, RISK_DEMO_TOKENS, TOKEN_IDENTITIES } from '@solterm/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_MARKET_MAKER_INVENTORY, findAssociatedTokenAddress, LAMPORTS_PER_SOL } from './genesis';
import { createLocalCluster, type LocalCluster } from './local-cluster';
import { parseTokenExtensions } from './token-extensions';
import {
  decodeMint,
  decodeTokenAccount,
  isMintData,
  isTokenAccountData,
  TOKEN_2022_PROGRAM_ID,
} from './token-layout';

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

  it('creates the risk demonstration tokens with their program, authorities, extensions and outside holder', async () => {
    const cluster = await createLocalCluster({ slotClock: 'manual' });
    open.push(cluster);
    const [frost, toll, puppet, whale] = RISK_DEMO_TOKENS;
    const frostMint = decodeMint(cluster.getAccount(frost!.mint)!.data);
    expect(frostMint.freezeAuthority).toBe(frost!.setup.freezeAuthority);
    for (const token of [toll!, puppet!]) {
      const mint = cluster.getAccount(token.mint)!;
      expect(mint.owner).toBe(TOKEN_2022_PROGRAM_ID);
      expect(isMintData(mint.owner, mint.data)).toBe(true);
      expect(decodeMint(mint.data)).toMatchObject({ mintAuthority: null, supply: 10n ** 12n });
      const makerAccount = await findAssociatedTokenAddress(
        cluster.marketMaker.address,
        token.mint,
        TOKEN_2022_PROGRAM_ID,
      );
      const account = cluster.getAccount(makerAccount)!;
      expect(isTokenAccountData(account.owner, account.data)).toBe(true);
      expect(decodeTokenAccount(account.data).amount).toBe(10n ** 12n);
    }
    expect(parseTokenExtensions(cluster.getAccount(toll!.mint)!.data)).toMatchObject([
      { extension: 'transferFeeConfig', state: { newerTransferFee: { transferFeeBasisPoints: 500 } } },
    ]);
    expect(parseTokenExtensions(cluster.getAccount(puppet!.mint)!.data)).toEqual([
      { extension: 'permanentDelegate', state: { delegate: puppet!.setup.permanentDelegate } },
    ]);
    const whaleAccount = await findAssociatedTokenAddress(whale!.setup.outsideHolder!.owner, whale!.mint);
    expect(decodeTokenAccount(cluster.getAccount(whaleAccount)!.data).amount).toBe(1_500_000n * 10n ** 6n);
    expect(decodeMint(cluster.getAccount(whale!.mint)!.data).supply).toBe(2_500_000n * 10n ** 6n);
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
