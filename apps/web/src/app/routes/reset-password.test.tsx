import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { calledRoutes, renderWithProviders, stubFetch } from '../../test/test-utils';
import ResetPasswordPage from './reset-password';

vi.mock('../../lib/toast', () => ({
  notify: { success: vi.fn(), error: vi.fn(), info: vi.fn(), warning: vi.fn() },
}));

async function submit(password: string, confirm: string) {
  await userEvent.type(screen.getByLabelText('New password'), password);
  await userEvent.type(screen.getByLabelText('Confirm new password'), confirm);
  await userEvent.click(screen.getByRole('button', { name: 'Reset password' }));
}

afterEach(() => vi.unstubAllGlobals());

describe('/reset-password', () => {
  it('without a token says the link is invalid and shows no form', () => {
    stubFetch({});
    renderWithProviders(<ResetPasswordPage />, { route: '/reset-password' });
    expect(screen.getByText('Invalid reset link. Please request a new password reset.')).toBeInTheDocument();
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
  });

  it("says 'Passwords do not match'", async () => {
    const fetchMock = stubFetch({});
    renderWithProviders(<ResetPasswordPage />, { route: '/reset-password?token=abc' });
    await submit('longenough1', 'longenough2');
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("says 'Password must be at least 8 characters long'", async () => {
    const fetchMock = stubFetch({});
    renderWithProviders(<ResetPasswordPage />, { route: '/reset-password?token=abc' });
    await submit('short', 'short');
    expect(screen.getByText('Password must be at least 8 characters long')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends token and new_password and confirms success', async () => {
    const fetchMock = stubFetch({
      'POST /auth/reset-password': { body: { success: true, data: { message: 'ok' } } },
    });
    renderWithProviders(<ResetPasswordPage />, { route: '/reset-password?token=abc' });
    await submit('longenough1', 'longenough1');
    expect(calledRoutes(fetchMock)).toEqual(['POST /auth/reset-password']);
    expect(JSON.parse(fetchMock.mock.calls[0]![1]!.body as string)).toEqual({
      token: 'abc',
      new_password: 'longenough1',
    });
    expect(screen.getByText('Your password was changed. Redirecting to login...')).toBeInTheDocument();
  });

  it('shows the server error on failure', async () => {
    stubFetch({
      'POST /auth/reset-password': {
        status: 400,
        body: { success: false, error: 'Invalid reset link. Please request a new password reset.' },
      },
    });
    renderWithProviders(<ResetPasswordPage />, { route: '/reset-password?token=used' });
    await submit('longenough1', 'longenough1');
    expect(screen.getByText('Invalid reset link. Please request a new password reset.')).toBeInTheDocument();
  });

  it("falls back to 'Failed to reset password'", async () => {
    stubFetch({ 'POST /auth/reset-password': { status: 400, body: { success: false } } });
    renderWithProviders(<ResetPasswordPage />, { route: '/reset-password?token=abc' });
    await submit('longenough1', 'longenough1');
    expect(screen.getByText('Failed to reset password')).toBeInTheDocument();
  });
});
