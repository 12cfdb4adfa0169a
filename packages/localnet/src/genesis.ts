/**
 * The cluster's genesis state: the SPL mints of every listed token (@solterm/contracts
 * LISTED_TOKENS: the identity map and the market universe) at their real mainnet addresses and decimals (mint authority: the treasury), a funded treasury, and a market maker
 * holding SOL plus an associated token account of every token (wrapped SOL included). Named tokens
 * also get a Metaplex metadata account (see token-metadata.ts), so wallets show their names.
 */
import { AccountState, getMintEncoder, getTokenEncoder } from '@solana-program/token';
import { address, getAddressEncoder, getProgramDerivedAddress, type Address } from '@solana/kit';
import type { RiskTokenSetup } from '@solterm/contracts';
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  CONFIG_PROGRAM_ID,
  STAKE_CONFIG_ADDRESS,
  SYSTEM_PROGRAM_ID,
} from './program-ids';
import { encodeToken2022Account, encodeToken2022Mint } from './token-2022-genesis';
import { NATIVE_MINT, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from './token-layout';
import {
  encodeFungibleMetadata,
  findMetadataAddress,
  METADATA_ACCOUNT_LENGTH,
  TOKEN_METADATA_PROGRAM_ID,
} from './token-metadata';

export const LAMPORTS_PER_SOL = 1_000_000_000n;

/** A token the cluster creates at genesis. */
export interface GenesisToken {
  readonly symbol: string;
  /** Mint address (base58); the wrapped-SOL native mint is recognised and not re-created. */
  readonly mint: string;
  readonly decimals: number;
  /** Display name: when set, the mint gets a Metaplex metadata account (name and symbol). */
  readonly name?: string;
  /** A risk demonstration token's program, authorities, extensions and outside holder. */
  readonly setup?: RiskTokenSetup;
}

/** What the market maker holds at genesis, in whole tokens by symbol (SOL: native lamports). */
export interface MarketMakerInventory {
  /** Native SOL in the maker's system account, in whole SOL. */
  readonly sol: bigint;
  /** Whole tokens per symbol (`SOL` here means wrapped SOL in its token account). */
  readonly tokens: Readonly<Record<string, bigint>>;
  /** Whole tokens for a symbol missing from `tokens`. */
  readonly defaultTokens: bigint;
}

/**
 * Roughly US$ 10–50 million of each listed token at 2025 prices (comments: the value at the market
 * simulator's reference price), deep enough for any local trade. Tokens with 8 or 9 decimals and a
 * tiny price are capped below a quarter of u64 base units (SHIB: about US$ 0.6 million).
 */
export const DEFAULT_MARKET_MAKER_INVENTORY: MarketMakerInventory = {
  sol: 100_000n,
  tokens: {
    SOL: 50_000n,
    USDC: 50_000_000n,
    USDT: 50_000_000n,
    BONK: 1_000_000_000_000n,
    WIF: 10_000_000n,
    PEPE: 4_000_000_000_000n, // ~US$ 4.8 M
    SHIB: 40_000_000_000n, // ~US$ 0.6 M
    BTC: 500n,
    ETH: 10_000n,
    WETH: 10_000n,
    RAY: 10_000_000n,
    JUP: 50_000_000n,
    ORCA: 10_000_000n,
    SRM: 600_000_000n, // ~US$ 18.0 M
    DAI: 50_000_000n,
    JTO: 10_000_000n, // ~US$ 19.0 M
    PYTH: 100_000_000n, // ~US$ 14.0 M
    BOME: 10_000_000_000n, // ~US$ 18.0 M
    POPCAT: 60_000_000n, // ~US$ 19.2 M
    MEW: 6_000_000_000n, // ~US$ 19.2 M
    W: 200_000_000n, // ~US$ 18.0 M
    TNSR: 100_000_000n, // ~US$ 14.0 M
    RENDER: 5_000_000n, // ~US$ 19.0 M
    HNT: 6_000_000n, // ~US$ 19.2 M
    MOBILE: 30_000_000_000n, // ~US$ 18.0 M
    KMNO: 300_000_000n, // ~US$ 18.0 M
    DRIFT: 30_000_000n, // ~US$ 16.5 M
    mSOL: 80_000n, // ~US$ 18.7 M
    jitoSOL: 80_000n, // ~US$ 17.9 M
    bSOL: 80_000n, // ~US$ 18.3 M
    INF: 80_000n, // ~US$ 19.2 M
    SAMO: 4_000_000_000n, // ~US$ 14.0 M
    FIDA: 100_000_000n, // ~US$ 16.0 M
    STEP: 800_000_000n, // ~US$ 20.0 M
    ZEUS: 100_000_000n, // ~US$ 15.0 M
    TRUMP: 2_000_000n, // ~US$ 19.0 M
    FARTCOIN: 20_000_000n, // ~US$ 17.0 M
    GRASS: 10_000_000n, // ~US$ 11.0 M
    PENGU: 1_000_000_000n, // ~US$ 15.0 M
    AI16Z: 100_000_000n, // ~US$ 20.0 M
    PNUT: 90_000_000n, // ~US$ 19.8 M
    GOAT: 200_000_000n, // ~US$ 18.0 M
    MOODENG: 100_000_000n, // ~US$ 15.0 M
    JLP: 4_000_000n, // ~US$ 18.4 M
    WEN: 400_000_000_000n, // ~US$ 16.0 M
    MYRO: 1_000_000_000n, // ~US$ 20.0 M
    SLERF: 200_000_000n, // ~US$ 16.0 M
    NOS: 30_000_000n, // ~US$ 18.0 M
    SHDW: 200_000_000n, // ~US$ 18.0 M
    GMT: 400_000_000n, // ~US$ 20.0 M
    // Risk demonstration tokens: the maker holds the whole supply (WHALE: 40 %, a wallet the rest).
    FROST: 1_000_000n,
    TOLL: 1_000_000n,
    PUPPET: 1_000_000n,
    WHALE: 1_000_000n,
  },
  defaultTokens: 1_000_000n,
};

/** The treasury's genesis balance: one million SOL for the faucet and fees. */
export const DEFAULT_TREASURY_LAMPORTS = 1_000_000n * LAMPORTS_PER_SOL;

const U64_MAX = 2n ** 64n - 1n;

/** One account to write at genesis. */
export interface GenesisAccount {
  readonly address: string;
  readonly lamports: bigint;
  readonly owner: string;
  readonly data: Uint8Array;
  /** Default: the rent-exempt marker (u64 max). */
  readonly rentEpoch?: bigint;
}

/** A token as created on the cluster, with the maker's associated token account. */
export interface GenesisMint extends GenesisToken {
  /** The market maker's associated token account for this mint. */
  readonly makerTokenAccount: string;
  /** The maker's genesis balance in base units. */
  readonly makerAmount: bigint;
}

export interface GenesisPlan {
  readonly accounts: readonly GenesisAccount[];
  readonly mints: readonly GenesisMint[];
}

export interface GenesisInput {
  readonly tokens: readonly GenesisToken[];
  readonly treasury: Address;
  readonly marketMaker: Address;
  readonly treasuryLamports: bigint;
  readonly inventory: MarketMakerInventory;
  /** Rent-exempt minimum for an account of `size` bytes. */
  readonly rentExemptMinimum: (size: number) => bigint;
}

/** The associated token account of `owner` for `mint` (under the classic token program by default). */
export async function findAssociatedTokenAddress(
  owner: string,
  mint: string,
  tokenProgram: string = TOKEN_PROGRAM_ID,
): Promise<string> {
  const encoder = getAddressEncoder();
  const [derived] = await getProgramDerivedAddress({
    programAddress: address(ASSOCIATED_TOKEN_PROGRAM_ID),
    seeds: [
      encoder.encode(address(owner)),
      encoder.encode(address(tokenProgram)),
      encoder.encode(address(mint)),
    ],
  });
  return derived;
}

function toBaseUnits(symbol: string, whole: bigint, decimals: number): bigint {
  const amount = whole * 10n ** BigInt(decimals);
  if (amount > U64_MAX)
    throw new Error(`genesis inventory of ${symbol} (${whole}) overflows u64 at ${decimals} decimals`);
  return amount;
}

function programOf(setup: RiskTokenSetup): string {
  return setup.program === 'spl-token-2022' ? TOKEN_2022_PROGRAM_ID : TOKEN_PROGRAM_ID;
}

async function metadataAccount(
  token: GenesisToken,
  treasury: Address,
  lamports: bigint,
): Promise<GenesisAccount> {
  return {
    address: await findMetadataAddress(token.mint),
    lamports,
    owner: TOKEN_METADATA_PROGRAM_ID,
    data: encodeFungibleMetadata({
      mint: token.mint,
      updateAuthority: treasury,
      name: token.name ?? token.symbol,
      symbol: token.symbol,
      uri: '',
    }),
  };
}

/**
 * A risk demonstration token: its mint (authorities and Token-2022 extensions as set up), the maker's
 * token account and, when set up, an outside wallet's account holding its share of the supply.
 */
async function riskTokenAccounts(
  token: GenesisToken,
  setup: RiskTokenSetup,
  input: GenesisInput,
  makerAmount: bigint,
): Promise<GenesisAccount[]> {
  const program = programOf(setup);
  const outside = setup.outsideHolder;
  const outsideAmount = outside
    ? (makerAmount * BigInt(outside.shareBps)) / BigInt(10_000 - outside.shareBps)
    : 0n;
  const supply = makerAmount + outsideAmount;
  if (supply > U64_MAX) throw new Error(`genesis supply of ${token.symbol} overflows u64`);
  const authority = (value: string | null | undefined) => (value ? address(value) : null);
  const mintFields = {
    mintAuthority: setup.mintAuthority === undefined ? input.treasury : authority(setup.mintAuthority),
    freezeAuthority: authority(setup.freezeAuthority),
    supply,
    decimals: token.decimals,
  };
  const mintData =
    program === TOKEN_2022_PROGRAM_ID
      ? encodeToken2022Mint(mintFields, setup)
      : new Uint8Array(getMintEncoder().encode({ ...mintFields, isInitialized: true }));
  const holding = async (owner: string, amount: bigint): Promise<GenesisAccount> => {
    const base = new Uint8Array(
      getTokenEncoder().encode({
        mint: address(token.mint),
        owner: address(owner),
        amount,
        delegate: null,
        state: AccountState.Initialized,
        isNative: null,
        delegatedAmount: 0n,
        closeAuthority: null,
      }),
    );
    const data = program === TOKEN_2022_PROGRAM_ID ? encodeToken2022Account(base, setup) : base;
    return {
      address: await findAssociatedTokenAddress(owner, token.mint, program),
      lamports: input.rentExemptMinimum(data.length),
      owner: program,
      data,
    };
  };
  const accounts: GenesisAccount[] = [
    {
      address: token.mint,
      lamports: input.rentExemptMinimum(mintData.length),
      owner: program,
      data: mintData,
    },
    await holding(input.marketMaker, makerAmount),
  ];
  if (outside) accounts.push(await holding(outside.owner, outsideAmount));
  accounts.push(
    await metadataAccount(token, input.treasury, input.rentExemptMinimum(METADATA_ACCOUNT_LENGTH)),
  );
  return accounts;
}

/**
 * The stake program's config account every validator's genesis holds (Agave's
 * `solana_stake_program::add_genesis_accounts`): no config keys, a warm-up/cool-down rate of 0.25 and
 * a slash penalty of 12, under the Config program, rent-exempt, rent epoch 0.
 */
function stakeConfigAccount(rentExemptMinimum: (size: number) => bigint): GenesisAccount {
  const data = new Uint8Array(10);
  new DataView(data.buffer).setFloat64(1, 0.25, true);
  data[9] = 12;
  return {
    address: STAKE_CONFIG_ADDRESS,
    lamports: rentExemptMinimum(data.length),
    owner: CONFIG_PROGRAM_ID,
    data,
    rentEpoch: 0n,
  };
}

/** Computes every genesis account; pure apart from PDA derivation. */
export async function planGenesis(input: GenesisInput): Promise<GenesisPlan> {
  const { tokens, treasury, marketMaker, inventory, rentExemptMinimum } = input;
  const accounts: GenesisAccount[] = [
    {
      address: treasury,
      lamports: input.treasuryLamports,
      owner: SYSTEM_PROGRAM_ID,
      data: new Uint8Array(0),
    },
    {
      address: marketMaker,
      lamports: inventory.sol * LAMPORTS_PER_SOL,
      owner: SYSTEM_PROGRAM_ID,
      data: new Uint8Array(0),
    },
    stakeConfigAccount(rentExemptMinimum),
  ];
  const mints: GenesisMint[] = [];
  const mintRent = rentExemptMinimum(82);
  const tokenAccountRent = rentExemptMinimum(165);
  const metadataRent = rentExemptMinimum(METADATA_ACCOUNT_LENGTH);
  for (const token of tokens) {
    const makerAmount = toBaseUnits(
      token.symbol,
      inventory.tokens[token.symbol] ?? inventory.defaultTokens,
      token.decimals,
    );
    const makerTokenAccount = await findAssociatedTokenAddress(marketMaker, token.mint);
    if (token.setup) {
      accounts.push(...(await riskTokenAccounts(token, token.setup, input, makerAmount)));
      const makerAccount = await findAssociatedTokenAddress(marketMaker, token.mint, programOf(token.setup));
      mints.push({ ...token, makerTokenAccount: makerAccount, makerAmount });
      continue;
    }
    const isNative = token.mint === NATIVE_MINT;
    if (!isNative) {
      const mintData = getMintEncoder().encode({
        mintAuthority: treasury,
        supply: makerAmount,
        decimals: token.decimals,
        isInitialized: true,
        freezeAuthority: null,
      });
      accounts.push({
        address: token.mint,
        lamports: mintRent,
        owner: TOKEN_PROGRAM_ID,
        data: new Uint8Array(mintData),
      });
    }
    const tokenData = getTokenEncoder().encode({
      mint: address(token.mint),
      owner: marketMaker,
      amount: makerAmount,
      delegate: null,
      state: AccountState.Initialized,
      // A wrapped-SOL account records its rent-exempt reserve; its lamports are reserve + amount.
      isNative: isNative ? tokenAccountRent : null,
      delegatedAmount: 0n,
      closeAuthority: null,
    });
    accounts.push({
      address: makerTokenAccount,
      lamports: isNative ? tokenAccountRent + makerAmount : tokenAccountRent,
      owner: TOKEN_PROGRAM_ID,
      data: new Uint8Array(tokenData),
    });
    if (token.name !== undefined) accounts.push(await metadataAccount(token, treasury, metadataRent));
    mints.push({ ...token, makerTokenAccount, makerAmount });
  }
  return { accounts, mints };
}
