import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { renderWithProviders, stubFetch } from '../../test/test-utils';
import ForgotPasswordPage from './forgot-password';

const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), info: vi.fn(), warning: vi.fn() }));
vi.mock('../../lib/toast', () => ({ notify: toast }));

function App() {
  return (
    <Routes>
      <Route path="/forgot-password" element={<ForgotPasswordPage />} />
      <Route path="/otp-verification" element={<p>OTP page</p>} />
    </Routes>
  );
}

async function submit(user = userEvent.setup()) {
  await user.type(screen.getByLabelText('Email'), 'satoshi@example.com');
  await user.click(screen.getByRole('button', { name: 'Send reset link' }));
}

beforeEach(() => Object.values(toast).forEach((fn) => fn.mockClear()));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('/forgot-password', () => {
  it('on success toasts and goes to /otp-verification after 2 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    stubFetch({ 'POST /auth/forgot-password': { body: { success: true, data: { message: 'sent' } } } });
    renderWithProviders(<App />, { route: '/forgot-password' });

    await submit(userEvent.setup({ advanceTimers: vi.advanceTimersByTime }));

    expect(toast.success).toHaveBeenCalled();
    expect(screen.queryByText('OTP page')).not.toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(screen.getByText('OTP page')).toBeInTheDocument();
  });

  it("a refusal without text shows 'Failed to send reset email'", async () => {
    stubFetch({ 'POST /auth/forgot-password': { status: 400, body: { success: false } } });
    renderWithProviders(<App />, { route: '/forgot-password' });
    await submit();
    expect(toast.error).toHaveBeenCalledWith('Failed to send reset email');
  });

  it("a transport failure shows 'An error occurred. Please try again.'", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('fetch failed');
      }),
    );
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderWithProviders(<App />, { route: '/forgot-password' });
    await submit(userEvent.setup({ advanceTimers: vi.advanceTimersByTime }));
    await act(() => vi.advanceTimersByTimeAsync(3000));
    expect(toast.error).toHaveBeenCalledWith('An error occurred. Please try again.');
  });

  it('links Back to Login to /login', () => {
    renderWithProviders(<App />, { route: '/forgot-password' });
    expect(screen.getByRole('link', { name: 'Back to Login' })).toHaveAttribute('href', '/login');
  });
});
