import { describe, expect, it, vi } from 'vitest';
import type { Signature } from '@solana/kit';
import type { FastifyBaseLogger } from 'fastify';
import type { ChainService } from '../chain/chain.service';
import { createRelayReconcile } from './relay-reconcile';
import type { RelayRepository, TicketRow } from './relay.repository';

const sent = {
  id: 't1',
  signature: 'sig',
  signedTransaction: 'bytes',
  lastValidBlockHeight: '10',
} as TicketRow;

function reconcileWith(chain: Partial<ChainService>, repo: Partial<RelayRepository>) {
  const settle = vi.fn(async () => null);
  const reconcile = createRelayReconcile({
    repo: repo as RelayRepository,
    chain: chain as ChainService,
    now: () => new Date(),
    log: { error: vi.fn() } as unknown as FastifyBaseLogger,
    settle,
  });
  return { reconcile, settle };
}

describe('relay reconcile of a sent wallet ticket', () => {
  it('expires a ticket the chain never saw once its blockhash is past', async () => {
    const expireTicket = vi.fn(async () => true);
    const { reconcile, settle } = reconcileWith(
      { getSignatureStatuses: async () => [null], getBlockHeight: async () => 11n },
      { expireTicket },
    );

    expect(await reconcile.reconcileTicket(sent)).toBe('expired');
    expect(expireTicket).toHaveBeenCalledWith('t1', expect.any(Date));
    expect(settle).not.toHaveBeenCalled();
  });

  it('answers the landing path’s verdict when it settled the ticket first (the expiry is refused)', async () => {
    const { reconcile } = reconcileWith(
      { getSignatureStatuses: async () => [null], getBlockHeight: async () => 11n },
      {
        expireTicket: async () => false,
        findTicket: async () => ({ ...sent, status: 'landed' }),
      },
    );

    expect(await reconcile.reconcileTicket(sent)).toBe('landed');
  });

  it('settles from the chain’s verdict, and sends a still-valid unseen one again', async () => {
    const sendTransaction = vi.fn(async () => 'sig' as Signature);
    const landed = { slot: 5n, err: null, confirmationStatus: 'confirmed' as const };
    const { reconcile, settle } = reconcileWith(
      {
        getSignatureStatuses: vi.fn().mockResolvedValueOnce([landed]).mockResolvedValue([null]) as never,
        getBlockHeight: async () => 9n,
        sendTransaction,
      },
      {},
    );

    expect(await reconcile.reconcileTicket(sent)).toBe('landed');
    expect(settle).toHaveBeenCalledWith(sent, null, false);
    expect(await reconcile.reconcileTicket(sent)).toBe('in_flight');
    expect(sendTransaction).toHaveBeenCalledWith('bytes');
  });
});
