import { percentile, report, round, startServer } from './lib/harness';
import { signInWalletUser } from './lib/wallet-session';

// POST /api/futures/order end to end on loopback against a freshly started embedded server: a
// signed-in wallet user with 500 USDC of collateral (deposited on chain into the vault) sends market
// orders one at a time, alternating long and short 0.01 SOL at 10x (each fills against the maker:
// matching, margin check, the command log write and the user's order and trade rows). The first 20
// orders after start-up are the fresh figure; then 200 warm-up orders, and 500 measured warm.
const TARGET_P50_MS = 10;
const FRESH = 20;
const WARM_UP = 200;
const MEASURED = 500;

const server = await startServer({ FUTURES_ORDER_RATE_LIMIT_MAX: '100000' });
try {
  const { wallet, request } = await signInWalletUser(server.url);
  await request('POST', '/wallet/fund', { amount_sol: 2, amount_usdc: 1000 });
  // The keeper funds the maker and quotes every market within its first passes.
  for (let tries = 0; ; tries++) {
    const market = await request<{ order_book: { asks: unknown[] } }>(
      'GET',
      '/futures/market/SOL-PERP',
    ).catch(() => null);
    if (market && market.order_book.asks.length > 0) break;
    if (tries > 200) throw new Error('the maker never quoted SOL-PERP');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const deposit = await request<{ unsigned_transaction: string }>('POST', '/futures/account/initialize', {
    amount: 500,
  });
  await request('POST', '/trading/execute-signed-transaction', {
    signed_transaction: wallet.signTransaction(deposit.unsigned_transaction),
  });

  let side: 'Long' | 'Short' = 'Long';
  const order = async () => {
    const started = performance.now();
    await request('POST', '/futures/order', {
      symbol: 'SOL-PERP',
      side,
      order_type: 'Market',
      amount: 0.01,
      leverage: 10,
    });
    side = side === 'Long' ? 'Short' : 'Long';
    return performance.now() - started;
  };
  const fresh: number[] = [];
  for (let i = 0; i < FRESH; i++) fresh.push(await order());
  for (let i = 0; i < WARM_UP; i++) await order();
  const warm: number[] = [];
  for (let i = 0; i < MEASURED; i++) warm.push(await order());
  const p50 = percentile(warm, 50);
  report(
    'futures-order',
    {
      fresh_p50_ms: round(percentile(fresh, 50), 2),
      fresh_max_ms: round(Math.max(...fresh), 2),
      warm_p50_ms: round(p50, 2),
      warm_p99_ms: round(percentile(warm, 99), 2),
      orders: FRESH + WARM_UP + MEASURED,
    },
    [`target_warm_p50_ms=${TARGET_P50_MS}`],
    p50 < TARGET_P50_MS,
  );
} finally {
  await server.stop();
}
