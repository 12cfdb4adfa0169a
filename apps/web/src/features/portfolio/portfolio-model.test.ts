import { describe, expect, it } from 'vitest';
import { DASHBOARD_MESSAGES, WRAPPED_SOL_MINT, type TPortfolio } from '@solterm/contracts';
import { ApiError } from '../../lib/api-client';
import { buildHoldingRows, getPortfolioErrorMessage, isPortfolioEmpty, repriceSol } from './portfolio-model';

const USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

function portfolio(overrides: Partial<TPortfolio> = {}): TPortfolio {
  return {
    total_value_usd: 1150,
    sol_balance: 1,
    sol_price_usd: 150,
    wallet_address: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU',
    tokens: [
      {
        symbol: 'USDC',
        name: 'USD Coin',
        balance: 1000,
        decimals: 6,
        price_usd: 1,
        value_usd: 1000,
        mint_address: USDC_MINT,
      },
    ],
    ...overrides,
  };
}

describe('buildHoldingRows', () => {
  it('puts native SOL first, valued in decimals, with each share of the total', () => {
    const rows = buildHoldingRows(portfolio());
    expect(rows.map((row) => row.symbol)).toEqual(['SOL', 'USDC']);
    expect(rows[0]!.valueUsd.toString()).toBe('150');
    expect(rows[0]!.sharePercent).toBe(13.04);
    expect(rows[1]!.sharePercent).toBe(86.96);
  });

  it('does not add SOL twice when the server lists it', () => {
    const rows = buildHoldingRows(
      portfolio({
        tokens: [
          {
            symbol: 'SOL',
            name: 'Solana',
            balance: 1,
            decimals: 9,
            price_usd: 150,
            value_usd: 150,
            mint_address: 'x',
          },
        ],
      }),
    );
    expect(rows.map((row) => row.symbol)).toEqual(['SOL']);
  });

  it('shows wrapped SOL as its own wSOL row worth SOL, beside native SOL, never as a second SOL', () => {
    const wrapped = {
      // An older answer named it SOL with no price: the row is still wSOL at SOL's price.
      symbol: 'SOL',
      name: 'Wrapped SOL',
      balance: 2.489,
      decimals: 9,
      price_usd: null,
      value_usd: 0,
      mint_address: WRAPPED_SOL_MINT,
    };
    const rows = buildHoldingRows(portfolio({ tokens: [wrapped] }));
    expect(rows.map((row) => [row.symbol, row.isWrappedSol])).toEqual([
      ['SOL', false],
      ['wSOL', true],
    ]);
    expect(rows[0]!.valueUsd.toString()).toBe('150');
    expect(rows[1]!.valueUsd.toString()).toBe('373.35');
    expect(rows[1]!.priceUsd).toBe(150);
    const repriced = repriceSol(
      {
        ...portfolio({ tokens: [{ ...wrapped, symbol: 'wSOL', price_usd: 150, value_usd: 373.35 }] }),
        total_value_usd: 523.35,
      },
      151,
    );
    expect(repriced.tokens[0]!.value_usd).toBe(375.839);
    expect(repriced.total_value_usd).toBe(526.839);
  });

  it('has zero shares for an empty wallet', () => {
    const rows = buildHoldingRows(portfolio({ sol_balance: 0, tokens: [], total_value_usd: 0 }));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.sharePercent).toBe(0);
  });
});

describe('isPortfolioEmpty', () => {
  it('is true only without SOL and token balances', () => {
    expect(isPortfolioEmpty(portfolio())).toBe(false);
    expect(isPortfolioEmpty(portfolio({ sol_balance: 0, tokens: [] }))).toBe(true);
  });
});

describe('getPortfolioErrorMessage', () => {
  it("keeps the server's wallet refusals and falls back to the spec's load failure", () => {
    const refusal = (code: string) => new ApiError('x', { status: 400, kind: 'http', code });
    expect(getPortfolioErrorMessage(refusal('WALLET__NOT_CONNECTED'))).toBe(
      DASHBOARD_MESSAGES.noWalletConnectFirst,
    );
    expect(getPortfolioErrorMessage(refusal('WALLET__SOLANA_ONLY'))).toBe(
      DASHBOARD_MESSAGES.portfolioSolanaOnly,
    );
    expect(getPortfolioErrorMessage(new ApiError('boom', { status: 500, kind: 'http' }))).toBe(
      'Failed to load portfolio data. Please try again.',
    );
  });
});
