import { Suspense, lazy, useEffect, useRef } from 'react';
import { Link } from 'react-router';

/** The home page's content: its own chunk, so the map's first scripts do not carry the feed and its cards. */
const HomePage = lazy(() => import('../features/home/HomePage'));

/**
 * The landing page ('' and /home, social §1, §2; map-and-search §2): a card over the live map with
 * the two ways in (the map itself and adding a place), then the home page: the money counter, the
 * city picker (top destinations and the city search), the nearby locations and the horizontal news
 * feed of the city. On a phone the card is a sheet at the bottom, the map above it stays visible.
 *
 * What arrives late comes last (issue 23, CLS ≤ 0.1): the home page's chunk and its answers only add
 * to the card's end, so nothing already on the screen moves when they come. The sheet on a phone has
 * its full height from the first paint: a sheet anchored at the bottom that grows moves its top.
 */
export function Landing({ onExplore }: { onExplore(): void }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    headingRef.current?.focus({ preventScroll: true });
  }, []);
  return (
    <section className="landing-card landing-card--home" aria-labelledby="landing-title">
      <h1 id="landing-title" ref={headingRef} tabIndex={-1} className="landing-card__title">
        Find what is around you, right now
      </h1>
      <p className="landing-card__lead">
        Deals, gigs and news from your city, and the places around you on one live map.
      </p>
      <div className="landing-card__actions">
        <button type="button" className="xp-button xp-button--primary" onClick={onExplore}>
          Explore the map
        </button>
        <Link className="xp-button" to="/new">
          Add a place
        </Link>
      </div>
      <Suspense
        fallback={
          <p className="landing-card__loading" role="status">
            Loading your city…
          </p>
        }
      >
        <HomePage />
      </Suspense>
    </section>
  );
}
