import { expect, test, type Locator, type Page } from '@playwright/test';

// The spot trade page on the embedded stack: orders are real transactions on the local cluster,
// signed in the browser's Local wallet, filled by the local RFQ market maker; limit orders escrow
// on chain until the keeper fills them or the user cancels.

// Screenshots to look at (not compared): set TRADE_SCREENSHOTS_DIR to keep them elsewhere.
const SCREENSHOTS = process.env.TRADE_SCREENSHOTS_DIR ?? 'test-results/trade-screenshots';

async function signInWithLocalWallet(page: Page) {
  await page.goto('/wallet-connect');
  await page.getByRole('tab', { name: 'Wallets', exact: true }).click();
  const card = page.getByRole('region', { name: 'Local wallet' });
  await card.getByRole('button', { name: /^Create/ }).click();
  await card.getByRole('button', { name: 'Sign in with Local wallet' }).click();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 10_000 });
}

/** Airdrops SOL and mints USDC to the signed-in wallet (POST /api/wallet/fund, localnet faucet). */
async function fundWallet(page: Page, amounts: { amount_sol: number; amount_usdc: number }) {
  const token = await page.evaluate(() => localStorage.getItem('auth_token'));
  const response = await page.request.post('/api/wallet/fund', {
    data: amounts,
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

/** A displayed amount ('1,234.5') as a number. */
function readNumber(text: string | null): number {
  return Number((text ?? '').replace(/[^\d.-]/g, ''));
}

async function balanceOf(page: Page, token: string): Promise<number> {
  return readNumber(await page.getByTestId(`balance-${token}`).locator('dd').textContent());
}

function orderForm(page: Page): Locator {
  return page.getByRole('form', { name: 'Place order' });
}

async function fillOrder(
  page: Page,
  order: { type: 'Market' | 'Limit'; side: 'Buy' | 'Sell'; amount: string; price?: string },
) {
  const form = orderForm(page);
  await form.getByRole('radio', { name: order.type, exact: true }).click();
  await form.getByRole('radio', { name: order.side, exact: true }).click();
  if (order.price !== undefined) await form.getByLabel('Limit price', { exact: true }).fill(order.price);
  await form.getByLabel('Amount', { exact: true }).fill(order.amount);
}

async function openTab(page: Page, name: RegExp) {
  await page.getByRole('tab', { name }).click();
}

test.describe('spot trade page', () => {
  test('the page without orders: balances, book, empty tables, at desktop and phone widths', async ({
    page,
  }) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await signInWithLocalWallet(page);
    await page.goto('/trade');
    await expect(page.getByRole('form', { name: 'Place order' })).toBeVisible();
    await expect(page.getByTestId('price-chart')).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
    await expect(page.getByTestId('order-book')).toBeVisible();
    await expect(page.getByTestId('spot-tables')).toBeVisible();
    // Empty-form validation needs no server.
    await orderForm(page).getByRole('button', { name: 'Buy SOL' }).click();
    await expect(orderForm(page).getByTestId('order-error')).toHaveText('Please enter amount');
    await orderForm(page).getByRole('radio', { name: 'Limit', exact: true }).click();
    await orderForm(page).getByRole('button', { name: 'Buy SOL' }).click();
    await expect(orderForm(page).getByTestId('order-error')).toHaveText('Please enter amount and price');
    await orderForm(page).getByRole('radio', { name: 'Market', exact: true }).click();

    await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 10_000 });
    await page.screenshot({ path: `${SCREENSHOTS}/trade-empty-desktop.png` });
    await page.screenshot({ path: `${SCREENSHOTS}/trade-empty-desktop-full.png`, fullPage: true });
    await page.setViewportSize({ width: 1600, height: 1000 });
    await page.screenshot({ path: `${SCREENSHOTS}/trade-empty-wide.png` });

    // A Trending Tokens Buy switches to TOKEN/SOL and prefills a buy.
    const firstTrending = page.getByTestId('trending-row').first();
    await expect(firstTrending).toBeVisible({ timeout: 15_000 });
    const symbol = (await firstTrending.getByTestId('trending-symbol').textContent())!.trim();
    await firstTrending.getByRole('button', { name: `Buy ${symbol} with SOL` }).click();
    await expect(page.getByTestId('pair-name')).toHaveText(`${symbol}/SOL`);
    await expect(orderForm(page).getByTestId('order-intent')).toContainText(
      `Prefilled from Trending Tokens: Buy ${symbol} with SOL`,
    );
    await expect(orderForm(page).getByRole('button', { name: `Buy ${symbol}` })).toBeVisible();
    await expect(page.getByTestId('order-book')).toContainText(`${symbol}/SOL`);
    // The local venue trades the tokens minted on the local cluster; others say so instead.
    await expect(
      page
        .getByTestId('book-bid')
        .first()
        .or(page.getByText('Order book unavailable'))
        .or(orderForm(page).getByText('Not tradable here'))
        .first(),
    ).toBeVisible({ timeout: 15_000 });
    await page.screenshot({ path: `${SCREENSHOTS}/trade-trending-wide.png` });

    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SCREENSHOTS}/trade-empty-phone-full.png`, fullPage: true });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SCREENSHOTS}/trade-empty-phone-top.png` });
    await orderForm(page).screenshot({ path: `${SCREENSHOTS}/trade-empty-phone-form.png` });
    await page.getByTestId('order-book').screenshot({ path: `${SCREENSHOTS}/trade-empty-phone-book.png` });
    expect(errors).toEqual([]);
  });

  test('market buy and sell, a limit buy escrowed then cancelled, Close prefills a sell, fills in All Trades', async ({
    page,
  }) => {
    test.setTimeout(150_000);
    await signInWithLocalWallet(page);
    await fundWallet(page, { amount_sol: 5, amount_usdc: 1000 });
    await page.goto('/trade');
    const form = orderForm(page);
    await expect(page.getByTestId('pair-name')).toHaveText('SOL/USDC');
    await expect.poll(() => balanceOf(page, 'USDC'), { timeout: 15_000 }).toBeGreaterThanOrEqual(1000);
    await expect.poll(() => balanceOf(page, 'SOL'), { timeout: 15_000 }).toBeGreaterThanOrEqual(5);
    // The current price is known before an order is priced.
    await expect(form.getByText(/USDC$/).first()).toBeVisible();

    // 1. A market buy of 0.5 SOL fills: a success toast with the transaction, a Filled order.
    await fillOrder(page, { type: 'Market', side: 'Buy', amount: '0.5' });
    await expect(form.getByTestId('order-quantity')).toHaveText('0.5 SOL');
    await form.getByRole('button', { name: 'Buy SOL' }).click();
    await expect(page.getByText('Buy order filled')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText(/^Transaction \w{8}\.\.\.\w{8}$/).first()).toBeVisible();
    await expect(form.getByLabel('Amount', { exact: true })).toHaveValue('');
    const firstOrder = page.getByTestId('spot-order-row').first();
    await expect(firstOrder).toHaveAttribute('data-status', 'Filled', { timeout: 15_000 });
    await expect(firstOrder.getByTestId('tx-link')).toBeVisible();

    // 2. A market sell of 0.1 SOL, entered as a USDC total converted at the current price.
    await form.getByRole('radio', { name: 'Sell', exact: true }).click();
    await form.getByRole('radio', { name: 'Total in USDC' }).click();
    const price = readNumber(await page.getByTestId('pair-price').textContent());
    expect(price).toBeGreaterThan(0);
    await form.getByLabel('Total', { exact: true }).fill((price * 0.1).toFixed(2));
    await expect(form.getByTestId('order-quantity')).toHaveText(/^0\.\d+ SOL$/);
    await form.getByRole('button', { name: 'Sell SOL' }).click();
    await expect(page.getByText('Sell order filled')).toBeVisible({ timeout: 30_000 });
    await form.getByRole('radio', { name: 'Amount in SOL' }).click();

    // 3. A limit buy 10 % below the market escrows its USDC and waits as Pending.
    await expect.poll(() => balanceOf(page, 'USDC'), { timeout: 15_000 }).toBeLessThan(1000);
    // Refresh, then read USDC once the strip shows what the chain answered to the refresh.
    const refreshed = page.waitForResponse(
      (response) => response.url().endsWith('/api/trading/suggestion') && response.ok(),
    );
    await page.getByRole('button', { name: 'Refresh balances' }).click();
    const answer = (await (await refreshed).json()) as {
      data: { available_balances: Record<string, number> };
    };
    const usdcOnChain = answer.data.available_balances.USDC ?? 0;
    await expect
      .poll(async () => Math.abs((await balanceOf(page, 'USDC')) - usdcOnChain), { timeout: 15_000 })
      .toBeLessThan(0.01);
    const usdcBeforeLimit = await balanceOf(page, 'USDC');
    await form.getByRole('radio', { name: 'Limit', exact: true }).click();
    await form.getByRole('button', { name: 'Use market' }).click();
    const market = Number(await form.getByLabel('Limit price', { exact: true }).inputValue());
    const limitPrice = (market * 0.9).toFixed(2);
    await fillOrder(page, { type: 'Limit', side: 'Buy', amount: '0.2', price: limitPrice });
    await expect(form.getByText(/escrows [\d.]+ USDC on chain/)).toBeVisible();
    await form.getByRole('button', { name: 'Buy SOL' }).click();
    await expect(page.getByText('Limit buy order placed')).toBeVisible({ timeout: 30_000 });
    const pending = page.locator('[data-testid="spot-order-row"][data-status="Pending"]').first();
    await expect(pending).toBeVisible({ timeout: 15_000 });
    await expect(pending).toContainText('Limit');
    const orderId = await pending.getAttribute('data-order-id');
    await expect
      .poll(() => balanceOf(page, 'USDC'), { timeout: 15_000 })
      .toBeLessThan(usdcBeforeLimit - 0.2 * Number(limitPrice) + 0.01);
    await page.screenshot({ path: `${SCREENSHOTS}/trade-pending-desktop.png`, fullPage: true });

    // 3b. Markers on the chart: both fills as labelled buy and sell markers on their candles, the
    // pending limit buy and the position's average entry as price lines.
    const chart = page.getByTestId('price-chart');
    await expect(chart).toHaveAttribute('data-markers', /Buy Spot/, { timeout: 15_000 });
    await expect(chart).toHaveAttribute('data-markers', /Sell Spot/);
    await expect(chart).toHaveAttribute('data-price-lines', /Limit Buy 0\.2 \d/);
    await expect(chart).toHaveAttribute('data-price-lines', /Avg entry \d/);
    await expect(chart.locator('canvas').first()).toBeVisible();
    await chart.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SCREENSHOTS}/trade-markers-1280.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await chart.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SCREENSHOTS}/trade-markers-390.png` });
    await page.setViewportSize({ width: 1280, height: 800 });

    // 4. Cancel: the order shows Cancelled and the escrowed USDC comes back.
    await pending.getByRole('button', { name: /^Cancel/ }).click();
    await expect(page.getByText('Order cancelled')).toBeVisible({ timeout: 30_000 });
    const cancelled = page.locator(`[data-testid="spot-order-row"][data-order-id="${orderId}"]`);
    await expect(cancelled).toHaveAttribute('data-status', 'Cancelled', { timeout: 15_000 });
    await expect(cancelled.getByRole('button', { name: /^Cancel/ })).toHaveCount(0);
    await expect.poll(() => balanceOf(page, 'USDC'), { timeout: 15_000 }).toBeCloseTo(usdcBeforeLimit, 2);

    // 5. The SOL/USDC position shows its PnL; Close prefills a market sell of the whole size.
    await openTab(page, /Your Positions/);
    const position = page.locator('[data-testid="position-row"][data-symbol="SOL/USDC"]');
    await expect(position).toBeVisible({ timeout: 15_000 });
    await expect(position.getByTestId('unrealized-pnl')).toHaveText(/^[+-]?[\d,.]+\s*\([+-]?[\d.]+%\)$/);
    const sizeText = (await position.locator('td').nth(1).textContent()) ?? '';
    const size = readNumber(sizeText.replace('SOL', ''));
    expect(size).toBeGreaterThan(0.3);
    await page.getByTestId('spot-tables').screenshot({ path: `${SCREENSHOTS}/trade-positions-panel.png` });
    await position.getByRole('button', { name: 'Close SOL/USDC position' }).click();
    await expect(form.getByRole('radio', { name: 'Sell', exact: true })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    await expect(form.getByRole('radio', { name: 'Market', exact: true })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    expect(Number(await form.getByLabel('Amount', { exact: true }).inputValue())).toBeCloseTo(size, 6);
    await expect(form.getByTestId('order-intent')).toContainText('your SOL/USDC position');
    await form.getByRole('button', { name: 'Sell SOL' }).click();
    await expect(page.getByText('Sell order filled')).toBeVisible({ timeout: 30_000 });

    // 6. All Trades shows the fills with their receipts, newest first.
    await openTab(page, /All Trades/);
    const trades = page.getByTestId('trade-row');
    await expect.poll(() => trades.count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
    await expect(trades.first()).toHaveAttribute('data-side', 'Sell');
    await expect(trades.first().getByTestId('receipt')).toContainText(/Slippage .*bps/);
    await expect(trades.first().getByTestId('receipt')).toContainText(/Network [\d.]+ SOL/);
    await expect(trades.first().getByTestId('tx-link')).toBeVisible();
    await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 10_000 });
    await page.getByTestId('spot-tables').screenshot({ path: `${SCREENSHOTS}/trade-trades-panel.png` });
    await openTab(page, /Your Spot Orders/);
    await page.getByTestId('spot-tables').screenshot({ path: `${SCREENSHOTS}/trade-orders-panel.png` });
    await page.screenshot({ path: `${SCREENSHOTS}/trade-filled-desktop.png`, fullPage: true });
    await page.setViewportSize({ width: 1600, height: 1000 });
    await page.screenshot({ path: `${SCREENSHOTS}/trade-filled-wide.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SCREENSHOTS}/trade-filled-phone-full.png`, fullPage: true });
    await page
      .getByTestId('spot-tables')
      .screenshot({ path: `${SCREENSHOTS}/trade-filled-phone-orders.png` });
  });
});
