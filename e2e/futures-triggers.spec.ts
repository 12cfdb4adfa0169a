import { expect, test, type Page } from '@playwright/test';
import { settleForScreenshot } from './support/app';
import { expectNoHorizontalOverflow } from './support/overflow';
import { fundWallet, signInWithLocalWallet } from './support/wallet';

// A perp take profit filling: a SOL long gets a TP/SL pair from the positions table, then a Take
// Profit market order from the order panel one tick above the oracle. The oracle follows the
// simulated feed (the keeper moves it every second): when the feed rises a tick the keeper fires
// the TP, which closes the long and so cancels the position's TP/SL.

const SCREENSHOTS = process.env.FUTURES_SCREENSHOTS_DIR ?? 'test-results/futures-screenshots';

async function api<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(async (url) => {
    const answer = await fetch(url, {
      headers: { Authorization: `Bearer ${localStorage.getItem('auth_token')}` },
    });
    return (await answer.json()).data;
  }, path) as Promise<T>;
}

const oracleOf = async (page: Page) =>
  Number((await api<{ oracle_price: string }>(page, '/api/futures/market/SOL-PERP')).oracle_price);

test('a SOL long’s take profit fills when the oracle rises to it, and its TP/SL pair goes with the position', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signInWithLocalWallet(page);
  await fundWallet(page, { amount_sol: 2, amount_usdc: 1000 });
  await page.goto('/future');
  const book = page.getByRole('region', { name: 'Order book' }).or(page.getByLabel('Order book'));
  await expect(book.getByLabel('Spread')).toBeVisible({ timeout: 20_000 });
  const balance = page.getByLabel('Futures balance');
  await balance.getByRole('button', { name: 'Initialize Account' }).click();
  const init = page.getByRole('dialog', { name: 'Initialize Account' });
  await init.getByLabel('Amount (USDC)').fill('100');
  await init.getByRole('button', { name: 'Initialize Account' }).click();
  await expect(page.getByText('Deposited 100.00 USDC into your futures account')).toBeVisible({
    timeout: 20_000,
  });

  const panel = page.getByLabel('Futures order');
  await panel.getByLabel('Amount (SOL)').fill('0.5');
  await panel.getByRole('button', { name: 'Open Long' }).click();
  await expect(page.getByText(/Long 0\.500 SOL filled at/)).toBeVisible({ timeout: 15_000 });
  const positions = page.getByLabel('Your futures');
  const row = positions.getByRole('row').filter({ hasText: 'SOL-PERP' });
  await expect(row).toBeVisible();

  // A TP/SL pair on the whole position, far from the oracle; a TP under it is refused in the form.
  const oracle = await oracleOf(page);
  await row.getByRole('button', { name: 'TP/SL' }).click();
  const tpsl = page.getByRole('dialog', { name: 'TP/SL · SOL-PERP Long' });
  await tpsl.getByLabel('Take profit (USDC)').fill((oracle * 0.5).toFixed(2));
  await tpsl.getByRole('button', { name: 'Save TP/SL' }).click();
  await expect(tpsl.getByText(/must be above the oracle price/)).toBeVisible();
  await tpsl.getByLabel('Take profit (USDC)').fill((oracle * 1.5).toFixed(2));
  await tpsl.getByLabel('Stop loss (USDC)').fill((oracle * 0.5).toFixed(2));
  await tpsl.getByRole('button', { name: 'Save TP/SL' }).click();
  await expect(page.getByText('SOL-PERP take profit / stop loss saved')).toBeVisible();
  await expect(row.getByText(`TP ${(oracle * 1.5).toFixed(2)}`)).toBeVisible();
  await expect(row.getByText(`SL ${(oracle * 0.5).toFixed(2)}`)).toBeVisible();
  // The chart draws the entry, the TP and the SL.
  await expect(page.getByTestId('price-chart')).toHaveAttribute('data-price-lines', /Entry Long .*TP .*SL /);

  // A Take Profit market order from the panel: Short, reduce-only, one tick above the oracle.
  await panel.getByRole('radio', { name: 'Take Profit' }).click();
  await panel.getByRole('radio', { name: 'Short', exact: true }).click();
  await panel.getByLabel('Amount (SOL)').fill('0.5');
  await panel.getByLabel('Reduce only (never grows or flips your position)').check();
  await settleForScreenshot(page);
  await page.screenshot({ path: `${SCREENSHOTS}/future-tpsl-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalOverflow(page, '/future with a TP/SL and a take profit order being entered');
  await page.screenshot({ path: `${SCREENSHOTS}/future-tpsl-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // The feed walks both ways: if it falls away from the trigger, the TP is placed again a tick
  // above the new oracle (each try has a 20 s window).
  let filled = false;
  for (let attempt = 0; attempt < 5 && !filled; attempt++) {
    const now = await oracleOf(page);
    await panel.getByLabel('Trigger price (USDC)').fill((now + 0.01).toFixed(2));
    await panel.getByRole('button', { name: /Close \/ Reduce Long/ }).click();
    const placed = page.getByText(/Short take profit market order placed: triggers at/);
    const refused = panel.getByText(/trigger price must be above/);
    await expect(placed.or(refused).first()).toBeVisible({ timeout: 10_000 });
    if (await refused.isVisible()) continue;
    filled = await expect(positions.getByText('No open positions'))
      .toBeVisible({ timeout: 20_000 })
      .then(() => true)
      .catch(() => false);
    if (!filled) {
      await positions.getByRole('tab', { name: /Your Futures Orders/ }).click();
      await positions
        .getByRole('row')
        .filter({ hasText: 'Take Profit' })
        .filter({ hasNotText: 'position' })
        .filter({ hasText: 'Open' })
        .getByRole('button', { name: 'Cancel' })
        .click();
      await positions.getByRole('tab', { name: /Your Positions/ }).click();
    }
  }
  expect(filled).toBe(true);

  // The TP filled at the market and the position's TP/SL went with the position.
  await positions.getByRole('tab', { name: /Your Futures Orders/ }).click();
  const tpRow = positions.getByRole('row').filter({ hasText: 'Take Profit' }).filter({ hasText: 'Filled' });
  await expect(tpRow.first()).toBeVisible();
  await expect(tpRow.first()).toContainText('0.500');
  await expect(positions.getByRole('row').filter({ hasText: 'position TP' })).toContainText('Cancelled');
  await expect(positions.getByRole('row').filter({ hasText: 'position SL' })).toContainText('Cancelled');
  const trades = await api<{ order_id: string; side: string; size: string }[]>(page, '/api/futures/trades');
  expect(trades[0]).toMatchObject({ side: 'Short', size: '0.500' });
  await expect(page.getByTestId('price-chart')).not.toHaveAttribute('data-price-lines', /TP /);
});
