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
