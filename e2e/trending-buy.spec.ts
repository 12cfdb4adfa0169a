import { expect, test } from '@playwright/test';
import {
  findTrendingOutsideIdentityMap,
  fundWallet,
  signInWithLocalWallet,
  tradeBalanceOf,
} from './support/wallet';

// Every token the market shows is minted on the embedded cluster, so a Trending token outside the
// spec's identity map (GOAT, POPCAT, …) can be bought like SOL: Buy in Trending Tokens prefills a
// TOKEN/SOL buy, the Local wallet signs it and the local market maker fills it.

test.describe('trending buy', () => {
  test('Trending → Buy of a token outside the identity map ends filled', async ({ page }) => {
    test.setTimeout(150_000);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await signInWithLocalWallet(page);
    await fundWallet(page, { amount_sol: 5, amount_usdc: 1000 });
    await page.goto('/trade');
    await expect.poll(() => tradeBalanceOf(page, 'SOL'), { timeout: 20_000 }).toBeGreaterThanOrEqual(5);

    const { row, symbol } = await findTrendingOutsideIdentityMap(page);
    const pair = `${symbol}/SOL`;
    test.info().annotations.push({ type: 'token', description: symbol });
    await row.getByRole('button', { name: `Buy ${symbol} with SOL` }).click();

    // The order form is prefilled: the pair switched, a market buy, the note says where it came from.
    const form = page.getByRole('form', { name: 'Place order' });
    await expect(page.getByTestId('pair-name')).toHaveText(pair);
    await expect(form.getByTestId('order-intent')).toContainText(
      `Prefilled from Trending Tokens: Buy ${symbol} with SOL`,
    );
    await expect(form.getByRole('radio', { name: 'Buy', exact: true })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    await expect(form.getByRole('radio', { name: 'Market', exact: true })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    // The pair trades here: the maker quotes a book, and the form is not marked untradable.
    await expect(page.getByTestId('book-bid').first()).toBeVisible({ timeout: 20_000 });
    await expect(form.getByText('Not tradable here')).toHaveCount(0);
    await expect(page.getByTestId(`balance-${symbol}`)).toBeVisible();
    const tokenBefore = await tradeBalanceOf(page, symbol);

    // Spend 0.2 SOL at the market.
    await form.getByRole('radio', { name: 'Total in SOL' }).click();
    await form.getByLabel('Total', { exact: true }).fill('0.2');
    await expect(form.getByTestId('order-quantity')).toHaveText(new RegExp(`^[\\d,.]+ ${symbol}$`));
    await form.getByRole('button', { name: `Buy ${symbol}`, exact: true }).click();

    // Filled: the toast, a Filled market order on the pair, the tokens in the wallet, a position.
    await expect(page.getByText('Buy order filled')).toBeVisible({ timeout: 45_000 });
    const order = page.getByTestId('spot-order-row').first();
    await expect(order).toHaveAttribute('data-status', 'Filled', { timeout: 15_000 });
    await expect(order).toContainText(pair);
    await expect(order).toContainText('Market');
    await expect(order.getByTestId('tx-link')).toBeVisible();
    await expect.poll(() => tradeBalanceOf(page, symbol), { timeout: 20_000 }).toBeGreaterThan(tokenBefore);
    await expect.poll(() => tradeBalanceOf(page, 'SOL'), { timeout: 20_000 }).toBeLessThan(4.81);

    await page.getByRole('tab', { name: /Your Positions/ }).click();
    await expect(page.locator(`[data-testid="position-row"][data-symbol="${pair}"]`)).toBeVisible({
      timeout: 15_000,
    });
    expect(errors).toEqual([]);
  });
});
