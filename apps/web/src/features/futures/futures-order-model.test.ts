import { describe, expect, it } from 'vitest';
import type { TFuturesAccount, TFuturesOrder, TFuturesPair, TFuturesPosition } from '@solterm/contracts';
import {
  leveragePresets,
  leverageSettingOf,
  orderAction,
  previewFuturesOrder,
  triggerTypeOf,
  validateDeposit,
  validateFuturesOrder,
} from './futures-order-model';
import { futuresPriceLevels } from './use-futures';

const SOL: TFuturesPair = {
  id: 'SOL-PERP',
  symbol: 'SOL-PERP',
  base_symbol: 'SOL',
  market_index: 0,
  tick_size: '0.01',
  min_order_size: '0.001',
  max_leverage: 100,
  maintenance_margin_fraction: '0.005',
  oracle_price: '100.00',
  taker_fee: '0.0007',
  maker_fee: '0.0004',
};
const ACCOUNT: TFuturesAccount = {
  initialized: true,
  wallet_address: 'w',
  vault_address: 'v',
  collateral: '100.000000',
  equity: '100.000000',
  unrealized_pnl: '0.000000',
  initial_margin: '0.000000',
  maintenance_margin: '0.000000',
  free_collateral: '100.000000',
  leverage: '0.00',
  open_orders: 0,
  open_positions: 0,
  leverage_settings: [{ symbol: 'SOL-PERP', leverage: 20, max_leverage: 100, in_use: true }],
  pending_transfers: [],
};

describe('futures order form', () => {
  it.each([
    [{ amount: '', price: '', orderType: 'Market' }, 'Enter amount and price'],
    [{ amount: '1', price: '', orderType: 'Limit' }, 'Enter amount and price'],
    [{ amount: '0', price: '', orderType: 'Market' }, 'Amount/Price invalid'],
    [{ amount: 'abc', price: '', orderType: 'Market' }, 'Amount/Price invalid'],
    [{ amount: '1', price: '-5', orderType: 'Limit' }, 'Amount/Price invalid'],
    [{ amount: '0.0001', price: '', orderType: 'Market' }, 'Minimum order size is 0.001 SOL'],
    [{ amount: '0.5', price: '', orderType: 'Market' }, null],
    [{ amount: '0.5', price: '99.5', orderType: 'Limit' }, null],
  ] as const)('%j → %s', (input, expected) => {
    expect(validateFuturesOrder({ ...input, pair: SOL })).toBe(expected);
  });

  it('checks deposits with the spec’s minimums', () => {
    expect(validateDeposit('0', true)).toBe('Invalid deposit amount');
    expect(validateDeposit('0.5', true)).toBe('Minimum deposit amount is 1 USDC');
    expect(validateDeposit('0.5', false)).toBeNull();
    expect(validateDeposit('0.001', false)).toBe('Minimum deposit amount is 0.01 USDC');
    expect(validateDeposit('100', true)).toBeNull();
  });

  it('caps the leverage presets at the market’s maximum', () => {
    expect(leveragePresets(100)).toEqual([1, 5, 10, 20, 30, 40, 50, 75, 100]);
    expect(leveragePresets(20)).toEqual([1, 5, 10, 20]);
  });

  it('previews a 10x long: margin, fee, risk and the engine’s liquidation price', () => {
    const preview = previewFuturesOrder({
      side: 'Long',
      orderType: 'Market',
      amount: '9',
      price: '',
      leverage: 10,
      pair: SOL,
      account: ACCOUNT,
      position: undefined,
    })!;
    expect(preview.notional.toString()).toBe('900');
    expect(preview.margin.toString()).toBe('90');
    expect(preview.fee.toString()).toBe('0.63');
    expect(preview.risk).toBe('Medium');
    // (900 + 0.63 − 100) / (9 × 0.995)
    expect(preview.liquidationPrice!.toFixed(4)).toBe('89.4059');
    const short = previewFuturesOrder({
      side: 'Short',
      orderType: 'Market',
      amount: '9',
      price: '',
      leverage: 100,
      pair: SOL,
      account: ACCOUNT,
      position: undefined,
    })!;
    expect(short.liquidationPrice!.gt(100)).toBe(true);
    expect(short.risk).toBe('Extreme');
  });

  it('names the action by the position held', () => {
    const long = { side: 'Long', direction: 1 } as never;
    expect(orderAction('Long', undefined)).toBe('Open Long');
    expect(orderAction('Long', long)).toBe('Add to Long');
    expect(orderAction('Short', long)).toBe('Close / Reduce Long');
  });

  it('reads the account’s leverage setting for the market, the default where none is set', () => {
    expect(leverageSettingOf(ACCOUNT, SOL)).toEqual({ leverage: 20, inUse: true });
    expect(leverageSettingOf(undefined, SOL)).toEqual({ leverage: 10, inUse: false });
    expect(leverageSettingOf(ACCOUNT, { symbol: 'JUP-PERP', max_leverage: 5 })).toEqual({
      leverage: 5,
      inUse: false,
    });
  });

  it('previews the margin the order really adds at the account’s leverage: a reducing order adds none', () => {
    const long = { side: 'Long', size: '1.000', direction: 1 } as never;
    const base = { orderType: 'Market', price: '', leverage: 20, pair: SOL, account: ACCOUNT } as const;
    // Adding 0.01 SOL to a 20x long at 100: 1 USDC notional, 0.05 margin (not 1.00 at 1x).
    expect(
      previewFuturesOrder({ ...base, side: 'Long', amount: '0.01', position: long })!.margin.toString(),
    ).toBe('0.05');
    expect(
      previewFuturesOrder({ ...base, side: 'Short', amount: '0.5', position: long })!.margin.toString(),
    ).toBe('0');
    // Flipping: only the 0.5 past the long adds margin.
    expect(
      previewFuturesOrder({ ...base, side: 'Short', amount: '1.5', position: long })!.margin.toString(),
    ).toBe('2.5');
  });
});

