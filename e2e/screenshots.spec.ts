import { expect, test, type Page } from '@playwright/test';
import { expectNoHorizontalOverflow } from './support/overflow';
import {
  findTrendingOutsideIdentityMap,
  fundWallet,
  signInWithLocalWallet,
  tradeBalanceOf,
} from './support/wallet';

// `npm run screenshots` refreshes docs/screenshots/ (desktop 1280×800 and phone 390×844).
const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;
const PAGES = [
  { name: 'landing', path: '/' },
  { name: 'auth', path: '/auth' },
  { name: 'wallet-connect', path: '/wallet-connect' },
] as const;

for (const viewport of VIEWPORTS) {
  for (const target of PAGES) {
    test(`${target.name} at ${viewport.name} width`, async ({ page }) => {
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await page.goto(target.path);
      await page.waitForLoadState('networkidle');
      await page.screenshot({
        path: `docs/screenshots/${target.name}-${viewport.name}.png`,
        fullPage: false,
      });
    });
  }
}

test('the signed-in shell at both widths', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/wallet-connect');
  await page.getByRole('tab', { name: 'Wallets', exact: true }).click();
  const card = page.getByRole('region', { name: 'Local wallet' });
  await card.getByRole('button', { name: /^Create/ }).click();
  await card.getByRole('button', { name: 'Sign in with Local wallet' }).click();
  await page.waitForURL(/\/dashboard$/);
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: 'docs/screenshots/dashboard-desktop.png' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: 'docs/screenshots/dashboard-phone.png' });
});

test('the dashboard chart and the open token search at both widths', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/wallet-connect');
  await page.getByRole('tab', { name: 'Wallets', exact: true }).click();
  const card = page.getByRole('region', { name: 'Local wallet' });
  await card.getByRole('button', { name: /^Create/ }).click();
  await card.getByRole('button', { name: 'Sign in with Local wallet' }).click();
  await page.waitForURL(/\/dashboard$/);
  const chart = page.getByTestId('price-chart');
  await expect(chart).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
  await expect(page.getByTestId('live-indicator').first()).toHaveAttribute('data-state', 'open');
  // Let the sign-in toast go and the sparklines load.
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 10_000 });
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: 'docs/screenshots/dashboard-chart-desktop.png' });

  const search = page.getByRole('combobox', { name: 'Search tokens' });
  await search.fill('bo');
  await expect(page.getByTestId('search-result').first()).toBeVisible();
  await search.press('ArrowDown');
  await page.screenshot({ path: 'docs/screenshots/search-dropdown-desktop.png' });
  await search.press('Escape');
  await search.fill('');

  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId('coin-card-sol').scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollBy(0, 150));
  await expect(chart).toHaveAttribute('data-state', 'ready');
  await page.waitForTimeout(500);
  await page.screenshot({ path: 'docs/screenshots/dashboard-chart-phone.png' });

  await page.evaluate(() => window.scrollTo(0, 0));
  await page.getByRole('button', { name: 'Search tokens' }).click();
  await page.getByRole('combobox', { name: 'Search tokens' }).fill('bo');
  await expect(page.getByTestId('search-result').first()).toBeVisible();
  await page.screenshot({ path: 'docs/screenshots/search-dropdown-phone.png' });
});

