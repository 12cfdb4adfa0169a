import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TRANSPORT_MESSAGES } from '@solterm/contracts';
import {
  ApiError,
  AUTH_EXPIRED_EVENT,
  createApiClient,
  getErrorMessage,
  type ApiClientOptions,
} from './api-client';
import { STORAGE_KEYS } from './storage-keys';

function jsonResponse(body: unknown, init: { status?: number; statusText?: string } = {}): Response {
  return new Response(JSON.stringify(body), {
    status: init.status ?? 200,
    statusText: init.statusText ?? '',
    headers: { 'Content-Type': 'application/json' },
  });
}

function textResponse(text: string, init: { status?: number; statusText?: string } = {}): Response {
  return new Response(text, { status: init.status ?? 200, statusText: init.statusText ?? '' });
}

/** A fetch whose every call hangs until its signal aborts (for time-out tests). */
function hangingFetch() {
  return vi.fn(
    (_url: string | URL | Request, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
      }),
  );
}

function setup(responses: Array<Response | Error>, options: Partial<ApiClientOptions> = {}) {
  const queue = [...responses];
  const fetchMock = vi.fn(async (_url: string | URL | Request, _init?: RequestInit) => {
    const next = queue.shift();
    if (!next) throw new Error('no more responses queued');
    if (next instanceof Error) throw next;
    return next;
  });
  const onAuthExpired = vi.fn();
  const client = createApiClient({
    fetch: fetchMock as unknown as typeof fetch,
    getToken: () => null,
    onAuthExpired,
    ...options,
  });
  return { client, fetchMock, onAuthExpired };
}

