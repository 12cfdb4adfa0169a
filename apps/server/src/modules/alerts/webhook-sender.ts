import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { guardedLookup, isPrivateAddress, parseWebhookUrl, WebhookTargetError } from './webhook-target';

/** The header carrying `sha256=<hex HMAC-SHA256 of the raw body under the user's secret>`. */
export const SIGNATURE_HEADER = 'x-solterm-signature';
/** The delivery's id (the same on every retry: receivers deduplicate on it). */
export const DELIVERY_HEADER = 'x-solterm-delivery';

const TIMEOUT_MS = 5_000;

/**
 * The signature header's value for a body.
 *
 * @example
 * signBody('s3cret', '{"a":1}'); // 'sha256=…64 hex digits'
 */
export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/** The outcome of one POST: delivered on 2xx; otherwise why not (status code, or an error). */
export type WebhookOutcome =
  { ok: true; status: number } | { ok: false; status: number | null; error: string; retry: boolean };

/**
 * POSTs a signed JSON body to a webhook. Redirects are not followed (a 3xx is a failure): a redirect
 * could point at a private address. The address is checked where the connection is made: an IP
 * literal here, a host name in its lookup.
 */
export function postWebhook(
  target: string,
  body: string,
  headers: { signature: string; deliveryId: string },
  allowPrivate: boolean,
): Promise<WebhookOutcome> {
  let url: URL;
  try {
    url = parseWebhookUrl(target);
  } catch (error) {
    return Promise.resolve({ ok: false, status: null, error: (error as Error).message, retry: false });
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && isIP(host) !== 0 && isPrivateAddress(host)) {
    return Promise.resolve({ ok: false, status: null, error: 'a private address', retry: false });
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        lookup: guardedLookup(allowPrivate),
        timeout: TIMEOUT_MS,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'solterm-alerts/1',
          [SIGNATURE_HEADER]: headers.signature,
          [DELIVERY_HEADER]: headers.deliveryId,
        },
      },
      (response) => {
        // The answer's body is not read beyond draining it: only the status matters.
        response.resume();
        const status = response.statusCode ?? 0;
        if (status >= 200 && status < 300) resolve({ ok: true, status });
        else if (status >= 300 && status < 400)
          resolve({ ok: false, status, error: 'redirects are not followed', retry: false });
        else resolve({ ok: false, status, error: `HTTP ${status}`, retry: status === 429 || status >= 500 });
      },
    );
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', (error) => {
      const refused =
        error instanceof WebhookTargetError || (error as NodeJS.ErrnoException).code === 'EPRIVATEADDRESS';
      resolve({ ok: false, status: null, error: error.message.slice(0, 200), retry: !refused });
    });
    request.end(body);
  });
}
