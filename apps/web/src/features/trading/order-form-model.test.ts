import { describe, expect, it } from 'vitest';
import { SpecDecimal, TRADE_MESSAGES, VALIDATION_MESSAGES } from '@solterm/contracts';
import {
  limitEscrowPreview,
  checkSpotOrder,
  convertAmountText,
  estimateOrder,
  getShareOfBalance,
  INITIAL_ORDER_FORM_VALUES,
  toBaseQuantity,
  type OrderCheckInput,
  type OrderFormValues,
  type SpotPair,
} from './order-form-model';

const SOL_USDC: SpotPair = {
  pair: 'SOL/USDC',
  pairId: 'SOL/USDC',
  base: 'SOL',
  quote: 'USDC',
  baseDecimals: 9,
  quoteDecimals: 6,
};
const BONK_SOL: SpotPair = {
  pair: 'BONK/SOL',
  pairId: 'BONK/SOL',
  base: 'BONK',
  quote: 'SOL',
  baseDecimals: 5,
  quoteDecimals: 9,
};

function input(values: Partial<OrderFormValues>, overrides: Partial<OrderCheckInput> = {}): OrderCheckInput {
  return {
    values: { ...INITIAL_ORDER_FORM_VALUES, ...values },
    pair: SOL_USDC,
    marketPrice: new SpecDecimal('150'),
    balances: { SOL: 10, USDC: 1000 },
    hasWallet: true,
    ...overrides,
  };
}

describe('checkSpotOrder: the spec validation order', () => {
  it('asks for the amount on a market order', () => {
    expect(checkSpotOrder(input({ amount: '' }))).toMatchObject({
      ok: false,
      error: VALIDATION_MESSAGES.spotAmountRequired,
      field: 'amount',
    });
    expect(VALIDATION_MESSAGES.spotAmountRequired).toBe('Please enter amount');
  });

  it('asks for amount and price on a limit order, whichever is missing', () => {
    const noPrice = checkSpotOrder(input({ orderType: 'Limit', amount: '1', limitPrice: '' }));
    const noAmount = checkSpotOrder(input({ orderType: 'Limit', amount: ' ', limitPrice: '140' }));
    expect(noPrice).toMatchObject({ ok: false, error: 'Please enter amount and price', field: 'price' });
    expect(noAmount).toMatchObject({ ok: false, error: 'Please enter amount and price', field: 'amount' });
  });

  it('refuses numbers that are not positive', () => {
    expect(checkSpotOrder(input({ amount: '0' }))).toMatchObject({
      ok: false,
      error: VALIDATION_MESSAGES.amountAndPriceNotPositive,
    });
    expect(checkSpotOrder(input({ amount: 'abc' }))).toMatchObject({
      ok: false,
      error: VALIDATION_MESSAGES.notANumber,
    });
    expect(checkSpotOrder(input({ orderType: 'Limit', amount: '1', limitPrice: '-3' }))).toMatchObject({
      ok: false,
      field: 'price',
    });
  });

  it('waits for the market price with an info, not an error', () => {
    expect(checkSpotOrder(input({ amount: '1' }, { marketPrice: null }))).toMatchObject({
      ok: false,
      error: 'Loading current price...',
      tone: 'info',
    });
  });

  it('applies the minimum trade amount of the quote', () => {
    expect(checkSpotOrder(input({ amount: '0.005' }))).toMatchObject({
      ok: false,
      error: 'Minimum amount is 0.01 SOL (accounting for fees)',
    });
  });

  it('needs a wallet before the balance check', () => {
    expect(checkSpotOrder(input({ amount: '100' }, { hasWallet: false }))).toMatchObject({
      ok: false,
      error: TRADE_MESSAGES.walletNotFoundToTrade,
      field: 'wallet',
    });
    expect(TRADE_MESSAGES.walletNotFoundToTrade).toBe('Wallet not found. Please connect a wallet to trade.');
  });

  it('a buy needs quote balance for quantity × price', () => {
    const result = checkSpotOrder(input({ side: 'Buy', amount: '10' }, { balances: { SOL: 1, USDC: 100 } }));
    expect(result).toMatchObject({
      ok: false,
      field: 'balance',
      error: 'Insufficient USDC balance. Required: 1500, Available: 100',
    });
  });

  it('a limit buy is checked at its limit price', () => {
    const at = (limitPrice: string) =>
      checkSpotOrder(
        input({ orderType: 'Limit', side: 'Buy', amount: '2', limitPrice }, { balances: { USDC: 250 } }),
      );
    expect(at('125').ok).toBe(true);
    expect(at('125.5')).toMatchObject({
      ok: false,
      error: 'Insufficient USDC balance. Required: 251, Available: 250',
    });
  });

  it('a sell needs the base quantity', () => {
    expect(
      checkSpotOrder(input({ side: 'Sell', amount: '2.5' }, { balances: { SOL: 1.25, USDC: 0 } })),
    ).toMatchObject({ ok: false, error: 'Insufficient SOL balance. Required: 2.5, Available: 1.25' });
    expect(checkSpotOrder(input({ side: 'Sell', amount: '1' }, { balances: { SOL: 1.25 } })).ok).toBe(true);
  });

  it('a token the wallet does not hold counts as 0', () => {
    const result = checkSpotOrder(
      input({ side: 'Sell', amount: '1000' }, { pair: BONK_SOL, balances: { SOL: 2, USDC: 0 } }),
    );
    expect(result).toMatchObject({ error: 'Insufficient BONK balance. Required: 1000, Available: 0' });
  });

  it('leaves the balance to the chain when it could not be read', () => {
    expect(checkSpotOrder(input({ amount: '1000' }, { balances: null })).ok).toBe(true);
  });

  it('builds the order request with slippage and the priority fee', () => {
    const result = checkSpotOrder(
      input({ side: 'Sell', amount: '1.5', slippageBps: 100, priorityFee: 'medium' }),
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.order).toEqual({
      symbol: 'SOL/USDC',
      order_type: 'Market',
      side: 'Sell',
      quantity: 1.5,
      price: 150,
      slippage_bps: 100,
      priority_fee_micro_lamports: 10_000,
    });
    expect(result.spend.token).toBe('SOL');
  });

  it('maps each priority fee choice to micro-lamports', () => {
    const fees = (['none', 'low', 'medium', 'high'] as const).map((priorityFee) => {
      const result = checkSpotOrder(input({ amount: '1', priorityFee }));
      return result.ok ? result.order.priority_fee_micro_lamports : null;
    });
    expect(fees).toEqual([0, 1_000, 10_000, 100_000]);
  });

  it('a limit order sends its limit as the price', () => {
    const result = checkSpotOrder(
      input({ orderType: 'Limit', side: 'Buy', amount: '1', limitPrice: '140.25' }),
    );
    expect(result.ok && result.order).toMatchObject({ order_type: 'Limit', price: 140.25, quantity: 1 });
  });
});

