import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { PageDocument } from './globals';

declare const document: PageDocument;

/** The side panel's title (its h2) as it is now, or null without a panel: poll it to wait. */
export const panelTitle = (page: Page) => page.locator('aside.side-panel h2').textContent();

/** The path of the page's address, percent-decoded (no query, no hash). */
export const pathOf = (page: Page) => decodeURIComponent(new URL(page.url()).pathname);

/** The body's classes (the app's screen and state), sorted. */
export const bodyClasses = (page: Page) =>
  page.evaluate(() => document.body.className.split(/\s+/).filter(Boolean).sort());

/** The search box in the top bar. */
export const searchBox = (page: Page) => page.getByRole('combobox', { name: 'Search places' });

/**
 * Types the start of a name into the search box, again and again (the index learns new places from
 * the store's change feed within a second), until a suggestion named like `option` shows; fails after
 * 10 s.
 */
export async function expectSuggested(page: Page, typed: string, option: RegExp): Promise<void> {
  const box = searchBox(page);
  await expect
    .poll(
      async () => {
        await box.fill('');
        await box.pressSequentially(typed, { delay: 20 });
        return page.getByRole('option', { name: option }).count();
      },
      { timeout: 10_000 },
    )
    .toBeGreaterThan(0);
}
