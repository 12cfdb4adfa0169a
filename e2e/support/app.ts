import { expect, type APIRequestContext, type Page } from '@playwright/test';

export const PASSWORD = 'correct-horse-42';

/** A fresh email per test, so journeys never depend on each other's accounts. */
export function uniqueEmail(label: string): string {
  return `${label}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;
}

/** Newest email sent to an address, read from the local outbox (GET /api/dev/outbox). */
export async function readLatestEmail(request: APIRequestContext, to: string) {
  const response = await request.get(`/api/dev/outbox?to=${encodeURIComponent(to)}&limit=1`);
  expect(response.ok()).toBe(true);
  const body = (await response.json()) as { success: boolean; data: { subject: string; links: string[] }[] };
  expect(body.success).toBe(true);
  expect(body.data.length).toBeGreaterThan(0);
  return body.data[0]!;
}

export async function signUp(page: Page, account: { username: string; email: string; password: string }) {
  await page.goto('/auth?mode=signup');
  const form = page.getByRole('form', { name: 'Sign up' });
  await form.getByLabel('Username').fill(account.username);
  await form.getByLabel('Email').fill(account.email);
  await form.getByLabel('Password', { exact: true }).fill(account.password);
  await form.getByLabel('Confirm password').fill(account.password);
  await form.getByRole('checkbox').check();
  await form.getByRole('button', { name: 'Create account' }).click();
}

export async function logIn(page: Page, email: string, password: string) {
  await page.goto('/auth');
  const form = page.getByRole('form', { name: 'Login' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByRole('button', { name: /^Log ?in$/i }).click();
}

export async function logOut(page: Page) {
  await page.getByRole('button', { name: 'Logout' }).first().click();
  await expect(page).toHaveURL(/\/$/);
}

/**
 * Before a screenshot of the settled page: no toast left on screen, and two frames painted since the
 * last change (a new viewport's layout included). Waits for what the user would see, not a fixed time.
 */
export async function settleForScreenshot(page: Page) {
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });
  await page.evaluate(
    () => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))),
  );
}
