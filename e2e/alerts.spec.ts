import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { PASSWORD, signUp, uniqueEmail } from './support/app';
import { expectNoHorizontalOverflow, PHONE_VIEWPORT } from './support/overflow';

// Alerts as a user meets them: a price alert set from the pair header's "Alert me", already true,
// arrives as a toast, in the bell's unread count and in the notifications list; a webhook set on the
// Alerts page is POSTed to a local receiver (the journeys' server allows loopback targets:
// ALERT_WEBHOOK_ALLOW_PRIVATE=on in playwright.config.ts), signed with the secret shown once.

async function signUpFresh(page: Page, label: string) {
  await signUp(page, { username: label, email: uniqueEmail(label), password: PASSWORD });
  await expect(page).toHaveURL(/\/dashboard$/);
}

test.describe('alerts', () => {
  test('a price alert from the chart arrives as a toast, in the bell and in the list', async ({ page }) => {
    await signUpFresh(page, 'alerter');
    const header = page.getByTestId('pair-header');
    await expect(header.getByTestId('pair-price')).toBeVisible();
    await header.getByRole('button', { name: 'Alert me' }).click();
    const dialog = page.getByRole('dialog');
    const price = dialog.getByLabel('Price');
    await expect(price).not.toHaveValue('');
    // Already true when created: "above" half the current price (no wait for the market to move).
    const half = Number(await price.inputValue()) / 2;
    await price.fill(String(half));
    await dialog.getByRole('button', { name: 'Create alert' }).click();
    await expect(dialog).toBeHidden();

    await expect(page.locator('[data-sonner-toast]').filter({ hasText: `is above ${half}` })).toBeVisible({
      timeout: 20_000,
    });
    const bell = page.getByTestId('notifications-bell');
    await expect(bell.getByTestId('unread-count')).toHaveText('1');
    await bell.click();
    await expect(page).toHaveURL(/\/alerts$/);
    const list = page.getByRole('list', { name: 'Notifications' });
    await expect(list.getByText(`is above ${half}`)).toBeVisible();
    await expect(page.getByRole('list', { name: 'Alerts' }).getByText('triggered')).toBeVisible();
    await page.getByRole('button', { name: 'Mark all read' }).click();
    await expect(bell.getByTestId('unread-count')).toHaveCount(0);
  });

  test('a webhook set on the Alerts page receives the alert, signed with the secret shown once', async ({
    page,
  }) => {
    const received: { signature: string; body: string }[] = [];
    const server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({
          signature: String(request.headers['x-solterm-signature']),
          body: Buffer.concat(chunks).toString('utf8'),
        });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      await signUpFresh(page, 'hooker');
      await page.getByTestId('notifications-bell').click();
      await page.getByLabel('Webhook URL').fill(`http://127.0.0.1:${port}/solterm`);
      await page.getByRole('button', { name: 'Save' }).click();
      const secret = (await page.getByTestId('webhook-secret').textContent())!;
      expect(secret).toMatch(/^whsec_/);

      await page.getByText('New price alert').click();
      await page.getByLabel('Price').fill('0.0001');
      await page.getByRole('checkbox', { name: 'Webhook' }).check();
      await page.getByRole('button', { name: 'Create alert' }).click();

      await expect.poll(() => received.length, { timeout: 20_000 }).toBe(1);
      const [post] = received;
      expect(post!.signature).toBe(`sha256=${createHmac('sha256', secret).update(post!.body).digest('hex')}`);
      expect(JSON.parse(post!.body)).toMatchObject({ notification: { title: 'SOL/USDC is above 0.0001' } });
      const log = page.getByRole('list', { name: 'Delivery log' });
      await expect(log.getByText('delivered')).toBeVisible({ timeout: 15_000 });
      if (process.env.ALERTS_SHOTS)
        await page.screenshot({ path: `${process.env.ALERTS_SHOTS}/alerts-1280.png`, fullPage: true });
      // The page with a long webhook URL, a delivery and a notification fits a phone.
      await page.setViewportSize(PHONE_VIEWPORT);
      await expectNoHorizontalOverflow(page, '/alerts');
      if (process.env.ALERTS_SHOTS)
        await page.screenshot({ path: `${process.env.ALERTS_SHOTS}/alerts-390.png`, fullPage: true });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
