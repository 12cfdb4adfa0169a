import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, waitFor } from '@testing-library/react';
import { STORAGE_KEYS } from '../../lib/storage-keys';
import {
  calledRoutes,
  makeJwt,
  makeUser,
  makeValidJwt,
  renderHookWithProviders,
  stubFetch,
} from '../../test/test-utils';
import { USER_LOGGED_IN_EVENT, USER_LOGGED_OUT_EVENT } from './auth-events';
import { useAuth } from './use-auth';

const VALID_TOKEN_REPLY = {
  body: { success: true, data: { user_id: 'user-1', valid: true, expires_at: 'x' } },
};

function listen(eventName: string) {
  const listener = vi.fn();
  window.addEventListener(eventName, listener);
  return listener;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('AuthProvider start-up', () => {
  it('without a stored token is anonymous at once and makes no call', () => {
    const fetchMock = stubFetch({});
    const { result } = renderHookWithProviders(useAuth);
    expect(result.current.status).toBe('anonymous');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('removes a locally expired token without a call', async () => {
    const fetchMock = stubFetch({});
    window.localStorage.setItem(
      STORAGE_KEYS.authToken,
      makeJwt({ sub: 'u', exp: Math.floor(Date.now() / 1000) - 10 }),
    );

    const { result } = renderHookWithProviders(useAuth);

    expect(result.current.status).toBe('anonymous');
    await waitFor(() => expect(window.localStorage.getItem(STORAGE_KEYS.authToken)).toBeNull());
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('validates the token, then loads the profile, then fires userLoggedIn', async () => {
    const fetchMock = stubFetch({
      'GET /user/validate-token': VALID_TOKEN_REPLY,
      'GET /user/profile': { body: { success: true, data: makeUser() } },
    });
    const onLoggedIn = listen(USER_LOGGED_IN_EVENT);
    window.localStorage.setItem(STORAGE_KEYS.authToken, makeValidJwt());

    const { result } = renderHookWithProviders(useAuth);

    expect(result.current.status).toBe('loading');
    await waitFor(() => expect(result.current.status).toBe('authenticated'));
    expect(result.current.user?.username).toBe('satoshi');
    expect(calledRoutes(fetchMock)).toEqual(['GET /user/validate-token', 'GET /user/profile']);
    expect(onLoggedIn).toHaveBeenCalledTimes(1);
    window.removeEventListener(USER_LOGGED_IN_EVENT, onLoggedIn);
  });

  it('a failed validation clears the token and ends anonymous', async () => {
    const fetchMock = stubFetch({
      'GET /user/validate-token': { status: 400, body: { success: false, error: 'Malformed token' } },
    });
    window.localStorage.setItem(STORAGE_KEYS.authToken, makeValidJwt());

    const { result } = renderHookWithProviders(useAuth);

    await waitFor(() => expect(result.current.status).toBe('anonymous'));
    expect(window.localStorage.getItem(STORAGE_KEYS.authToken)).toBeNull();
    expect(calledRoutes(fetchMock)).toEqual(['GET /user/validate-token']);
  });

  it('a 401 on validation clears the session and goes to /auth', async () => {
    stubFetch({
      'GET /user/validate-token': {
        status: 401,
        body: { success: false, error: 'Invalid or expired token' },
      },
    });
    window.localStorage.setItem(STORAGE_KEYS.authToken, makeValidJwt());
    window.localStorage.setItem(STORAGE_KEYS.walletAddress, 'So1ana');

    const { result, navigate } = renderHookWithProviders(useAuth);

    await waitFor(() => expect(result.current.status).toBe('anonymous'));
    expect(window.localStorage.getItem(STORAGE_KEYS.authToken)).toBeNull();
    expect(window.localStorage.getItem(STORAGE_KEYS.walletAddress)).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/auth');
  });
});

describe('AuthProvider actions', () => {
  it('completeLogin stores the token, syncs the wallet items and fires userLoggedIn', () => {
    stubFetch({});
    const onLoggedIn = listen(USER_LOGGED_IN_EVENT);
    const { result } = renderHookWithProviders(useAuth);

    act(() =>
      result.current.completeLogin({
        token: 'tok-1',
        user: makeUser({ solana_wallet_address: 'So1anaAddress', wallet_type: 'phantom' }),
      }),
    );

    expect(result.current.status).toBe('authenticated');
    expect(window.localStorage.getItem(STORAGE_KEYS.authToken)).toBe('tok-1');
    expect(window.localStorage.getItem(STORAGE_KEYS.walletAddress)).toBe('So1anaAddress');
    expect(window.localStorage.getItem(STORAGE_KEYS.walletType)).toBe('phantom');
    expect(onLoggedIn).toHaveBeenCalledTimes(1);
    window.removeEventListener(USER_LOGGED_IN_EVENT, onLoggedIn);
  });

  it('completeLogin for a wallet without a type records the detected one (solana by default)', () => {
    stubFetch({});
    const { result } = renderHookWithProviders(useAuth);
    act(() =>
      result.current.completeLogin({ token: 't', user: makeUser({ solana_wallet_address: 'Addr' }) }),
    );
    expect(window.localStorage.getItem(STORAGE_KEYS.walletType)).toBe('solana');
  });

  it('completeLogin without a wallet leaves the wallet items alone', () => {
    stubFetch({});
    const { result } = renderHookWithProviders(useAuth);
    act(() => result.current.completeLogin({ token: 'tok-2', user: makeUser() }));
    expect(window.localStorage.getItem(STORAGE_KEYS.walletAddress)).toBeNull();
  });

  it('logout posts /auth/logout with the token, clears token and wallet items and goes to /', async () => {
    const fetchMock = stubFetch({ 'POST /auth/logout': { body: { success: true, data: null } } });
    const onLoggedOut = listen(USER_LOGGED_OUT_EVENT);
    const { result, navigate } = renderHookWithProviders(useAuth);
    act(() =>
      result.current.completeLogin({
        token: 'tok-3',
        user: makeUser({ solana_wallet_address: 'addr', wallet_type: 'solflare' }),
      }),
    );

    await act(() => result.current.logout());

    expect(calledRoutes(fetchMock)).toEqual(['POST /auth/logout']);
    const headers = fetchMock.mock.calls[0]![1]!.headers as Record<string, string>;
    expect(headers.Authorization).toBe('Bearer tok-3');
    expect(window.localStorage.getItem(STORAGE_KEYS.authToken)).toBeNull();
    expect(window.localStorage.getItem(STORAGE_KEYS.walletAddress)).toBeNull();
    expect(window.localStorage.getItem(STORAGE_KEYS.walletType)).toBeNull();
    expect(result.current.status).toBe('anonymous');
    expect(navigate).toHaveBeenCalledWith('/');
    expect(onLoggedOut).toHaveBeenCalledTimes(1);
    window.removeEventListener(USER_LOGGED_OUT_EVENT, onLoggedOut);
  });

  it('logout still signs out locally when the server call fails', async () => {
    stubFetch({ 'POST /auth/logout': { status: 400, body: { success: false, error: 'x' } } });
    const { result, navigate } = renderHookWithProviders(useAuth);
    act(() => result.current.completeLogin({ token: 'tok-4', user: makeUser() }));
    await act(() => result.current.logout());
    expect(window.localStorage.getItem(STORAGE_KEYS.authToken)).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/');
  });

  it('refreshProfile reloads the user', async () => {
    stubFetch({ 'GET /user/profile': { body: { success: true, data: makeUser({ username: 'renamed' }) } } });
    const { result } = renderHookWithProviders(useAuth);
    act(() => result.current.completeLogin({ token: 'tok-5', user: makeUser() }));
    await act(() => result.current.refreshProfile());
    expect(result.current.user?.username).toBe('renamed');
  });

  it('a sign-in during the start-up validation is not undone by its late failure', async () => {
    let failValidation: () => void = () => undefined;
    const fetchMock = vi.fn(
      () =>
        new Promise<Response>((resolve) => {
          failValidation = () =>
            resolve(
              new Response(JSON.stringify({ success: false, error: 'Malformed token' }), { status: 400 }),
            );
        }),
    );
    vi.stubGlobal('fetch', fetchMock);
    window.localStorage.setItem(STORAGE_KEYS.authToken, makeValidJwt());
    const { result } = renderHookWithProviders(useAuth);

    act(() => result.current.completeLogin({ token: 'fresh', user: makeUser() }));
    await act(async () => failValidation());

    expect(result.current.status).toBe('authenticated');
    expect(window.localStorage.getItem(STORAGE_KEYS.authToken)).toBe('fresh');
  });
});
