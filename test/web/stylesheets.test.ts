import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import postcss from 'postcss';
import selectorParser from 'postcss-selector-parser';
import { describe, expect, it } from 'vitest';

/**
 * Each feature brings its own stylesheet, and no stylesheet reaches into another feature's markup
 * (issue 15): a sheet under `features/search/` may name the search feature's classes, the shell's (the
 * frame every feature sits in), the shared pieces' (src/web/ui) and the map library's, and no other. A class is known by its block, the part before `__` or `--`; a class no one owns fails too,
 * so a new block is given its owner here when it is added.
 */
const OWNERS: Record<string, readonly (string | RegExp)[]> = {
  shell: [
    'app',
    'app-failed',
    'app-root',
    'brand',
    'error-panel',
    'full-screen-loader',
    'landing-card',
    'map-area',
    'noscript',
    'panel-loader',
    'side-panel',
    'side-panel-show',
    'spinner',
    'toast',
    'topbar',
  ],
  ui: [
    'link-button',
    'open-now',
    'visually-hidden',
    'xp-avatar',
    'xp-button',
    'xp-count',
    'xp-dialog',
    'xp-header-icon',
    'xp-modal',
    'xp-modal-backdrop',
    'xp-modal-open',
    'xp-thumb',
    // the form field of add-new, shared with the owner's edit form (named before it was shared)
    'addnew-field',
    'addnew-form__row',
    'addnew-form__error',
  ],
  map: ['map-view', 'map-layers', 'cluster-list', 'my-location', 'painted-credit'],
  pwa: ['update-notice'],
  search: [
    'pagination',
    'search-empty',
    'search-form',
    'search-here',
    'search-panel',
    'search-result',
    'search-results',
    'search-toolbar',
    'segmented',
    'suggestion',
  ],
  accounts: [
    'account',
    'auth-field',
    'auth-form',
    'auth-modal',
    'auth-page',
    'auth-tabs',
    'map-buttons',
    'my-points',
    'page',
    'page-header',
    'pager',
    'point-card',
    'point-cards',
    'post-list',
    'profile',
    'user-menu',
    /^st-/,
  ],
  addnew: [/^addnew-/, 'step-3'],
  details: [
    'callback-modal',
    'claim-banner',
    'details-list',
    'details-section',
    'empty-note',
    'event-item',
    'event-list',
    'event-panel',
    'event-tickets',
    'fullscreen-overlay',
    'fullscreen-page',
    'health-status',
    'media-carousel',
    'opening-hours',
    'page-document',
    'people',
    'person',
    'point-controls',
    'consultant-requests',
    'point-panel',
    'point-sites',
    'point-stats',
    'site-viewer',
  ],
  owner: [
    /^owner-/,
    'contacts-editor',
    'is-disabled',
    'media-editor',
    'media-shots',
    'media-slot',
    'my-item',
    'my-items',
    'opening-hours-live',
    'point-edit',
  ],
  // the admins' pages (issue 16: the claims queue)
  admin: ['admin-claims'],
  // the posts modal, the post form and the posts lists (issue 17)
  posts: [/^posts-/],
  // the reviews modal, its form and the point's rating link (issue 18)
  reviews: [/^reviews-/],
  // follows, the feed-item menu and the notifications bell (issue 18)
  follows: ['feed-menu', 'follow-button', 'follow-list', 'profile-follows', 'notification-list'],
  // likes (issue 18): the like bar, a card's counts, the likers dialog
  likes: [/^likes-/],
  // a post's comments (issue 18)
  comments: ['comments'],
  // the connection pinger's indicator and banners (issue 19)
  pinger: [/^pinger-/],
  // the home page (issue 19): money counter, city picker, city feed, nearby locations
  home: ['home', /^home-/],
  // the city page and the event page rendered on the server (issue 19)
  citypage: [/^citypage-/, 'citypage'],
  // the owner's website: the site viewer's sections, the part editor, its pictures (issue 20)
  website: ['website', /^website-/, /^website__/, 'is-dragging'],
  // rental bookings (issue 22): the calendar, the forms, the lists; rdp- is the day picker's markup
  bookings: [/^bookings-/, /^rdp-/],
  // chat with a point (issue 22): the conversation, the inbox and the header's badge
  chat: ['chat', /^chat-/, /^chat__/],
  // MapLibre's own markup (popups, controls, the canvas), styled where the feature uses it
  library: [/^maplibregl-/],
};

