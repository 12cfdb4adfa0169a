import { expect, test, type Page } from '@playwright/test';

// Market data journeys on the embedded market simulator: top-bar search, pair switch, the live
// chart and its intervals, live coin cards, trending tokens and holder analysis.

async function signInWithLocalWallet(page: Page) {
  await page.goto('/wallet-connect');
  await page.getByRole('tab', { name: 'Wallets', exact: true }).click();
  const card = page.getByRole('region', { name: 'Local wallet' });
  await card.getByRole('button', { name: /^Create/ }).click();
  await card.getByRole('button', { name: 'Sign in with Local wallet' }).click();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 10_000 });
}

const chart = (page: Page) => page.getByTestId('price-chart');

test.describe('market data', () => {
  test('search "bo", pick BONK against SOL, chart it and change the interval', async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await signInWithLocalWallet(page);
    await expect(chart(page)).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
    await expect(page.getByTestId('pair-name')).toHaveText('SOL/USDC');

    const search = page.getByRole('combobox', { name: 'Search tokens' });
    await expect(search).toHaveAttribute('placeholder', 'Search tokens (BTC, ETH, SOL...)');
    const searched = page.waitForRequest((request) =>
      request.url().includes('/api/trading/dexscreener?query=bo'),
    );
    await search.fill('bo');
    await searched;

    const bonk = page.locator('[data-testid="search-result"][data-symbol="BONK"]');
    await expect(bonk).toBeVisible();
    await expect(bonk).toContainText('raydium');
    await expect(bonk).toContainText('Bonk');
    await expect(bonk).toContainText('DezX...B263');
    await expect(bonk).toContainText(/MC \$[\d,]+\.\d{2}M/);
    await expect(bonk).toContainText(/\$0\.0000\d{2}/);
    for (const quote of ['SOL', 'USDC', 'USDT']) {
      await expect(bonk.getByRole('button', { name: `Trade BONK/${quote}` })).toBeVisible();
    }
    expect(await page.getByTestId('search-result').count()).toBeLessThanOrEqual(15);

    await bonk.getByRole('button', { name: 'Trade BONK/SOL' }).click();
    await expect(page.getByText('Switched to Bonk')).toBeVisible();
    await expect(page.getByTestId('search-dropdown')).toBeHidden();
    await expect(search).toHaveValue('');
    await expect(page.getByTestId('pair-name')).toHaveText('BONK/SOL');
    await expect(page.getByTestId('pair-price')).toContainText(/\d.*SOL/);
    await expect(chart(page)).toHaveAttribute('data-pair', 'BONK/SOL');
    await expect(chart(page)).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
    await expect(chart(page)).toHaveAttribute('data-interval', '15M');
    expect(Number(await chart(page).getAttribute('data-candles'))).toBeGreaterThan(10);
    await expect(chart(page).locator('canvas').first()).toBeVisible();

    const hourly = page.waitForResponse(
      (response) => response.url().includes('/api/market/chart/BONK%2FSOL?interval=1H') && response.ok(),
    );
    await page.getByRole('button', { name: '1H', exact: true }).click();
    await hourly;
    await expect(chart(page)).toHaveAttribute('data-interval', '1H');
    await expect(chart(page)).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
    await expect(page.getByRole('button', { name: '1H', exact: true })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(page.getByTestId('chart-legend')).toContainText('BONK/SOL · 1H');

    // Light theme and back.
    await page.getByRole('button', { name: 'Switch to light chart theme' }).click();
    await expect(chart(page)).toHaveAttribute('data-theme', 'light');
    await page.getByRole('button', { name: 'Switch to dark chart theme' }).click();
    expect(errors).toEqual([]);
  });

  test('coin cards move live and a click sets the pair', async ({ page }) => {
    await signInWithLocalWallet(page);
    await expect(page.getByTestId('live-indicator').first()).toHaveAttribute('data-state', 'open', {
      timeout: 10_000,
    });
    const prices = page.locator('[data-testid^="coin-price-"]');
    await expect(prices).toHaveCount(3);
    const before = await prices.allTextContents();
    for (const text of before) expect(text).toMatch(/^\$[\d,]+\.\d{2}$/);
    // Prices tick every second on the `prices` channel; some card moves well within 10 s.
    await expect
      .poll(async () => (await prices.allTextContents()).join('|'), { timeout: 10_000, intervals: [250] })
      .not.toBe(before.join('|'));

    await page.getByTestId('coin-card-eth').click();
    await expect(page.getByText('Switched to Ethereum')).toBeVisible();
    await expect(page.getByTestId('pair-name')).toHaveText('ETH/SOL');
    await expect(chart(page)).toHaveAttribute('data-pair', 'ETH/SOL');
    await expect(chart(page)).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
  });

  test('trending Buy switches /trade to TOKEN/SOL and /future shows holder analysis', async ({ page }) => {
    await signInWithLocalWallet(page);
    await page.goto('/trade');
    const firstRow = page.getByTestId('trending-row').first();
    await expect(firstRow).toBeVisible({ timeout: 15_000 });
    const symbol = (await firstRow.getByTestId('trending-symbol').textContent())!.trim();
    await firstRow.getByRole('button', { name: `Buy ${symbol} with SOL` }).click();
    await expect(page.getByText(/^Switched to /)).toBeVisible();
    await expect(page.getByTestId('pair-name')).toHaveText(`${symbol}/SOL`);
    await expect(page.getByTestId('order-intent')).toContainText(`Buy ${symbol}`);
    await expect(chart(page)).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });

    await page.goto('/future');
    const holders = page.getByTestId('holder-analysis');
    await expect(holders).toContainText(`Holder analysis · ${symbol}`);
    await expect(holders.getByTestId('holder-row').first()).toBeVisible({ timeout: 15_000 });
    expect(await holders.getByTestId('holder-row').count()).toBeLessThanOrEqual(10);
    await expect(holders).toContainText('Top 100 owned');
    await holders.getByRole('tab', { name: 'KOL/VC12' }).click();
    await expect(holders.getByRole('tab', { name: 'KOL/VC12' })).toHaveAttribute('aria-selected', 'true');
    await expect(
      holders.getByTestId('holder-row').or(holders.getByText('No holders in this category')).first(),
    ).toBeVisible();
  });

  test('the pair query parameter sets the pair', async ({ page }) => {
    await signInWithLocalWallet(page);
    await page.goto('/trade?pair=JUP/USDC');
    await expect(page.getByTestId('pair-name')).toHaveText('JUP/USDC');
    await expect(chart(page)).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
  });
});
