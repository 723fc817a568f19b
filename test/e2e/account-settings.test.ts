import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import { DESKTOP, MOBILE, saveScreenshot, type OpenedPage, type Viewport } from './support/browser';
import { startJourney } from './support/journey';
import { signUp } from './support/session';

/**
 * The account settings page /account: a new photo (shown in the page and in the user menu), the
 * extension check, changing the password (a wrong current one is named beside its field), and
 * signing in again with the new password.
 */
const ACCOUNT_REASON = 'You need to sign in to change your account.';
const EXTENSION_WARNING = 'Please upload file having extensions .jpeg/.jpg/.png/.gif only.';

/** The browser logs every 4xx answer as a console error; a wrong current password is a 400. */
function unexpected(errors: string[]): string[] {
  return errors.filter(
    (error) => !/Failed to load resource: the server responded with a status of 40[01]/.test(error),
  );
}

describe('account settings in the browser', () => {
  const journey = startJourney();

  const open = (path: string, viewport: Viewport = DESKTOP): Promise<OpenedPage> =>
    journey.browser.open(journey.url(path), viewport);

  const modal = (page: Page) => page.locator('#ppreg');
  const accountButton = (page: Page, fullname: string) =>
    page.getByRole('button', { name: `Account menu for ${fullname}` });
  const photoSection = (page: Page) => page.getByRole('region', { name: 'Photo' });
  const passwordSection = (page: Page) => page.getByRole('region', { name: 'Change password' });

  test('given a visitor, when they open /account, then the login modal says why and the page shows after sign-in', async () => {
    const { page, errors } = await open('/');
    const account = await signUp(page);
    // forget the new session, so the visitor arrives signed out
    await page.context().clearCookies();

    await page.goto(journey.url('/account'), { waitUntil: 'load' });
    await modal(page).waitFor({ state: 'visible' });
    await expect(modal(page).textContent()).resolves.toContain(ACCOUNT_REASON);
    await modal(page).getByLabel('Username or email').fill(account.username);
    await modal(page).getByLabel('Password').fill(account.password);
    await modal(page).getByRole('button', { name: 'Sign in', exact: true }).click();
    await modal(page).waitFor({ state: 'detached' });

    await photoSection(page).waitFor();
    await passwordSection(page).waitFor();
    expect(new URL(page.url()).pathname).toBe('/account');
    expect(unexpected(errors)).toEqual([]);
    await page.close();
  });

  test('given a new user, when they upload a photo, pick a text file and change their password, then each step shows its result', async () => {
    const { page, errors } = await open('/');
    const account = await signUp(page);

    // the user menu leads to the settings page
    await page.reload({ waitUntil: 'load' });
    await accountButton(page, account.fullname).click();
    await page.getByRole('menuitem', { name: 'Account settings' }).click();
    await photoSection(page).waitFor();
    expect(new URL(page.url()).pathname).toBe('/account');
    // no photo yet: initials, no picture
    expect(await photoSection(page).locator('img').count()).toBe(0);

    // a text file is refused with the spec's words and nothing to save
    const fileInput = photoSection(page).getByLabel('Choose a new photo');
    await fileInput.setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('hello'),
    });
    const alert = photoSection(page).getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(EXTENSION_WARNING);
    expect(await photoSection(page).getByRole('button', { name: 'Save photo' }).isDisabled()).toBe(true);

    // a picture over 10 MB is refused before anything is sent
    await fileInput.setInputFiles({
      name: 'huge.png',
      mimeType: 'image/png',
      buffer: Buffer.alloc(10_485_760 + 1),
    });
    await photoSection(page).getByText('Invalid image size. Max allowed 10 MB').waitFor();
    expect(await photoSection(page).getByRole('button', { name: 'Save photo' }).isDisabled()).toBe(true);

    // a file that only claims to be a PNG: the server's answer shows in place
    await fileInput.setInputFiles({
      name: 'fake.png',
      mimeType: 'image/png',
      buffer: Buffer.from('not a png'),
    });
    await photoSection(page)
      .getByRole('img', { name: 'Preview of your new photo' })
      .waitFor({ state: 'attached' });
    await photoSection(page).getByRole('button', { name: 'Save photo' }).click();
    await photoSection(page)
      .getByRole('alert')
      .getByText('Photo must be a JPEG, PNG, GIF or WebP picture.')
      .waitFor();

    // a small PNG shows a preview, then saves
    const png = await sharp({
      create: { width: 64, height: 64, channels: 3, background: '#e37400' },
    })
      .png()
      .toBuffer();
    await fileInput.setInputFiles({ name: 'orange.png', mimeType: 'image/png', buffer: png });
    await photoSection(page).getByRole('img', { name: 'Preview of your new photo' }).waitFor();
    expect(await alert.count()).toBe(0);
    await saveScreenshot(page, 'account-settings-preview-1280');
    await photoSection(page).getByRole('button', { name: 'Save photo' }).click();
    await photoSection(page).getByText('Your photo was saved.').waitFor();

    // the new avatar shows in the page and in the header's user menu
    const pageAvatar = page.locator('[data-testid="account-avatar"] img');
    await pageAvatar.waitFor();
    expect(await pageAvatar.getAttribute('src')).toMatch(/^\/media\/[0-9a-f]{64}\.webp$/);
    const menuAvatar = accountButton(page, account.fullname).locator('img');
    await menuAvatar.waitFor();
    expect(await menuAvatar.getAttribute('src')).toBe(await pageAvatar.getAttribute('src'));
    expect(await photoSection(page).getByRole('img', { name: 'Preview of your new photo' }).count()).toBe(0);

    // a wrong current password is named beside its field
    const current = passwordSection(page).getByLabel('Current password');
    await current.fill('not-my-password');
    await passwordSection(page).getByLabel('New password', { exact: true }).fill('settings-password-2');
    await passwordSection(page).getByLabel('Confirm new password').fill('settings-password-2');
    await passwordSection(page).getByRole('button', { name: 'Change password' }).click();
    await passwordSection(page).getByText('The current password is wrong.').waitFor();
    expect(await current.getAttribute('aria-invalid')).toBe('true');

    // mismatched confirmation is caught before asking the server
    await current.fill(account.password);
    await passwordSection(page).getByLabel('Confirm new password').fill('something-else');
    await passwordSection(page).getByRole('button', { name: 'Change password' }).click();
    await passwordSection(page).getByText('Please enter the same value again.').waitFor();

    // a password built from their own username is refused under the field, before asking the server
    const newPassword = passwordSection(page).getByLabel('New password', { exact: true });
    await newPassword.fill(`${account.username}2024`);
    await passwordSection(page).getByLabel('Confirm new password').fill(`${account.username}2024`);
    await passwordSection(page).getByRole('button', { name: 'Change password' }).click();
    await passwordSection(page)
      .getByText('New password is too easy to guess. Avoid common passwords and your own name,', {
        exact: false,
      })
      .waitFor();
    expect(await newPassword.getAttribute('aria-invalid')).toBe('true');
    await saveScreenshot(page, 'account-settings-weak-password-1280');

    // the right current password changes it
    await newPassword.fill('settings-password-2');
    await passwordSection(page).getByLabel('Confirm new password').fill('settings-password-2');
    await passwordSection(page).getByRole('button', { name: 'Change password' }).click();
    await passwordSection(page)
      .getByRole('status')
      .getByText('Your password was changed. Other devices were signed out.')
      .waitFor();
    expect(await current.inputValue()).toBe('');
    await saveScreenshot(page, 'account-settings-1280');

    // they sign out, and sign in again with the new password
    await accountButton(page, account.fullname).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.getByText(ACCOUNT_REASON).first().waitFor();
    if (!(await modal(page).isVisible())) {
      await page.locator('main').getByRole('button', { name: 'Sign in', exact: true }).click();
    }
    await modal(page).waitFor({ state: 'visible' });
    await modal(page).getByLabel('Username or email').fill(account.username);
    await modal(page).getByLabel('Password').fill('settings-password-2');
    await modal(page).getByRole('button', { name: 'Sign in', exact: true }).click();
    await modal(page).waitFor({ state: 'detached' });
    await accountButton(page, account.fullname).waitFor();
    await photoSection(page).waitFor();
    expect(unexpected(errors)).toEqual([]);
    await page.close();
  });

  for (const viewport of [MOBILE, DESKTOP]) {
    test(`given the settings page at ${viewport.width} px, when the user signs out everywhere, then the page fits and the app is signed out`, async () => {
      const { page, errors } = await open('/', viewport);
      const account = await signUp(page);
      await page.goto(journey.url('/account'), { waitUntil: 'load' });
      await passwordSection(page).waitFor();
      await saveScreenshot(page, `account-settings-page-${viewport.width}`);

      // nothing overflows the viewport sideways
      const width = await page.evaluate<number>('document.documentElement.scrollWidth');
      expect(width).toBeLessThanOrEqual(viewport.width);
      for (const section of [photoSection(page), passwordSection(page)]) {
        const box = await section.boundingBox();
        expect(box?.x).toBeGreaterThanOrEqual(0);
        expect((box?.x ?? 0) + (box?.width ?? Infinity)).toBeLessThanOrEqual(viewport.width);
      }

      await page.getByRole('button', { name: 'Sign out everywhere' }).click();
      await page.getByText('You were signed out on every device.').waitFor();
      await saveScreenshot(page, `account-settings-signed-out-${viewport.width}`);
      await page.locator('header').getByRole('button', { name: 'Sign in', exact: true }).waitFor();
      expect(await accountButton(page, account.fullname).count()).toBe(0);
      expect(await modal(page).count()).toBe(0);
      const status = await page.evaluate(async () => (await fetch('/v1/account/me')).status);
      expect(status).toBe(401);
      expect(unexpected(errors)).toEqual([]);
      await page.close();
    });
  }
});
