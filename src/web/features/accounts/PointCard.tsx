import { Link } from 'react-router';
import type { ProfilePoint } from '../../../shared/api/profiles';
import './accounts.css';

/** A point as a card: cover (or a plain swatch), title, tagline, type and city; links to its page. */
export function PointCard({ point }: { point: ProfilePoint }) {
  return (
    <Link className="point-card" to={point.url}>
      <PointCover className="point-card__cover" src={point.cover} supertype={point.supertype} />
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

/** A point's cover image, or a swatch in its supertype's colour when it has none. */
export function PointCover({
  className,
  src,
  supertype,
}: {
  className: string;
  src: string | null;
  supertype: string;
}) {
  return src ? (
    <img className={className} src={src} alt="" loading="lazy" />
  ) : (
    <span className={`${className} point-card__cover--none st-${supertype}`} aria-hidden="true" />
  );
}
