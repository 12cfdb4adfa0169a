import {
  API_BASE_PATH,
  classifyHttpError,
  REQUEST_RETRY_DELAYS_MS,
  REQUEST_TIMEOUT_MS,
  TRANSPORT_MESSAGES,
} from '@solterm/contracts';
import { clearStoredSession, getStoredToken } from './storage-keys';

/*
 * The one HTTP client of the web app (spec part 1 §7–§8, part 2 §7–§8):
 * - base path /api, JSON bodies, `Authorization: Bearer <auth_token>` when logged in;
 * - answers read as `{ success, data, error }`, `data` returned, failures thrown as ApiError;
 * - identical in-flight requests (method + path + body) share one pending request;
 * - 60 s time-out per attempt; 3 attempts with waits of 1 s then 2 s, on network errors and 5xx only;
 * - the spec's transport messages; a 401 about the token clears the session (the AuthProvider
 *   hears `authExpired` and goes to /auth).
 */

/** Where an error came from, for callers that branch (never branch on the message). */
export type ApiErrorKind =
  | 'timeout' // the 60 s time-out, 408 or 504
  | 'aborted' // the caller's AbortSignal fired
  | 'network' // fetch failed: offline, DNS, refused
  | 'auth_expired' // 401 about an invalid/expired token: the session was cleared
  | 'not_verified' // 401 'User account not verified'
  | 'unauthorized' // any other 401 (wrong password, bad signature)
  | 'http' // any other non-OK answer, or `success: false`
  | 'invalid_response'; // an OK answer that is not JSON

export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** HTTP status; 0 when no answer arrived (network, time-out, abort). */
  readonly status: number;
  /** The server's stable error code (contracts ERRORS), when it sent one. */
  readonly code?: string;
  readonly kind: ApiErrorKind;
  /** The server's own error text, when it sent one (`message` may be a transport text instead). */
  readonly serverMessage?: string;

  constructor(
    message: string,
    {
      status,
      code,
      kind,
      serverMessage,
    }: { status: number; code?: string; kind: ApiErrorKind; serverMessage?: string },
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.kind = kind;
    this.serverMessage = serverMessage;
  }
}

const TRANSPORT_KINDS: ReadonlySet<ApiErrorKind> = new Set([
  'timeout',
  'aborted',
  'network',
  'auth_expired',
  'not_verified',
]);

/** True when no usable answer arrived or the session ended: the spec's transport messages apply. */
export function isTransportError(error: unknown): boolean {
  return error instanceof ApiError && TRANSPORT_KINDS.has(error.kind);
}

/**
 * The text to show for a failed call: the transport message, else the server's error text, else
 * the page's fallback (e.g. 'Login failed').
 *
 * @example notify.error(getErrorMessage(error, 'Registration failed'));
 */
export function getErrorMessage(error: unknown, fallback: string): string {
  if (!(error instanceof ApiError)) return fallback;
  return isTransportError(error) ? error.message : (error.serverMessage ?? fallback);
}

/** Timer functions, injectable so tests can drive time (they default to the globals at call time). */
export interface ApiTimers {
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

export interface ApiClientOptions {
  /** Prefix of every path. Default '/api'. */
  baseUrl?: string;
  /** Default: the global fetch, looked up per request. */
  fetch?: typeof fetch;
  timers?: ApiTimers;
  /** Default: localStorage auth_token. */
  getToken?: () => string | null;
  /** Called after a 401 about the token. Default: clear auth_token and wallet items, fire `authExpired`. */
  onAuthExpired?: () => void;
  /** Per attempt. Default 60 000 ms. */
  timeoutMs?: number;
  /** Waits before attempts 2, 3, …; its length + 1 is the number of attempts. Default [1000, 2000]. */
  retryDelaysMs?: readonly number[];
}

export interface RequestOptions {
  /** Aborting rejects this caller with the time-out message; the shared request goes on for others. */
  signal?: AbortSignal;
  /** Extra request headers (e.g. Idempotency-Key); part of the in-flight dedupe key. */
  headers?: Readonly<Record<string, string>>;
}

/** The window event fired when the session was cleared after a 401 about the token. */
export const AUTH_EXPIRED_EVENT = 'authExpired';

function defaultOnAuthExpired(): void {
  clearStoredSession();
  window.dispatchEvent(new CustomEvent(AUTH_EXPIRED_EVENT));
}

const defaultTimers: ApiTimers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};

