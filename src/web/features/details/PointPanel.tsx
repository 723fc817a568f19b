import { useEffect, useState, type ReactNode } from 'react';
import { canonicalPointPath, needsPrefixCorrection } from '../../../shared/address';
import { cityLink, profileLink } from '../../../shared/address/links';
import { findCategory } from '../../../shared/domain/categories';
import {
  contactRoleText,
  displayAddress,
  emailView,
  linkView,
  phoneView,
  type LinkView,
} from '../../../shared/details/text';
import { useSession } from '../accounts/session';
import { useResource } from '../../lib/useResource';
import { revealOnMap } from '../../map/MapView';
import { useDocumentTitle, useShell } from '../../shell/Shell';
import { ErrorPanel, PanelLoader, SidePanel } from '../../shell/SidePanel';
import { Avatar } from '../accounts/Avatar';
import { CallbackModal } from './CallbackModal';
import { ClaimBanner } from './ClaimBanner';
import { Description } from './Description';
import { EventLists } from './EventLists';
import { formatDateTime } from './format';
import { HealthStatus } from './HealthStatus';
import { MediaCarousel } from './MediaCarousel';
import { PointControls } from './PointControls';
import { pointDetailsSchema, type PointDetails } from './schemas';
import { Section } from './Section';

export { pointDetailsSchema, type PointDetails };

/**
 * A point's detail level (map-and-search §2): opened from the map, a cluster list, search results or
 * the address. Loads its details, corrects a mismatched prefix in the address (§2), shows every
 * element of the §2 list by the rules of §5 and §6, and opens the point's events as the next level.
 */
export function PointPanel({ id }: { id: string }) {
  // the controls depend on who looks: signing in or out loads the point again
  const { user } = useSession();
  return <PointPanelLevel key={user?.id ?? ''} id={id} />;
}

function PointPanelLevel({ id }: { id: string }) {
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
  return (
    <SidePanel
      title={resource.data.title}
      className="point-panel"
      onClose={navigation.toMap}
      onBack={back}
      levelKey={`${id}.`}
    >
      <PointBody point={resource.data} open={navigation.openLevel} />
    </SidePanel>
  );
}

