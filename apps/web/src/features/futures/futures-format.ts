import { groupThousands, SpecDecimal } from '@solterm/contracts';

/** A decimal string with `decimals` places and thousands grouped ('1234.5' → '1,234.50'). */
export function fixed(value: string | SpecDecimal | null | undefined, decimals: number): string {
  if (value === null || value === undefined || value === '') return '—';
  return groupThousands(new SpecDecimal(value).toFixed(decimals));
}

/** A USD amount with a sign and two places ('+12.30', '−4.01'). */
export function signedUsd(value: string | SpecDecimal): string {
  const decimal = new SpecDecimal(value);
  const text = groupThousands(decimal.abs().toFixed(2));
  return decimal.isNegative() &&
    !decimal
      .abs()
      .toFixed(2)
      .match(/^0\.00$/)
    ? `−${text}`
    : `+${text}`;
}

/** A rate as a percent with `decimals` places ('0.0005' → '0.0500%'). */
export function percent(rate: string | SpecDecimal, decimals = 4): string {
  return `${new SpecDecimal(rate).times(100).toFixed(decimals)}%`;
}

/** The tone of a signed value. */
export function toneOf(value: string | SpecDecimal): 'text-up' | 'text-down' | 'text-muted' {
  const decimal = new SpecDecimal(value);
  return decimal.gt(0) ? 'text-up' : decimal.lt(0) ? 'text-down' : 'text-muted';
}
