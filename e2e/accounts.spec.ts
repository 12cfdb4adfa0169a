import { expect, test } from '@playwright/test';
import { logIn, logOut, PASSWORD, readLatestEmail, signUp, uniqueEmail } from './support/app';

test.describe('accounts', () => {
  test('a new user signs up, stays signed in across a reload, logs out and logs back in', async ({
    page,
  }) => {
    const email = uniqueEmail('trader');
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

    await signUp(page, { username: 'alice_trader', email, password: PASSWORD });
    await expect(page.getByText(/account created|registration successful|welcome/i).first()).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText('alice_trader').first()).toBeVisible();

    await page.reload();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText('alice_trader').first()).toBeVisible();

    await logOut(page);
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();

    await logIn(page, email, PASSWORD);
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('a wrong password is refused with the server message and changes nothing', async ({ page }) => {
    const email = uniqueEmail('wrongpw');
    await signUp(page, { username: 'bob', email, password: PASSWORD });
    await expect(page).toHaveURL(/\/dashboard$/);
    await logOut(page);

    await logIn(page, email, 'not-the-password');
    await expect(page.getByText('Invalid email or password')).toBeVisible();
    await expect(page).toHaveURL(/\/auth/);
  });

  test('a forgotten password is reset through the emailed link', async ({ page, request }) => {
    const email = uniqueEmail('forgetful');
    await signUp(page, { username: 'carol', email, password: PASSWORD });
    await expect(page).toHaveURL(/\/dashboard$/);
    await logOut(page);

    await page.goto('/auth');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    await page.getByRole('form', { name: 'Forgot password' }).getByLabel('Email').fill(email);
    await page
      .getByRole('form', { name: 'Forgot password' })
      .getByRole('button', { name: /send|reset/i })
      .click();
    await expect(page).toHaveURL(/\/otp-verification$/, { timeout: 5_000 });

    const mail = await readLatestEmail(request, email);
    const link = mail.links.find((href) => href.includes('/reset-password?token='));
    expect(link).toBeDefined();

    const newPassword = 'a-brand-new-secret-7';
    await page.goto(new URL(link!).pathname + new URL(link!).search);
    const form = page.getByRole('form', { name: 'Reset password' });
    await form.getByLabel('New password', { exact: true }).fill(newPassword);
    await form.getByLabel('Confirm new password').fill(newPassword);
    await form.getByRole('button', { name: 'Reset password' }).click();
    await expect(page).toHaveURL(/\/auth/, { timeout: 5_000 });

    await logIn(page, email, PASSWORD);
    await expect(page.getByText('Invalid email or password')).toBeVisible();
    await logIn(page, email, newPassword);
    await expect(page).toHaveURL(/\/dashboard$/);

    // The link is single use.
    await logOut(page);
    await page.goto(new URL(link!).pathname + new URL(link!).search);
    await page
      .getByRole('form', { name: 'Reset password' })
      .getByLabel('New password', { exact: true })
      .fill('yet-another-pass-9');
    await page
      .getByRole('form', { name: 'Reset password' })
      .getByLabel('Confirm new password')
      .fill('yet-another-pass-9');
    await page
      .getByRole('form', { name: 'Reset password' })
      .getByRole('button', { name: 'Reset password' })
      .click();
    await expect(
      page.getByText('Invalid reset link. Please request a new password reset.').first(),
    ).toBeVisible();
  });

  test('a trader signs in with the browser Local wallet', async ({ page }) => {
    await page.goto('/wallet-connect');
    await page.getByRole('tab', { name: 'Wallets', exact: true }).click();
    const card = page.getByRole('region', { name: 'Local wallet' });
    await card.getByRole('button', { name: /^Create/ }).click();
    await card.getByRole('button', { name: 'Sign in with Local wallet' }).click();
    await expect(page).toHaveURL(/\/dashboard$/, { timeout: 10_000 });

    const address = await page.evaluate(() => localStorage.getItem('wallet_address'));
    expect(address).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect(await page.evaluate(() => localStorage.getItem('wallet_type'))).toBe('solana');

    // The session survives a reload, and the profile shows the wallet.
    await page.reload();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText(`${address!.slice(0, 4)}...${address!.slice(-4)}`).first()).toBeVisible();
  });

  test('a watch-only address connects from the Manual Connect tab', async ({ page }) => {
    await page.goto('/wallet-connect');
    await page.getByRole('tab', { name: 'Manual Connect' }).click();
    const address = page.getByLabel(/wallet address/i);
    await page.getByRole('button', { name: 'Connect watch-only address' }).click();
    await expect(page.getByText('Please enter a wallet address').first()).toBeVisible();
    await address.fill('0x1234');
    await page.getByRole('button', { name: 'Connect watch-only address' }).click();
    await expect(page.getByText('Please enter a valid Ethereum wallet address').first()).toBeVisible();
    await address.fill('0x52908400098527886E0F7030069857D2E4169EE7');
    await page.getByRole('button', { name: 'Connect watch-only address' }).click();
    await expect(page).toHaveURL(/\/dashboard$/, { timeout: 10_000 });
  });
});

test.describe('routes', () => {
  const PROTECTED = [
    '/dashboard',
    '/bots',
    '/trade',
    '/market',
    '/future',
    '/backtest',
    '/earning',
    '/support',
    '/sub',
    '/dashboardd',
    '/potfolio',
  ];
  const PUBLIC = [
    '/',
    '/auth',
    '/wallet-connect',
    '/forgot-password',
    '/reset-password',
    '/otp-verification',
    '/terms',
    '/privacy',
  ];

  test('protected pages send a visitor to /auth', async ({ page }) => {
    for (const path of PROTECTED) {
      await page.goto(path);
      await expect(page, `${path} should redirect`).toHaveURL(/\/auth$/);
    }
  });

  test('every route of both spec parts renders a page', async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    for (const path of PUBLIC) {
      await page.goto(path);
      await expect(page.locator('h1, h2').first(), `${path} has a heading`).toBeVisible();
    }
    await signUp(page, { username: 'route_walker', email: uniqueEmail('walker'), password: PASSWORD });
    await expect(page).toHaveURL(/\/dashboard$/);
    for (const path of PROTECTED) {
      await page.goto(path);
      await expect(page, `${path} stays`).toHaveURL(new RegExp(`${path}$`));
      await expect(page.locator('main h1, main h2').first(), `${path} has a heading`).toBeVisible();
    }
    expect(errors).toEqual([]);
  });
});
