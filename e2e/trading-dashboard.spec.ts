import { expect, test, type Page } from '@playwright/test';
import { PASSWORD, settleForScreenshot, signUp, uniqueEmail } from './support/app';

// The dashboard's on-chain loop against the real server and its embedded local cluster: sign in
// with the browser Local wallet, fund it from the faucet, buy SOL with USDC in the quick trade,
// and see the fill and the new balances. Set E2E_SHOTS_DIR to also save screenshots there.
const SHOTS_DIR = process.env.E2E_SHOTS_DIR;

async function shootRegion(page: Page, region: string, name: string) {
  if (!SHOTS_DIR) return;
  await settleForScreenshot(page);
  await page.getByRole('region', { name: region }).screenshot({ path: `${SHOTS_DIR}/${name}.png` });
}

async function shoot(page: Page, name: string) {
  if (!SHOTS_DIR) return;
  await settleForScreenshot(page);
  // From the top, so the sticky top bar is not painted over the middle of a full-page shot.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SHOTS_DIR}/${name}.png`, fullPage: true });
}

/** A holding's balance as a number ('1,000.00' → 1000). */
async function readBalance(page: Page, symbol: string): Promise<number> {
  const text = await page.getByTestId(`holding-balance-${symbol}`).innerText();
  return Number(text.replace(/,/g, ''));
}

async function signInWithLocalWallet(page: Page) {
  await page.goto('/wallet-connect');
  await page.getByRole('tab', { name: 'Wallets', exact: true }).click();
  const card = page.getByRole('region', { name: 'Local wallet' });
  await card.getByRole('button', { name: /^Create/ }).click();
  await card.getByRole('button', { name: 'Sign in with Local wallet' }).click();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 15_000 });
}

