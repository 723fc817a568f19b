import { useEffect, useState } from 'react';
import { HealthStatus as Status } from '../../../shared/domain/enums';
import { HEALTH_PHOTOS_FAILURE } from './callback';

type Photos = { kind: 'loading' } | { kind: 'ready'; urls: string[] } | { kind: 'error'; message: string };

/**
 * The point's health status (map-and-search §3, §4): pending shows that the papers were submitted,
 * verified shows the health photos (asked of the API; a failure says 'Could not receive images.' and
 * why, §8). Nothing shows for an undefined status.
 */
export function HealthStatus({ pointId, status }: { pointId: string; status: number }) {
  if (status === Status.verificationpending)
    return (
      <p className="health-status health-status--pending">
        Health papers submitted: verification is pending.
      </p>
    );
  if (status === Status.verified) return <VerifiedPhotos pointId={pointId} />;
  return null;
}

function VerifiedPhotos({ pointId }: { pointId: string }) {
  const [photos, setPhotos] = useState<Photos>({ kind: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    // the call and its schema load with the first verified point: most pages never need them
    import('./healthPhotos')
      .then(({ loadHealthPhotos }) => loadHealthPhotos(pointId, controller.signal))
      .then(
        (urls) => setPhotos({ kind: 'ready', urls }),
        (error: unknown) => {
          if (controller.signal.aborted) return;
          const cause = error instanceof Error ? error.message : String(error);
          setPhotos({ kind: 'error', message: `${HEALTH_PHOTOS_FAILURE} ${cause}` });
        },
      );
    return () => controller.abort();
  }, [pointId]);
  return (
    <div className="health-status health-status--verified">
      <p>
        <span className="health-status__badge">✓</span> Health status verified
      </p>
      {photos.kind === 'error' && <p role="alert">{photos.message}</p>}
      {photos.kind === 'ready' && photos.urls.length > 0 && (
        <ul className="health-status__photos">
          {photos.urls.map((url, i) => (
            <li key={url}>
              <img src={url} alt={`Health document ${i + 1}`} loading="lazy" />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
