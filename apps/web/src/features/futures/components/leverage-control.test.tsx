import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TFuturesAccount, TFuturesPair } from '@solterm/contracts';
import { renderWithProviders, stubFetch } from '../../../test/test-utils';
import { LeverageControl } from './leverage-control';

const SOL = { symbol: 'SOL-PERP', max_leverage: 100 } as TFuturesPair;
const account = (leverage: number) =>
  ({
    initialized: true,
    leverage_settings: [{ symbol: 'SOL-PERP', leverage, max_leverage: 100, in_use: true }],
  }) as TFuturesAccount;

describe('LeverageControl', () => {
  it('shows the account’s setting; picking a value changes nothing until Set, whose refusal is shown', async () => {
    let answer = {
      status: 409,
      body: {
        success: false,
        code: 'FUTURES__LEVERAGE_UNDERMARGINED',
        error:
          'Your SOL-PERP position and open orders cannot be margined at 1x: free collateral would go negative',
      },
    };
    const fetchMock = stubFetch({ 'POST /futures/leverage': () => answer });
    renderWithProviders(<LeverageControl pair={SOL} account={account(20)} canSet />);
    expect(screen.getByTestId('leverage-control')).toHaveAttribute('data-leverage', '20');
    expect(screen.getByText(/margined at 20x/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '1x' }));
    expect(fetchMock).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Set SOL-PERP to 1x' }));
    expect(await screen.findByText(/cannot be margined at 1x/)).toBeInTheDocument();
    const [, init] = fetchMock.mock.calls[0]!;
    expect(JSON.parse(String(init?.body))).toEqual({ symbol: 'SOL-PERP', leverage: 1 });

    answer = {
      status: 200,
      body: {
        success: true,
        data: {
          symbol: 'SOL-PERP',
          leverage: 5,
          max_leverage: 100,
          in_use: true,
          initial_margin: '30',
          free_collateral: '70',
        },
      } as never,
    };
    await userEvent.click(screen.getByRole('button', { name: '5x' }));
    await userEvent.click(screen.getByRole('button', { name: 'Set SOL-PERP to 5x' }));
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: /Set SOL-PERP/ })).not.toBeInTheDocument(),
    );
    expect(screen.queryByText(/cannot be margined/)).not.toBeInTheDocument();
  });

  it('Keep restores the setting without a call', async () => {
    const fetchMock = stubFetch({});
    renderWithProviders(<LeverageControl pair={SOL} account={account(20)} canSet />);
    await userEvent.click(screen.getByRole('button', { name: '50x' }));
    await userEvent.click(screen.getByRole('button', { name: 'Keep 20x' }));
    expect(screen.getByRole('button', { name: '20x' })).toHaveAttribute('aria-pressed', 'true');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
