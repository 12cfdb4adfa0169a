import { expect, test } from '@playwright/test';
import { settleForScreenshot } from './support/app';
import { expectNoHorizontalOverflow } from './support/overflow';
import { fundWallet, signInWithLocalWallet } from './support/wallet';

// Perpetual futures with the Local wallet: initialize the account with 100 USDC (a transfer the
// wallet signs into the vault), open a 10x SOL long with its liquidation price shown first, close
// it with PnL, place and cancel a limit order, and withdraw USDC back to the wallet.

const SCREENSHOTS = process.env.FUTURES_SCREENSHOTS_DIR ?? 'test-results/futures-screenshots';

test('initialize with 100 USDC, open a 10x SOL long, close it with PnL, place and cancel a limit, withdraw', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signInWithLocalWallet(page);
  await fundWallet(page, { amount_sol: 2, amount_usdc: 1000 });
  await page.goto('/future');
  await expect(page.getByRole('heading', { name: 'Futures', level: 1 })).toBeVisible();
  await expect(page.getByText('SOL-PERP · perpetual market available')).toBeVisible();
  const book = page.getByRole('region', { name: 'Order book' }).or(page.getByLabel('Order book'));
  await expect(book.getByLabel('Spread')).toBeVisible({ timeout: 20_000 });

  // Initialize Account: the wallet signs a USDC transfer into the vault.
  const balance = page.getByLabel('Futures balance');
  await balance.getByRole('button', { name: 'Initialize Account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Initialize Account' });
  await dialog.getByLabel('Amount (USDC)').fill('0.5');
  await dialog.getByRole('button', { name: 'Initialize Account' }).click();
  await expect(dialog.getByText('Minimum deposit amount is 1 USDC')).toBeVisible();
  await dialog.getByLabel('Amount (USDC)').fill('100');
  await dialog.getByRole('button', { name: 'Initialize Account' }).click();
  await expect(page.getByText('Deposited 100.00 USDC into your futures account')).toBeVisible({
    timeout: 20_000,
  });
  await expect(balance.getByText('Collateral', { exact: true })).toBeVisible();

  // A 10x market long: the liquidation price shows before the order is placed.
  const panel = page.getByLabel('Futures order');
  await panel.getByRole('button', { name: 'Place' }).count();
  await panel.getByLabel('Amount (SOL)').fill('0');
  await panel.getByRole('button', { name: 'Open Long' }).click();
  await expect(panel.getByText('Amount/Price invalid')).toBeVisible();
  await panel.getByLabel('Amount (SOL)').fill('2');
  await panel.getByRole('button', { name: '10x' }).click();
  const preview = panel.getByLabel('Order preview');
  await expect(preview.getByText('Liquidation price')).toBeVisible();
  const previewLiq = await preview
    .locator('div', { hasText: 'Liquidation price' })
    .last()
    .locator('span')
    .last()
    .textContent();
  expect(Number(previewLiq?.replace(/,/g, ''))).toBeGreaterThan(0);
  await expect(panel.getByText('Medium risk')).toBeVisible();
  await panel.getByRole('button', { name: 'Open Long' }).click();
  await expect(page.getByText(/Long 2\.000 SOL filled at/)).toBeVisible({ timeout: 15_000 });
  const positions = page.getByLabel('Your futures');
  const row = positions.getByRole('row').filter({ hasText: 'SOL-PERP' });
  await expect(row).toBeVisible();
  await expect(row.getByText('Long 10x')).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(page.getByLabel('Futures status').getByText('Your positions')).toBeVisible();
  await expect(page.getByLabel('Futures status').getByText('2.000')).toBeVisible(); // open interest
  await settleForScreenshot(page);
  await page.screenshot({ path: `${SCREENSHOTS}/future-desktop.png`, fullPage: true });

  // The same page on a phone: no sideways scroll.
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalOverflow(page, '/future with a position');
  await page.screenshot({ path: `${SCREENSHOTS}/future-phone.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // Close it: realized PnL lands in the collateral.
  await row.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByText(/Closed SOL-PERP: realized [+−][\d,.]+ USDC/)).toBeVisible({ timeout: 15_000 });
  await expect(positions.getByText('No open positions')).toBeVisible();

  // A limit long far below the market rests in the book; cancel it.
  await panel.getByRole('radio', { name: 'Limit' }).click();
  await panel.getByLabel('Amount (SOL)').fill('0.5');
  await panel.getByLabel('Price (USDC)').fill('10');
  await panel.getByRole('button', { name: 'Open Long' }).click();
  await expect(page.getByText('Long limit order placed at 10.00')).toBeVisible();
  await positions.getByRole('tab', { name: /Your Futures Orders/ }).click();
  const order = positions.getByRole('row').filter({ hasText: 'Open' });
  await expect(order).toBeVisible();
  await order.getByRole('button', { name: 'Cancel' }).click();
  await expect(positions.getByRole('row').filter({ hasText: 'Cancelled' }).first()).toBeVisible();

  // Withdraw 25 USDC back to the wallet, on chain.
  await balance.getByRole('button', { name: 'Withdraw' }).click();
  const withdraw = page.getByRole('dialog', { name: 'Withdraw USDC' });
  await withdraw.getByLabel('Amount (USDC)').fill('25');
  await withdraw.getByRole('button', { name: 'Withdraw USDC' }).click();
  await expect(page.getByText('Withdrew 25.00 USDC to your wallet')).toBeVisible({ timeout: 20_000 });
});
