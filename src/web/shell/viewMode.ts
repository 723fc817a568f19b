import type { Route } from '../../shared/address';

/**
 * View modes (map-and-search §2): flags that combine (a point opened from search is `search | xpoint`),
 * and the state class each sets on the page body. Entering a state clears the previous classes, so
 * CSS can lay the page out from the body alone.
 */
export const VIEW_MODES = {
  map: 1,
  landing: 2,
  xpoint: 4,
  search: 8,
  cluster: 16,
  event: 32,
  fullscreen: 64,
  addnew: 128,
} as const;

export type ViewModeName = keyof typeof VIEW_MODES;

/** Every body class the shell manages; anything else on the body is left alone. */
export const STATE_CLASSES = [
  'state-suggestions',
  'point',
  'event',
  'search',
  'cluster',
  'momcluster',
  'fullscreen',
  'landing',
  'addnew',
  'step-1',
  'step-2',
  'step-3',
] as const;

export type StateClass = (typeof STATE_CLASSES)[number];

export interface ViewState {
  /** the combined VIEW_MODES flags. */
  flags: number;
  /** the body's state classes for this view. */
  classes: StateClass[];
}

/** The add-new step an address names: 1 without a supertype, 2 without a type, else 3. */
export function addNewStep(route: Extract<Route, { screen: 'add-new' }>): 1 | 2 | 3 {
  if (route.supertype === undefined) return 1;
  return route.type === undefined ? 2 : 3;
}

/** The view state of a route, plus the suggestions list when it is open. */
export function viewStateFor(route: Route, options: { suggestionsOpen?: boolean } = {}): ViewState {
  const modes: ViewModeName[] = [];
  const classes: StateClass[] = [];
  switch (route.screen) {
    case 'landing':
      modes.push('landing');
      classes.push('landing');
      break;
    case 'landing-search':
      modes.push('landing', 'search');
      classes.push('landing', 'search');
      break;
    case 'map-search':
      modes.push('map', 'search');
      classes.push('search');
      if (route.data.xpoint !== undefined) {
        modes.push('xpoint');
        classes.push('point');
      }
      break;
    case 'event':
    case 'event-page':
      modes.push('map', 'event');
      classes.push('event');
      break;
    case 'point':
      modes.push('map', 'xpoint');
      classes.push('point');
      break;
    case 'fullscreen':
    case 'point-landing':
      modes.push('xpoint', 'fullscreen');
      classes.push('fullscreen');
      break;
    case 'cluster':
    case 'momcluster':
      modes.push('map', 'cluster');
      classes.push(route.screen);
      break;
    case 'add-new':
      modes.push('addnew');
      classes.push('addnew', `step-${addNewStep(route)}`);
      break;
    default:
      modes.push('map');
  }
  if (options.suggestionsOpen === true) classes.push('state-suggestions');
  return { flags: modes.reduce((flags, mode) => flags | VIEW_MODES[mode], 0), classes };
}

/** The names of the modes set in `flags`, in VIEW_MODES order. */
export function viewModeNames(flags: number): ViewModeName[] {
  return (Object.keys(VIEW_MODES) as ViewModeName[]).filter((name) => (flags & VIEW_MODES[name]) !== 0);
}

/** Puts exactly `classes` of the managed ones on `element`, leaving its other classes alone. */
export function applyStateClasses(
  element: { classList: DOMTokenList },
  classes: readonly StateClass[],
): void {
  const wanted = new Set<string>(classes);
  for (const name of STATE_CLASSES) element.classList.toggle(name, wanted.has(name));
}

/** The view-mode cookie (§2): the flags of the last view, for the next page load and the server. */
export const VIEW_MODE_COOKIE = 'viewmode';

export function viewModeCookie(flags: number): string {
  return `${VIEW_MODE_COOKIE}=${flags}; Path=/; Max-Age=31536000; SameSite=Lax`;
}

/** The flags in a Cookie header or `document.cookie`; null when absent or not a flag set. */
export function readViewModeCookie(cookies: string): number | null {
  const match = new RegExp(`(?:^|;\\s*)${VIEW_MODE_COOKIE}=(\\d{1,3})(?:;|$)`).exec(cookies);
  if (match === null) return null;
  const flags = Number(match[1]);
  const all = Object.values(VIEW_MODES).reduce((sum, flag) => sum | flag, 0);
  return flags > 0 && (flags & ~all) === 0 ? flags : null;
}
