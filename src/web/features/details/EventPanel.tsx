import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { canonicalPointPath } from '../../../shared/address';
import { profileLink } from '../../../shared/address/links';
import { displayAddress, linkView } from '../../../shared/details/text';
import { useSession } from '../accounts/session';
import { errorText } from '../../lib/query';
import { revealOnMap } from '../../map/mapHandle';
import { useDocumentTitle, useShell } from '../../shell/context';
import { ErrorPanel, PanelLoader, SidePanel } from '../../shell/SidePanel';
import { Description } from './Description';
import { inAppLink } from './inAppLink';
import { eventWhen, formatDateTime } from './format';
import { eventDetailsQuery } from './queries';
import { eventDetailsSchema, type EventDetails } from './schemas';
import './details.css';

export { eventDetailsSchema };

/** §5: deleting an event asks first. */

/**
 * An event's level (map-and-search §2 event panel), opened from a point, the map or
 * `/maps/data={"event":...}`: cover, title, owner, type, time (current or upcoming by §4), location,
 * admission, tickets, website, description, and the controls for its owner or an admin.
 */
export function EventPanel({ id }: { id: string }) {
  // the controls depend on who looks: signing in or out loads the event again
  const { user } = useSession();
  return <EventPanelLevel key={user?.id ?? ''} id={id} />;
}

function EventPanelLevel({ id }: { id: string }) {
  const { navigation } = useShell();
  const { user } = useSession();
  const resource = useQuery(eventDetailsQuery(id, user?.id ?? ''));
  useDocumentTitle(resource.data?.title ?? null);
  const location = resource.data?.location ?? null;
  useEffect(() => {
    if (location) revealOnMap(location.lon, location.lat);
  }, [location]);
  const back = navigation.canGoBack ? navigation.back : undefined;
  if (resource.status !== 'success')
    return (
      <SidePanel
        title={resource.status === 'pending' ? 'Loading…' : 'Event'}
        className="event-panel"
        onClose={navigation.toMap}
        onBack={back}
        levelKey={`${id}${resource.status}`}
      >
        {resource.status === 'pending' ? (
          <PanelLoader label="Loading the event…" />
        ) : (
          <ErrorPanel message={errorText(resource.error)} />
        )}
      </SidePanel>
    );
  return (
    <SidePanel
      title={resource.data.title}
      className="event-panel"
      onClose={navigation.toMap}
      onBack={back}
      levelKey={`${id}.`}
    >
      <EventBody event={resource.data} open={navigation.openLevel} />
    </SidePanel>
  );
}

function EventBody({ event, open }: { event: EventDetails; open(to: string): void }) {
  const website = linkView(event.website, window.location.host);
  const controls = event.controls;
  const address = event.location ? displayAddress(event.location.full_address) : '';
  const place = [event.location?.city, event.location?.country].filter(Boolean).join(', ');
  return (
    <>
      {event.cover_url && (
        <div className="event-panel__cover">
          <img src={event.cover_url} alt="" />
        </div>
      )}
      <div className="point-panel__head">
        {event.type && <p className="point-panel__type">{event.type.replaceAll('_', ' ')}</p>}
        <p className={`event-panel__when event-panel__when--${event.status}`}>{eventWhen(event)}</p>
        {event.status !== 'past' && event.status !== 'later' && (
          <p className="point-panel__muted">
            {formatDateTime(event.start_date)} – {formatDateTime(event.end_date)}
          </p>
        )}
      </div>
      <dl className="details-list event-panel__facts">
        {(event.owner_fullname || event.owner_username) && (
          <div className="details-list__row">
            <dt>By</dt>
            <dd>
              {event.owner_username ? (
                <a href={profileLink(event.owner_username)}>{event.owner_fullname || event.owner_username}</a>
              ) : (
                event.owner_fullname
              )}
            </dd>
          </div>
        )}
        {event.xpoint_id && event.xpoint_title && (
          <div className="details-list__row">
            <dt>At</dt>
            <dd>
              <Link to={event.xpoint_url ?? canonicalPointPath(event.xpoint_id, 'none')}>
                {event.xpoint_title}
              </Link>
            </dd>
          </div>
        )}
        {(address || place) && (
          <div className="details-list__row">
            <dt>Where</dt>
            <dd>{[address, place].filter(Boolean).join(' · ')}</dd>
          </div>
        )}
        <div className="details-list__row">
          <dt>Admission</dt>
          <dd className="event-panel__admission">{admissionText(event)}</dd>
        </div>
        {website.text !== '' && (
          <div className="details-list__row">
            <dt>Website</dt>
            <dd>
              {website.href ? (
                <a href={website.href} target="_blank" rel="noopener noreferrer">
                  {website.text}
                </a>
              ) : (
                website.text
              )}
            </dd>
          </div>
        )}
      </dl>
      {event.tickets.length > 0 && <Tickets tickets={event.tickets} />}
      <Description text={event.description ?? ''} />
      {controls && (controls.edit || controls.copy || controls.delete) && (
        <nav className="point-controls__manage event-panel__controls" aria-label="Manage this event">
          {controls.edit && (
            <a className="xp-button" href={controls.edit} onClick={inAppLink(controls.edit, open)}>
              Edit
            </a>
          )}
          {controls.copy && (
            <a className="xp-button" href={controls.copy} onClick={inAppLink(controls.copy, open)}>
              Copy to new
            </a>
          )}
          {/* the page it leads to asks first (§5) */}
          {controls.delete && (
            <a
              className="xp-button point-controls__danger"
              href={controls.delete}
              onClick={inAppLink(controls.delete, open)}
            >
              Delete
            </a>
          )}
        </nav>
      )}
    </>
  );
}

function admissionText(event: EventDetails): string {
  if (event.admission === 'paid')
    return event.admissionprice_display ? `Paid: ${event.admissionprice_display}` : 'Paid';
  if (event.admission === 'donation') return 'By donation';
  return 'Free';
}

/** Each ticket with a quantity choice and its total, quantity × unit price (§9). */
function Tickets({ tickets }: { tickets: EventDetails['tickets'] }) {
  return (
    <section className="event-tickets" aria-label="Tickets">
      <h3 className="event-tickets__title">Tickets</h3>
      <ul>
        {tickets.map((ticket) => (
          <TicketRow key={ticket.id} ticket={ticket} />
        ))}
      </ul>
    </section>
  );
}

function TicketRow({ ticket }: { ticket: EventDetails['tickets'][number] }) {
  const [quantity, setQuantity] = useState(1);
  const option = ticket.options.find((o) => o.quantity === quantity) ?? ticket.options[0];
  return (
    <li className="event-tickets__row">
      <span className="event-tickets__name">
        {ticket.name} <span className="point-panel__muted">{ticket.unit_price_display} each</span>
      </span>
      {ticket.options.length > 0 ? (
        <label className="event-tickets__quantity">
          <span className="visually-hidden">Quantity of {ticket.name}</span>
          <select value={quantity} onChange={(change) => setQuantity(Number(change.target.value))}>
            {ticket.options.map((o) => (
              <option key={o.quantity} value={o.quantity}>
                {o.quantity}
              </option>
            ))}
          </select>
          <output className="event-tickets__total">
            {option?.quantity ?? 0} × {ticket.unit_price_display} = {option?.display ?? '0.00'}
          </output>
        </label>
      ) : (
        <span className="point-panel__muted">Sold out</span>
      )}
    </li>
  );
}
