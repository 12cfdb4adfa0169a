import type { ChainService } from '../../chain/chain.service';
import type { BotFundsRepository } from './bot-funds.repository';

/**
 * Whether a user's bot key holds SOL or tokens, sent to it before any wallet was linked (only a
 * linked wallet can withdraw them). A node that cannot say counts as funds: the lock errs on caution.
 */
export function createBotKeyHoldings(deps: { repo: BotFundsRepository; chain: ChainService }) {
  return async function holdsFundsAwaitingWallet(userId: string): Promise<boolean> {
    const key = await deps.repo.keyOf(userId);
    if (!key) return false;
    try {
      const [lamports, tokens] = await Promise.all([
        deps.chain.getBalance(key.address),
        deps.chain.getTokenBalances(key.address),
      ]);
      return lamports > 0n || [...tokens.values()].some((token) => token.amount > 0n);
    } catch {
      return true;
    }
  };
}
