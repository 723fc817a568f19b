import { useState } from 'react';
import { buildAddress } from '../../../shared/address';
import { eventPage, eventPageSize, morePastEvents, pastEventsVisible } from '../../../shared/details/events';
import type { EventItem, PointDetails } from './schemas';
import { Section, SubHeading } from './Section';
import { useTimeFormat } from './timeFormat';
import { useViewportWidth } from './useViewportWidth';

type Lists = NonNullable<PointDetails['events']>;

/**
 * A point's events (map-and-search §4, §9): current, upcoming (within two hours), later and past.
 * The first three are paged once they hold more than 4 (4 a page, 6 from 520 px, 8 from 1600 px);
 * the past show 8, then 16, then all. Each opens as the next level.
 */
export function EventLists({ events, open }: { events: Lists; open(to: string): void }) {
  const pageSize = eventPageSize(useViewportWidth());
  const total = events.current.length + events.upcoming.length + events.later.length + events.past.length;
  if (total === 0) return null;
  return (
    <Section title="Events" className="point-panel__events">
      <PagedList title="Happening now" items={events.current} pageSize={pageSize} open={open} />
      <PagedList title="Starting soon" items={events.upcoming} pageSize={pageSize} open={open} />
      <PagedList title="Later" items={events.later} pageSize={pageSize} open={open} />
      <PastList items={events.past} total={events.past_total} open={open} />
    </Section>
  );
}

function PagedList({
  title,
  items,
  pageSize,
  open,
}: {
  title: string;
  items: readonly EventItem[];
  pageSize: number;
  open(to: string): void;
}) {
  const [asked, setPage] = useState(1);
  if (items.length === 0) return null;
  const page = eventPage(items, asked, pageSize);
  return (
    <div className="event-list" role="group" aria-label={title}>
      <SubHeading className="event-list__title">
        {title} <span className="event-list__count">({items.length})</span>
      </SubHeading>
      <EventItems items={page.items} open={open} />
      {page.paged && page.pageCount > 1 && (
        <nav className="event-list__pager" aria-label={`${title}: pages`}>
          <button
            type="button"
            className="xp-button"
            disabled={page.page <= 1}
            onClick={() => setPage(page.page - 1)}
          >
            Previous
          </button>
          <span aria-live="polite">
            Page {page.page} of {page.pageCount}
          </span>
          <button
            type="button"
            className="xp-button"
            disabled={page.page >= page.pageCount}
            onClick={() => setPage(page.page + 1)}
          >
            Next
          </button>
        </nav>
      )}
    </div>
  );
}

function PastList({
  items,
  total,
  open,
}: {
  items: readonly EventItem[];
  total: number;
  open(to: string): void;
}) {
  const [step, setStep] = useState(0);
  if (items.length === 0) return null;
  const visible = pastEventsVisible(step, items.length);
  return (
    <div className="event-list event-list--past" role="group" aria-label="Past events">
      <SubHeading className="event-list__title">
        Past events <span className="event-list__count">({Math.max(total, items.length)})</span>
      </SubHeading>
      <EventItems items={items.slice(0, visible)} open={open} />
      {morePastEvents(step, items.length) && (
        <button type="button" className="link-button" onClick={() => setStep(step + 1)}>
          Show more past events
        </button>
      )}
    </div>
  );
}

function EventItems({ items, open }: { items: readonly EventItem[]; open(to: string): void }) {
  const times = useTimeFormat();
  return (
    <ul className="event-list__items">
      {items.map((event) => {
        const to = buildAddress({ screen: 'event', eventId: event.id, data: {} });
        return (
          <li key={event.id} className="event-item">
            {event.cover_url ? (
              <img className="event-item__cover" src={event.cover_url} alt="" loading="lazy" />
            ) : (
              <span className="event-item__cover event-item__cover--none" aria-hidden="true" />
            )}
            <span className="event-item__text">
              <a
                href={to}
                className="event-item__title"
                onClick={(click) => {
                  // a click that asks for a new tab or window keeps the browser's meaning
                  if (click.button !== 0 || click.metaKey || click.ctrlKey || click.shiftKey || click.altKey)
                    return;
                  click.preventDefault();
                  open(to);
                }}
              >
                {event.title}
              </a>
              <span className="event-item__when">{times.eventWhen(event)}</span>
            </span>
          </li>
        );
      })}
    </ul>
  );
}
