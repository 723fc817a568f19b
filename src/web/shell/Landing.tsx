import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { LAYER_GROUP_NAMES } from '../map/layerVisibility';
import { LAYER_GROUPS, SUPERTYPE_COLORS } from '../../shared/map/contract';

/**
 * The landing page ('' and /home, §2): a welcome card over the live map, saying what XPoint holds and
 * offering the two ways in — the map itself and adding a place. Its richer content (city feeds,
 * featured places) belongs to the social issues; nothing here pretends to be that content.
 */
export function Landing({ onExplore }: { onExplore(): void }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    headingRef.current?.focus({ preventScroll: true });
  }, []);
  return (
    <section className="landing-card" aria-labelledby="landing-title">
      <h1 id="landing-title" ref={headingRef} tabIndex={-1} className="landing-card__title">
        Find what is around you, right now
      </h1>
      <p className="landing-card__lead">
        Shops, services, experiences, rentals, events and people who need a hand — all on one live map.
      </p>
      <ul className="landing-card__kinds" aria-label="What the map shows">
        {LAYER_GROUPS.map((group) => (
          <li key={group}>
            <span
              className="landing-card__swatch"
              style={{ backgroundColor: SUPERTYPE_COLORS[group] }}
              aria-hidden="true"
            />
            {LAYER_GROUP_NAMES[group]}
          </li>
        ))}
      </ul>
      <div className="landing-card__actions">
        <button type="button" className="xp-button xp-button--primary" onClick={onExplore}>
          Explore the map
        </button>
        <Link className="xp-button" to="/new">
          Add a place
        </Link>
      </div>
    </section>
  );
}
