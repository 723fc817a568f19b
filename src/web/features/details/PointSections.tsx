import type { ReactNode } from 'react';
import { cityLink, profileLink } from '../../../shared/address/links';
import {
  contactRoleText,
  displayAddress,
  emailView,
  linkView,
  phoneView,
  type LinkView,
} from '../../../shared/details/text';
import { Avatar } from '../accounts/Avatar';
import { HealthStatus } from './HealthStatus';
import { openingHoursText, type OpeningHoursText } from '../../../shared/details/hours-text';
import type { PointDetails } from './schemas';
import { Section } from './Section';
import { useTimeFormat } from './timeFormat';

/**
 * The sections of a point's details (map-and-search §2, §5, §6) that the side panel and the
 * full-screen page share. They read nothing from the window, so the server renders them too: `host`
 * is the site's own host, for the §5 rule on which links are clickable.
 */

/** City, address, email, phone, website and facebook. */
export function ContactSection({ point, host }: { point: PointDetails; host: string }) {
  if (!hasContact(point)) return null;
  return (
    <Section title="Contact and location" className="point-panel__contact">
      <dl className="details-list">
        {point.location?.city && (
          <Row label="City">
            {point.location.city_forurl ? (
              <a href={cityLink(point.location.city_forurl)}>{point.location.city}</a>
            ) : (
              point.location.city
            )}
            {point.location.country ? `, ${point.location.country}` : ''}
          </Row>
        )}
        {point.full_address && (
          <Row label="Address">
            <span className="point-panel__address">{displayAddress(point.full_address)}</span>
          </Row>
        )}
        <LinkRow label="Email" view={emailView(point.link_email)} />
        <LinkRow label="Phone" view={phoneView(point.link_phone)} />
        <LinkRow label="Website" view={linkView(point.link_website, host)} external />
        <LinkRow label="Facebook" view={linkView(point.link_facebook, host)} external />
      </dl>
    </Section>
  );
}

/** §6: the health status, when the point has asked for one. */
export function HealthSection({ point }: { point: PointDetails }) {
  if (!point.healthdata || point.healthdata.status <= 0) return null;
  return (
    <Section title="Health" className="point-panel__health">
      <HealthStatus pointId={point.id} status={point.healthdata.status} />
    </Section>
  );
}

/** The visit counters; §5: '0' for a value that is not positive (the API writes them so). */
export function VisitStats({ point }: { point: PointDetails }) {
  const stats = point.xpStats_display;
  if (!stats) return null;
  return (
    <Section title="Visits" className="point-panel__stats">
      <dl className="point-stats">
        <Stat label="Total" value={stats.total} />
        <Stat label="Last month" value={stats.prev_month} />
        <Stat label="This month" value={stats.this_month} />
        <Stat label="Today" value={stats.today} />
      </dl>
    </Section>
  );
}

/** §6: external sites, which the API sends only to the point's owner and consultant. */
export function ExternalSites({ point, host }: { point: PointDetails; host: string }) {
  const sites = point.xsites_json?.data ?? [];
  if (sites.length === 0) return null;
  return (
    <Section title="External sites" className="point-panel__sites">
      <ul className="point-sites">
        {sites.map((site) => {
          const view = linkView(site.url, host);
          return (
            <li key={site.url}>
              {view.href ? (
                <a href={view.href} target="_blank" rel="noopener noreferrer">
                  {site.title}
                </a>
              ) : (
                `${site.title}: ${view.text}`
              )}
            </li>
          );
        })}
      </ul>
    </Section>
  );
}

