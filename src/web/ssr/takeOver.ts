import {
  FIRST_ANSWERS_ELEMENT_ID,
  FIRST_PAINT_POINT,
  FIRST_PAINT_SEARCH,
  searchAnswerPath,
  type FirstAnswer,
} from '../../shared/details/page';
import { searchQueryOf } from '../../shared/search/query';
import { parseAddress } from '../../shared/address';
import { initialLocation } from '../../shared/map/startView';
import { preloadPointLevel, preloadSearchLevel } from '../shell/Shell';
import { keepFirstPaintInput } from './firstPaintInput';

/**
 * Gets the app ready to replace the server's first paint in `container` (issue 23): the painted
 * level's script is loaded and the answer it was painted from is put in the app's cache, so the
 * app's first render draws the same level in its place at once, with no loader and no second request.
 * Whatever was typed into the painted search box meanwhile is carried over. A failure (the script
 * could not load) leaves the app to load the level as usual.
 */
export async function takeOverFirstPaint(
  container: HTMLElement,
  seed: (path: string, viewer: string, data: unknown) => void,
): Promise<void> {
  // the wait for the first picture runs beside the level's loading
  const hero = heroPainted(container);
  if (container.dataset['firstPaint'] === FIRST_PAINT_POINT) {
    try {
      const text = document.getElementById(FIRST_ANSWERS_ELEMENT_ID)?.textContent ?? '[]';
      const answers = JSON.parse(text) as FirstAnswer[];
      const [{ pointDetailsSchema }] = await Promise.all([
        import('../features/details/schemas'),
        preloadPointLevel(),
      ]);
      for (const answer of answers) {
        const parsed = pointDetailsSchema.safeParse(answer.data);
        if (parsed.success) seed(answer.path, answer.viewer, parsed.data);
      }
    } catch (error) {
      console.warn('XPoint: the first screen is drawn again from the network', error);
    }
  }
  if (container.dataset['firstPaint'] === FIRST_PAINT_SEARCH) {
    try {
      const { route } = parseAddress(window.location.pathname, window.location.search);
      if (route.screen === 'map-search' || route.screen === 'landing-search') {
        const query = searchQueryOf(route.keywords, route.supertype, route.data);
        const text = document.getElementById(FIRST_ANSWERS_ELEMENT_ID)?.textContent ?? '[]';
        // the centre the map opens on, as the server read it (shared/map/startView.ts) but with the hash
        const start = initialLocation({
          hash: window.location.hash,
          pathname: window.location.pathname,
          cookies: document.cookie,
        });
        const path = searchAnswerPath(query, { lat: start.lat, lon: start.lng });
        const answer = (JSON.parse(text) as FirstAnswer[]).find((candidate) => candidate.path === path);
        const [{ pagedSearchResponseSchema }, { seedSearch }] = await Promise.all([
          import('../../shared/api/search'),
          import('../features/search/searchSeed'),
          preloadSearchLevel(),
        ]);
        const parsed = pagedSearchResponseSchema.safeParse(answer?.data);
        if (parsed.success) seedSearch(query, parsed.data);
      }
    } catch (error) {
      console.warn('XPoint: the first screen is drawn again from the network', error);
    }
  }
  // then the app takes over once the first picture is on the screen
  await hero;
  // read last, just before the render: what was typed while the scripts loaded
  keepFirstPaintInput(container);
}

/** How long the take-over waits for the painted page's first picture at most: the LCP budget. */
const HERO_WAIT_MS = 2500;

/**
 * Resolves once the painted page's first picture (its `fetchpriority="high"` image, the page's largest
 * paint) is loaded and has been painted, or has failed, or after HERO_WAIT_MS (issue 23). The app's
 * first render is the longest task of a page's start; run while the picture was still arriving, it held
 * the picture's paint back until it ended (Lighthouse, phone profile: /b/{id}'s LCP 1.4 s when the
 * picture came first, 2.5-3.1 s when the render did). A page with no such picture resolves at once.
 */
function heroPainted(container: HTMLElement): Promise<void> {
  const hero = container.dataset['firstPaint']
    ? container.querySelector<HTMLImageElement>('img[fetchpriority="high"]')
    : null;
  if (hero === null) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const painted = () => requestAnimationFrame(() => setTimeout(resolve, 0));
    if (hero.complete) painted();
    else {
      hero.addEventListener('load', painted, { once: true });
      hero.addEventListener('error', painted, { once: true });
    }
    setTimeout(resolve, HERO_WAIT_MS);
  });
}
