import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { STORAGE_KEYS } from '../../../lib/storage-keys';
import { makeJwt, makeUser, makeValidJwt, renderWithProviders, stubFetch } from '../../../test/test-utils';
import { ProtectedRoute, SESSION_CHECK_INTERVAL_MS } from './protected-route';

function App() {
  return (
    <Routes>
      <Route path="/auth" element={<p>Auth page</p>} />
      <Route element={<ProtectedRoute />}>
        <Route path="/dashboard" element={<p>Dashboard page</p>} />
      </Route>
    </Routes>
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('ProtectedRoute', () => {
  it('sends an anonymous visitor to /auth', () => {
    stubFetch({});
    renderWithProviders(<App />, { route: '/dashboard' });
    expect(screen.getByText('Auth page')).toBeInTheDocument();
  });

  it("shows 'Validating authentication...' while the session loads, then the page", async () => {
    stubFetch({
      'GET /user/validate-token': {
        body: { success: true, data: { user_id: 'user-1', valid: true, expires_at: 'x' } },
      },
      'GET /user/profile': { body: { success: true, data: makeUser() } },
    });
    window.localStorage.setItem(STORAGE_KEYS.authToken, makeValidJwt());

    renderWithProviders(<App />, { route: '/dashboard' });

    expect(screen.getByText('Validating authentication...')).toBeInTheDocument();
    expect(await screen.findByText('Dashboard page')).toBeInTheDocument();
  });

  it('logs out to /auth when the stored token expires while the page is open', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
    const nowSeconds = Math.floor(Date.now() / 1000);
    stubFetch({
      'GET /user/validate-token': {
        body: { success: true, data: { user_id: 'user-1', valid: true, expires_at: 'x' } },
      },
      'GET /user/profile': { body: { success: true, data: makeUser() } },
    });
    window.localStorage.setItem(STORAGE_KEYS.authToken, makeJwt({ sub: 'user-1', exp: nowSeconds + 90 }));
    const { navigate } = renderWithProviders(<App />, { route: '/dashboard' });
    expect(await screen.findByText('Dashboard page')).toBeInTheDocument();
    // The guard starts its minute check in an effect, which React may run after the page shows; in a
    // full run the minutes below once passed before it had started.
    await vi.waitFor(() => expect(vi.getTimerCount()).toBe(1));

    act(() => vi.advanceTimersByTime(SESSION_CHECK_INTERVAL_MS));
    expect(navigate).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(SESSION_CHECK_INTERVAL_MS));

    expect(navigate).toHaveBeenCalledWith('/auth');
    expect(window.localStorage.getItem(STORAGE_KEYS.authToken)).toBeNull();
  });
});
