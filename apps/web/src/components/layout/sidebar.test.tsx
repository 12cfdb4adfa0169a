import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders, stubFetch } from '../../test/test-utils';
import { Sidebar } from './sidebar';

afterEach(() => vi.unstubAllGlobals());

describe('Sidebar', () => {
  it("lists the spec's links in order, then Logout", () => {
    stubFetch({});
    renderWithProviders(<Sidebar isOpen={false} onClose={() => undefined} />, { route: '/dashboard' });

    const nav = screen.getByRole('navigation', { name: 'Main' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Dashboard', '/dashboard'],
      ['Bots', '/bots'],
      ['Trade', '/trade'],
      ['Futures', '/future'],
      ['Marketplace', '/market'],
      ['Backtest', '/backtest'],
      ['Earnings', '/earning'],
      ['Subscription', '/sub'],
      ['Support/FAQ', '/support'],
    ]);
    expect(screen.getByRole('button', { name: 'Logout' })).toBeInTheDocument();
  });

  it('marks the current page active', () => {
    stubFetch({});
    renderWithProviders(<Sidebar isOpen={false} onClose={() => undefined} />, { route: '/bots' });
    expect(screen.getByRole('link', { name: 'Bots' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current');
  });

  it('opens as a drawer with an overlay that closes it', async () => {
    stubFetch({});
    const onClose = vi.fn();
    renderWithProviders(<Sidebar isOpen onClose={onClose} />, { route: '/dashboard' });

    expect(screen.getByRole('dialog', { name: 'Menu' })).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('sidebar-overlay'));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('closes the drawer after following a link', async () => {
    stubFetch({});
    const onClose = vi.fn();
    renderWithProviders(<Sidebar isOpen onClose={onClose} />, { route: '/dashboard' });
    const drawer = screen.getByRole('dialog', { name: 'Menu' });
    await userEvent.click(within(drawer).getByRole('link', { name: 'Trade' }));
    expect(onClose).toHaveBeenCalled();
  });
});
