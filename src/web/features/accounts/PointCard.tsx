import { Link } from 'react-router';
import type { ProfilePoint } from '../../../shared/api/profiles';
import './accounts.css';

/** A point as a card: cover (or a plain swatch), title, tagline, type and city; links to its page. */
export function PointCard({ point }: { point: ProfilePoint }) {
  return (
    <Link className="point-card" to={point.url}>
      {point.cover ? (
        <img className="point-card__cover" src={point.cover} alt="" loading="lazy" />
      ) : (
        <span
          className={`point-card__cover point-card__cover--none st-${point.supertype}`}
          aria-hidden="true"
        />
      )}
      <span className="point-card__text">
        <span className="point-card__title">{point.title}</span>
        {point.tagline && <span className="point-card__tagline">{point.tagline}</span>}
        <span className="point-card__meta">
          {point.type.replace(/_/g, ' ')}
          {point.city ? ` · ${point.city}` : ''}
        </span>
      </span>
    </Link>
  );
}
