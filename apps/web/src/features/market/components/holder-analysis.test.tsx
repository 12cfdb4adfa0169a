import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ok, renderMarket, stubApi } from '../test/market-test-utils';
import { selectionFromPair } from '../trading-state';
import { formatRelativeTime, HolderAnalysis } from './holder-analysis';

const BONK_MINT = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263';

function holders(type: string) {
  return ok({
    token: 'BONK',
    mint: BONK_MINT,
    holder_type: type,
    holders:
      type === 'remarks'
        ? []
        : [
            {
              address: '6ovHcCpryr5u9DQxChut3q5iQukcckb1jA7GuFwNPV1t',
              name: type === 'kol' ? 'KOL · @onchain_ollie' : 'Raydium pool',
              owned_percentage: 11.5214,
              balance: 10138830255224,
              sol_balance: 23.216,
              last_activity: new Date(Date.now() - 3 * 3_600_000).toISOString(),
              tags: ['remarks'],
            },
          ],
    source: 'simulator',
  });
}

afterEach(() => vi.unstubAllGlobals());

describe('holder analysis', () => {
  it('shows the top-100 stats and the holders of each tab', async () => {
    const { paths } = stubApi((path) => {
      if (path === `/holder-analysis/${BONK_MINT}/stats`) {
        return ok({
          token: 'BONK',
          mint: BONK_MINT,
          top100_owned: 64.61,
          top100_avg_cost: 0.0000451440476,
          top100_avg_sold: 33.74,
          holder_count: 270674,
          source: 'simulator',
        });
      }
      const match = /^\/holder-analysis\/\w+\?holder_type=(\w+)&limit=10$/.exec(path);
      return match ? holders(match[1]!) : undefined;
    });
    renderMarket(<HolderAnalysis selection={selectionFromPair('BONK/SOL')!} />, { route: '/future' });

    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
      'All',
      'Smart 1',
      'KOL/VC12',
      'Remarks',
      'Tracking',
    ]);
    expect(await screen.findByText('64.61%')).toBeInTheDocument();
    expect(screen.getByText('$0.000045')).toBeInTheDocument();
    expect(screen.getByText('33.74%')).toBeInTheDocument();
    expect(screen.getByText('270.67K holders')).toBeInTheDocument();

    const row = within(await screen.findByTestId('holder-row'));
    expect(row.getByText('Raydium pool')).toBeInTheDocument();
    expect(row.getByText('11.52%')).toBeInTheDocument();
    expect(row.getByText('10.14T')).toBeInTheDocument();
    expect(row.getByText('23.22')).toBeInTheDocument();
    expect(row.getByText('3h ago')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('tab', { name: 'KOL/VC12' }));
    expect(await screen.findByText('KOL · @onchain_ollie')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('tab', { name: 'Remarks' }));
    expect(await screen.findByText('No holders in this category')).toBeInTheDocument();
    await waitFor(() =>
      expect(paths.filter((path) => path.includes('holder_type'))).toEqual([
        `/holder-analysis/${BONK_MINT}?holder_type=all&limit=10`,
        `/holder-analysis/${BONK_MINT}?holder_type=kol&limit=10`,
        `/holder-analysis/${BONK_MINT}?holder_type=remarks&limit=10`,
      ]),
    );
  });

  it('formats activity times relative to now', () => {
    const now = Date.UTC(2030, 5, 1, 12);
    expect(formatRelativeTime(null, now)).toBe('—');
    expect(formatRelativeTime(new Date(now - 30_000).toISOString(), now)).toBe('just now');
    expect(formatRelativeTime(new Date(now - 5 * 60_000).toISOString(), now)).toBe('5m ago');
    expect(formatRelativeTime(new Date(now - 2 * 86_400_000).toISOString(), now)).toBe('2d ago');
    expect(formatRelativeTime(new Date(now - 90 * 86_400_000).toISOString(), now)).toBe('Mar 3, 2030');
  });
});
