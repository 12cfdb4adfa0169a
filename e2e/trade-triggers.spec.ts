import { expect, test, type Locator, type Page } from '@playwright/test';
import { settleForScreenshot } from './support/app';
import { shiftMarket } from './support/market';
import { expectNoHorizontalOverflow } from './support/overflow';
import { fundWallet, readNumber, signInWithLocalWallet } from './support/wallet';

// Trigger orders on the spot trade page, made to fire by the dev price hook (POST
// /api/dev/market/shift) instead of waiting on the simulated market: a position's TP/SL pair linked
// one-cancels-the-other whose stop loss fires, and a trailing stop whose trigger follows the price
// up and then fires on the way down. Each journey shifts a token no other journey trades (ORCA,
// RAY) and undoes its shifts at the end; they run beside each other and beside other files.

const SCREENSHOTS = process.env.TRADE_SCREENSHOTS_DIR ?? 'test-results/trade-screenshots';

const orderForm = (page: Page) => page.getByRole('form', { name: 'Place order' });
const orderRows = (page: Page) => page.getByTestId('spot-order-row');
const rowOf = (page: Page, type: string, status: string): Locator =>
  orderRows(page)
    .filter({ hasText: type })
    .and(page.locator(`[data-status="${status}"]`));

/** Opens /trade on a pair with a funded Local wallet and buys `amount` of its base at the market. */
async function buyAtMarket(page: Page, pair: string, amount: string) {
  const [base] = pair.split('/') as [string];
  await signInWithLocalWallet(page);
  await fundWallet(page, { amount_sol: 2, amount_usdc: 500 });
  await page.goto(`/trade?pair=${pair}`);
  await expect(page.getByTestId('pair-name')).toHaveText(pair);
  const form = orderForm(page);
  await form.getByRole('radio', { name: 'Market', exact: true }).click();
  await form.getByRole('radio', { name: 'Buy', exact: true }).click();
  await form.getByLabel('Amount', { exact: true }).fill(amount);
  await form.getByRole('button', { name: `Buy ${base}` }).click();
  await expect(page.getByText('Buy order filled')).toBeVisible({ timeout: 30_000 });
}

/** The percentage that moves a token from its current price to `target`. */
async function percentTo(page: Page, token: string, target: number): Promise<number> {
  const now = await shiftMarket(page.request, token, 0);
  return (target / now - 1) * 100;
}

