import type { FastifyBaseLogger } from 'fastify';
import { pollPacer, type ChainService } from '../chain/chain.service';

export type LandingOutcome = { outcome: 'landed'; slot: bigint; err: unknown } | { outcome: 'expired' };

export interface LandingDeps {
  chain: ChainService;
  log: FastifyBaseLogger;
  /** How often a sent transaction is rebroadcast until it lands or its blockhash expires (default 2 s). */
  rebroadcastIntervalMs?: number;
}

/**
 * The send-and-confirm loop of wallet-signed transactions (those the server signs alone are server
 * tickets, server-tickets.ts): send, rebroadcast every ~2 s while the blockhash is valid, and wait
 * for the chain's verdict.
 */
export function createLanding(deps: LandingDeps) {
  const { chain } = deps;
  const rebroadcastIntervalMs = deps.rebroadcastIntervalMs ?? 2000;

  /** Sends, rebroadcasts, and waits until confirmed (ok or failed) or the blockhash is past. */
  async function land(
    wireBase64: string,
    signature: string,
    lastValidBlockHeight: bigint,
  ): Promise<LandingOutcome> {
    // Watched before it is sent: the node's confirmed notification ends the wait for the next poll.
    const watch = chain.watchConfirmation(signature);
    try {
      await chain.sendTransaction(wireBase64);
      return await confirm(wireBase64, signature, lastValidBlockHeight, pollPacer(watch));
    } finally {
      watch.cancel();
    }
  }

  async function confirm(
    wireBase64: string,
    signature: string,
    lastValidBlockHeight: bigint,
    pacer: ReturnType<typeof pollPacer>,
  ): Promise<LandingOutcome> {
    let lastSend = performance.now();
    for (let attempt = 0; ; attempt++) {
      // Wait before each look, the first included: a transaction just sent is not yet confirmed
      // (the node still has to persist it), so a status read at once would be a wasted call.
      await pacer.wait(attempt);
      const [status] = await chain.getSignatureStatuses([signature]);
      if (status && status.confirmationStatus !== 'processed') {
        return { outcome: 'landed', slot: status.slot, err: status.err };
      }
      if (performance.now() - lastSend >= rebroadcastIntervalMs) {
        if ((await chain.getBlockHeight()) > lastValidBlockHeight) {
          // One last look: it may have landed just before the blockhash expired.
          const [last] = await chain.getSignatureStatuses([signature]);
          if (last) return { outcome: 'landed', slot: last.slot, err: last.err };
          return { outcome: 'expired' };
        }
        await chain.sendTransaction(wireBase64).catch(() => undefined);
        lastSend = performance.now();
      }
    }
  }

  return { land };
}

export type Landing = ReturnType<typeof createLanding>;
