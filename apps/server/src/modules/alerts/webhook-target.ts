import dns from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook may not reach unless the operator allows private targets: loopback, private
 * networks, link-local (cloud metadata at 169.254.169.254), carrier-grade NAT, multicast, reserved
 * and unspecified ranges, in IPv4 and IPv6 (IPv4-mapped IPv6 is checked as its IPv4 address).
 */
const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv6');
}

/** The IPv4 address an IPv4-mapped or -compatible IPv6 address carries (::ffff:10.0.0.1), else null. */
function embeddedIpv4(address: string): string | null {
  const dotted = /^::(?:ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (dotted) return dotted[1]!;
  const hex = /^::(?:ffff:)?([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return null;
  const high = parseInt(hex[1]!, 16);
  const low = parseInt(hex[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Whether `address` (an IP literal) is loopback, private, link-local or otherwise not public. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 0) return true;
  if (family === 4) return PRIVATE.check(bare, 'ipv4');
  const v4 = embeddedIpv4(bare);
  if (v4) return PRIVATE.check(v4, 'ipv4');
  return PRIVATE.check(bare, 'ipv6');
}

export class WebhookTargetError extends Error {
  override readonly name = 'WebhookTargetError';
}

/**
 * Parses a webhook URL: http or https, no credentials, a host. @throws WebhookTargetError.
 */
export function parseWebhookUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new WebhookTargetError('not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new WebhookTargetError('not http(s)');
  if (url.username || url.password) throw new WebhookTargetError('credentials in the URL');
  if (!url.hostname) throw new WebhookTargetError('no host');
  return url;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string, family: number) => void;
type LookupAll = (
  error: NodeJS.ErrnoException | null,
  addresses: dns.LookupAddress[] | string,
  family?: number,
) => void;

/**
 * A `lookup` for http(s).request that resolves the host and refuses it when any address it resolves
 * to is private (unless allowed): the check happens on the addresses the socket then connects to, so
 * a DNS answer that changes between a check and the connection (rebinding) cannot slip through.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback | LookupAll): void => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return (callback as LookupCallback)(error, '', 0);
      const list = addresses;
      const refused = !allowPrivate && list.some((entry) => isPrivateAddress(entry.address));
      if (refused || list.length === 0) {
        const failure = new WebhookTargetError(
          `${hostname} resolves to a private address`,
        ) as NodeJS.ErrnoException;
        failure.code = 'EPRIVATEADDRESS';
        return (callback as LookupCallback)(failure, '', 0);
      }
      if (options.all) return (callback as LookupAll)(null, list);
      (callback as LookupCallback)(null, list[0]!.address, list[0]!.family);
    });
  };
}

/**
 * Checks a webhook URL before it is saved: its form, and its host's addresses now (an IP literal
 * directly). Sends check again at connect time ({@link guardedLookup}). @throws WebhookTargetError.
 */
export async function checkWebhookUrl(text: string, allowPrivate: boolean): Promise<URL> {
  const url = parseWebhookUrl(text);
  if (allowPrivate) return url;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) {
    if (isPrivateAddress(host)) throw new WebhookTargetError('a private address');
    return url;
  }
  const addresses = await dns.promises.lookup(host, { all: true }).catch(() => {
    throw new WebhookTargetError(`${host} does not resolve`);
  });
  if (addresses.length === 0 || addresses.some((entry) => isPrivateAddress(entry.address))) {
    throw new WebhookTargetError(`${host} resolves to a private address`);
  }
  return url;
}
