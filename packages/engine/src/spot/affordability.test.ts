import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  affordabilityShortfall,
  RENT_EXEMPT_TOKEN_ACCOUNT_LAMPORTS,
  RENT_EXEMPT_WALLET_LAMPORTS,
  solSpendCheck,
} from './affordability';

const nativeMint = 'So11111111111111111111111111111111111111112';
const usdc = { mint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', symbol: 'USDC', decimals: 6 };
const sol = { mint: nativeMint, symbol: 'SOL', decimals: 9 };

describe('solSpendCheck', () => {
  it('lets a wallet spend everything or leave at least the rent-exempt minimum', () => {
    expect(solSpendCheck(10n ** 9n, 10n ** 9n)).toBe('ok');
    expect(solSpendCheck(10n ** 9n, 10n ** 9n - RENT_EXEMPT_WALLET_LAMPORTS)).toBe('ok');
    expect(solSpendCheck(10n ** 9n, 10n ** 9n - RENT_EXEMPT_WALLET_LAMPORTS + 1n)).toBe('below_rent');
    expect(solSpendCheck(1n, 2n)).toBe('insufficient');
  });
});

describe('affordabilityShortfall', () => {
  it('reports the token paid when the wallet holds too little of it', () => {
    expect(
      affordabilityShortfall({
        lamports: 10n ** 9n,
        tokens: new Map([[usdc.mint, 5n]]),
        nativeMint,
        pays: { ...usdc, amount: 6n },
        receives: sol,
        feeLamports: 5_000n,
      }),
    ).toEqual({ token: usdc, required: 6n, available: 5n });
  });

  it('counts the rent of a token account the wallet does not hold yet', () => {
    const input = {
      lamports: 5_000n + RENT_EXEMPT_TOKEN_ACCOUNT_LAMPORTS - 1n,
      tokens: new Map<string, bigint>(),
      nativeMint,
      pays: { ...sol, amount: 0n },
      receives: usdc,
      feeLamports: 5_000n,
    };
    expect(affordabilityShortfall(input)?.required).toBe(5_000n + RENT_EXEMPT_TOKEN_ACCOUNT_LAMPORTS);
    // An account already held (even empty) costs no rent.
    expect(affordabilityShortfall({ ...input, tokens: new Map([[usdc.mint, 0n]]) })).toBeNull();
    expect(affordabilityShortfall({ ...input, lamports: input.lamports + 1n })).toBeNull();
  });

  it('asks for the rent-exempt minimum on top when a SOL payment would leave dust', () => {
    const shortfall = affordabilityShortfall({
      lamports: 1_000_000_000n,
      tokens: new Map([[usdc.mint, 0n]]),
      nativeMint,
      pays: { ...sol, amount: 999_200_000n },
      receives: usdc,
      feeLamports: 5_000n,
    });
    expect(shortfall).toEqual({
      token: sol,
      required: 999_205_000n + RENT_EXEMPT_WALLET_LAMPORTS,
      available: 1_000_000_000n,
    });
  });

  it('never accepts an order that would leave a negative or dust SOL balance', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.bigInt({ min: 0n, max: 10n ** 7n }),
        (lamports, amount, fee) => {
          const shortfall = affordabilityShortfall({
            lamports,
            tokens: new Map(),
            nativeMint,
            pays: { ...sol, amount },
            receives: null,
            feeLamports: fee,
          });
          const left = lamports - amount - fee;
          const fine = left === 0n || left >= RENT_EXEMPT_WALLET_LAMPORTS;
          expect(shortfall === null).toBe(fine);
          if (shortfall)
            expect(shortfall.required).toBeGreaterThan(shortfall.available - RENT_EXEMPT_WALLET_LAMPORTS);
        },
      ),
    );
  });
});