interface SharedRequest {
  key: string;
  promise: Promise<unknown>;
  controller: AbortController;
  subscribers: number;
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** Plain text of a non-JSON answer worth showing: not empty, not an HTML page, not a wall of text. */
function readableText(text: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed || trimmed.startsWith('<') || trimmed.length > 300) return undefined;
  return trimmed;
}

function isRetryable(error: unknown): boolean {
  return error instanceof ApiError && (error.kind === 'network' || error.status >= 500);
}

/** Builds a client; the app uses the shared {@link api}, tests build their own with fakes. */
export function createApiClient(options: ApiClientOptions = {}) {
  const baseUrl = options.baseUrl ?? API_BASE_PATH;
  const timers = options.timers ?? defaultTimers;
  const getToken = options.getToken ?? getStoredToken;
  const onAuthExpired = options.onAuthExpired ?? defaultOnAuthExpired;
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const retryDelaysMs = options.retryDelaysMs ?? REQUEST_RETRY_DELAYS_MS;
  const inFlight = new Map<string, SharedRequest>();

  function sleep(ms: number, cancel: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const handle = timers.setTimeout(() => {
        cancel.removeEventListener('abort', onCancel);
        resolve();
      }, ms);
      function onCancel() {
        timers.clearTimeout(handle);
        reject(new ApiError(TRANSPORT_MESSAGES.timeout, { status: 0, kind: 'aborted' }));
      }
      cancel.addEventListener('abort', onCancel, { once: true });
    });
  }

  function interpret(response: Response, text: string, sentToken: string | null): unknown {
    let body: unknown;
    let isJson = true;
    try {
      body = text.length > 0 ? JSON.parse(text) : undefined;
      if (body === undefined) isJson = false;
    } catch {
      isJson = false;
    }

    if (!isJson) {
      if (response.ok) {
        const serverMessage = readableText(text);
        throw new ApiError(serverMessage ?? `Unexpected response from server (${response.status})`, {
          status: response.status,
          kind: 'invalid_response',
          serverMessage,
        });
      }
      return failed(response, readableText(text), undefined, sentToken);
    }

    const envelope = isObject(body) && typeof body.success === 'boolean' ? body : null;
    if (response.ok && (!envelope || envelope.success === true)) return envelope ? envelope.data : body;

    const serverMessage = isObject(body)
      ? (stringOrUndefined(body.error) ?? stringOrUndefined(body.message))
      : undefined;
    const code = isObject(body) ? stringOrUndefined(body.code) : undefined;
    if (response.ok) {
      // 200 with success: false (e.g. search failures).
      throw new ApiError(serverMessage ?? 'Request failed', {
        status: response.status,
        code,
        kind: 'http',
        serverMessage,
      });
    }
    return failed(response, serverMessage, code, sentToken);
  }

  /**
   * A non-OK answer: the spec's message for it; a 401 about the token also ends the session, unless
   * the request carried no token (sent between a logout clearing storage and the page leaving: there
   * was no session to end) or the session has changed since it was sent (a request in flight across a
   * logout or a new login must not end the session that replaced its own).
   */
  function failed(
    response: Response,
    serverMessage: string | undefined,
    code: string | undefined,
    sentToken: string | null,
  ): never {
    const { kind, message } = classifyHttpError({
      status: response.status,
      statusText: response.statusText,
      serverMessage,
    });
    if (kind === 'auth_expired' && sentToken !== null && getToken() === sentToken) onAuthExpired();
    throw new ApiError(message, { status: response.status, code, kind, serverMessage });
  }

  async function attempt(
    method: string,
    path: string,
    body: unknown,
    extraHeaders: Readonly<Record<string, string>>,
    cancel: AbortSignal,
  ): Promise<unknown> {
    const controller = new AbortController();
    let didTimeOut = false;
    const onCancel = () => controller.abort();
    if (cancel.aborted) controller.abort();
    else cancel.addEventListener('abort', onCancel, { once: true });
    const timer = timers.setTimeout(() => {
      didTimeOut = true;
      controller.abort();
    }, timeoutMs);

    const headers: Record<string, string> = { ...extraHeaders, Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const token = getToken();
    if (token) headers.Authorization = `Bearer ${token}`;

    try {
      let response: Response;
      let text: string;
      try {
        const fetchImpl = options.fetch ?? globalThis.fetch;
        response = await fetchImpl(`${baseUrl}${path}`, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: controller.signal,
        });
        text = await response.text();
      } catch {
        if (didTimeOut) throw new ApiError(TRANSPORT_MESSAGES.timeout, { status: 0, kind: 'timeout' });
        if (controller.signal.aborted)
          throw new ApiError(TRANSPORT_MESSAGES.timeout, { status: 0, kind: 'aborted' });
        throw new ApiError(TRANSPORT_MESSAGES.network, { status: 0, kind: 'network' });
      }
      return interpret(response, text, token);
    } finally {
      timers.clearTimeout(timer);
      cancel.removeEventListener('abort', onCancel);
    }
  }

  async function execute(
    method: string,
    path: string,
    body: unknown,
    extraHeaders: Readonly<Record<string, string>>,
    cancel: AbortSignal,
  ): Promise<unknown> {
    for (let attemptIndex = 0; ; attemptIndex += 1) {
      try {
        return await attempt(method, path, body, extraHeaders, cancel);
      } catch (error) {
        const wait = retryDelaysMs[attemptIndex];
        if (wait === undefined || !isRetryable(error) || cancel.aborted) throw error;
        await sleep(wait, cancel);
      }
    }
  }

  function release(shared: SharedRequest): void {
    shared.subscribers -= 1;
    if (shared.subscribers > 0) return;
    // Nobody waits any more: stop the request and let the next identical call start afresh.
    if (inFlight.get(shared.key) === shared) inFlight.delete(shared.key);
    shared.controller.abort();
  }

  function subscribe<T>(shared: SharedRequest, signal: AbortSignal | undefined): Promise<T> {
    shared.subscribers += 1;
    if (!signal) return shared.promise as Promise<T>;
    if (signal.aborted) {
      release(shared);
      return Promise.reject(new ApiError(TRANSPORT_MESSAGES.timeout, { status: 0, kind: 'aborted' }));
    }
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        release(shared);
        reject(new ApiError(TRANSPORT_MESSAGES.timeout, { status: 0, kind: 'aborted' }));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      shared.promise.then(
        (value) => {
          signal.removeEventListener('abort', onAbort);
          resolve(value as T);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
  }

  function request<T>(
    method: string,
    path: string,
    body?: unknown,
    requestOptions?: RequestOptions,
  ): Promise<T> {
    const extraHeaders = requestOptions?.headers ?? {};
    const key = `${method} ${path} ${body === undefined ? '' : JSON.stringify(body)} ${JSON.stringify(extraHeaders)}`;
    let shared = inFlight.get(key);
    if (!shared) {
      const controller = new AbortController();
      const created: SharedRequest = { key, controller, subscribers: 0, promise: Promise.resolve() };
      created.promise = execute(method, path, body, extraHeaders, controller.signal).finally(() => {
        if (inFlight.get(key) === created) inFlight.delete(key);
      });
      // Every subscriber may have left; the rejection must not surface as unhandled.
      created.promise.catch(() => undefined);
      inFlight.set(key, created);
      shared = created;
    }
    return subscribe<T>(shared, requestOptions?.signal);
  }

  return {
    get: <T>(path: string, requestOptions?: RequestOptions) =>
      request<T>('GET', path, undefined, requestOptions),
    post: <T>(path: string, body?: unknown, requestOptions?: RequestOptions) =>
      request<T>('POST', path, body, requestOptions),
    patch: <T>(path: string, body?: unknown, requestOptions?: RequestOptions) =>
      request<T>('PATCH', path, body, requestOptions),
    delete: <T>(path: string, requestOptions?: RequestOptions) =>
      request<T>('DELETE', path, undefined, requestOptions),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** The app's client: `await api.get<TUser>('/user/profile')`. */
export const api: ApiClient = createApiClient();
