import { randomBytes } from 'node:crypto';
import type {
  TConnectWalletRequest,
  TNetwork,
  TWalletChallenge,
  TWalletChallengeQuery,
  TWalletType,
} from '@solterm/contracts';
import { AppError } from '../../lib/app-error';
import type { AuthRepository } from './auth.repository';
import {
  buildChallengeMessage,
  CHALLENGE_TTL_MS,
  originOfPublicUrl,
  parseChallengeNonce,
  parseChallengeOrigin,
} from './wallet-challenge';
import {
  isEvmAddress,
  isSolanaPublicKey,
  verifyEvmSignature,
  verifySolanaSignature,
} from './wallet-signature';

/** What a wallet sign-in proved: the identity key it signs in as, and how it was connected. */
export interface WalletProof {
  walletKey: string;
  address: string;
  walletType: TWalletType;
  chainId: string | null;
  isWatchOnly: boolean;
}

/**
 * Wallet sign-in challenges and their proofs: a one-time message naming this site, signed by the
 * wallet (ed25519 for Solana wallets, EIP-191 for MetaMask) and checked against the stored challenge.
 */
export function createWalletProofs(deps: {
  repo: AuthRepository;
  now: () => Date;
  network: TNetwork;
  publicUrl: string;
}) {
  const { repo, now } = deps;
  // Sign-in messages name this site from configuration only: a Host header would let a phishing site
  // get a message naming itself, signed by a victim, accepted here.
  const siteOrigin = originOfPublicUrl(deps.publicUrl);

  async function createChallenge(query: TWalletChallengeQuery): Promise<TWalletChallenge> {
    const isEvm = query.wallet_type === 'metamask';
    if (isEvm ? !isEvmAddress(query.wallet_address) : !isSolanaPublicKey(query.wallet_address)) {
      throw new AppError('WALLET__ADDRESS_INVALID');
    }
    const issuedAt = now();
    const expiresAt = new Date(issuedAt.getTime() + CHALLENGE_TTL_MS);
    const nonce = randomBytes(16).toString('hex');
    const message = buildChallengeMessage({
      domain: siteOrigin.domain,
      uri: siteOrigin.uri,
      address: query.wallet_address,
      walletType: query.wallet_type,
      network: deps.network,
      nonce,
      issuedAt,
      expiresAt,
    });
    await repo.insertChallenge({
      nonce,
      walletAddress: query.wallet_address,
      walletType: query.wallet_type,
      message,
      expiresAt,
    });
    await repo.deleteExpiredChallenges(new Date(issuedAt.getTime() - 86_400_000));
    return { message, nonce, issued_at: issuedAt.toISOString(), expires_at: expiresAt.toISOString() };
  }

  async function prove(request: TConnectWalletRequest): Promise<WalletProof> {
    const address = request.wallet_address;
    if (request.wallet_type === 'manual') {
      // A typed address proves nothing: it is keyed apart from signed wallets and is watch-only.
      return {
        walletKey: `watch:${address}`,
        address,
        walletType: 'manual',
        chainId: request.chain_id ?? null,
        isWatchOnly: true,
      };
    }
    const isEvm = request.wallet_type === 'metamask';
    if (isEvm ? !isEvmAddress(address) : !isSolanaPublicKey(address))
      throw new AppError('WALLET__ADDRESS_INVALID');
    if (!request.signature || !request.message) throw new AppError('WALLET__SIGNATURE_REQUIRED');

    const nonce = parseChallengeNonce(request.message);
    if (!nonce) throw new AppError('WALLET__CHALLENGE_MISMATCH');
    const challenge = await repo.consumeChallenge(nonce, now());
    if (!challenge) throw new AppError('WALLET__CHALLENGE_INVALID');
    const sameAddress = isEvm
      ? challenge.walletAddress.toLowerCase() === address.toLowerCase()
      : challenge.walletAddress === address;
    const sameFamily = (challenge.walletType === 'metamask') === isEvm;
    if (!sameAddress || !sameFamily || challenge.message !== request.message) {
      throw new AppError('WALLET__CHALLENGE_MISMATCH');
    }
    const origin = parseChallengeOrigin(request.message);
    if (origin?.domain !== siteOrigin.domain || origin.uri !== siteOrigin.uri) {
      throw new AppError('WALLET__CHALLENGE_WRONG_SITE');
    }
    if (challenge.expiresAt.getTime() <= now().getTime()) throw new AppError('WALLET__CHALLENGE_EXPIRED');

    const valid = isEvm
      ? await verifyEvmSignature(address, request.message, request.signature)
      : verifySolanaSignature(address, request.message, request.signature);
    if (!valid) throw new AppError('WALLET__SIGNATURE_INVALID');

    return {
      walletKey: isEvm ? `evm:${address.toLowerCase()}` : `solana:${address}`,
      address,
      walletType: request.wallet_type,
      chainId: isEvm ? (request.chain_id ?? null) : null,
      isWatchOnly: false,
    };
  }

  return { createChallenge, prove };
}
