import { expect, type APIRequestContext } from '@playwright/test';

/**
 * Moves a token of the server's embedded simulated market by `percent` from now on, or undoes its
 * shifts (`'reset'`), through the dev price hook (POST /api/dev/market/shift, localnet, loopback).
 * The move is global: every journey reading that token's price sees it, so a journey shifts a token
 * no parallel journey trades, or resets it at once. Returns the token's new USD price.
 */
export async function shiftMarket(
  request: APIRequestContext,
  token: string,
  move: number | 'reset',
): Promise<number> {
  const response = await request.post('/api/dev/market/shift', {
    data: move === 'reset' ? { token, reset: true } : { token, percent: move },
  });
  expect(response.ok(), await response.text()).toBe(true);
  const body = (await response.json()) as { data: { price: string } };
  return Number(body.data.price);
}