test('the dashboard quick trade after a fill, and /trade with a filled and a pending order', async ({
  page,
}) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/wallet-connect');
  await page.getByRole('tab', { name: 'Wallets', exact: true }).click();
  const card = page.getByRole('region', { name: 'Local wallet' });
  await card.getByRole('button', { name: /^Create/ }).click();
  await card.getByRole('button', { name: 'Sign in with Local wallet' }).click();
  await page.waitForURL(/\/dashboard$/);

  const portfolio = page.getByRole('region', { name: 'Portfolio overview' });
  await portfolio.getByRole('button', { name: 'Fund wallet with test SOL and USDC' }).first().click();
  await expect(portfolio.getByTestId('holding-USDC')).toBeVisible({ timeout: 30_000 });
  const quickTrade = page.getByRole('region', { name: 'Quick trade' });
  await expect(quickTrade.getByTestId('quick-trade-balance-USDC')).not.toHaveText('—', { timeout: 20_000 });
  await expect(quickTrade.getByLabel('Price', { exact: true })).not.toHaveValue('', { timeout: 20_000 });
  await quickTrade.getByLabel('Amount', { exact: true }).fill('0.5');
  await quickTrade.getByRole('button', { name: 'Buy SOL' }).click();
  await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'Bought 0.5000 SOL' })).toBeVisible({
    timeout: 45_000,
  });
  await expect(page.getByRole('region', { name: 'Recent trades' }).getByText('No trades yet')).toHaveCount(
    0,
    {
      timeout: 15_000,
    },
  );
  await expect(page.getByTestId('price-chart')).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
  await page.waitForTimeout(1500);
  await page.screenshot({ path: 'docs/screenshots/dashboard-quick-trade-desktop.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await quickTrade.scrollIntoViewIfNeeded();
  await page.waitForTimeout(300);
  await page.screenshot({ path: 'docs/screenshots/dashboard-quick-trade-phone.png' });

  // /trade: a limit buy 10 % under the market waits in escrow beside the filled market buy.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/trade');
  const form = page.getByRole('form', { name: 'Place order' });
  await expect(page.getByTestId('price-chart')).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
  await form.getByRole('radio', { name: 'Limit', exact: true }).click();
  await form.getByRole('radio', { name: 'Buy', exact: true }).click();
  await form.getByRole('button', { name: 'Use market' }).click();
  const market = Number(await form.getByLabel('Limit price', { exact: true }).inputValue());
  await form.getByLabel('Limit price', { exact: true }).fill((market * 0.9).toFixed(2));
  await form.getByLabel('Amount', { exact: true }).fill('0.2');
  await form.getByRole('button', { name: 'Buy SOL' }).click();
  await expect(page.locator('[data-testid="spot-order-row"][data-status="Pending"]').first()).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: 'docs/screenshots/trade-desktop.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(500);
  await page.screenshot({ path: 'docs/screenshots/trade-phone.png' });
});

/** /trade with its data in: chart, order book, trending tokens, balances; no toast over it. */
async function waitForTradeData(page: Page) {
  await expect(page.getByTestId('price-chart')).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
  await expect(page.getByTestId('book-bid').first()).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('trending-row').first()).toBeVisible({ timeout: 20_000 });
  await expect.poll(() => tradeBalanceOf(page, 'USDC'), { timeout: 20_000 }).toBeGreaterThanOrEqual(1000);
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });
  await page.waitForLoadState('networkidle');
}

test('/trade on a 390 px phone with a funded wallet, the book and balances, no sideways scroll', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await signInWithLocalWallet(page);
  await fundWallet(page, { amount_sol: 5, amount_usdc: 1000 });
  await page.goto('/trade');
  await waitForTradeData(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectNoHorizontalOverflow(page, '/trade with data');
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: 'docs/screenshots/trade-loaded-phone.png' });
  await page.screenshot({ path: 'docs/screenshots/trade-loaded-phone-full.png', fullPage: true });
});

test('Trending → Buy of a token outside the identity map, filled, at both widths', async ({ page }) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInWithLocalWallet(page);
  await fundWallet(page, { amount_sol: 5, amount_usdc: 1000 });
  await page.goto('/trade');
  await waitForTradeData(page);

  const { row, symbol } = await findTrendingOutsideIdentityMap(page);
  test.info().annotations.push({ type: 'token', description: symbol });
  await row.getByRole('button', { name: `Buy ${symbol} with SOL` }).click();
  const form = page.getByRole('form', { name: 'Place order' });
  await expect(page.getByTestId('pair-name')).toHaveText(`${symbol}/SOL`);
  await expect(form.getByTestId('order-intent')).toContainText(`Buy ${symbol} with SOL`);
  await expect(page.getByTestId('book-bid').first()).toBeVisible({ timeout: 20_000 });
  await form.getByRole('radio', { name: 'Total in SOL' }).click();
  await form.getByLabel('Total', { exact: true }).fill('0.2');
  await form.getByRole('button', { name: `Buy ${symbol}`, exact: true }).click();
  await expect(page.getByText('Buy order filled')).toBeVisible({ timeout: 45_000 });
  const order = page.getByTestId('spot-order-row').first();
  await expect(order).toHaveAttribute('data-status', 'Filled', { timeout: 15_000 });
  // The fill's toast is part of the story: shoot while it is still up, beside the Filled order
  // (the orders table's bottom at the viewport's), once the toast has slid in.
  await page.getByTestId('spot-tables').evaluate((element) => element.scrollIntoView({ block: 'end' }));
  await page.waitForTimeout(700);
  await expect(page.getByText('Buy order filled')).toBeVisible();
  await page.screenshot({ path: 'docs/screenshots/trending-buy-filled-desktop.png' });
  await expect.poll(() => tradeBalanceOf(page, symbol), { timeout: 20_000 }).toBeGreaterThan(0);
  await page.waitForLoadState('networkidle');
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });
  // From the top, so the sticky top bar is not painted over the middle of a full-page shot.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: 'docs/screenshots/trending-buy-filled-desktop-full.png', fullPage: true });

  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalOverflow(page, `/trade after a ${symbol}/SOL fill`);
  // The orders table scrolls inside its box on a phone: bring the Filled status into view.
  await order.getByText('Filled', { exact: true }).scrollIntoViewIfNeeded();
  await page.waitForTimeout(500);
  await page.screenshot({ path: 'docs/screenshots/trending-buy-filled-phone.png' });
});

