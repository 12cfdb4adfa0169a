import { FLIP_STRATEGY } from '../../apps/server/test/helpers/bot-strategies';
import { signInWalletUser } from './wallet-session';

/**
 * A new wallet user of the server at `url`, funded, whose bot flips on 1-minute candles on chain
 * (buys when flat, sells when holding: one trade a close) under a 2 SOL approval, started.
 */
export async function startFlipBot(url: string) {
  const { wallet, token, request } = await signInWalletUser(url);
  await request('POST', '/wallet/fund', { amount_sol: 5, amount_usdc: 10 });
  const { bot_id: botId } = await request<{ bot_id: string }>('POST', '/bots', {
    name: 'Flip',
    strategy_type: 'scalper',
    config: {
      amount: 0.05,
      interval: '1M',
      code: FLIP_STRATEGY,
      stop_loss_percentage: 50,
      take_profit_percentage: 50,
    },
  });
  const delegation = await request<{ delegation_id: string; unsigned_transaction: string }>(
    'POST',
    '/delegation/create',
    { amount: 2 },
  );
  await request('POST', '/delegation/submit', {
    delegation_id: delegation.delegation_id,
    signed_transaction: wallet.signTransaction(delegation.unsigned_transaction),
  });
  await request('POST', `/bots/production/${botId}/start`, {});
  return { token, request, botId };
}
