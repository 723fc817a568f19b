import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { z } from 'zod';
import { buildAddress, canonicalPointPath, needsPrefixCorrection } from '../../../shared/address';
import { findCategory } from '../../../shared/domain/categories';
import { describeText, displayAddress } from '../../../shared/details/text';
import { useResource } from '../../lib/useResource';
import { revealOnMap } from '../../map/MapView';
import { useDocumentTitle, useShell } from '../../shell/Shell';
import { ErrorPanel, PanelLoader, SidePanel } from '../../shell/SidePanel';

/** The fields of `GET /v1/webonly/xpointdetails/{id}` this panel reads (map-and-search §3). */
const eventItemSchema = z.object({
  id: z.string(),
  title: z.string(),
  start_date: z.union([z.string(), z.number()]).nullish(),
});
export const pointDetailsSchema = z.object({
  id: z.string(),
  supertype: z.string(),
  type: z.string(),
  title: z.string(),
  tagline: z.string().nullish(),
  description: z.string().nullish(),
  full_address: z.string().nullish(),
  location: z.object({ city: z.string().nullish(), country: z.string().nullish() }).nullish(),
  lat: z.number(),
  lon: z.number(),
  events: z
    .object({
      upcoming: z.array(eventItemSchema).default([]),
      current: z.array(eventItemSchema).default([]),
      later: z.array(eventItemSchema).default([]),
    })
    .nullish(),
});
export type PointDetails = z.output<typeof pointDetailsSchema>;

/**
 * A point's detail level (map-and-search §2): opened from the map, a cluster list, search results or
 * the address. Loads its details, corrects a mismatched prefix in the address (§2), and opens the
 * point's events as the next level.
 */
export function PointPanel({ id }: { id: string }) {
  const { route, navigation } = useShell();
  const resource = useResource(`/v1/webonly/xpointdetails/${encodeURIComponent(id)}`, pointDetailsSchema);
  const details = resource.status === 'ready' ? resource.data : null;
  useDocumentTitle(details?.title ?? null);

  // /b/{id} for a point that is a rental: silently corrected to /rent/{id} (§2)
  useEffect(() => {
    if (details === null || !needsPrefixCorrection(route, details.supertype)) return;
    navigation.replace(canonicalPointPath(details.id, details.supertype) + window.location.search);
  }, [details, route, navigation]);

  // the place comes into the part of the map the panel leaves uncovered
  useEffect(() => {
    if (details !== null) revealOnMap(details.lon, details.lat);
  }, [details]);

  const back = navigation.canGoBack ? navigation.back : undefined;
  if (resource.status === 'loading')
    return (
      <SidePanel
        title="Loading…"
        className="point-panel"
        onClose={navigation.toMap}
        onBack={back}
        levelKey={id}
      >
        <PanelLoader label="Loading the place…" />
      </SidePanel>
    );
  if (resource.status === 'error')
    return (
      <SidePanel
        title="Place"
        className="point-panel"
        onClose={navigation.toMap}
        onBack={back}
        levelKey={`${id}!`}
      >
        <ErrorPanel message={resource.message} />
      </SidePanel>
    );
  const point = resource.data;
  const category = findCategory(point.supertype, point.type)?.name ?? point.type;
  const events = point.events;
  return (
    <SidePanel
      title={point.title}
      className="point-panel"
      onClose={navigation.toMap}
      onBack={back}
      levelKey={`${id}.`}
    >
      <p className="point-panel__type">{category}</p>
      {point.tagline && <p className="point-panel__tagline">{point.tagline}</p>}
      {point.full_address && <p className="point-panel__address">{displayAddress(point.full_address)}</p>}
      <Description text={point.description ?? ''} />
      {events && (
        <>
          <EventList title="Happening now" items={events.current} open={navigation.openLevel} />
          <EventList title="Starting soon" items={events.upcoming} open={navigation.openLevel} />
          <EventList title="Later" items={events.later} open={navigation.openLevel} />
        </>
      )}
    </SidePanel>
  );
}

function Description({ text }: { text: string }) {
  const [expanded, setExpanded] = useState(false);
  const view = describeText(text);
  if (view.full === '') return null;
  return (
    <div className="point-panel__description">
      <p>{expanded ? view.full : view.preview}</p>
      {view.collapsible && (
        <button
          type="button"
          className="link-button"
          aria-expanded={expanded}
          onClick={() => setExpanded(!expanded)}
        >
          {expanded ? 'Show less' : 'Show more'}
        </button>
      )}
    </div>
  );
}

function EventList({
  title,
  items,
  open,
}: {
  title: string;
  items: ReadonlyArray<{ id: string; title: string }>;
  open(to: string): void;
}) {
  if (items.length === 0) return null;
  return (
    <section className="point-panel__events" aria-label={title}>
      <h3>{title}</h3>
      <ul>
        {items.map((event) => {
          const to = buildAddress({ screen: 'event', eventId: event.id, data: {} });
          return (
            <li key={event.id}>
              <Link
                to={to}
                onClick={(click) => {
                  click.preventDefault();
                  open(to);
                }}
              >
                {event.title}
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
