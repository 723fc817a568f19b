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

/** A fresh account made by `signUp`: what signs it in again. */
export interface NewAccount {
  username: string;
  fullname: string;
  password: string;
}

/**
 * Makes a fresh account through the API from inside `page` (POST /v1/account/register), so the
 * page's cookie holds its session; the cookies of any earlier session are cleared first. Each call
 * makes a new user, so journeys that run one after another never share a person's rate limits.
 */
export async function signUp(page: Page, fullname = 'Settings Tester', prefix = 'set'): Promise<NewAccount> {
  const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
  const account = {
    username: `${prefix}_${suffix}`,
    fullname: `${fullname} ${suffix}`,
    email: `${prefix}_${suffix}@example.com`,
    password: 'settings-password-1',
  };
  await page.context().clearCookies();
  const status = await page.evaluate(async (body) => {
    const response = await fetch('/v1/account/register', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
    });
    return response.status;
  }, account);
  expect(status).toBe(201);
  return { username: account.username, fullname: account.fullname, password: account.password };
}
