import type { UseQueryResult } from '@tanstack/react-query';
import type { NearestCity } from '../../../shared/api/details';
import { formatDistance } from '../../../shared/format';
import { errorText } from '../../lib/query';

/**
 * The nearby-locations list (social §2, §9: at most 30), from POST /v1/map/closestn around the home
 * page's location, nearest first with the distance in §9's format; choosing one is choosing its city.
 */
export function NearbyList({
  nearby,
  currentId,
  onPick,
}: {
  nearby: UseQueryResult<NearestCity[]>;
  currentId: number | null;
  onPick(city: NearestCity): void;
}) {
  return (
    <section className="home-nearby" aria-labelledby="home-nearby-title">
      <h2 id="home-nearby-title" className="home-nearby__title">
        Nearby locations
      </h2>
      {nearby.status === 'pending' && <p role="status">Finding places near you…</p>}
      {nearby.status === 'error' && (
        <p role="alert">Nearby places could not be loaded: {errorText(nearby.error)}</p>
      )}
      {nearby.data && (
        <ul className="home-nearby__list">
          {nearby.data.map((city) => (
            <li key={city.id}>
              <button
                type="button"
                className="home-nearby__place"
                aria-pressed={city.id === currentId}
                onClick={() => onPick(city)}
              >
                <span className="home-nearby__city">{city.city}</span>
                <span className="home-nearby__distance">{formatDistance(city.distance_m)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
