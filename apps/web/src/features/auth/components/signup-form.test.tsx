import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { calledRoutes, makeUser, renderWithProviders, stubFetch } from '../../../test/test-utils';
import { STORAGE_KEYS } from '../../../lib/storage-keys';
import { SignupForm } from './signup-form';

const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), info: vi.fn(), warning: vi.fn() }));
vi.mock('../../../lib/toast', () => ({ notify: toast }));

async function fill({ password = 'hunter2222', confirm = 'hunter2222', agree = true } = {}) {
  await userEvent.type(screen.getByLabelText('Username'), 'satoshi');
  await userEvent.type(screen.getByLabelText('Email'), 'satoshi@example.com');
  await userEvent.type(screen.getByLabelText('Password'), password);
  await userEvent.type(screen.getByLabelText('Confirm password'), confirm);
  if (agree) await userEvent.click(screen.getByRole('checkbox'));
  await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
}

let alertSpy: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  alertSpy = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
  Object.values(toast).forEach((fn) => fn.mockClear());
});

afterEach(() => {
  alertSpy.mockRestore();
  vi.unstubAllGlobals();
});

describe('SignupForm', () => {
  it("alerts 'Passwords do not match' and makes no call", async () => {
    const fetchMock = stubFetch({});
    renderWithProviders(<SignupForm />);
    await fill({ confirm: 'different1' });
    expect(alertSpy).toHaveBeenCalledWith('Passwords do not match');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("alerts 'Please agree to the terms and conditions' when the box is unticked", async () => {
    const fetchMock = stubFetch({});
    renderWithProviders(<SignupForm />);
    await fill({ agree: false });
    expect(alertSpy).toHaveBeenCalledWith('Please agree to the terms and conditions');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('registers, stores the session and toasts success', async () => {
    const fetchMock = stubFetch({
      'POST /auth/register': {
        body: { success: true, data: { token: 'tok', user: makeUser(), expires_at: 'x' } },
      },
    });
    renderWithProviders(<SignupForm />);
    await fill();
    expect(calledRoutes(fetchMock)).toEqual(['POST /auth/register']);
    expect(JSON.parse(fetchMock.mock.calls[0]![1]!.body as string)).toEqual({
      username: 'satoshi',
      email: 'satoshi@example.com',
      password: 'hunter2222',
    });
    expect(window.localStorage.getItem(STORAGE_KEYS.authToken)).toBe('tok');
    expect(toast.success).toHaveBeenCalled();
    expect(alertSpy).not.toHaveBeenCalled();
  });

  it('shows the server error as an error toast', async () => {
    stubFetch({
      'POST /auth/register': { status: 409, body: { success: false, error: 'Email already registered' } },
    });
    renderWithProviders(<SignupForm />);
    await fill();
    expect(toast.error).toHaveBeenCalledWith('Email already registered');
  });

  it("falls back to 'Registration failed' when the server gives no text", async () => {
    stubFetch({ 'POST /auth/register': { status: 400, body: { success: false } } });
    renderWithProviders(<SignupForm />);
    await fill();
    expect(toast.error).toHaveBeenCalledWith('Registration failed');
  });
});
