import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { expectNoHorizontalOverflow, expectRoutesFitPhoneWidth, PHONE_VIEWPORT } from './support/overflow';

// No page may scroll sideways on a 390 px phone: every route of the app, signed out and signed in,
// including /trade and the dashboard with their data loaded. Tables scroll inside their own box.

/** The router's pages, read from its source so a new route cannot be left out of this check. */
function readRouterPaths(list: 'PUBLIC_PAGES' | 'PROTECTED_PAGES'): string[] {
  const source = readFileSync(new URL('../apps/web/src/app/router.tsx', import.meta.url), 'utf8');
  const block = new RegExp(`export const ${list} = \\[([\\s\\S]*?)\\] as const;`).exec(source)?.[1] ?? '';
  return [...block.matchAll(/path: '([^']+)'/g)].map((match) => match[1]!);
}

const PUBLIC_PATHS = readRouterPaths('PUBLIC_PAGES');
const PROTECTED_PATHS = readRouterPaths('PROTECTED_PAGES');
const NOT_FOUND_PATH = '/no-such-page';

async function signInWithLocalWallet(page: Page) {
  await page.goto('/wallet-connect');
  await page.getByRole('tab', { name: 'Wallets', exact: true }).click();
  const card = page.getByRole('region', { name: 'Local wallet' });
  await card.getByRole('button', { name: /^Create/ }).click();
  await card.getByRole('button', { name: 'Sign in with Local wallet' }).click();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 10_000 });
}

async function fundWallet(page: Page) {
  const token = await page.evaluate(() => localStorage.getItem('auth_token'));
  const response = await page.request.post('/api/wallet/fund', {
    data: { amount_sol: 5, amount_usdc: 1000 },
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

test.describe('phone width (390 px): no page scrolls sideways', () => {
  test('the router lists the pages this check visits', () => {
    expect(PUBLIC_PATHS).toContain('/');
    expect(PUBLIC_PATHS).toContain('/otp-verification');
    expect(PROTECTED_PATHS).toContain('/trade');
    expect(PROTECTED_PATHS).toContain('/dashboard');
  });

  test('every public page, signed out', async ({ page }) => {
    await expectRoutesFitPhoneWidth(page, [...PUBLIC_PATHS, '/login', NOT_FOUND_PATH]);
  });

  test('every signed-in page, then /trade and the dashboard with their data loaded', async ({ page }) => {
    test.setTimeout(150_000);
    await page.setViewportSize(PHONE_VIEWPORT);
    await signInWithLocalWallet(page);
    await expectRoutesFitPhoneWidth(page, [...PROTECTED_PATHS, NOT_FOUND_PATH]);

    await fundWallet(page);
    await page.goto('/trade');
    await expect(page.getByTestId('price-chart')).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
    await expect(page.getByTestId('book-bid').first()).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('trending-row').first()).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('balance-USDC').locator('dd')).toContainText(/\d/, { timeout: 20_000 });
    // A pending limit buy well under the market fills Your Spot Orders.
    const form = page.getByRole('form', { name: 'Place order' });
    await form.getByRole('radio', { name: 'Limit', exact: true }).click();
    await form.getByRole('radio', { name: 'Buy', exact: true }).click();
    await form.getByRole('button', { name: 'Use market' }).click();
    const market = Number(await form.getByLabel('Limit price', { exact: true }).inputValue());
    await form.getByLabel('Limit price', { exact: true }).fill((market * 0.5).toFixed(2));
    await form.getByLabel('Amount', { exact: true }).fill('0.1');
    await form.getByRole('button', { name: 'Buy SOL' }).click();
    await expect(page.locator('[data-testid="spot-order-row"][data-status="Pending"]').first()).toBeVisible({
      timeout: 30_000,
    });
    await expectNoHorizontalOverflow(page, '/trade with balances, book, trending and a pending order');

    await page.goto('/dashboard');
    await expect(page.getByTestId('price-chart')).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
    await expect(
      page.getByRole('region', { name: 'Portfolio overview' }).getByTestId('holding-USDC'),
    ).toBeVisible({
      timeout: 30_000,
    });
    await expectNoHorizontalOverflow(page, '/dashboard with holdings and the chart');
  });
});
