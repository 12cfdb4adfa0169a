import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { makeUser, renderWithProviders, stubFetch } from '../../../test/test-utils';
import { LoginForm } from './login-form';

const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), info: vi.fn(), warning: vi.fn() }));
vi.mock('../../../lib/toast', () => ({ notify: toast }));

function App() {
  return (
    <Routes>
      <Route path="/auth" element={<LoginForm />} />
      <Route path="/dashboard" element={<p>Dashboard page</p>} />
    </Routes>
  );
}

async function submit(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('Email'), 'satoshi@example.com');
  await user.type(screen.getByLabelText('Password'), 'hunter2222');
  await user.click(screen.getByLabelText('Remember me'));
  await user.click(screen.getByRole('button', { name: 'Login' }));
}

beforeEach(() => Object.values(toast).forEach((fn) => fn.mockClear()));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('LoginForm', () => {
  it('logs in with remember_me, toasts success and goes to /dashboard after 1 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const fetchMock = stubFetch({
      'POST /auth/login': {
        body: { success: true, data: { token: 'tok', user: makeUser(), expires_at: 'x' } },
      },
    });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderWithProviders(<App />, { route: '/auth' });

    await submit(user);

    expect(JSON.parse(fetchMock.mock.calls[0]![1]!.body as string)).toEqual({
      email: 'satoshi@example.com',
      password: 'hunter2222',
      remember_me: true,
    });
    expect(toast.success).toHaveBeenCalled();
    expect(screen.queryByText('Dashboard page')).not.toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.getByText('Dashboard page')).toBeInTheDocument();
  });

  it('shows the server error, or Login failed', async () => {
    stubFetch({
      'POST /auth/login': { status: 401, body: { success: false, error: 'Invalid email or password' } },
    });
    renderWithProviders(<App />, { route: '/auth' });
    await submit(userEvent.setup());
    expect(toast.error).toHaveBeenCalledWith('Invalid email or password');
  });

  it("shows 'Login failed' when the server gives no text", async () => {
    stubFetch({ 'POST /auth/login': { status: 400, body: { success: false } } });
    renderWithProviders(<App />, { route: '/auth' });
    await submit(userEvent.setup());
    expect(toast.error).toHaveBeenCalledWith('Login failed');
  });
});
