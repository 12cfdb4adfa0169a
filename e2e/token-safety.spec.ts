import { expect, test, type Page } from '@playwright/test';
import { settleForScreenshot } from './support/app';

// Token safety on the embedded cluster: FROST is a listed token whose issuer kept a freeze authority,
// so its badge reads danger from the chain and a buy waits for an explicit confirmation.
// Set E2E_SHOTS_DIR to also save screenshots there (1280 and 390 px).
const SHOTS_DIR = process.env.E2E_SHOTS_DIR;

async function shoot(page: Page, name: string) {
  if (!SHOTS_DIR) return;
  await settleForScreenshot(page);
  await page.screenshot({ path: `${SHOTS_DIR}/${name}.png` });
}

async function signInWithLocalWallet(page: Page) {
  await page.goto('/wallet-connect');
  await page.getByRole('tab', { name: 'Wallets', exact: true }).click();
  const card = page.getByRole('region', { name: 'Local wallet' });
  await card.getByRole('button', { name: /^Create/ }).click();
  await card.getByRole('button', { name: 'Sign in with Local wallet' }).click();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 15_000 });
}

test.describe('token safety', () => {
  test('a danger token asks for confirmation', async ({ page }) => {
    test.setTimeout(120_000);
    await signInWithLocalWallet(page);
    const portfolio = page.getByRole('region', { name: 'Portfolio overview' });
    await expect(portfolio.getByTestId('portfolio-total')).toBeVisible({ timeout: 20_000 });
    await portfolio.getByRole('button', { name: 'Fund wallet with test SOL and USDC' }).first().click();
    await expect(page.getByText(/^Funded .* SOL and .* USDC$/).first()).toBeVisible({ timeout: 30_000 });

    // SOL/USDC reads ok: the maker's inventory is the venue's, not a holder's concentration.
    const header = page.getByTestId('pair-header');
    await expect(header.getByTestId('safety-badge')).toHaveAttribute('data-level', 'ok', { timeout: 20_000 });

    // Searching FROST shows its danger badge; tapping it lists the flags without picking the row.
    const search = page.getByRole('combobox', { name: 'Search tokens' });
    await search.fill('frost');
    const frost = page.locator('[data-testid="search-result"][data-symbol="FROST"]');
    await expect(frost).toBeVisible({ timeout: 15_000 });
    const badge = frost.getByTestId('safety-badge');
    await expect(badge).toHaveAttribute('data-level', 'danger', { timeout: 15_000 });
    await badge.getByRole('button').click();
    await expect(page.getByTestId('safety-flags')).toContainText('Freeze authority present');
    await expect(page.getByTestId('safety-flags')).toBeVisible();
    await shoot(page, 'safety-search-desktop');
    await frost.getByRole('button', { name: 'Trade FROST/SOL' }).click();
    await expect(page.getByTestId('pair-name')).toHaveText('FROST/SOL');
    await expect(header.getByTestId('safety-badge')).toHaveAttribute('data-level', 'danger');

    // Buying asks first; Cancel sends nothing.
    const quickTrade = page.getByRole('region', { name: 'Quick trade' });
    await expect(quickTrade.getByLabel('Price', { exact: true })).not.toHaveValue('', { timeout: 20_000 });
    await quickTrade.getByLabel('Amount', { exact: true }).fill('100');
    await quickTrade.getByRole('button', { name: 'Buy FROST' }).click();
    const dialog = page.getByRole('dialog', { name: 'FROST reads danger' });
    await expect(dialog).toContainText('Freeze authority present');
    await shoot(page, 'safety-confirm-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    await shoot(page, 'safety-confirm-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(quickTrade.getByLabel('Amount', { exact: true })).toHaveValue('100');

    // Confirming buys it on chain.
    await quickTrade.getByRole('button', { name: 'Buy FROST' }).click();
    await dialog.getByRole('button', { name: 'Buy FROST anyway' }).click();
    const toast = page.locator('[data-sonner-toast]').filter({ hasText: /Bought .* FROST/ });
    await expect(toast).toBeVisible({ timeout: 45_000 });
  });
});