function PointBody({ point, open }: { point: PointDetails; open(to: string): void }) {
  const [callbackOpen, setCallbackOpen] = useState(false);
  const category = findCategory(point.supertype, point.type)?.name ?? point.type.replaceAll('_', ' ');
  const controls = point.controls;
  const isService = point.supertype === 'service';
  const isOwner = point.permissions?.isOwner ?? false;
  return (
    <>
      <MediaCarousel slides={point.carousel} title={point.title} />
      <div className="point-panel__head">
        <p className="point-panel__type">{category}</p>
        {point.rating_display && (
          <p className="point-panel__rating">
            <span aria-hidden="true">★</span>{' '}
            <span className="point-panel__rating-value">{point.rating_display}</span>
            <span className="point-panel__muted">
              {' '}
              / 5 · {point.rating_count} {point.rating_count === 1 ? 'review' : 'reviews'}
            </span>
          </p>
        )}
        {point.tagline && <p className="point-panel__tagline">{point.tagline}</p>}
        {point.opening_hours && <OpenNowBadge hours={point.opening_hours} />}
      </div>
      <Description text={point.description ?? ''} />
      <div className="point-panel__actions">
        {isService && !isOwner && (
          <button
            type="button"
            className="xp-button xp-button--primary"
            onClick={() => setCallbackOpen(true)}
          >
            Request a callback
          </button>
        )}
        {controls?.book && (
          <a className="xp-button xp-button--primary" href={controls.book}>
            Book
          </a>
        )}
        {controls?.fullscreen && (
          <a className="xp-button" href={controls.fullscreen}>
            Full screen
          </a>
        )}
      </div>

      {hasContact(point) && (
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
            <LinkRow label="Website" view={linkView(point.link_website, window.location.host)} external />
            <LinkRow label="Facebook" view={linkView(point.link_facebook, window.location.host)} external />
          </dl>
        </Section>
      )}

      {point.opening_hours && <OpeningHours hours={point.opening_hours} />}

      <People point={point} />

      {isService && <ServiceFacts point={point} />}
      {point.helprequestdata && <HelpRequestFacts data={point.helprequestdata} />}
      {point.pickup && <Pickup pickup={point.pickup} />}
      {point.healthdata && point.healthdata.status > 0 && (
        <Section title="Health" className="point-panel__health">
          <HealthStatus pointId={point.id} status={point.healthdata.status} />
        </Section>
      )}

      {point.events && <EventLists events={point.events} open={open} />}

      {point.xpStats_display && (
        <Section title="Visits" className="point-panel__stats">
          <dl className="point-stats">
            <Stat label="Total" value={point.xpStats_display.total} />
            <Stat label="Last month" value={point.xpStats_display.prev_month} />
            <Stat label="This month" value={point.xpStats_display.this_month} />
            <Stat label="Today" value={point.xpStats_display.today} />
          </dl>
        </Section>
      )}

      {point.xsites_json && point.xsites_json.data.length > 0 && (
        <Section title="External sites" className="point-panel__sites">
          <ul className="point-sites">
            {point.xsites_json.data.map((site) => {
              const view = linkView(site.url, window.location.host);
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
      )}

      {controls && <PointControls controls={controls} supertype={point.supertype} />}
      {controls?.claim && <ClaimBanner href={controls.claim} title={point.title} />}
      {callbackOpen && (
        <CallbackModal
          target={{
            toUserId: point.owner_userid,
            serviceName: point.xpointService ?? point.title,
            xpointId: point.id,
          }}
          onClose={() => setCallbackOpen(false)}
        />
      )}
    </>
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

const nextChangeText = (at: string) => at.replace('T', ' ');

function OpenNowBadge({ hours }: { hours: Hours }) {
  if (hours.state === 'unknown') return null;
  return (
    <p className={`open-now open-now--${hours.state}`}>
      {hours.state === 'open' ? 'Open now' : 'Closed now'}
      {hours.next_change && (
        <span className="point-panel__muted">
          {' '}
          · {hours.state === 'open' ? 'closes' : 'opens'} {nextChangeText(hours.next_change)}
        </span>
      )}
    </p>
  );
}

/** Opening hours (§3, §5): the open-now state evaluated in the point's zone, or the text as written. */
function OpeningHours({ hours }: { hours: Hours }) {
  return (
    <Section title="Opening hours" className="point-panel__hours">
      {hours.error ? (
        <p className="opening-hours__text">{hours.opening_hours_string}</p>
      ) : (
        <>
          <p className="opening-hours__text">{hours.opening_hours_string.split(/;\s*/).join('\n')}</p>
          <p className="point-panel__muted">
            {hours.state === 'open'
              ? 'Open now'
              : hours.state === 'closed'
                ? 'Closed now'
                : 'Open state unknown'}
            {hours.comment ? ` (${hours.comment})` : ''} · times in{' '}
            {hours.time_zone_name.replaceAll('_', ' ')}
          </p>
        </>
      )}
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
function People({ point }: { point: PointDetails }) {
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
function ServiceFacts({ point }: { point: PointDetails }) {
  return (
    <Section title="Service" className="point-panel__service">
      <dl className="details-list">
        {point.xpointService && <Row label="Service">{point.xpointService}</Row>}
        {point.owner_status && <Row label="Provider status">{point.owner_status}</Row>}
        <Row label="Visible on the map">{point.meonmap_enabled ? 'Yes' : 'No'}</Row>
        {point.owner_dynamic_last_update != null && (
          <Row label="Location updated">{formatDateTime(point.owner_dynamic_last_update)}</Row>
        )}
        {point.owner_callchat_priceperminute_display && (
          <Row label="Call or chat">{point.owner_callchat_priceperminute_display} per minute</Row>
        )}
      </dl>
    </Section>
  );
}

function HelpRequestFacts({ data }: { data: NonNullable<PointDetails['helprequestdata']> }) {
  return (
    <Section title="The task" className="point-panel__help">
      <dl className="details-list">
        {data.taskduration_display && (
          <Row label="Duration">
            {data.taskduration_display} {data.taskduration_display === '1' ? 'hour' : 'hours'}
          </Row>
        )}
        {data.taskbudget_display && <Row label="Budget">{data.taskbudget_display}</Row>}
        {data.taskstart != null && <Row label="Starts">{formatDateTime(data.taskstart)}</Row>}
        <Row label="Accepts helpers">{data.canacceptjob ? 'Yes, you can take this job' : 'No'}</Row>
        <Row label="Quotes">{data.canquote ? 'You can send a quote' : 'No quotes'}</Row>
      </dl>
    </Section>
  );
}

/** §5: a pickup shows only with its date and time (the API leaves it out otherwise). */
function Pickup({ pickup }: { pickup: NonNullable<PointDetails['pickup']> }) {
  return (
    <Section title="Pickup" className="point-panel__pickup">
      <dl className="details-list">
        <Row label="When">{formatDateTime(pickup.pickup_date_time)}</Row>
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