test('/bots after Run and Test Bot and /backtest with results, at both widths', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInWithLocalWallet(page);
  await page.goto('/bots');
  await page.getByLabel('Name').fill('SMA 5/20 on SOL');
  await page.getByLabel('Position sizing').selectOption('fixed_base');
  await page.getByLabel('Amount per trade (base token)').fill('1');
  await page.getByLabel('Candle interval').selectOption('15M');
  await page.getByRole('button', { name: 'Run and Test Bot' }).click();
  await expect(page.getByTestId('backtest-chart').locator('canvas').first()).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Create Bot' }).click();
  await expect(page.getByTestId('bot-card')).toBeVisible();
  // A running paper bot, with its execution box.
  await page.getByTestId('bot-card').getByRole('button', { name: 'Start' }).click();
  await expect(page.getByTestId('bot-execution')).toBeVisible();
  // Let the toasts go.
  await page.waitForTimeout(5_000);
  await page.getByTestId('bot-card').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'docs/screenshots/bots-running-desktop.png' });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: 'docs/screenshots/bots-desktop.png' });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalOverflow(page, '/bots');
  await page.screenshot({ path: 'docs/screenshots/bots-phone.png' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('radio', { name: 'Your code' }).click();
  await expect(page.getByRole('textbox', { name: 'Strategy code' })).toContainText('function onCandle');
  // The Python twin of the same template, as a user writing Python sees it.
  await page.getByLabel('Language').selectOption('python');
  await expect(page.getByRole('textbox', { name: 'Strategy code' })).toContainText('def on_candle');
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: 'docs/screenshots/bots-code-desktop.png' });
  await page.getByRole('radio', { name: 'Built-in' }).click();

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/backtest');
  const start = new Date(Date.now() - 90 * 86_400_000).toISOString().slice(0, 10);
  await page.getByLabel('Start date').fill(start);
  await page.getByRole('button', { name: 'Run Backtest' }).click();
  await expect(page.getByTestId('backtest-chart').locator('canvas').first()).toBeVisible({ timeout: 30_000 });
  await page.waitForTimeout(5_000);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: 'docs/screenshots/backtest-desktop.png' });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalOverflow(page, '/backtest');
  await page.screenshot({ path: 'docs/screenshots/backtest-phone.png' });
});

test('/market with a public bot and its detail panel, at both widths', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInWithLocalWallet(page);
  await page.goto('/bots');
  await page.getByLabel('Name').fill('Minute SMA 3/8');
  await page.getByLabel('Candle interval').selectOption('1M');
  await page.getByLabel('Short window (candles)').fill('3');
  await page.getByLabel('Long window (candles)').fill('8');
  await page.getByLabel('Public (listed in the marketplace)').check();
  await page.getByRole('button', { name: 'Create Bot' }).click();
  await page.getByTestId('bot-card').getByRole('button', { name: 'Start' }).click();
  await expect(page.getByTestId('bot-execution')).toBeVisible();
  await page.goto('/market');
  await page.getByRole('button', { name: 'View Minute SMA 3/8' }).click();
  await expect(page.getByRole('region', { name: 'Bot details' }).getByText('Paper fills')).toBeVisible();
  await page.waitForTimeout(5_000);
  await page.screenshot({ path: 'docs/screenshots/market-desktop.png' });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalOverflow(page, '/market with the detail panel');
  await page.screenshot({ path: 'docs/screenshots/market-phone.png', fullPage: true });
});

