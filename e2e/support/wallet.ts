import { expect, type Locator, type Page } from '@playwright/test';
import { getTokenBySymbol } from '@solterm/contracts';

/** Creates a browser Local wallet on /wallet-connect and signs in with it (lands on /dashboard). */
export async function signInWithLocalWallet(page: Page) {
  await page.goto('/wallet-connect');
  await page.getByRole('tab', { name: 'Wallets', exact: true }).click();
  const card = page.getByRole('region', { name: 'Local wallet' });
  await card.getByRole('button', { name: /^Create/ }).click();
  await card.getByRole('button', { name: 'Sign in with Local wallet' }).click();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 15_000 });
}

/** Airdrops SOL and mints USDC to the signed-in wallet (POST /api/wallet/fund, localnet faucet). */
export async function fundWallet(page: Page, amounts = { amount_sol: 5, amount_usdc: 1000 }) {
  const token = await page.evaluate(() => localStorage.getItem('auth_token'));
  const response = await page.request.post('/api/wallet/fund', {
    data: amounts,
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

/**
 * The first Trending Tokens row on /trade whose token is outside the spec's identity map (GOAT,
 * POPCAT, …: listed and minted on the local cluster, but not resolvable by symbol through the
 * map) and that offers Buy. Waits for the table and its tradability answer.
 */
export async function findTrendingOutsideIdentityMap(page: Page): Promise<{ row: Locator; symbol: string }> {
  const rows = page.getByTestId('trending-row');
  await expect(rows.first()).toBeVisible({ timeout: 20_000 });
  const symbolOf = (row: Locator) => row.getByTestId('trending-symbol');
  let found: { row: Locator; symbol: string } | null = null;
  await expect
    .poll(
      async () => {
        const count = await rows.count();
        for (let index = 0; index < count; index += 1) {
          const row = rows.nth(index);
          const symbol = ((await symbolOf(row).textContent()) ?? '').trim();
          if (!symbol || getTokenBySymbol(symbol)) continue;
          if ((await row.getByRole('button', { name: `Buy ${symbol} with SOL` }).count()) === 0) continue;
          found = { row, symbol };
          return symbol;
        }
        return null;
      },
      { timeout: 20_000, message: 'a Trending token outside the identity map, with a Buy button' },
    )
    .not.toBeNull();
  return found!;
}

/** A displayed amount ('1,234.5 SOL') as a number. */
export function readNumber(text: string | null): number {
  return Number((text ?? '').replace(/[^\d.-]/g, ''));
}

/** A token's balance in the /trade balances strip. */
export async function tradeBalanceOf(page: Page, token: string): Promise<number> {
  return readNumber(await page.getByTestId(`balance-${token}`).locator('dd').textContent());
}
