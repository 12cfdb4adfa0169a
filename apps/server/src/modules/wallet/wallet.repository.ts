import { and, count, eq, gt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { faucetGrants } from './wallet.tables';

export interface FaucetGrantRequest {
  userId: string;
  walletAddress: string;
  amountSol: number;
  amountUsdc: number;
  at: Date;
  /** Grants after this instant count toward the limit. */
  since: Date;
  /** Grants allowed within the window, per user and per wallet address. */
  max: number;
}

/** The wallet module's table: faucet grants. */
export function createWalletRepository(db: Db) {
  return {
    /**
     * Records a faucet grant unless the user or the wallet already had `max` since `since`. One
     * transaction holding a per-user advisory lock, so simultaneous calls (in any process) are
     * counted one after another and never exceed the limit together.
     */
    async takeFaucetGrant(request: FaucetGrantRequest): Promise<boolean> {
      return db.transaction(async (tx) => {
        await tx.execute(
          sql`select pg_advisory_xact_lock(hashtextextended(${`faucet:${request.userId}`}, 0))`,
        );
        const [row] = await tx
          .select({ granted: count() })
          .from(faucetGrants)
          .where(
            and(
              or(
                eq(faucetGrants.userId, request.userId),
                eq(faucetGrants.walletAddress, request.walletAddress),
              ),
              gt(faucetGrants.createdAt, request.since),
            ),
          );
        if ((row?.granted ?? 0) >= request.max) return false;
        await tx.insert(faucetGrants).values({
          userId: request.userId,
          walletAddress: request.walletAddress,
          amountSol: String(request.amountSol),
          amountUsdc: String(request.amountUsdc),
          createdAt: request.at,
        });
        return true;
      });
    },
  };
}

export type WalletRepository = ReturnType<typeof createWalletRepository>;