describe('trigger orders in the order form', () => {
  it('needs a trigger price', () => {
    expect(validateFuturesOrder({ amount: '1', price: '', orderType: 'StopMarket', pair: SOL })).toBe(
      'Enter a trigger price',
    );
    expect(validateFuturesOrder({ amount: '1', price: 'x', orderType: 'TakeProfitMarket', pair: SOL })).toBe(
      'Amount/Price invalid',
    );
    expect(validateFuturesOrder({ amount: '1', price: '95', orderType: 'StopMarket', pair: SOL })).toBeNull();
    expect(triggerTypeOf('StopMarket')).toBe('stop_market');
    expect(triggerTypeOf('TakeProfitMarket')).toBe('take_profit_market');
    expect(triggerTypeOf('Limit')).toBeUndefined();
  });

  it('previews a trigger order at its trigger price, as a taker', () => {
    const preview = previewFuturesOrder({
      side: 'Short',
      orderType: 'StopMarket',
      amount: '2',
      price: '90',
      leverage: 10,
      pair: SOL,
      account: ACCOUNT,
      position: undefined,
    })!;
    expect(preview.notional.toString()).toBe('180');
    expect(preview.fee.toString()).toBe('0.126');
  });
});

describe('futuresPriceLevels', () => {
  it('answers the position’s entry, liquidation and TP/SL, and the waiting standalone triggers of the market', () => {
    const position = {
      symbol: 'SOL-PERP',
      entry_price: '150.0000',
      liquidation_price: '120.00',
      take_profit: { order_id: '7', trigger_price: '160.00' },
      stop_loss: null,
    } as TFuturesPosition;
    const order = (id: string, patch: Partial<TFuturesOrder>) =>
      ({
        id,
        symbol: 'SOL-PERP',
        side: 'Short',
        order_type: 'StopMarket',
        trigger_price: '140.00',
        tpsl: null,
        status: 'Open',
        ...patch,
      }) as TFuturesOrder;
    const levels = futuresPriceLevels(
      'SOL-PERP',
      [position],
      [
        order('1', {}),
        order('7', { tpsl: 'tp', order_type: 'TakeProfitMarket', trigger_price: '160.00' }),
        order('2', { status: 'Filled' }),
        order('3', { symbol: 'BTC-PERP' }),
        order('4', { order_type: 'Limit', trigger_price: null }),
      ],
    );
    expect(levels).toEqual({
      entry: 150,
      liquidation: 120,
      takeProfit: 160,
      stopLoss: null,
      triggers: [{ id: '1', kind: 'stop', side: 'Short', price: 140 }],
    });
    expect(futuresPriceLevels('ETH-PERP', [position], [])).toEqual({
      entry: null,
      liquidation: null,
      takeProfit: null,
      stopLoss: null,
      triggers: [],
    });
  });
});
