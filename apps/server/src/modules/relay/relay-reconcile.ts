import type { FastifyBaseLogger } from 'fastify';
import type { ChainService } from '../chain/chain.service';
import type { RelayRepository, TicketRow } from './relay.repository';

export type TicketOutcome = 'landed' | 'failed' | 'expired' | 'in_flight';

export interface RelayReconcileDeps {
  repo: RelayRepository;
  chain: ChainService;
  now: () => Date;
  log: FastifyBaseLogger;
  /** Settles a sent wallet ticket with its kind's handler (the landing path's own settlement). */
  settle: (ticket: TicketRow, startedAt: number | null, failed: boolean) => Promise<unknown>;
}

/**
 * The relay's reconcile: wallet-signed tickets left `sending` (a crash, a lost answer, an RPC error
 * after the send) are settled from the chain's signature statuses — landed, failed, or expired once
 * their blockhash is past and the chain never saw them (server-signed tickets have their own pass,
 * server-tickets.ts). The landing path may settle the same ticket at the same time: the
 * ticket lifecycle's compare-and-set lets exactly one of them apply the settlement.
 */
export function createRelayReconcile(deps: RelayReconcileDeps) {
  const { repo, chain, now } = deps;

  /** What happened to a sent ticket, from the chain; a valid one still unseen is sent again. */
  async function reconcileTicket(ticket: TicketRow): Promise<TicketOutcome> {
    const [status] = await chain.getSignatureStatuses([ticket.signature!]);
    if (status && status.confirmationStatus !== 'processed') {
      // Settled once whoever wins; the chain's verdict is the answer either way.
      await deps.settle(ticket, null, status.err !== null);
      return status.err === null ? 'landed' : 'failed';
    }
    if (status) return 'in_flight';
    if ((await chain.getBlockHeight()) > BigInt(ticket.lastValidBlockHeight)) {
      if (await repo.expireTicket(ticket.id, now())) return 'expired';
      // The landing path settled it meanwhile (it saw the transaction land just before expiry).
      return outcomeOfStored((await repo.findTicket(ticket.id))?.status);
    }
    if (ticket.signedTransaction)
      await chain.sendTransaction(ticket.signedTransaction).catch(() => undefined);
    return 'in_flight';
  }

  /** After a restart, and each pass: every ticket that was sent but not settled is settled from the chain. */
  async function reconcileSent(): Promise<number> {
    let settled = 0;
    for (const ticket of await repo.listTicketsByStatus('sending')) {
      try {
        if ((await reconcileTicket(ticket)) !== 'in_flight') settled++;
      } catch (error) {
        deps.log.error({ err: error, ticket: ticket.id }, 'ticket reconciliation failed');
      }
    }
    return settled;
  }

  return {
    reconcileTicket,
    reconcileSent,

    /** A user's ticket still in flight under `signature` is reconciled now (POST /trading/spot/order). */
    async reconcileSignature(userId: string, signature: string): Promise<void> {
      const ticket = await repo.findTicketBySignature(signature);
      if (ticket && ticket.userId === userId && ticket.status === 'sending') await reconcileTicket(ticket);
    },
  };
}

/** A stored status as a reconcile outcome: anything not settled is still in flight. */
function outcomeOfStored(status: string | undefined): TicketOutcome {
  return status === 'landed' || status === 'failed' || status === 'expired' ? status : 'in_flight';
}