/** Settles a promise's rejection as a value so fake-timer advancing does not trip unhandled rejections. */
function capture<T>(promise: Promise<T>): Promise<{ value?: T; error?: ApiError }> {
  return promise.then(
    (value) => ({ value }),
    (error: ApiError) => ({ error }),
  );
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('api client: envelope and request shape', () => {
  it('prefixes /api, sends JSON and the bearer token, returns data', async () => {
    const { client, fetchMock } = setup([jsonResponse({ success: true, data: { id: '1' } })], {
      getToken: () => 'tok-123',
    });

    const data = await client.post<{ id: string }>('/auth/login', { email: 'a@b.co', password: 'x' });

    expect(data).toEqual({ id: '1' });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/auth/login');
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe(JSON.stringify({ email: 'a@b.co', password: 'x' }));
    const headers = init?.headers as Record<string, string>;
    expect(headers.Authorization).toBe('Bearer tok-123');
    expect(headers['Content-Type']).toBe('application/json');
  });

  it('sends no Authorization header when logged out and no body on GET', async () => {
    const { client, fetchMock } = setup([jsonResponse({ success: true, data: 1 })]);
    await client.get('/health');
    const init = fetchMock.mock.calls[0]![1]!;
    expect((init.headers as Record<string, string>).Authorization).toBeUndefined();
    expect(init.body).toBeUndefined();
  });

  it('uses DELETE for api.delete', async () => {
    const { client, fetchMock } = setup([jsonResponse({ success: true, data: null })]);
    await client.delete('/bots/7');
    expect(fetchMock.mock.calls[0]![1]!.method).toBe('DELETE');
  });

  it('throws the error text of a 200 answer with success: false', async () => {
    const { client } = setup([jsonResponse({ success: false, error: 'Search failed: upstream' })]);
    await expect(client.get('/trading/dexscreener?query=x')).rejects.toMatchObject({
      message: 'Search failed: upstream',
      kind: 'http',
      status: 200,
    });
  });
});

describe('api client: in-flight de-duplication', () => {
  it('identical in-flight requests share one pending request', async () => {
    const { client, fetchMock } = setup([jsonResponse({ success: true, data: 'one' })]);
    const [a, b] = await Promise.all([client.get('/user/profile'), client.get('/user/profile')]);
    expect(a).toBe('one');
    expect(b).toBe('one');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('different bodies or methods do not share', async () => {
    const { client, fetchMock } = setup([
      jsonResponse({ success: true, data: 1 }),
      jsonResponse({ success: true, data: 2 }),
      jsonResponse({ success: true, data: 3 }),
    ]);
    const results = await Promise.all([
      client.post('/trading/suggestion', { symbol: 'SOL/USDC' }),
      client.post('/trading/suggestion', { symbol: 'BTC/SOL' }),
      client.get('/trading/suggestion'),
    ]);
    expect(results).toEqual([1, 2, 3]);
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it('a finished request is not reused: the next identical call fetches again', async () => {
    const { client, fetchMock } = setup([
      jsonResponse({ success: true, data: 'first' }),
      jsonResponse({ success: true, data: 'second' }),
    ]);
    expect(await client.get('/health')).toBe('first');
    expect(await client.get('/health')).toBe('second');
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('one caller aborting does not cancel the shared request for the other', async () => {
    let resolveFetch: (response: Response) => void = () => undefined;
    const fetchMock = vi.fn(() => new Promise<Response>((resolve) => (resolveFetch = resolve)));
    const client = createApiClient({ fetch: fetchMock as unknown as typeof fetch, getToken: () => null });
    const controller = new AbortController();

    const first = capture(client.get('/market/dashboard-coins', { signal: controller.signal }));
    const second = client.get('/market/dashboard-coins');
    controller.abort();
    resolveFetch(jsonResponse({ success: true, data: 'prices' }));

    expect((await first).error).toMatchObject({ kind: 'aborted', message: TRANSPORT_MESSAGES.timeout });
    expect(await second).toBe('prices');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});

describe('api client: retries', () => {
  it('retries network errors twice, waiting 1 s then 2 s, then gives the network message', async () => {
    const { client, fetchMock } = setup([
      new TypeError('fetch failed'),
      new TypeError('x'),
      new TypeError('y'),
    ]);
    const result = capture(client.get('/health'));

    await vi.advanceTimersByTimeAsync(0);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1999);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchMock).toHaveBeenCalledTimes(3);

    const { error } = await result;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'network', status: 0, message: TRANSPORT_MESSAGES.network });
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it('retries a 5xx and succeeds on the next attempt', async () => {
    const { client, fetchMock } = setup([
      jsonResponse({ success: false, error: 'boom' }, { status: 500 }),
      jsonResponse({ success: true, data: 'ok' }),
    ]);
    const result = capture(client.get('/market/dashboard-coins'));
    await vi.advanceTimersByTimeAsync(1000);
    expect((await result).value).toBe('ok');
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('after three 5xx answers throws the server error text', async () => {
    const failure = () => jsonResponse({ success: false, error: 'Database unavailable' }, { status: 503 });
    const { client, fetchMock } = setup([failure(), failure(), failure()]);
    const result = capture(client.get('/bots'));
    await vi.advanceTimersByTimeAsync(3000);
    expect((await result).error).toMatchObject({
      status: 503,
      kind: 'http',
      message: 'Database unavailable',
    });
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it.each([400, 401, 403, 404, 409, 422, 429])('does not retry a %i', async (status) => {
    const { client, fetchMock } = setup([jsonResponse({ success: false, error: 'nope' }, { status })]);
    const result = capture(client.post('/bots', { name: 'x' }));
    await vi.advanceTimersByTimeAsync(5000);
    expect((await result).error).toBeInstanceOf(ApiError);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});

describe('api client: time-out and abort', () => {
  it('aborts after 60 s with the time-out message and does not retry', async () => {
    const fetchMock = hangingFetch();
    const client = createApiClient({ fetch: fetchMock as unknown as typeof fetch, getToken: () => null });
    const result = capture(client.get('/bots'));

    await vi.advanceTimersByTimeAsync(59_999);
    expect(fetchMock.mock.calls[0]![1]!.signal!.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);

    expect((await result).error).toMatchObject({
      kind: 'timeout',
      status: 0,
      message: TRANSPORT_MESSAGES.timeout,
    });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('a caller abort gives the time-out message and cancels the fetch when nobody else waits', async () => {
    const fetchMock = hangingFetch();
    const client = createApiClient({ fetch: fetchMock as unknown as typeof fetch, getToken: () => null });
    const controller = new AbortController();
    const result = capture(client.get('/bots', { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(0);

    controller.abort();

    expect((await result).error).toMatchObject({ kind: 'aborted', message: TRANSPORT_MESSAGES.timeout });
    expect(fetchMock.mock.calls[0]![1]!.signal!.aborted).toBe(true);
  });

  it.each([408, 504])('a %i answer gives the time-out message', async (status) => {
    const responses = [1, 2, 3].map(() => textResponse('', { status, statusText: 'Timeout' }));
    const { client } = setup(responses);
    const result = capture(client.get('/health'));
    await vi.advanceTimersByTimeAsync(3000);
    expect((await result).error).toMatchObject({
      kind: 'timeout',
      status,
      message: TRANSPORT_MESSAGES.timeout,
    });
  });
});

describe('api client: 401 branches', () => {
  it.each(['Invalid or expired token', 'Token expired', 'Not authenticated'])(
    '401 "%s" clears the session and reports authentication expired',
    async (serverMessage) => {
      const { client, onAuthExpired } = setup(
        [jsonResponse({ success: false, error: serverMessage }, { status: 401 })],
        { getToken: () => 'the-session' },
      );
      await expect(client.get('/user/profile')).rejects.toMatchObject({
        kind: 'auth_expired',
        status: 401,
        message: 'Authentication expired. Please login again.',
      });
      expect(onAuthExpired).toHaveBeenCalledTimes(1);
    },
  );

  it('a 401 for a request sent before a logout or a new login leaves the session that replaced it', async () => {
    let token: string | null = 'old-session';
    const fetchMock = vi.fn(async () => {
      token = 'new-session'; // logged out and in again while the request was in flight
      return jsonResponse({ success: false, error: 'Invalid or expired token' }, { status: 401 });
    });
    const onAuthExpired = vi.fn();
    const client = createApiClient({
      fetch: fetchMock as unknown as typeof fetch,
      getToken: () => token,
      onAuthExpired,
    });
    await expect(client.get('/alerts/notifications')).rejects.toMatchObject({ kind: 'auth_expired' });
    expect(onAuthExpired).not.toHaveBeenCalled();
  });

  it('a 401 for a request sent without a token (after logout cleared it, before the page left) ends nothing', async () => {
    const { client, onAuthExpired } = setup([
      jsonResponse({ success: false, error: 'No token provided' }, { status: 401 }),
    ]);
    await expect(client.get('/user/profile')).rejects.toMatchObject({ status: 401 });
    expect(onAuthExpired).not.toHaveBeenCalled();
  });

  it('the default handler removes auth_token and the wallet items and fires authExpired', async () => {
    window.localStorage.setItem(STORAGE_KEYS.authToken, 'tok');
    window.localStorage.setItem(STORAGE_KEYS.walletAddress, 'addr');
    window.localStorage.setItem(STORAGE_KEYS.walletType, 'phantom');
    const listener = vi.fn();
    window.addEventListener(AUTH_EXPIRED_EVENT, listener);
    const client = createApiClient({
      fetch: (async () =>
        jsonResponse(
          { success: false, error: 'Invalid or expired token' },
          { status: 401 },
        )) as unknown as typeof fetch,
    });

    await expect(client.get('/user/profile')).rejects.toMatchObject({ kind: 'auth_expired' });

    expect(window.localStorage.getItem(STORAGE_KEYS.authToken)).toBeNull();
    expect(window.localStorage.getItem(STORAGE_KEYS.walletAddress)).toBeNull();
    expect(window.localStorage.getItem(STORAGE_KEYS.walletType)).toBeNull();
    expect(listener).toHaveBeenCalledTimes(1);
    window.removeEventListener(AUTH_EXPIRED_EVENT, listener);
  });

  it('401 "User account not verified" gives the verification message and keeps the session', async () => {
    const { client, onAuthExpired } = setup([
      jsonResponse({ success: false, error: 'User account not verified' }, { status: 401 }),
    ]);
    await expect(client.post('/auth/login', {})).rejects.toMatchObject({
      kind: 'not_verified',
      message: 'Your account is not verified. Please check your email and verify your account.',
    });
    expect(onAuthExpired).not.toHaveBeenCalled();
  });

  it('other 401 shows the server message (a wrong password is not an expired session)', async () => {
    const { client, onAuthExpired } = setup([
      jsonResponse(
        { success: false, error: 'Invalid email or password', code: 'AUTH__INVALID_CREDENTIALS' },
        { status: 401 },
      ),
    ]);
    await expect(client.post('/auth/login', {})).rejects.toMatchObject({
      kind: 'unauthorized',
      code: 'AUTH__INVALID_CREDENTIALS',
      message: 'Invalid email or password',
    });
    expect(onAuthExpired).not.toHaveBeenCalled();
  });

  it('other 401 without a message gives "Invalid credentials"', async () => {
    const { client } = setup([jsonResponse({ success: false }, { status: 401 })]);
    await expect(client.post('/auth/login', {})).rejects.toMatchObject({ message: 'Invalid credentials' });
  });
});

describe('api client: other failures', () => {
  it('other non-OK shows the server error text', async () => {
    const { client } = setup([
      jsonResponse({ success: false, error: 'Email already registered' }, { status: 409 }),
    ]);
    await expect(client.post('/auth/register', {})).rejects.toMatchObject({
      status: 409,
      kind: 'http',
      message: 'Email already registered',
    });
  });

  it('other non-OK without an error text shows status and status text', async () => {
    const { client } = setup([jsonResponse({}, { status: 404, statusText: 'Not Found' })]);
    await expect(client.get('/nope')).rejects.toMatchObject({ status: 404, message: '404 Not Found' });
  });

  it('a non-JSON OK answer is an error with its text', async () => {
    const { client } = setup([textResponse('Service is warming up')]);
    await expect(client.get('/health')).rejects.toMatchObject({
      kind: 'invalid_response',
      message: 'Service is warming up',
    });
  });

  it('a non-JSON non-OK answer is an error with its text', async () => {
    const { client } = setup([
      textResponse('Payload rejected by proxy', { status: 413, statusText: 'Too Large' }),
    ]);
    await expect(client.post('/bots', {})).rejects.toMatchObject({
      status: 413,
      message: 'Payload rejected by proxy',
    });
  });

  it('an HTML error page is summarised by status and status text', async () => {
    const { client } = setup([
      textResponse('<html><body>Not here</body></html>', { status: 404, statusText: 'Not Found' }),
    ]);
    await expect(client.get('/nope')).rejects.toMatchObject({ status: 404, message: '404 Not Found' });
  });
});

describe('getErrorMessage', () => {
  it('prefers the transport message, then the server text, then the fallback', () => {
    const network = new ApiError(TRANSPORT_MESSAGES.network, { status: 0, kind: 'network' });
    const withText = new ApiError('Email already registered', {
      status: 409,
      kind: 'http',
      serverMessage: 'Email already registered',
    });
    const withoutText = new ApiError('500 Internal Server Error', { status: 500, kind: 'http' });

    expect(getErrorMessage(network, 'Registration failed')).toBe(TRANSPORT_MESSAGES.network);
    expect(getErrorMessage(withText, 'Registration failed')).toBe('Email already registered');
    expect(getErrorMessage(withoutText, 'Registration failed')).toBe('Registration failed');
    expect(getErrorMessage(new Error('boom'), 'Login failed')).toBe('Login failed');
  });
});
