import { parseAddress } from '../../../shared/address/routes';

/** The app's own pages that are not map-and-search addresses (src/web/app/App.tsx). */
const APP_PAGES: Readonly<Record<string, string>> = {
  signin: 'signin',
  signup: 'signup',
  account: 'account',
  admin: 'admin',
};

/**
 * The screen a page path is counted under: the address's screen as the app reads it ("landing",
 * "map", "point", "fullscreen", "map-search", "city"...), the app's own pages by their first segment,
 * and "not-found" for anything else. A bounded set of names: ids, keywords and usernames are dropped.
 */
export function screenOf(page: string): string {
  const first = page.split('/')[1]?.toLowerCase() ?? '';
  const appPage = APP_PAGES[first];
  if (appPage !== undefined) return appPage;
  return parseAddress(page).route.screen;
}
