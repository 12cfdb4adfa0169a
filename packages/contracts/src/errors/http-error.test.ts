import { describe, it, expect } from 'vitest';
import { classifyHttpError, type HttpErrorInput } from './http-error';

const TIMEOUT = 'Request timed out. Please try again.';
const NETWORK = 'Network error. Please check your connection and try again.';
const EXPIRED = 'Authentication expired. Please login again.';
const NOT_VERIFIED = 'Your account is not verified. Please check your email and verify your account.';

describe('classifyHttpError', () => {
  it.each<[string, HttpErrorInput, string, string]>([
    ['a time-out', { isTimeout: true }, 'timeout', TIMEOUT],
    ['a time-out wins over a status', { isTimeout: true, status: 500 }, 'timeout', TIMEOUT],
    ['408', { status: 408, serverMessage: 'slow' }, 'timeout', TIMEOUT],
    ['504', { status: 504, statusText: 'Gateway Timeout' }, 'timeout', TIMEOUT],
    ['a network failure', { isNetwork: true }, 'network', NETWORK],
    ['no response at all', {}, 'network', NETWORK],
    ['status 0', { status: 0 }, 'network', NETWORK],
    [
      '401 invalid or expired token',
      { status: 401, serverMessage: 'Invalid or expired token' },
      'auth_expired',
      EXPIRED,
    ],
    ['401 token expired', { status: 401, serverMessage: 'Token has expired' }, 'auth_expired', EXPIRED],
    ['401 invalid token, any case', { status: 401, serverMessage: 'INVALID TOKEN' }, 'auth_expired', EXPIRED],
    ['401 not authenticated', { status: 401, serverMessage: 'Not authenticated' }, 'auth_expired', EXPIRED],
    [
      '401 not verified',
      { status: 401, serverMessage: 'User account not verified' },
      'not_verified',
      NOT_VERIFIED,
    ],
    [
      '401 wrong password',
      { status: 401, serverMessage: 'Invalid email or password' },
      'unauthorized',
      'Invalid email or password',
    ],
    [
      '401 token without invalid/expired',
      { status: 401, serverMessage: 'Token required' },
      'unauthorized',
      'Token required',
    ],
    ['401 without a message', { status: 401 }, 'unauthorized', 'Invalid credentials'],
    ['401 with a blank message', { status: 401, serverMessage: '  ' }, 'unauthorized', 'Invalid credentials'],
    [
      '400 with a server error',
      { status: 400, serverMessage: 'Amount must be positive' },
      'http',
      'Amount must be positive',
    ],
    [
      '500 without a server error',
      { status: 500, statusText: 'Internal Server Error' },
      'http',
      '500 Internal Server Error',
    ],
    ['502 without status text', { status: 502 }, 'http', '502'],
    [
      'a non-JSON body as the server text',
      { status: 502, serverMessage: '<html>Bad gateway</html>' },
      'http',
      '<html>Bad gateway</html>',
    ],
    ['403 is not a 401', { status: 403, serverMessage: 'Invalid token' }, 'http', 'Invalid token'],
  ])('%s', (_case, input, kind, message) => {
    expect(classifyHttpError(input)).toEqual({ kind, message });
  });
});