test.describe('dashboard trading', () => {
  test('a trader funds the Local wallet, buys 0.5 SOL with USDC and sees the fill', async ({ page }) => {
    test.setTimeout(120_000);

    // Given a trader signed in with the Local wallet, its empty portfolio on the dashboard
    await signInWithLocalWallet(page);
    const portfolio = page.getByRole('region', { name: 'Portfolio overview' });
    const wallet = page.getByRole('region', { name: 'Wallet connection' });
    await expect(wallet.getByText('Connected', { exact: true })).toBeVisible();
    await expect(portfolio.getByTestId('portfolio-total')).toBeVisible({ timeout: 20_000 });
    await expect(
      page.getByRole('region', { name: 'Recent trades' }).getByText('No trades yet'),
    ).toBeVisible();
    await shoot(page, 'dashboard-empty-desktop');

    // When they press Fund
    await portfolio.getByRole('button', { name: 'Fund wallet with test SOL and USDC' }).first().click();

    // Then SOL and USDC arrive in the portfolio
    await expect(page.getByText(/^Funded .* SOL and .* USDC$/).first()).toBeVisible({ timeout: 30_000 });
    await expect(portfolio.getByTestId('holding-USDC')).toBeVisible({ timeout: 20_000 });
    await expect.poll(() => readBalance(page, 'USDC'), { timeout: 20_000 }).toBeGreaterThan(0);
    await expect.poll(() => readBalance(page, 'SOL'), { timeout: 20_000 }).toBeGreaterThan(0);
    const solBefore = await readBalance(page, 'SOL');
    const usdcBefore = await readBalance(page, 'USDC');

    // And the quick trade shows what the wallet can spend
    const quickTrade = page.getByRole('region', { name: 'Quick trade' });
    await expect(quickTrade.getByTestId('quick-trade-pair')).toHaveText('SOL/USDC');
    await expect(quickTrade.getByTestId('quick-trade-balance-USDC')).not.toHaveText('—', { timeout: 20_000 });
    await expect(quickTrade.getByLabel('Price', { exact: true })).not.toHaveValue('', { timeout: 20_000 });

    // When they buy 0.5 SOL at the market
    await quickTrade.getByLabel('Amount', { exact: true }).fill('0.5');
    await expect(quickTrade.getByLabel('Total', { exact: true })).not.toHaveValue('');
    await shoot(page, 'dashboard-quick-trade-filled-desktop');
    await quickTrade.getByRole('button', { name: 'Buy SOL' }).click();

    // Then a success toast carries the transaction hash
    const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'Bought 0.5000 SOL' });
    await expect(toast).toBeVisible({ timeout: 45_000 });
    const hash = toast.getByTestId('trade-toast-hash');
    await expect(hash).toHaveText(/^Tx \S+\.\.\.\S+$/);
    await expect(hash).toHaveAttribute('title', /^[1-9A-HJ-NP-Za-km-z]{64,90}$/);
    await expect(quickTrade.getByLabel('Amount', { exact: true })).toHaveValue('');
    await expect(quickTrade.getByRole('region', { name: 'Last fill' })).toBeVisible();

    // And the fill is the newest recent trade
    const recent = page.getByRole('region', { name: 'Recent trades' });
    const row = recent.getByTestId('recent-trade').first();
    await expect(row).toContainText('SOL/USDC', { timeout: 20_000 });
    await expect(row).toContainText('Buy');
    await expect(row).toContainText('0.5000');
    await expect(row).toContainText('Filled');

    // And the balances moved: about 0.5 SOL more (less fees), USDC spent
    await expect.poll(() => readBalance(page, 'USDC'), { timeout: 20_000 }).toBeLessThan(usdcBefore);
    await expect.poll(() => readBalance(page, 'SOL'), { timeout: 20_000 }).toBeGreaterThan(solBefore + 0.49);
    await shoot(page, 'dashboard-after-trade-desktop');

    await page.setViewportSize({ width: 390, height: 844 });
    await shoot(page, 'dashboard-after-trade-phone');
    await shootRegion(page, 'Quick trade', 'quick-trade-phone');
    await shootRegion(page, 'Portfolio overview', 'portfolio-phone');
    await shootRegion(page, 'Wallet connection', 'wallet-phone');
    await shootRegion(page, 'Recent trades', 'recent-trades-phone');
  });

  test('the quick trade validates before it asks the wallet', async ({ page }) => {
    await signInWithLocalWallet(page);
    const quickTrade = page.getByRole('region', { name: 'Quick trade' });
    await expect(quickTrade.getByLabel('Price', { exact: true })).not.toHaveValue('', { timeout: 20_000 });

    await quickTrade.getByRole('button', { name: 'Buy SOL' }).click();
    await expect(quickTrade.getByTestId('quick-trade-error')).toHaveText(
      'Please enter both amount and price',
    );

    await quickTrade.getByLabel('Amount', { exact: true }).fill('0.001');
    await quickTrade.getByRole('button', { name: 'Buy SOL' }).click();
    await expect(quickTrade.getByTestId('quick-trade-error')).toHaveText(
      'Minimum amount is 0.01 SOL (accounting for fees)',
    );

    // An unfunded wallet has no USDC to buy with.
    await quickTrade.getByRole('button', { name: 'Set amount to 0.1 SOL' }).click();
    await quickTrade.getByRole('button', { name: 'Buy SOL' }).click();
    await expect(quickTrade.getByTestId('quick-trade-error')).toHaveText(
      'No USDC available to buy SOL with.',
      {
        timeout: 20_000,
      },
    );
  });

  test('an email account connects the Local wallet from the dashboard card', async ({ page }) => {
    // Given an email account without a wallet
    const email = uniqueEmail('dash-wallet');
    await signUp(page, { username: `dash${Date.now().toString(36)}`, email, password: PASSWORD });
    await expect(page).toHaveURL(/\/dashboard$/, { timeout: 15_000 });
    const portfolio = page.getByRole('region', { name: 'Portfolio overview' });
    const wallet = page.getByRole('region', { name: 'Wallet connection' });
    await expect(portfolio.getByText('No wallet connected. Please connect a wallet first.')).toBeVisible();
    await expect(wallet.getByRole('button', { name: 'Connect Local wallet' })).toBeVisible({
      timeout: 15_000,
    });
    await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 10_000 });
    await shoot(page, 'dashboard-no-wallet-desktop');

    // The manual address needs something typed
    await wallet.getByRole('button', { name: 'Enter an address manually' }).click();
    await wallet.getByRole('button', { name: 'Save' }).click();
    await expect(wallet.getByText('Please enter a wallet address')).toBeVisible();
    await shootRegion(page, 'Wallet connection', 'wallet-options-desktop');

    // When they connect the Local wallet from the card
    await wallet.getByRole('button', { name: 'Connect Local wallet' }).click();

    // Then it is linked to the account and the portfolio loads
    await expect(page.getByText('Local wallet connected successfully!').first()).toBeVisible({
      timeout: 15_000,
    });
    await expect(wallet.getByTestId('connected-wallet-name')).toHaveText('Local wallet');
    await expect(portfolio.getByTestId('portfolio-total')).toBeVisible({ timeout: 20_000 });
    // The account now signs with it.
    await expect(page.getByText('Signing · Solana')).toBeVisible();

    await page.setViewportSize({ width: 390, height: 844 });
    await shoot(page, 'dashboard-connected-phone');
  });
});
