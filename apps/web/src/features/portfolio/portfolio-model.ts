import {
  DASHBOARD_MESSAGES,
  parseSpecDecimal,
  SpecDecimal,
  WRAPPED_SOL_MINT,
  type TPortfolio,
  type TPortfolioToken,
} from '@solterm/contracts';
import { ApiError } from '../../lib/api-client';

/** One row of the holdings list: SOL first, then every token by value. */
export interface HoldingRow {
  readonly symbol: string;
  readonly name: string;
  readonly balance: number;
  readonly priceUsd: number | null;
  readonly valueUsd: SpecDecimal;
  /** Share of the portfolio's total, 0–100 (0 when the total is 0). */
  readonly sharePercent: number;
  readonly mintAddress: string | null;
  /** Wrapped SOL (an SPL token account's SOL): shown as wSOL, worth SOL, and can be unwrapped. */
  readonly isWrappedSol: boolean;
}

const isWrappedSol = (token: TPortfolioToken) => token.mint_address === WRAPPED_SOL_MINT;

/**
 * The holdings of a portfolio as rows: native SOL (valued at sol_price_usd) unless the token list
 * already has it, then the tokens by value, largest first; each with its share of the total.
 *
 * @example buildHoldingRows(portfolio).map((row) => row.symbol); // ['SOL', 'USDC']
 */
export function buildHoldingRows(portfolio: TPortfolio): HoldingRow[] {
  // A server that lists native SOL among the tokens already has its row; wrapped SOL is not it.
  const hasSolRow = portfolio.tokens.some(
    (token) => token.symbol.toUpperCase() === 'SOL' && !isWrappedSol(token),
  );
  const solPrice = parseSpecDecimal(portfolio.sol_price_usd);
  const rows: Omit<HoldingRow, 'sharePercent'>[] = [];
  if (!hasSolRow) {
    const balance = parseSpecDecimal(portfolio.sol_balance) ?? new SpecDecimal(0);
    rows.push({
      symbol: 'SOL',
      name: 'Solana',
      balance: portfolio.sol_balance,
      priceUsd: solPrice ? portfolio.sol_price_usd : null,
      valueUsd: solPrice ? balance.times(solPrice) : new SpecDecimal(0),
      mintAddress: null,
      isWrappedSol: false,
    });
  }
  const tokens = [...portfolio.tokens].sort((a, b) => b.value_usd - a.value_usd);
  for (const token of tokens) {
    if (isWrappedSol(token)) {
      const balance = parseSpecDecimal(token.balance) ?? new SpecDecimal(0);
      rows.push({
        symbol: 'wSOL',
        name: 'Wrapped SOL',
        balance: token.balance,
        priceUsd: solPrice ? portfolio.sol_price_usd : null,
        valueUsd: solPrice ? balance.times(solPrice) : new SpecDecimal(0),
        mintAddress: token.mint_address,
        isWrappedSol: true,
      });
      continue;
    }
    rows.push({
      symbol: token.symbol,
      name: token.name,
      balance: token.balance,
      priceUsd: token.price_usd,
      valueUsd: parseSpecDecimal(token.value_usd) ?? new SpecDecimal(0),
      mintAddress: token.mint_address,
      isWrappedSol: false,
    });
  }
  const total = rows.reduce((sum, row) => sum.plus(row.valueUsd), new SpecDecimal(0));
  return rows.map((row) => ({
    ...row,
    sharePercent: total.gt(0) ? row.valueUsd.div(total).times(100).toDecimalPlaces(2).toNumber() : 0,
  }));
}

/**
 * The portfolio valued at another SOL price (the screen's one live SOL price): native SOL and any
 * SOL token row take it, and the total moves by the difference, in decimals. Without a usable
 * price the portfolio is returned as is.
 *
 * @example
 * repriceSol({ ...portfolio, sol_balance: 2, sol_price_usd: 150, total_value_usd: 1300 }, 151.25).total_value_usd; // 1302.5
 */
export function repriceSol(portfolio: TPortfolio, solPriceUsd: number | null | undefined): TPortfolio {
  const price = parseSpecDecimal(solPriceUsd);
  const previous = parseSpecDecimal(portfolio.sol_price_usd);
  if (!price || price.lte(0) || (previous && previous.eq(price))) return portfolio;
  let total = new SpecDecimal(portfolio.total_value_usd);
  const native = new SpecDecimal(portfolio.sol_balance);
  total = total.plus(native.times(price).minus(previous ? native.times(previous) : 0));
  const tokens = portfolio.tokens.map((token) => {
    if (token.symbol.toUpperCase() !== 'SOL' && !isWrappedSol(token)) return token;
    const value = new SpecDecimal(token.balance).times(price);
    total = total.plus(value.minus(token.value_usd));
    return { ...token, price_usd: price.toNumber(), value_usd: value.toNumber() };
  });
  return { ...portfolio, sol_price_usd: price.toNumber(), total_value_usd: total.toNumber(), tokens };
}

/** True when the wallet holds nothing at all (no SOL, no token balance). */
export function isPortfolioEmpty(portfolio: TPortfolio): boolean {
  return !(portfolio.sol_balance > 0) && portfolio.tokens.every((token) => !(token.balance > 0));
}

/**
 * The portfolio panel's message for a failed load: the server's wallet refusals keep the spec's
 * texts (no wallet, not a Solana wallet); anything else is 'Failed to load portfolio data. Please
 * try again.'
 */
export function getPortfolioErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === 'WALLET__NOT_CONNECTED') return DASHBOARD_MESSAGES.noWalletConnectFirst;
    if (error.code === 'WALLET__SOLANA_ONLY') return DASHBOARD_MESSAGES.portfolioSolanaOnly;
  }
  return DASHBOARD_MESSAGES.portfolioLoadFailed;
}
