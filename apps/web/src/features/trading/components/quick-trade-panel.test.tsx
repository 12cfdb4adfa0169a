import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const sonner = vi.hoisted(() => ({
  toast: { success: vi.fn(), error: vi.fn(), info: vi.fn(), warning: vi.fn() },
}));
vi.mock('sonner', () => sonner);

import type { TSpotOrder } from '@solterm/contracts';
import { fail, ok, stubApi } from '../../market/test/market-test-utils';
import { selectionFromPair } from '../../market/trading-state';
import { makeWallet, renderTradingWidget } from '../test/trading-test-utils';
import { decodeBase64, encodeBase64 } from '../wire-transaction';
import { QuickTradePanel } from './quick-trade-panel';

const SOL_USDC = selectionFromPair('SOL/USDC')!;
const TX_HASH = '3'.repeat(87);
const UNSIGNED = new Uint8Array([1, 2, 3, 4]);

function filledOrder(): TSpotOrder {
  return {
    id: 'order-1',
    symbol: 'SOL/USDC',
    order_type: 'Market',
    side: 'Buy',
    quantity: 0.5,
    price: 150,
    stop_price: null,
    leverage: 1,
    status: 'Filled',
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-01T00:00:00.000Z',
    tx_hash: TX_HASH,
    settlement_tx_hash: null,
    filled_quantity: 0.5,
    average_fill_price: 150.3,
    receipt: {
      quoted_price: 150,
      filled_price: 150.3,
      slippage_bps: 20,
      network_fee_sol: 0.000005,
      venue_fee: 0.19,
      time_to_land_ms: 420,
      priority_fee_micro_lamports: 0,
    },
  };
}

function stubTrading({ usdc = 1000, sol = 1 }: { usdc?: number; sol?: number } = {}) {
  return stubApi((path, method) => {
    if (path === '/health') return ok({ status: 'ok', network: 'localnet' });
    if (path.startsWith('/trading/pair/')) return ok({ pair: 'SOL/USDC', price: 150, base_price_usd: 150 });
    if (path === '/trading/suggestion' && method === 'POST') {
      return ok({
        symbol: 'SOL/USDC',
        suggested_side: 'Buy',
        available_balances: { SOL: sol, USDC: usdc },
        price: 150,
      });
    }
    if (path === '/trading/get-unsigned-transaction') {
      return ok({
        unsigned_transaction: encodeBase64(UNSIGNED),
        order_id: null,
        quote: null,
        last_valid_block_height: '100',
        size_bytes: UNSIGNED.length,
      });
    }
    if (path === '/trading/execute-signed-transaction') {
      return ok({ transaction_hash: TX_HASH, status: 'confirmed', slot: 7, order: filledOrder() });
    }
    if (path === '/trading/spot/order') return ok(filledOrder());
    return undefined;
  });
}

function bodyOf(fetchMock: ReturnType<typeof stubApi>['fetchMock'], path: string): unknown {
  const call = fetchMock.mock.calls.find(([input]) => String(input) === `/api${path}`);
  return call ? JSON.parse(String(call[1]?.body)) : undefined;
}

async function renderPanel(options: Parameters<typeof renderTradingWidget>[1] = {}) {
  const result = renderTradingWidget(<QuickTradePanel selection={SOL_USDC} />, options);
  const panel = screen.getByRole('region', { name: 'Quick trade' });
  const price = within(panel).getByLabelText('Price', { exact: true });
  await waitFor(() => expect(price).toHaveValue('150.00'));
  return { ...result, panel };
}

