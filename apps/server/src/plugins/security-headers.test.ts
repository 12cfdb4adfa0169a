import { describe, expect, it } from 'vitest';
import { SECURITY_HEADER_OPTIONS, securityHeadersOf } from './security-headers';

describe('security headers', () => {
  it("are helmet's defaults with our Content-Security-Policy, computed once", () => {
    const headers = Object.fromEntries(securityHeadersOf(SECURITY_HEADER_OPTIONS));

    expect(headers).toEqual({
      'content-security-policy':
        "default-src 'self';base-uri 'self';font-src 'self' data:;form-action 'self';frame-ancestors 'none';" +
        "img-src 'self' data: https:;object-src 'none';script-src 'self';script-src-attr 'none';" +
        "style-src 'self' 'unsafe-inline';connect-src 'self';frame-src 'self' https:",
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'origin-agent-cluster': '?1',
      'referrer-policy': 'no-referrer',
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
      'x-content-type-options': 'nosniff',
      'x-dns-prefetch-control': 'off',
      'x-download-options': 'noopen',
      'x-frame-options': 'SAMEORIGIN',
      'x-permitted-cross-domain-policies': 'none',
      'x-xss-protection': '0',
    });
  });
});