async function screenshotBothWidths(page: Page, name: string, label: string) {
  // From the top: a full-page capture of a scrolled page draws the sticky header mid-page.
  await page.evaluate(() => window.scrollTo(0, 0));
  await settleForScreenshot(page);
  await page.screenshot({ path: `${SCREENSHOTS}/${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalOverflow(page, label);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SCREENSHOTS}/${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
}

test.describe('spot trigger orders', () => {
  test('an OCO TP/SL pair on a position: the stop loss fires and the take profit is cancelled', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await buyAtMarket(page, 'ORCA/USDC', '20');
    try {
      // The position's TP/SL shortcut: a take profit and a stop loss linked one-cancels-the-other.
      await page.getByRole('tab', { name: /Your Positions/ }).click();
      const position = page.locator('[data-testid="position-row"][data-symbol="ORCA/USDC"]');
      await position.getByRole('button', { name: 'Take profit / stop loss on ORCA/USDC position' }).click();
      const dialog = page.getByRole('dialog', { name: 'TP / SL · ORCA/USDC' });
      const stopLoss = Number(await dialog.getByRole('textbox', { name: 'Stop loss' }).inputValue());
      const takeProfit = Number(await dialog.getByRole('textbox', { name: 'Take profit' }).inputValue());
      expect(stopLoss).toBeGreaterThan(0);
      expect(takeProfit).toBeGreaterThan(stopLoss);
      // Each order escrows its own ORCA: half the position each.
      await dialog.getByRole('textbox', { name: 'Size' }).fill('10');
      await dialog.getByRole('textbox', { name: 'Max slippage' }).fill('300');
      await dialog.getByRole('button', { name: 'Place TP / SL' }).click();
      await expect(dialog.getByTestId('tpsl-outcome')).toContainText('one cancels the other', {
        timeout: 30_000,
      });
      await dialog.getByRole('button', { name: 'Done' }).click();

      // Both wait in Your Spot Orders, marked OCO, and as dotted lines on the chart.
      await page.getByRole('tab', { name: /Your Spot Orders/ }).click();
      const tp = rowOf(page, 'Take profit', 'Pending');
      const sl = rowOf(page, 'Stop loss', 'Pending');
      await expect(tp).toContainText('OCO');
      await expect(sl).toContainText('OCO');
      const chart = page.getByTestId('price-chart');
      await expect(chart).toHaveAttribute('data-price-lines', /Take profit Sell 10 \d/);
      await expect(chart).toHaveAttribute('data-price-lines', /Stop loss Sell 10 \d/);
      await screenshotBothWidths(page, 'trade-oco-tpsl', '/trade with an OCO TP/SL pair');

      // ORCA falls to just under the stop loss: it fires, and the take profit is cancelled with it.
      await shiftMarket(page.request, 'ORCA', await percentTo(page, 'ORCA', stopLoss * 0.995));
      await expect(rowOf(page, 'Stop loss', 'Filled')).toBeVisible({ timeout: 20_000 });
      await expect(rowOf(page, 'Take profit', 'Cancelled')).toBeVisible({ timeout: 20_000 });
      await expect(chart).not.toHaveAttribute('data-price-lines', /Take profit|Stop loss/);
      await expect(chart).toHaveAttribute('data-markers', /Sell Spot/);
      await screenshotBothWidths(page, 'trade-oco-filled', '/trade after the stop loss filled');
    } finally {
      await shiftMarket(page.request, 'ORCA', 'reset');
    }
  });

  test('a trailing stop sell follows the price up, then fires when it falls back through', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await buyAtMarket(page, 'RAY/USDC', '10');
    try {
      const form = orderForm(page);
      await form.getByRole('radio', { name: 'Trailing stop' }).click();
      await form.getByRole('radio', { name: 'Sell', exact: true }).click();
      await form.getByRole('textbox', { name: 'Trail' }).fill('2');
      await form.getByLabel('Amount', { exact: true }).fill('10');
      await form.getByRole('textbox', { name: 'Max slippage' }).fill('300');
      await form.getByRole('button', { name: 'Sell RAY' }).click();
      await expect(page.getByText('Trailing stop sell order placed')).toBeVisible({ timeout: 30_000 });

      await page.getByRole('tab', { name: /Your Spot Orders/ }).click();
      const pending = rowOf(page, 'Trailing stop', 'Pending');
      await expect(pending).toContainText('trails 2% from the best price');
      const triggerOf = async () =>
        readNumber(await pending.getByTestId('order-trigger').locator('span').first().textContent());
      const first = await triggerOf();
      expect(first).toBeGreaterThan(0);
      const chart = page.getByTestId('price-chart');
      await expect(chart).toHaveAttribute('data-price-lines', /Trailing stop Sell 10 /);

      // RAY rises 3 %: the keeper raises the trigger with the best price, and the row and chart follow.
      await shiftMarket(page.request, 'RAY', 3);
      await expect.poll(triggerOf, { timeout: 20_000 }).toBeGreaterThan(first * 1.02);
      const raised = await triggerOf();
      await screenshotBothWidths(page, 'trade-trailing-stop', '/trade with a trailing stop');

      // Then it falls to just under the raised trigger: the trailing stop fires.
      await shiftMarket(page.request, 'RAY', await percentTo(page, 'RAY', raised * 0.995));
      await expect(rowOf(page, 'Trailing stop', 'Filled')).toBeVisible({ timeout: 20_000 });
      await expect(chart).not.toHaveAttribute('data-price-lines', /Trailing stop/);
    } finally {
      await shiftMarket(page.request, 'RAY', 'reset');
    }
  });
});
