import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { DESKTOP, MOBILE, saveScreenshot, type OpenedPage, type Viewport } from './support/browser';
import { startJourney } from './support/journey';

/**
 * Issue 3 on the web: the login modal (#ppreg) that opens when a visitor tries to act, sign-up and
 * sign-in, the user menu, sign-out, the "buttons on the map" pages and the profile page /u/{username}.
 * The server seeds the demo accounts (password xpoint-demo); olivia owns some of the points.
 */
const HELP_REQUESTS_REASON = 'You need to sign in to see your help requests.';

/** The browser logs every 4xx answer as a console error; a 401 for a wrong password is expected. */
function unexpected(errors: string[]): string[] {
  return errors.filter(
    (error) => !/Failed to load resource: the server responded with a status of 401/.test(error),
  );
}

describe('accounts in the browser', () => {
  const journey = startJourney();

  const open = (path: string, viewport: Viewport = DESKTOP): Promise<OpenedPage> =>
    journey.browser.open(journey.url(path), viewport);

  const modal = (page: Page) => page.locator('#ppreg');
  const accountButton = (page: Page, fullname: string) =>
    page.getByRole('button', { name: `Account menu for ${fullname}` });

  test('given a visitor, when they ask for their help requests, sign up, reload and sign out, then the session follows each step', async () => {
    const { page, errors } = await open('/');
    const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
    const username = `e2e_${suffix}`;
    const fullname = `Journey Tester ${suffix}`;

    // when the visitor clicks an action that needs an account, the login modal says why
    await page.getByRole('button', { name: 'My help requests' }).click();
    await modal(page).waitFor({ state: 'visible' });
    // a modal dialog named by its title: the page behind it is inert
    expect(await page.getByRole('dialog', { name: 'Sign in to XPoint' }).getAttribute('id')).toBe('ppreg');
    expect(await modal(page).evaluate((element) => element.matches(':modal'))).toBe(true);
    await expect(modal(page).textContent()).resolves.toContain(HELP_REQUESTS_REASON);

    // they switch to Create account and sign up
    await modal(page).getByRole('tab', { name: 'Create account' }).click();
    await modal(page).getByLabel('Full name').fill(fullname);
    await modal(page).getByLabel('Username').fill(username);
    await modal(page).getByLabel('Email').fill(`${username}@example.com`);
    await modal(page).getByLabel('Password').fill('journey-password-1');
    await modal(page).getByRole('button', { name: 'Create account' }).click();

    // the modal closes, the header shows the user, and the page they wanted opens
    await modal(page).waitFor({ state: 'detached' });
    await accountButton(page, fullname).waitFor();
    await expect(page.locator('header').textContent()).resolves.toContain(fullname);
    await page.getByText('You have no help requests yet.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/MyHelpRequests');

    // after a reload they are still signed in, and the help requests page shows its empty state
    await page.reload({ waitUntil: 'load' });
    await accountButton(page, fullname).waitFor();
    await page.getByText('You have no help requests yet.').waitFor();
    expect(await page.getByRole('button', { name: 'Sign in', exact: true }).count()).toBe(0);
    await saveScreenshot(page, 'accounts-help-requests-1280');

    // they sign out from the user menu
    await accountButton(page, fullname).click();
    const menu = page.getByRole('menu');
    await menu.waitFor();
    await expect(menu.textContent()).resolves.toContain(fullname);
    await saveScreenshot(page, 'accounts-user-menu-1280');
    await menu.getByRole('menuitem', { name: 'Sign out' }).click();
    const signInButton = page.locator('header').getByRole('button', { name: 'Sign in', exact: true });
    await signInButton.waitFor();
    expect(await accountButton(page, fullname).count()).toBe(0);
    await page.getByText(HELP_REQUESTS_REASON).waitFor();
    expect(await signInButton.evaluate((element) => element === element.ownerDocument.activeElement)).toBe(
      true,
    );
    expect(unexpected(errors)).toEqual([]);

    // the server agrees: the page's cookie no longer signs anyone in
    const status = await page.evaluate(async () => (await fetch('/v1/account/me')).status);
    expect(status).toBe(401);
    await page.close();
  });

  for (const viewport of [DESKTOP, MOBILE]) {
    test(`given the sign-up form at ${viewport.width} px, when a common password is sent, then the message is under the field and nothing is created`, async () => {
      const { page, errors } = await open('/', viewport);
      const scripts: string[] = [];
      page.on('request', (request) => {
        if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
      });
      const estimator = (names: string[]) => names.filter((name) => /zxcvbn/.test(name));
      await page.locator('header').getByRole('button', { name: 'Sign in', exact: true }).click();
      await modal(page).waitFor({ state: 'visible' });
      // the estimator's word lists are not among the first scripts, nor fetched for signing in
      expect(estimator(scripts)).toEqual([]);

      const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
      const username = `weak_${suffix}`;
      await modal(page).getByRole('tab', { name: 'Create account' }).click();
      await modal(page).getByLabel('Full name').fill('Weak Password');
      await modal(page).getByLabel('Username').fill(username);
      await modal(page).getByLabel('Email').fill(`${username}@example.com`);
      const password = modal(page).getByLabel('Password');
      await password.fill('password123');
      await modal(page).getByRole('button', { name: 'Create account' }).click();
      const message =
        'Password is too easy to guess. Avoid common passwords and your own name, username or email; a few unrelated words make a strong password.';
      await modal(page).getByText(message).waitFor();
      expect(await password.getAttribute('aria-invalid')).toBe('true');
      expect(estimator(scripts)).toHaveLength(1);
      await saveScreenshot(page, `accounts-weak-password-${viewport.width}`);

      // the check follows the typing: their own username is refused too, a phrase is accepted
      await password.fill(`${username}1`);
      await modal(page).getByText(message).waitFor();
      await password.fill('lantern-orchard-velvet');
      await modal(page).getByText(message).waitFor({ state: 'detached' });
      // the browser refused it itself: the server was never asked to create the account
      expect(unexpected(errors)).toEqual([]);
      const status = await page.evaluate(async () => (await fetch('/v1/account/me')).status);
      expect(status).toBe(401);
      await page.close();
    });
  }

  for (const viewport of [MOBILE, DESKTOP]) {
    test(`given the login modal at ${viewport.width} px, when a wrong password is sent, then it says so in the modal`, async () => {
      const { page, errors } = await open('/', viewport);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await modal(page).waitFor({ state: 'visible' });
      await saveScreenshot(page, `accounts-modal-${viewport.width}`);

      await modal(page).getByLabel('Username or email').fill('olivia');
      await modal(page).getByLabel('Password').fill('not-her-password');
      await modal(page).getByRole('button', { name: 'Sign in', exact: true }).click();

      const alert = modal(page).getByRole('alert');
      await alert.waitFor();
      expect(await alert.textContent()).toBe('Wrong username/email or password.');
      await saveScreenshot(page, `accounts-modal-error-${viewport.width}`);
      // the modal stays, the form usable again
      expect(await modal(page).getByLabel('Password').isEnabled()).toBe(true);
      const box = await modal(page).boundingBox();
      expect(box?.x).toBeGreaterThanOrEqual(0);
      expect((box?.x ?? 0) + (box?.width ?? Infinity)).toBeLessThanOrEqual(viewport.width);
      expect(unexpected(errors)).toEqual([]);
      await page.close();
    });
  }

  const openers = [
    { name: 'Me on map', reason: 'You need to sign in to show yourself on the map.' },
    { name: 'Sign in', reason: null },
  ];
  for (const { name, reason } of openers) {
    test(`given the login modal opened by ${name}, when the visitor tabs around and presses Escape, then focus stays inside, it closes and focus returns to ${name}`, async () => {
      const { page } = await open('/');
      const opener = page.getByRole('button', { name, exact: true });
      await opener.click();
      await modal(page).waitFor({ state: 'visible' });
      if (reason !== null) await expect(modal(page).textContent()).resolves.toContain(reason);
      // focus starts in the first field
      expect(
        await page.evaluate<string | null>("document.activeElement?.getAttribute('autocomplete') ?? null"),
      ).toBe('username');

      // Tab and Shift+Tab never leave the dialog, and come round to where they started
      const focusInside = () => page.evaluate<boolean>("document.activeElement?.closest('#ppreg') != null");
      const focused = () => page.evaluate<string | undefined>('document.activeElement?.outerHTML');
      const first = await focused();
      for (const key of ['Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
        await page.keyboard.press(key);
        expect(await focusInside()).toBe(true);
      }
      for (let i = 0; i < 3; i += 1) await page.keyboard.press('Tab');
      expect(await focused()).toBe(first);

      await page.keyboard.press('Escape');

      await modal(page).waitFor({ state: 'detached' });
      expect(await opener.evaluate((element) => element === element.ownerDocument.activeElement)).toBe(true);

      // a press on the shade around the box closes it too
      await opener.click();
      await modal(page).waitFor({ state: 'visible' });
      await page.mouse.click(5, 5);
      await modal(page).waitFor({ state: 'detached' });
      await page.close();
    });
  }

  test('given a signed-up form with bad values, when it is sent, then each problem shows beside its field and nothing is sent', async () => {
    const { page } = await open('/signup');
    await page.getByLabel('Username').fill('no spaces allowed');
    await page.getByLabel('Email').fill('me@localhost');
    await page.getByRole('button', { name: 'Create account' }).click();

    await page.getByText('Full name is required.').waitFor();
    await page
      .getByText('Username may contain only letters, digits, underscore (_) and hyphen (-).')
      .waitFor();
    await page.getByText('Please enter a valid email address.').waitFor();
    await page.getByText('Password is required.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/signup');
    await page.close();
  });

  test('given the /signin page with a returnUrl, when olivia signs in, then she lands back on that path', async () => {
    const { page } = await open('/signin?returnUrl=%2Fu%2Folivia');
    await page.getByLabel('Username or email').fill('olivia');
    await page.getByLabel('Password').fill('xpoint-demo');
    await page.getByRole('button', { name: 'Sign in', exact: true }).last().click();

    await page.getByRole('heading', { name: 'Olivia Owner' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/u/olivia');
    await accountButton(page, 'Olivia Owner').waitFor();
    // sign out again so later tests start as visitors
    await accountButton(page, 'Olivia Owner').click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    await page.close();
  });

  test('given a signed-in user, when they use the account menu with the keyboard, then it moves, wraps and closes like a menu', async () => {
    const { page } = await open('/');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await modal(page).getByLabel('Username or email').fill('uma');
    await modal(page).getByLabel('Password').fill('xpoint-demo');
    await modal(page).getByRole('button', { name: 'Sign in', exact: true }).click();
    const button = accountButton(page, 'Uma User');
    await button.waitFor();
    const focusedText = () => page.evaluate<string>('document.activeElement?.textContent ?? ""');

    await button.focus();
    await page.keyboard.press('ArrowDown');
    await page.getByRole('menu').waitFor();
    await page.getByRole('menuitem', { name: 'Profile' }).waitFor();
    await expect.poll(focusedText).toBe('Profile');
    await page.keyboard.press('ArrowDown');
    expect(await focusedText()).toBe('Account settings');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    expect(await focusedText()).toBe('Sign out');
    await page.keyboard.press('Escape');
    await page.getByRole('menu').waitFor({ state: 'detached' });
    expect(await button.evaluate((element) => element === element.ownerDocument.activeElement)).toBe(true);

    // Profile goes to /u/uma
    await button.click();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    await page.getByRole('heading', { name: 'Uma User' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/u/uma');

    await accountButton(page, 'Uma User').click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    await page.close();
  });

  for (const viewport of [MOBILE, DESKTOP]) {
    test(`given olivia's profile at ${viewport.width} px, when the visitor pages through her points, then the address keeps the page`, async () => {
      const { page, errors } = await open('/u/olivia?pagenumber=1&pagesize=4', viewport);
      await page.getByRole('heading', { name: 'Olivia Owner' }).waitFor();
      await expect(page.locator('.profile__username').textContent()).resolves.toBe('@olivia');
      const cards = page.locator('.point-card');
      expect(await cards.count()).toBe(4);
      const firstPage = await cards.allTextContents();
      await page.getByText(/^Page 1 of \d+$/).waitFor();
      await saveScreenshot(page, `accounts-profile-${viewport.width}`);

      await page.getByRole('link', { name: 'Next' }).click();
      await page.getByText(/^Page 2 of \d+$/).waitFor();
      expect(new URL(page.url()).search).toBe('?pagenumber=2&pagesize=4');
      const secondPage = await cards.allTextContents();
      expect(secondPage).toHaveLength(4);
      expect(secondPage.filter((text) => firstPage.includes(text))).toEqual([]);

      // back returns to page 1, kept in the address
      await page.goBack();
      await page.getByText(/^Page 1 of \d+$/).waitFor();
      expect(new URL(page.url()).search).toBe('?pagenumber=1&pagesize=4');
      const scrollWidth = await page.evaluate<number>('document.documentElement.scrollWidth');
      expect(scrollWidth).toBeLessThanOrEqual(viewport.width);
      expect(unexpected(errors)).toEqual([]);
      await page.close();
    });
  }

  test('given the profile address without paging, then it shows page 1 of 12 and the cards link to the points', async () => {
    const { page } = await open('/u/OLIVIA');
    await page.getByRole('heading', { name: 'Olivia Owner' }).waitFor();
    const cards = page.locator('.point-card');
    const count = await cards.count();
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThanOrEqual(12);
    const href = await cards.first().getAttribute('href');
    expect(href).toMatch(/^\/(b|p|s|m|h|i|exp|rent|x)\/[A-Za-z0-9_-]+$/);
    await page.close();
  });

  test('given an unknown username, when its profile is opened, then the page says no one is called that', async () => {
    const { page } = await open('/u/nobody_called_this');
    await page.getByRole('heading', { name: 'No one is called @nobody_called_this.' }).waitFor();
    await page.close();
  });
});
