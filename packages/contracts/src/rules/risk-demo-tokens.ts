/**
 * Listed tokens of the embedded cluster that exist to show token-safety flags offline: each carries
 * one risky on-chain property. They have no mainnet counterpart (their mints are derived addresses
 * nobody holds a key for) and are created only by the local cluster's genesis.
 */
import type { TokenIdentity } from './token-identity';

/** How the local cluster creates a risky token (what the default genesis token does not have). */
export interface RiskTokenSetup {
  readonly program: 'spl-token' | 'spl-token-2022';
  /** The mint authority; undefined: the cluster treasury (as every other genesis token), null: revoked. */
  readonly mintAuthority?: string | null;
  /** The freeze authority (null or undefined: none). */
  readonly freezeAuthority?: string | null;
  /** Token-2022 TransferFeeConfig: the fee in basis points and its cap in base units. */
  readonly transferFee?: {
    readonly basisPoints: number;
    readonly maximumFee: bigint;
    readonly authority: string;
  };
  /** Token-2022 PermanentDelegate: who may move or burn anyone's tokens. */
  readonly permanentDelegate?: string;
  /** A wallet outside the venue holding this share of the supply (basis points); the maker holds the rest. */
  readonly outsideHolder?: { readonly owner: string; readonly shareBps: number };
}

export interface RiskDemoToken extends TokenIdentity {
  readonly setup: RiskTokenSetup;
}

export const RISK_DEMO_TOKENS: readonly RiskDemoToken[] = [
  {
    symbol: 'FROST',
    name: 'Frostbite',
    mint: '44BnKoJDcFJgZUmMobxyzLNge8auRFmyyzpUFmz3yNp7',
    decimals: 6,
    setup: {
      program: 'spl-token',
      // Its issuer kept both authorities: it can mint more and freeze any holder's account.
      mintAuthority: 'pHpQFBn123M4jSTsF29dPq12vbHFhm9fZnJkBpJrBfS',
      freezeAuthority: 'pHpQFBn123M4jSTsF29dPq12vbHFhm9fZnJkBpJrBfS',
    },
  },
  {
    symbol: 'TOLL',
    name: 'Tollbooth',
    mint: 'DVTVfu7cYghD7aK6xLLhhn4HZgJsKyXe3t6Bh9K5tr51',
    decimals: 6,
    setup: {
      program: 'spl-token-2022',
      mintAuthority: null,
      transferFee: {
        basisPoints: 500,
        maximumFee: 1_000_000_000_000n,
        authority: 'GRtc8E8qheuMRTxBTkednSR1hRkbmy17H5h2UeN6PiVF',
      },
    },
  },
  {
    symbol: 'PUPPET',
    name: 'Puppeteer',
    mint: 'FNwdHDfgwMb1mcZhxrPZ8jJNRdhCpCCfzVNieXX5awsR',
    decimals: 6,
    setup: {
      program: 'spl-token-2022',
      mintAuthority: null,
      permanentDelegate: 'FYFu16tWXDBAdZaEsmhfWBT6fhcBRcj78hBkgdmJDYxT',
    },
  },
  {
    symbol: 'WHALE',
    name: 'Whale Pond',
    mint: '5kejFFL31SvXi5iAynPne9E57ypqivHbeCSpejbPMLmT',
    decimals: 6,
    setup: {
      program: 'spl-token',
      mintAuthority: null,
      outsideHolder: { owner: '81TeGKMyohQiURYRKYSufx4B7kwSzrkS23TLFF1JTrGy', shareBps: 6_000 },
    },
  },
];

const RISK_BY_MINT = new Map(RISK_DEMO_TOKENS.map((token) => [token.mint, token]));

/** The risky setup of a listed token, or undefined for an ordinary one. */
export function riskSetupOf(mint: string): RiskTokenSetup | undefined {
  return RISK_BY_MINT.get(mint)?.setup;
}