describe('amount as a quote total', () => {
  it('converts total → quantity at the price, rounded down to the base decimals', () => {
    expect(toBaseQuantity(new SpecDecimal('100'), 'quote', new SpecDecimal('3'), 6)?.toString()).toBe(
      '33.333333',
    );
    expect(toBaseQuantity(new SpecDecimal('300'), 'quote', new SpecDecimal('150'), 9)?.toString()).toBe('2');
    expect(toBaseQuantity(new SpecDecimal('5'), 'base', null, 9)?.toString()).toBe('5');
    expect(toBaseQuantity(new SpecDecimal('5'), 'quote', null, 9)).toBeNull();
  });

  it('decimal arithmetic: 0.3 USDC at 0.1 is exactly 3', () => {
    expect(toBaseQuantity(new SpecDecimal('0.3'), 'quote', new SpecDecimal('0.1'), 9)?.toString()).toBe('3');
  });

  it('checks and sends the converted quantity', () => {
    const result = checkSpotOrder(input({ side: 'Buy', amount: '300', amountUnit: 'quote' }));
    expect(result.ok && result.order.quantity).toBe(2);
    const limit = checkSpotOrder(
      input({ orderType: 'Limit', side: 'Buy', amount: '100', amountUnit: 'quote', limitPrice: '3' }),
    );
    expect(limit.ok && limit.order.quantity).toBe(33.333333333);
  });

  it('estimates quantity and total for the summary', () => {
    const estimate = estimateOrder(
      { ...INITIAL_ORDER_FORM_VALUES, amount: '450', amountUnit: 'quote' },
      new SpecDecimal('150'),
      9,
    );
    expect(estimate.quantity?.toString()).toBe('3');
    expect(estimate.total?.toString()).toBe('450');
  });

  it('keeps the size when the unit toggles', () => {
    const price = new SpecDecimal('150');
    expect(convertAmountText('2', 'base', 'quote', price, 9)).toBe('300');
    expect(convertAmountText('300', 'quote', 'base', price, 9)).toBe('2');
    expect(convertAmountText('', 'quote', 'base', price, 9)).toBe('');
    expect(convertAmountText('5', 'base', 'quote', null, 9)).toBe('');
  });
});

describe('share buttons', () => {
  it('sell Max is the base balance, less a fee reserve when SOL is spent', () => {
    expect(getShareOfBalance(1, 'Sell', 'base', { SOL: 2 }, SOL_USDC, null)).toBe('1.99');
    expect(getShareOfBalance(0.5, 'Sell', 'base', { BONK: 1001 }, BONK_SOL, null)).toBe('500.5');
  });

  it('buy shares spend the quote, converted when the field holds base tokens', () => {
    const price = new SpecDecimal('150');
    expect(getShareOfBalance(0.25, 'Buy', 'quote', { USDC: 1000 }, SOL_USDC, price)).toBe('250');
    expect(getShareOfBalance(0.25, 'Buy', 'base', { USDC: 1000 }, SOL_USDC, price)).toBe('1.666666666');
    expect(getShareOfBalance(1, 'Buy', 'base', { USDC: 0 }, SOL_USDC, price)).toBe('');
  });
});

describe('the limit escrow preview', () => {
  it('shows what the server escrows: a buy locks the quote total rounded up to whole units', () => {
    expect(
      limitEscrowPreview('Buy', new SpecDecimal('0.5'), new SpecDecimal('150.000001'), SOL_USDC),
    ).toEqual({
      token: 'USDC',
      amount: new SpecDecimal('75.000001'),
    });
    expect(limitEscrowPreview('Sell', new SpecDecimal('2'), new SpecDecimal('150'), SOL_USDC)).toEqual({
      token: 'SOL',
      amount: new SpecDecimal('2'),
    });
  });

  it('shows nothing for an amount below one base unit', () => {
    expect(
      limitEscrowPreview('Buy', new SpecDecimal('0.0000000001'), new SpecDecimal('150'), SOL_USDC),
    ).toBeNull();
  });
});
