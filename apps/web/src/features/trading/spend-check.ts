import { SpecDecimal } from '@solterm/contracts';
import { affordabilityShortfall, fromBaseUnits, toBaseUnits } from '@solterm/engine';

const SOL = 'SOL';
const SOL_DECIMALS = 9;

export interface SpendShortfall {
  readonly token: string;
  /** Whole tokens the order needs and the wallet has. */
  readonly required: SpecDecimal;
  readonly available: SpecDecimal;
}

/**
 * The web's preview of the server's affordability rule (the engine's `affordabilityShortfall`):
 * the token an order pays first, then SOL, which may be spent whole or down to the rent-exempt
 * minimum, never in between. The network fee and the rent of a token account the order opens are
 * known only once the server builds the transaction, so they are left to its check.
 *
 * @example
 * spendShortfall({ token: 'USDC', decimals: 6, amount: new SpecDecimal('1500'), balances: { USDC: 100 } });
 * // { token: 'USDC', required: 1500, available: 100 }
 */
export function spendShortfall({
  token,
  decimals,
  amount,
  balances,
}: {
  token: string;
  decimals: number;
  /** Whole tokens to pay; rounded up to the token's base units as the server does. */
  amount: SpecDecimal;
  /** Balances by symbol in whole tokens (as the API reports them). */
  balances: Readonly<Record<string, number>>;
}): SpendShortfall | null {
  const paysSol = token.toUpperCase() === SOL;
  const tokenDecimals = paysSol ? SOL_DECIMALS : decimals;
  const unitsOf = (symbol: string, places: number) =>
    toBaseUnits(getBalance(balances, symbol).toDecimalPlaces(places, SpecDecimal.ROUND_DOWN), places);
  const shortfall = affordabilityShortfall({
    lamports: unitsOf(SOL, SOL_DECIMALS),
    tokens: paysSol ? new Map() : new Map([[token, unitsOf(token, tokenDecimals)]]),
    nativeMint: SOL,
    pays: {
      mint: paysSol ? SOL : token,
      symbol: token,
      decimals: tokenDecimals,
      amount: toBaseUnits(amount.toDecimalPlaces(tokenDecimals, SpecDecimal.ROUND_UP), tokenDecimals),
    },
    receives: null,
    feeLamports: 0n,
  });
  if (!shortfall) return null;
  return {
    token: shortfall.token.symbol,
    required: fromBaseUnits(shortfall.required, shortfall.token.decimals),
    available: fromBaseUnits(shortfall.available, shortfall.token.decimals),
  };
}

/** A balance by symbol, matching case-insensitively; 0 when the wallet holds none. */
export function getBalance(balances: Readonly<Record<string, number>>, symbol: string): SpecDecimal {
  const direct = balances[symbol];
  const value =
    direct ?? Object.entries(balances).find(([key]) => key.toUpperCase() === symbol.toUpperCase())?.[1] ?? 0;
  return new SpecDecimal(Number.isFinite(value) ? value : 0);
}
