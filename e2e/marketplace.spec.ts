import { expect, test } from '@playwright/test';
import { PASSWORD, signUp, uniqueEmail } from './support/app';
import { fundWallet, signInWithLocalWallet } from './support/wallet';

// The marketplace between two traders: A publishes a bot that has run in paper mode; B finds it by
// search and risk, opens its record, copies it and starts the copy; A sees one user.

const SCREENSHOTS = process.env.MARKET_SCREENSHOTS_DIR ?? 'test-results/market-screenshots';

test('A publishes a paper bot; B finds it by search and risk, opens it, copies and starts it; A sees 1 user', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const author = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  const name = `Minute Trend ${Date.now() % 100_000}`;
  const username = `author${Date.now() % 1_000_000}`;
  await signUp(author, { username, email: uniqueEmail('author'), password: PASSWORD });
  await expect(author).toHaveURL(/\/dashboard$/);
  await author.goto('/bots');
  await author.getByLabel('Name').fill(name);
  await author.getByLabel('Candle interval').selectOption('1M');
  await author.getByLabel('Short window (candles)').fill('2');
  await author.getByLabel('Long window (candles)').fill('4');
  await author.getByLabel('Public (listed in the marketplace)').check();
  await author.getByRole('button', { name: 'Create Bot' }).click();
  const card = author.getByTestId('bot-card').filter({ hasText: name });
  await expect(card.getByText('Public · 0 users')).toBeVisible();
  await card.getByRole('button', { name: 'Start' }).click();
  await expect(card.getByText('running', { exact: true })).toBeVisible();

  const copier = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await signInWithLocalWallet(copier);
  // user_count counts copiers whose proven wallet holds SOL on chain (a fresh key would not count).
  await fundWallet(copier, { amount_sol: 1, amount_usdc: 0 });
  await copier.goto('/market');
  await expect(copier.getByRole('heading', { name: 'Marketplace', level: 1 })).toBeVisible();
  await copier.getByLabel('Search bots').fill(name.slice(0, 12));
  const row = copier.getByTestId('marketplace-row').filter({ hasText: name });
  await expect(row).toBeVisible();
  await expect(row.getByText('Medium')).toBeVisible();
  // The risk filter: SMA crossover is Medium, so High hides it and Medium shows it.
  await copier.getByRole('radio', { name: 'High' }).click();
  await expect(copier.getByText('No bots match')).toBeVisible();
  await copier.getByRole('radio', { name: 'Medium' }).click();
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: `View ${name}` }).click();
  const panel = copier.getByRole('region', { name: 'Bot details' });
  await expect(panel.getByText('Paper fills')).toBeVisible();
  await expect(panel.getByText(`by ${username}`, { exact: false })).toBeVisible();
  await expect(panel.getByTestId('marketplace-execution')).toBeVisible();
  await copier.screenshot({ path: `${SCREENSHOTS}/market-desktop.png` });
  await panel.getByRole('button', { name: 'Copy Bot' }).click();
  await expect(copier.getByText(`Copied "${name}": it is among your bots, ready to start`)).toBeVisible();
  // Copied once: the button says so and cannot be clicked into an "already copied" error.
  await expect(panel.getByRole('button', { name: 'Copied' })).toBeDisabled();

  await copier.goto('/bots');
  const copy = copier.getByTestId('bot-card').filter({ hasText: name });
  await expect(copy).toBeVisible();
  await expect(copy.getByTestId('bot-origin')).toHaveText(`Copied from ${name} by ${username}`);
  await copy.getByRole('button', { name: 'Start' }).click();
  await expect(copy.getByText('running', { exact: true })).toBeVisible();

  await author.reload();
  await expect(
    author.getByTestId('bot-card').filter({ hasText: name }).getByText('Public · 1 user'),
  ).toBeVisible();
});
