import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TTokenSafety } from '@solterm/contracts';
import { createTestQueryClient } from '../../../test/test-utils';
import { ok, stubApi } from '../test/market-test-utils';
import { SafetyBadge, SafetyBadgeView } from './safety-badge';

const MINT = '44BnKoJDcFJgZUmMobxyzLNge8auRFmyyzpUFmz3yNp7';

function safetyOf(level: TTokenSafety['level'], flags: TTokenSafety['flags'] = []): TTokenSafety {
  return {
    mint: MINT,
    token_program: 'spl-token',
    decimals: 6,
    supply: '1000000000000',
    mint_authority: null,
    freeze_authority: null,
    extensions: [],
    top_holders: [],
    top10_share: 12.5,
    flags,
    level,
    checked_at: '2026-01-01T00:00:00.000Z',
  };
}

const FREEZE = {
  code: 'freeze_authority',
  severity: 'danger',
  message: 'Freeze authority present: X can freeze your tokens so you cannot sell them',
} as const;

afterEach(() => vi.unstubAllGlobals());

describe('SafetyBadge', () => {
  it('shows the level and, on tap, the flags with their severity; the tap does not reach the row', () => {
    const onRowClick = vi.fn();
    render(
      <div onClick={onRowClick}>
        <SafetyBadgeView safety={safetyOf('danger', [FREEZE])} />
      </div>,
    );
    const badge = screen.getByTestId('safety-badge');
    expect(badge).toHaveAttribute('data-level', 'danger');
    const button = within(badge).getByRole('button', { name: /Safety: Danger\. Freeze authority present/ });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('tooltip')).toBeVisible();
    expect(screen.getByTestId('safety-flags')).toHaveTextContent('danger · Freeze authority present');
    expect(screen.getByTestId('safety-flags')).toHaveTextContent('Top 10 holders: 12.5%');
    fireEvent.click(screen.getByRole('tooltip'));
    expect(onRowClick).not.toHaveBeenCalled();
    fireEvent.click(button);
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
  });

  it('shows the flags on hover too', () => {
    render(<SafetyBadgeView safety={safetyOf('danger', [FREEZE])} isInteractive={false} />);
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
    fireEvent.mouseEnter(screen.getByTestId('safety-badge'));
    expect(screen.getByRole('tooltip')).toHaveTextContent('Freeze authority present');
    fireEvent.mouseLeave(screen.getByTestId('safety-badge'));
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
  });

  it('says when the chain shows no flag (ok)', () => {
    render(<SafetyBadgeView safety={safetyOf('ok')} />);
    expect(screen.getByRole('button', { name: 'Safety: OK. No risk flags' })).toHaveTextContent('OK');
  });

  it('fetches GET /api/tokens/{mint}/safety once per mint and shows N/A when it fails', async () => {
    const { paths } = stubApi((path) =>
      path === `/tokens/${MINT}/safety` ? ok(safetyOf('caution')) : undefined,
    );
    const client = createTestQueryClient();
    render(
      <QueryClientProvider client={client}>
        <SafetyBadge mint={MINT} />
        <SafetyBadge mint={MINT} />
        <SafetyBadge mint="So11111111111111111111111111111111111111112" />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(screen.getAllByText('Caution')).toHaveLength(2));
    await waitFor(() => expect(screen.getByText('N/A')).toBeInTheDocument());
    expect(paths.filter((path) => path === `/tokens/${MINT}/safety`)).toHaveLength(1);
  });
});
