import { useState } from 'react';
import type { EventPageData } from '../../../shared/citypages/page';
import { linkView } from '../../../shared/details/text';
import { formatDate } from '../../../shared/format';
import { PageFrame } from './PageFrame';

type EventDetails = EventPageData['event'];

/** Minutes as the page says them: 'in 45 minutes', 'in 2 h 5 min'. */
function startsIn(minutes: number): string {
  const m = Math.max(0, Math.round(minutes));
  if (m < 1) return 'now';
  if (m < 60) return `in ${m} minute${m === 1 ? '' : 's'}`;
  const h = Math.floor(m / 60);
  return m % 60 === 0 ? `in ${h} h` : `in ${h} h ${m % 60} min`;
}

/** §4's status of the event at the moment the page was made, in the event's zone. */
function statusText(event: EventDetails, zone: string): string {
  switch (event.status) {
    case 'current':
      return `Happening now, until ${formatDate(event.first_interval?.end ?? event.end_date, zone)}`;
    case 'upcoming':
      return `Starts ${startsIn(event.minutes_to_start)}`;
    case 'past':
      return `Ended ${formatDate(event.end_date, zone)}`;
    default:
      return `Starts ${formatDate(event.start_date, zone)}`;
  }
}

function admissionText(event: EventDetails): string {
  if (event.admission === 'paid')
    return event.admissionprice_display ? `Paid: ${event.admissionprice_display}` : 'Paid';
  if (event.admission === 'donation') return 'By donation';
  return 'Free';
}

/**
 * The event page (/e/{id}; map-and-search §2's event panel as a page of its own): cover, title, type,
 * when (in the event's zone), where, who, admission, tickets with their totals, website and
 * description, and a way into the app: the event on the map, and its city's page.
 */
export function EventPage({ data }: { data: EventPageData }) {
  const { event, time_zone: zone } = data;
  const website = linkView(event.website);
  const place = [event.location.city, event.location.country].filter(Boolean).join(', ');
  const address = event.location.full_address_display;
  return (
    <PageFrame link={{ href: data.map_url, text: 'Show on the map' }}>
      <article className="citypage-article">
        {event.cover_url && (
          <img className="citypage-article__cover" src={event.cover_url} alt="" width={960} height={400} />
        )}
        <p className="citypage-article__type">{event.type.replaceAll('_', ' ')}</p>
        <h1 className="citypage-article__title">{event.title}</h1>
        <p className={`citypage-article__status citypage-article__status--${event.status}`}>
          {statusText(event, zone)}
        </p>
        <dl className="citypage-facts">
          <div className="citypage-facts__row">
            <dt>When</dt>
            <dd>
              {formatDate(event.start_date, zone)} – {formatDate(event.end_date, zone)}{' '}
              <span className="citypage-facts__muted">({zone.replaceAll('_', ' ')})</span>
            </dd>
          </div>
          {(address || place) && (
            <div className="citypage-facts__row">
              <dt>Where</dt>
              <dd>
                {address}
                {address && place ? ' · ' : ''}
                {data.city_url && place ? <a href={data.city_url}>{place}</a> : place}
              </dd>
            </div>
          )}
          {event.xpoint_title && event.xpoint_url && (
            <div className="citypage-facts__row">
              <dt>At</dt>
              <dd>
                <a href={event.xpoint_url}>{event.xpoint_title}</a>
              </dd>
            </div>
          )}
          {(event.owner_fullname || event.owner_username) && (
            <div className="citypage-facts__row">
              <dt>By</dt>
              <dd>
                {data.owner_url ? (
                  <a href={data.owner_url}>{event.owner_fullname || event.owner_username}</a>
                ) : (
                  event.owner_fullname
                )}
              </dd>
            </div>
          )}
          <div className="citypage-facts__row">
            <dt>Admission</dt>
            <dd>{admissionText(event)}</dd>
          </div>
          {website.text !== '' && (
            <div className="citypage-facts__row">
              <dt>Website</dt>
              <dd>
                {website.href ? (
                  <a href={website.href} rel="noopener noreferrer">
                    {website.text}
                  </a>
                ) : (
                  website.text
                )}
              </dd>
            </div>
          )}
        </dl>
        {event.tickets.length > 0 && (
          <section className="citypage-tickets" aria-labelledby="citypage-tickets-title">
            <h2 id="citypage-tickets-title" className="citypage-section__title">
              Tickets
            </h2>
            <ul className="citypage-tickets__list">
              {event.tickets.map((ticket) => (
                <TicketRow key={ticket.id} ticket={ticket} />
              ))}
            </ul>
          </section>
        )}
        {event.description && (
          <section className="citypage-about" aria-labelledby="citypage-about-title">
            <h2 id="citypage-about-title" className="citypage-section__title">
              About this event
            </h2>
            {event.description
              .split(/\n{2,}/)
              .filter((paragraph) => paragraph.trim() !== '')
              .map((paragraph, index) => (
                <p key={index} className="citypage-about__text">
                  {paragraph}
                </p>
              ))}
          </section>
        )}
        {data.city_url && event.location.city && (
          <p className="citypage-article__more">
            <a href={data.city_url}>More deals and events in {event.location.city}</a>
          </p>
        )}
      </article>
    </PageFrame>
  );
}

/** A ticket with its quantity choice and total (quantity × unit price, §9). */
function TicketRow({ ticket }: { ticket: EventDetails['tickets'][number] }) {
  const [quantity, setQuantity] = useState(1);
  const option = ticket.options.find((o) => o.quantity === quantity) ?? ticket.options[0];
  const selectId = `citypage-ticket-${ticket.id}`;
  return (
    <li className="citypage-tickets__row">
      <span className="citypage-tickets__name">
        {ticket.name} <span className="citypage-facts__muted">{ticket.unit_price_display} each</span>
      </span>
      {ticket.options.length > 0 ? (
        <span className="citypage-tickets__choice">
          <label htmlFor={selectId}>Quantity</label>
          <select
            id={selectId}
            value={quantity}
            onChange={(change) => setQuantity(Number(change.target.value))}
          >
            {ticket.options.map((o) => (
              <option key={o.quantity} value={o.quantity}>
                {o.quantity}
              </option>
            ))}
          </select>
          <output className="citypage-tickets__total" htmlFor={selectId}>
            {option?.quantity ?? 0} × {ticket.unit_price_display} = {option?.display ?? '0.00'}
          </output>
        </span>
      ) : (
        <span className="citypage-facts__muted">Sold out</span>
      )}
    </li>
  );
}