test('/future with an open 10x SOL long, at both widths', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInWithLocalWallet(page);
  await fundWallet(page, { amount_sol: 2, amount_usdc: 1000 });
  await page.goto('/future');
  await expect(page.getByLabel('Order book').getByLabel('Spread')).toBeVisible({ timeout: 20_000 });
  await page.getByLabel('Futures balance').getByRole('button', { name: 'Initialize Account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Initialize Account' });
  await dialog.getByLabel('Amount (USDC)').fill('100');
  await dialog.getByRole('button', { name: 'Initialize Account' }).click();
  await expect(page.getByText('Deposited 100.00 USDC into your futures account')).toBeVisible({
    timeout: 20_000,
  });
  const panel = page.getByLabel('Futures order');
  await panel.getByLabel('Amount (SOL)').fill('2');
  await panel.getByRole('button', { name: '10x' }).click();
  await panel.getByRole('button', { name: 'Open Long' }).click();
  await expect(
    page.getByLabel('Your futures').getByRole('row').filter({ hasText: 'SOL-PERP' }),
  ).toBeVisible();
  await page.waitForTimeout(4_000); // the toasts fade and the market figures refresh
  await page.screenshot({ path: 'docs/screenshots/future-desktop.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalOverflow(page, '/future with a position');
  await page.screenshot({ path: 'docs/screenshots/future-phone.png', fullPage: true });
});

test('/bots with the form and cards, editing a bot, and /market, at 1280 and 390 px', async ({ page }) => {
  test.setTimeout(120_000);
  const noToasts = () => expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 10_000 });
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInWithLocalWallet(page);
  await page.goto('/bots');
  await page.getByLabel('Name').fill('Minute SMA 3/8 on SOL/USDC');
  await page.getByLabel('Candle interval').selectOption('1M');
  await page.getByLabel('Short window (candles)').fill('3');
  await page.getByLabel('Long window (candles)').fill('8');
  await page.getByLabel('Public (listed in the marketplace)').check();
  await page.getByRole('button', { name: 'Create Bot' }).click();
  const running = page.getByTestId('bot-card').filter({ hasText: 'Minute SMA 3/8' });
  await running.getByRole('button', { name: 'Start' }).click();
  await expect(running.getByTestId('bot-execution')).toBeVisible();
  await page.getByRole('radio', { name: 'Your code' }).click();
  await page.getByLabel('Category').selectOption('trend');
  await page.getByLabel('Name').fill('JS breakout with a long descriptive name');
  await page.getByLabel('Pair').fill('BONK/SOL');
  await page.getByRole('button', { name: 'Create Bot' }).click();
  await expect(page.getByTestId('bot-card')).toHaveCount(2);
  await noToasts();
  // The form's lower half and the cards under it.
  await page.getByTestId('bot-card').first().scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollBy(0, 200));
  await page.screenshot({ path: 'docs/screenshots/bots-1280.png' });

  const stopped = page.getByTestId('bot-card').filter({ hasText: 'JS breakout' });
  await stopped.getByRole('button', { name: 'Edit' }).click();
  await expect(page.getByText('Edit "JS breakout with a long descriptive name"')).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: 'docs/screenshots/bots-edit-1280.png' });

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('textbox', { name: 'Strategy code' })).toBeVisible();
  await expectNoHorizontalOverflow(page, '/bots with "Your code"');
  await page.screenshot({ path: 'docs/screenshots/bots-390.png', fullPage: true });

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/market');
  await page.getByRole('button', { name: 'View Minute SMA 3/8 on SOL/USDC' }).click();
  await expect(page.getByRole('region', { name: 'Bot details' }).getByText('Paper fills')).toBeVisible();
  await noToasts();
  await page.screenshot({ path: 'docs/screenshots/market-1280.png' });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalOverflow(page, '/market with the detail panel');
  await page.screenshot({ path: 'docs/screenshots/market-390.png', fullPage: true });
});
