import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { DEMO_PASSWORD } from '../../../src/server/seed/generate';

/** The password of every seeded demo account (olivia, uma, admin …). */
export { DEMO_PASSWORD };

/**
 * Signs a demo user in as a visitor does: the header's Sign in button, then the login modal (#ppreg).
 * Waits until the header shows the account menu for `fullname`.
 */
export async function signIn(
  page: Page,
  username: string,
  fullname: string,
  password = DEMO_PASSWORD,
): Promise<void> {
  await page.locator('header').getByRole('button', { name: 'Sign in', exact: true }).click();
  const modal = page.locator('#ppreg');
  await modal.getByLabel('Username or email').fill(username);
  await modal.getByLabel('Password').fill(password);
  await modal.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('button', { name: `Account menu for ${fullname}` }).waitFor();
}

/**
 * Signs a demo user in through the API, as an app does (POST /v1/account/login on the server at
 * `serverUrl`), expects 200 and resolves with the session token.
 */
export async function apiToken(
  serverUrl: string,
  username: string,
  password = DEMO_PASSWORD,
): Promise<string> {
  const login = await fetch(`${serverUrl}/v1/account/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ login: username, password }),
  });
  expect(login.status).toBe(200);
  return ((await login.json()) as { token: string }).token;
}