/** Whether the point has any of city, address, email, phone, website or facebook to show. */
function hasContact(point: PointDetails): boolean {
  return [
    point.location?.city,
    point.full_address,
    point.link_email,
    point.link_phone,
    point.link_website,
    point.link_facebook,
  ].some((value) => !!value?.trim());
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="details-list__row">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** §5: a value is a link only when the shared rule gives it an href; otherwise it is plain text. */
function LinkRow({ label, view, external = false }: { label: string; view: LinkView; external?: boolean }) {
  if (view.text === '') return null;
  return (
    <Row label={label}>
      {view.href ? (
        <a href={view.href} {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>
          {view.text}
        </a>
      ) : (
        <span className="point-panel__plain">{view.text}</span>
      )}
    </Row>
  );
}

type Hours = NonNullable<PointDetails['opening_hours']>;

/**
 * "Open now · Closes 6 PM". `text` is the server's wording (the full-screen page carries it); without
 * it the words are made here from the details, with this browser's clock.
 */
export function OpenNowBadge({ hours, text }: { hours: Hours; text?: OpeningHoursText | null }) {
  const words = text ?? openingHoursText(hours);
  if (words.badge === null) return null;
  return (
    <p className={`open-now open-now--${hours.state}`}>
      {words.badge}
      {words.next && <span className="point-panel__muted"> · {words.next}</span>}
    </p>
  );
}

/**
 * Opening hours (§3, §5): the open-now state evaluated in the point's zone, or the text as written.
 * `text` as for OpenNowBadge.
 */
export function OpeningHours({ hours, text }: { hours: Hours; text?: OpeningHoursText | null }) {
  const words = text ?? openingHoursText(hours);
  return (
    <Section title="Opening hours" className="point-panel__hours">
      <p className="opening-hours__text">{words.text}</p>
      {words.note !== null && <p className="point-panel__muted">{words.note}</p>}
    </Section>
  );
}

function Person({
  role,
  username,
  fullname,
  avatar,
  extra,
}: {
  role: string;
  username: string | null | undefined;
  fullname: string | null | undefined;
  avatar: string | null | undefined;
  extra?: string;
}) {
  const name = fullname?.trim() || username || '';
  if (name === '') return null;
  return (
    <li className="person">
      <Avatar fullname={fullname ?? ''} username={username ?? name} src={avatar ?? null} size={36} />
      <span className="person__text">
        {username ? <a href={profileLink(username)}>{name}</a> : <span>{name}</span>}
        <span className="person__role">
          {role}
          {extra ? ` · ${extra}` : ''}
        </span>
      </span>
    </li>
  );
}

/** Owner, consultant (when §5 shows one: the API leaves it out otherwise) and contacts with their roles. */
export function People({ point }: { point: PointDetails }) {
  const hasOwner = !!(point.owner_username || point.owner_fullname);
  const hasConsultant = !!(point.consultant_username || point.consultant_fullname);
  if (!hasOwner && !hasConsultant && point.contacts.length === 0) return null;
  return (
    <Section title="People" className="point-panel__people">
      <ul className="people">
        <Person
          role="Owner"
          username={point.owner_username}
          fullname={point.owner_fullname}
          avatar={point.owner_avatar}
        />
        <Person
          role="Consultant"
          username={point.consultant_username}
          fullname={point.consultant_fullname}
          avatar={point.consultant_avatar}
        />
        {point.contacts.map((contact, i) => (
          <Person
            key={`${contact.roleid}-${contact.contact_username ?? ''}-${i}`}
            role={contactRoleText(contact.roleid, contact.roleoverride)}
            username={contact.contact_username}
            fullname={[contact.contact_firstname, contact.contact_lastname].filter(Boolean).join(' ')}
            avatar={contact.avatar_url}
          />
        ))}
      </ul>
    </Section>
  );
}

/** §6: service points show owner status, visible-on-map, last location update, per-minute price. */
export function ServiceFacts({ point }: { point: PointDetails }) {
  const times = useTimeFormat();
  return (
    <Section title="Service" className="point-panel__service">
      <dl className="details-list">
        {point.xpointService && <Row label="Service">{point.xpointService}</Row>}
        {point.owner_status && <Row label="Provider status">{point.owner_status}</Row>}
        <Row label="Visible on the map">{point.meonmap_enabled ? 'Yes' : 'No'}</Row>
        {point.owner_dynamic_last_update != null && (
          <Row label="Location updated">{times.dateTime(point.owner_dynamic_last_update)}</Row>
        )}
        {point.owner_callchat_priceperminute_display && (
          <Row label="Call or chat">{point.owner_callchat_priceperminute_display} per minute</Row>
        )}
      </dl>
    </Section>
  );
}

export function HelpRequestFacts({ data }: { data: NonNullable<PointDetails['helprequestdata']> }) {
  const times = useTimeFormat();
  return (
    <Section title="The task" className="point-panel__help">
      <dl className="details-list">
        {data.taskduration_display && (
          <Row label="Duration">
            {data.taskduration_display} {data.taskduration_display === '1' ? 'hour' : 'hours'}
          </Row>
        )}
        {data.taskbudget_display && <Row label="Budget">{data.taskbudget_display}</Row>}
        {data.taskstart != null && <Row label="Starts">{times.dateTime(data.taskstart)}</Row>}
        <Row label="Accepts helpers">{data.canacceptjob ? 'Yes, you can take this job' : 'No'}</Row>
        <Row label="Quotes">{data.canquote ? 'You can send a quote' : 'No quotes'}</Row>
      </dl>
    </Section>
  );
}

/** §5: a pickup shows only with its date and time (the API leaves it out otherwise). */
export function Pickup({ pickup }: { pickup: NonNullable<PointDetails['pickup']> }) {
  const times = useTimeFormat();
  return (
    <Section title="Pickup" className="point-panel__pickup">
      <dl className="details-list">
        <Row label="When">{times.dateTime(pickup.pickup_date_time)}</Row>
        {pickup.pickup_destination && <Row label="Destination">{pickup.pickup_destination}</Row>}
        {pickup.delivery_lat != null && pickup.delivery_lng != null && (
          <Row label="Deliver to">{displayAddress(`${pickup.delivery_lat},${pickup.delivery_lng}`)}</Row>
        )}
      </dl>
    </Section>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="point-stats__item">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

/**
 * The facts the side panel and the full-screen page both list first, in the §2 order; `hoursText` is
 * the server's wording of the opening hours, when the page carries it.
 */
export function PointFacts({
  point,
  host,
  hoursText,
}: {
  point: PointDetails;
  host: string;
  hoursText?: OpeningHoursText | null;
}) {
  return (
    <>
      <ContactSection point={point} host={host} />
      {point.opening_hours && <OpeningHours hours={point.opening_hours} text={hoursText} />}
      <People point={point} />
      {point.supertype === 'service' && <ServiceFacts point={point} />}
      {point.helprequestdata && <HelpRequestFacts data={point.helprequestdata} />}
      {point.pickup && <Pickup pickup={point.pickup} />}
      <HealthSection point={point} />
    </>
  );
}