/** Classes that everyone may name: the shell's, the shared pieces' and the map library's. */
const EVERYONE = ['shell', 'ui', 'library'];

/** The owner of a class: an exact entry first (the shared add-new field), then its block or prefix. */
function ownerOf(className: string): string | undefined {
  const block = className.split(/__|--/)[0] ?? className;
  const owners = Object.entries(OWNERS);
  const find = (test: (entry: string | RegExp) => boolean) =>
    owners.find(([, names]) => names.some(test))?.[0];
  return (
    find((entry) => entry === className) ??
    find((entry) => entry === block) ??
    find((entry) => entry instanceof RegExp && entry.test(className))
  );
}

/** The classes named in a stylesheet's selectors (those inside `:has()` and `:not()` too). */
function classesOf(css: string): string[] {
  const names = new Set<string>();
  postcss.parse(css).walkRules((rule) => {
    selectorParser((selectors) => selectors.walkClasses((node) => void names.add(node.value))).processSync(
      rule.selector,
    );
  });
  return [...names];
}

/** What a stylesheet names that its owner may not: `class (owner)` for each. */
function trespasses(css: string, owner: string): string[] {
  return classesOf(css)
    .map((name) => [name, ownerOf(name) ?? 'nobody'] as const)
    .filter(([, by]) => by !== owner && !EVERYONE.includes(by))
    .map(([name, by]) => `${name} (${by})`);
}

/** The feature a file belongs to: `features/search/x.css` → search, `map/x.css` → map. */
const featureOf = (file: string) => /^\.\/(?:features\/)?([^/]+)\//.exec(file)?.[1] ?? 'global';

const WEB = fileURLToPath(new URL('../../src/web', import.meta.url));

/** The files under src/web whose names end in `extension`, by their path from there (`./map/map.css`). */
function filesOf(extension: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(WEB, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith(extension) && !file.includes('.test.'))
      .map((file) => [`./${file.split(path.sep).join('/')}`, readFileSync(path.join(WEB, file), 'utf8')]),
  );
}

const sheets = filesOf('.css');
const sources = filesOf('.tsx');

describe('stylesheets', () => {
  it('the checker flags a class of another feature, inside :has() too, and a class no one owns', () => {
    expect(trespasses('.side-panel .search-result__title { color: red }', 'shell')).toEqual([
      'search-result__title (search)',
    ]);
    expect(trespasses('.map-area:has(.point-edit) .map-layers { left: 0 }', 'map')).toEqual([
      'point-edit (owner)',
    ]);
    expect(trespasses('.side-panel .point-panel__title, .made-up { color: red }', 'details')).toEqual([
      'made-up (nobody)',
    ]);
  });

  it('each feature has its own stylesheet and it names only its own, the shell’s, the shared and the map library’s classes', () => {
    const features = Object.keys(sheets).filter((file) => file !== './styles.css');
    expect(features.length).toBeGreaterThan(5);
    const found = Object.fromEntries(
      features.map((file) => [file, trespasses(sheets[file] ?? '', featureOf(file))]),
    );
    expect(found).toEqual(Object.fromEntries(features.map((file) => [file, []])));
  });

  it('styles.css holds only the design tokens and the page reset: no class of any screen', () => {
    expect(classesOf(sheets['./styles.css'] ?? '')).toEqual([]);
  });

  it('every stylesheet is imported by a component or an entry, so the code that needs it brings it', () => {
    const imported = new Set<string>();
    for (const [file, text] of Object.entries(sources)) {
      for (const [, relative] of text.matchAll(/^import '(\.[^']+\.css)';$/gm)) {
        imported.add(`./${path.posix.join(path.posix.dirname(file), relative ?? '')}`);
      }
    }
    expect(Object.keys(sheets).filter((sheet) => !imported.has(sheet))).toEqual([]);
  });
});