beforeEach(() => {
  for (const fn of Object.values(sonner.toast)) fn.mockClear();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('QuickTradePanel', () => {
  it('takes the market price and links amount, quick amounts and total', async () => {
    stubTrading();
    const { panel } = await renderPanel();

    fireEvent.change(within(panel).getByLabelText('Amount', { exact: true }), { target: { value: '0.5' } });
    expect(within(panel).getByLabelText('Total', { exact: true })).toHaveValue('75');

    fireEvent.click(within(panel).getByRole('button', { name: 'Set amount to 0.1 SOL' }));
    expect(within(panel).getByLabelText('Amount', { exact: true })).toHaveValue('0.1');
    expect(within(panel).getByLabelText('Total', { exact: true })).toHaveValue('15');

    await waitFor(() =>
      expect(within(panel).getByTestId('quick-trade-balance-USDC')).toHaveTextContent('1,000.00'),
    );
  });

  it('"You pay" shows exactly the Total field, from one decimal computation', async () => {
    stubTrading();
    const { panel } = await renderPanel();
    const total = within(panel).getByLabelText('Total', { exact: true });

    fireEvent.change(within(panel).getByLabelText('Amount', { exact: true }), {
      target: { value: '0.0001' },
    });
    expect(total).toHaveValue('0.015');
    expect(within(panel).getByTestId('quick-trade-estimate')).toHaveTextContent('≈ 0.015 USDC');

    fireEvent.change(within(panel).getByLabelText('Amount', { exact: true }), {
      target: { value: '126546666666666.668' },
    });
    expect(total).toHaveValue('18982000000000000.2');
    expect(within(panel).getByTestId('quick-trade-estimate')).toHaveTextContent(
      '≈ 18,982,000,000,000,000.2 USDC',
    );
  });

  it('disables the quick amounts below the pair minimum and names the minimum (0.010026 SOL on SOL/USDC)', async () => {
    stubTrading();
    const { panel } = await renderPanel();
    const amount = within(panel).getByLabelText('Amount', { exact: true });
    for (const preset of ['0.001', '0.01']) {
      const button = within(panel).getByRole('button', { name: `Set amount to ${preset} SOL` });
      expect(button).toBeDisabled();
      expect(button).toHaveAttribute(
        'title',
        'Below the minimum trade amount of 0.010026 SOL on SOL/USDC (fees included)',
      );
      expect(button).toHaveAccessibleDescription(
        'Below the minimum trade amount of 0.010026 SOL on SOL/USDC (fees included)',
      );
      fireEvent.click(button);
      expect(amount).toHaveValue('');
    }
    const allowed = within(panel).getByRole('button', { name: 'Set amount to 0.1 SOL' });
    expect(allowed).toBeEnabled();
    expect(allowed).not.toHaveAttribute('title');
  });

  it('keeps every quick amount on a SOL-quoted pair, whose minimum is 0.0000010026', async () => {
    stubTrading();
    renderTradingWidget(<QuickTradePanel selection={selectionFromPair('BONK/SOL')!} />);
    const panel = screen.getByRole('region', { name: 'Quick trade' });
    for (const preset of ['0.001', '0.01', '0.1']) {
      expect(within(panel).getByRole('button', { name: `Set amount to ${preset} BONK` })).toBeEnabled();
    }
  });

  it('validates before anything is sent', async () => {
    const { fetchMock } = stubTrading();
    const { panel } = await renderPanel();
    const submit = within(panel).getByRole('button', { name: 'Buy SOL' });

    fireEvent.click(submit);
    expect(await within(panel).findByRole('alert')).toHaveTextContent('Please enter both amount and price');

    fireEvent.change(within(panel).getByLabelText('Amount', { exact: true }), { target: { value: '0.001' } });
    fireEvent.click(submit);
    expect(await within(panel).findByRole('alert')).toHaveTextContent(
      'Minimum amount is 0.01 SOL (accounting for fees)',
    );

    fireEvent.change(within(panel).getByLabelText('Price', { exact: true }), { target: { value: '0' } });
    fireEvent.change(within(panel).getByLabelText('Amount', { exact: true }), { target: { value: '1' } });
    fireEvent.click(submit);
    expect(await within(panel).findByRole('alert')).toHaveTextContent(
      'Amount and price must be greater than 0',
    );

    expect(fetchMock.mock.calls.some(([input]) => String(input).includes('get-unsigned'))).toBe(false);
  });

  it('needs a connected wallet', async () => {
    stubTrading();
    const { panel } = await renderPanel({ wallet: makeWallet({ connected: null }) });
    expect(within(panel).getByText('Please connect your wallet to trade')).toBeInTheDocument();

    fireEvent.change(within(panel).getByLabelText('Amount', { exact: true }), { target: { value: '0.5' } });
    fireEvent.click(within(panel).getByRole('button', { name: 'Buy SOL' }));

    expect(await within(panel).findByRole('alert')).toHaveTextContent(
      'No wallet connected. Please connect a wallet extension to trade.',
    );
    expect(sonner.toast.error).toHaveBeenCalledWith(
      'No wallet connected. Please connect a wallet extension to trade.',
      expect.anything(),
    );
  });

  it('warns when there is no USDC to buy with, and tips after 2 s', async () => {
    const { fetchMock } = stubTrading({ usdc: 0 });
    const { panel } = await renderPanel();
    vi.useFakeTimers({ shouldAdvanceTime: true });

    fireEvent.change(within(panel).getByLabelText('Amount', { exact: true }), { target: { value: '0.5' } });
    fireEvent.click(within(panel).getByRole('button', { name: 'Buy SOL' }));

    expect(await within(panel).findByRole('alert')).toHaveTextContent('No USDC available to buy SOL with.');
    expect(sonner.toast.warning).toHaveBeenCalledWith(
      'No USDC available to buy SOL with.',
      expect.anything(),
    );
    expect(sonner.toast.info).not.toHaveBeenCalledWith(expect.stringMatching(/^Tip:/), expect.anything());
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2000);
    });
    expect(sonner.toast.info).toHaveBeenCalledWith(expect.stringMatching(/^Tip:/), expect.anything());
    expect(fetchMock.mock.calls.some(([input]) => String(input).includes('get-unsigned'))).toBe(false);
  });

  it('asks for an explicit confirmation before buying a danger token; cancel sends nothing', async () => {
    const danger = {
      mint: 'So11111111111111111111111111111111111111112',
      token_program: 'spl-token',
      decimals: 9,
      supply: '0',
      mint_authority: null,
      freeze_authority: 'F'.repeat(32),
      extensions: [],
      top_holders: [],
      top10_share: 0,
      flags: [{ code: 'freeze_authority', severity: 'danger', message: 'Freeze authority present: frozen' }],
      level: 'danger',
      checked_at: '2026-01-01T00:00:00.000Z',
    };
    const trading = stubTrading();
    const inner = trading.fetchMock.getMockImplementation()!;
    trading.fetchMock.mockImplementation(async (input, init) =>
      String(input).endsWith('/safety')
        ? new Response(JSON.stringify({ success: true, data: danger }), { status: 200 })
        : inner(input, init),
    );
    const wallet = makeWallet();
    const { panel } = await renderPanel({ wallet });
    await waitFor(() =>
      expect(within(panel).getByTestId('safety-badge')).toHaveAttribute('data-level', 'danger'),
    );
    fireEvent.change(within(panel).getByLabelText('Amount', { exact: true }), { target: { value: '0.5' } });

    fireEvent.click(within(panel).getByRole('button', { name: 'Buy SOL' }));
    const dialog = await screen.findByRole('dialog', { name: 'SOL reads danger' });
    expect(dialog).toHaveTextContent('Freeze authority present: frozen');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(trading.paths).not.toContain('/trading/get-unsigned-transaction');

    fireEvent.click(within(panel).getByRole('button', { name: 'Buy SOL' }));
    fireEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Buy SOL anyway' }),
    );
    await waitFor(() => expect(wallet.signTransaction).toHaveBeenCalledWith(UNSIGNED));

    // A sell is never held back.
    await waitFor(() => expect(within(panel).getByLabelText('Amount', { exact: true })).toHaveValue(''));
    fireEvent.click(within(panel).getByRole('button', { name: /^Sell/ }));
    fireEvent.change(within(panel).getByLabelText('Amount', { exact: true }), { target: { value: '0.1' } });
    fireEvent.click(within(panel).getByRole('button', { name: 'Sell SOL' }));
    await waitFor(() => expect(wallet.signTransaction).toHaveBeenCalledTimes(2));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('builds, signs, executes and records a market order, then clears and refreshes', async () => {
    const { fetchMock, paths } = stubTrading();
    const wallet = makeWallet();
    const { panel } = await renderPanel({ wallet });

    fireEvent.change(within(panel).getByLabelText('Amount', { exact: true }), { target: { value: '0.5' } });
    fireEvent.click(within(panel).getByRole('button', { name: 'Buy SOL' }));

    await waitFor(() =>
      expect(sonner.toast.success).toHaveBeenCalledWith(
        'Bought 0.5000 SOL',
        expect.objectContaining({ duration: 3000 }),
      ),
    );
    expect(bodyOf(fetchMock, '/trading/get-unsigned-transaction')).toEqual({
      symbol: 'SOL/USDC',
      order_type: 'Market',
      side: 'Buy',
      quantity: 0.5,
      price: 150,
    });
    expect(wallet.signTransaction).toHaveBeenCalledWith(UNSIGNED);
    const executeCall = fetchMock.mock.calls.find(([input]) => String(input).includes('execute-signed'))!;
    const signed = (JSON.parse(String(executeCall[1]?.body)) as { signed_transaction: string })
      .signed_transaction;
    expect(decodeBase64(signed)).toEqual(new Uint8Array([1, 2, 3, 4, 1]));
    expect((executeCall[1]?.headers as Record<string, string>)['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(bodyOf(fetchMock, '/trading/spot/order')).toMatchObject({ tx_hash: TX_HASH, status: 'Filled' });

    // The form clears and the fill's receipt shows.
    expect(within(panel).getByLabelText('Amount', { exact: true })).toHaveValue('');
    const fill = within(panel).getByRole('region', { name: 'Last fill' });
    expect(fill).toHaveTextContent('Bought 0.5000 SOL @ 150.30 USDC');
    expect(fill).toHaveTextContent('Fee 0.19 USDC · Network 0.000005 SOL · +20.0 bps · 420 ms');
    expect(fill).toHaveAttribute('title', `Transaction ${TX_HASH}`);

    // A second later the balances are read again.
    const suggestionsBefore = paths.filter((path) => path === '/trading/suggestion').length;
    await waitFor(
      () =>
        expect(paths.filter((path) => path === '/trading/suggestion').length).toBeGreaterThan(
          suggestionsBefore,
        ),
      { timeout: 3000 },
    );
  });

  it('shows the server message when the order fails', async () => {
    stubApi((path, method) => {
      if (path === '/health') return ok({ status: 'ok', network: 'localnet' });
      if (path.startsWith('/trading/pair/')) return ok({ pair: 'SOL/USDC', price: 150 });
      if (path === '/trading/suggestion' && method === 'POST') {
        return ok({
          symbol: 'SOL/USDC',
          suggested_side: 'Buy',
          available_balances: { SOL: 1, USDC: 1000 },
          price: 150,
        });
      }
      if (path === '/trading/get-unsigned-transaction') {
        return fail(404, 'Trading pair is not available', 'TRADING__PAIR_UNAVAILABLE');
      }
      return undefined;
    });
    const { panel } = await renderPanel();
    fireEvent.change(within(panel).getByLabelText('Amount', { exact: true }), { target: { value: '0.5' } });
    fireEvent.click(within(panel).getByRole('button', { name: 'Buy SOL' }));

    expect(await within(panel).findByRole('alert')).toHaveTextContent('Trading pair is not available');
    expect(sonner.toast.error).toHaveBeenCalledWith('Trading pair is not available', expect.anything());
  });

  it('shows a wallet rejection as cancelled', async () => {
    stubTrading();
    const wallet = makeWallet({
      signTransaction: vi.fn().mockRejectedValue({ code: 4001, message: 'User rejected' }),
    });
    const { panel } = await renderPanel({ wallet });
    fireEvent.change(within(panel).getByLabelText('Amount', { exact: true }), { target: { value: '0.5' } });
    fireEvent.click(within(panel).getByRole('button', { name: 'Buy SOL' }));
    expect(await within(panel).findByRole('alert')).toHaveTextContent('Transaction cancelled by user');
  });
});
