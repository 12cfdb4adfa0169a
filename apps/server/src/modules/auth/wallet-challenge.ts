import type { TNetwork, TWalletType } from '@solterm/contracts';

export const CHALLENGE_TTL_MS = 5 * 60 * 1000;

export interface ChallengeFields {
  domain: string;
  uri: string;
  address: string;
  walletType: Exclude<TWalletType, 'manual'>;
  network: TNetwork;
  nonce: string;
  issuedAt: Date;
  expiresAt: Date;
}

/**
 * Builds the sign-in text in the Sign-In-With-Solana / EIP-4361 layout that wallets recognise and
 * render as a sign-in request: domain, address, statement, URI, chain, nonce, issued-at and expiry.
 */
export function buildChallengeMessage(fields: ChallengeFields): string {
  const isEvm = fields.walletType === 'metamask';
  return [
    `${fields.domain} wants you to sign in with your ${isEvm ? 'Ethereum' : 'Solana'} account:`,
    fields.address,
    '',
    'Sign in to solterm. This request will not trigger a blockchain transaction or cost any fees.',
    '',
    `URI: ${fields.uri}`,
    'Version: 1',
    `Chain ID: ${isEvm ? '1' : fields.network}`,
    `Nonce: ${fields.nonce}`,
    `Issued At: ${fields.issuedAt.toISOString()}`,
    `Expiration Time: ${fields.expiresAt.toISOString()}`,
  ].join('\n');
}

/** Extracts the nonce line from a challenge text; undefined when there is none. */
export function parseChallengeNonce(message: string): string | undefined {
  return /^Nonce: ([A-Za-z0-9]{8,64})$/m.exec(message)?.[1];
}

/** The origin a sign-in message names: the domain of its first line and its URI line. */
export interface ChallengeOrigin {
  domain: string;
  uri: string;
}

/** The origin of this site, from its configured public URL (never from a request header). */
export function originOfPublicUrl(publicUrl: string): ChallengeOrigin {
  const url = new URL(publicUrl);
  return { domain: url.host, uri: url.origin };
}

/** Reads the domain and URI a sign-in message names; undefined when either line is missing. */
export function parseChallengeOrigin(message: string): ChallengeOrigin | undefined {
  const domain = /^(\S+) wants you to sign in with your (?:Solana|Ethereum) account:\n/.exec(message)?.[1];
  const uri = /^URI: (\S+)$/m.exec(message)?.[1];
  return domain && uri ? { domain, uri } : undefined;
}
