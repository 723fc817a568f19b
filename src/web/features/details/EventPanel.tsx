import { useEffect } from 'react';
import { Link } from 'react-router';
import { z } from 'zod';
import { canonicalPointPath } from '../../../shared/address';
import { useResource } from '../../lib/useResource';
import { revealOnMap } from '../../map/MapView';
import { useDocumentTitle, useShell } from '../../shell/Shell';
import { ErrorPanel, PanelLoader, SidePanel } from '../../shell/SidePanel';

/** The fields of `GET /v1/webonly/eventdetails/{id}` this panel reads (map-and-search §3). */
export const eventDetailsSchema = z.object({
  id: z.string(),
  title: z.string(),
  type: z.string().nullish(),
  description: z.string().nullish(),
  owner_fullname: z.string().nullish(),
  xpoint_id: z.string().nullish(),
  xpoint_title: z.string().nullish(),
  xpoint_url: z.string().nullish(),
  location: z.object({ lat: z.number(), lon: z.number() }).nullish(),
});

/** An event's level (§2 event panel), opened from a point, the map or `/maps/data={"event":...}`. */
export function EventPanel({ id }: { id: string }) {
  const { navigation } = useShell();
  const resource = useResource(`/v1/webonly/eventdetails/${encodeURIComponent(id)}`, eventDetailsSchema);
  useDocumentTitle(resource.status === 'ready' ? resource.data.title : null);
  const location = resource.status === 'ready' ? resource.data.location : null;
  useEffect(() => {
    if (location) revealOnMap(location.lon, location.lat);
  }, [location]);
  const back = navigation.canGoBack ? navigation.back : undefined;
  if (resource.status !== 'ready')
    return (
      <SidePanel
        title={resource.status === 'loading' ? 'Loading…' : 'Event'}
        className="event-panel"
        onClose={navigation.toMap}
        onBack={back}
        levelKey={`${id}${resource.status}`}
      >
        {resource.status === 'loading' ? (
          <PanelLoader label="Loading the event…" />
        ) : (
          <ErrorPanel message={resource.message} />
        )}
      </SidePanel>
    );
  const event = resource.data;
  return (
    <SidePanel
      title={event.title}
      className="event-panel"
      onClose={navigation.toMap}
      onBack={back}
      levelKey={`${id}.`}
    >
      {event.type && <p className="point-panel__type">{event.type.replaceAll('_', ' ')}</p>}
      {event.owner_fullname && <p>By {event.owner_fullname}</p>}
      {event.xpoint_id && event.xpoint_title && (
        <p>
          At{' '}
          <Link to={event.xpoint_url ?? canonicalPointPath(event.xpoint_id, 'none')}>
            {event.xpoint_title}
          </Link>
        </p>
      )}
      {event.description && <p className="point-panel__description">{event.description}</p>}
    </SidePanel>
  );
}
