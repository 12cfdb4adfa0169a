import { test } from '@playwright/test';

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
