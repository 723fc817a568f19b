import { lazy, useState, type MouseEvent } from 'react';
import { buildAddress, canonicalPointPath } from '../../../shared/address';
import type { OpeningHoursText } from '../../../shared/details/hours-text';
import { displayAddress } from '../../../shared/details/text';
import { ClaimBanner } from './ClaimBanner';
import { Description } from './Description';
import { EventLists } from './EventLists';
import { MediaCarousel } from './MediaCarousel';
import { PointControls } from './PointControls';
import { ExternalSites, PointFacts, VisitStats } from './PointSections';
import { PointActions, PointCallback, PointSummary } from './PointSummary';
import { LiveRatingLine } from '../reviews/LiveRatingLine';
import { ReviewsIsland } from '../reviews/ReviewsIsland';
import type { PointDetails } from './schemas';
import { Section, SectionLevel } from './Section';
import { SiteViewer } from './SiteViewer';
import { TimeFormatProvider } from './timeFormat';
import { Island } from '../../ui/Island';
import type { WebsiteView } from '../../../shared/website';
import './details.css';
import './fullscreen.css';

export interface FullScreenPointProps {
  point: PointDetails;
  /** the name of the point's category (the server's page carries it, so the taxonomy stays there). */
  category: string;
  /** the site's own host, for the §5 link rule. */
  host: string;
  /** the language dates are written in; the browser's when not given. Times are in the point's zone. */
  locale?: string;
  /**
   * Closing (§4) goes back to the point's normal address and reloads its details. Without a handler
   * the close link does it as a plain link, which also works with JavaScript off.
   */
  onClose?: (path: string) => void;
  /** Opens an event of the point; without a handler its link is followed. */
  onOpen?: (path: string) => void;
  /** the point's own site as the server read it (issue 20); read by the site viewer when undefined. */
  website?: WebsiteView | null;
  /**
   * The opening hours in words as the server wrote them with the page (so the browser hydrates the
   * same words, whatever its clock); made from `point` in the browser when not given.
   */
  hoursText?: OpeningHoursText | null;
}

/**
 * The point's posts (issue 17) load in the browser with their own chunk (the list, the posts modal,
 * the form and its cropper) once the page is taken over and the section comes near the screen: the
 * server's markup and the first render in the browser both show the loading line, so hydration matches.
 */
const PointPosts = lazy(() => import('../posts/PointPosts'));

function PointPostsIsland({ point, onOpen }: { point: PointDetails; onOpen?: (path: string) => void }) {
  return (
    <Island
      placeholder={
        <p className="empty-note" role="status">
          Loading posts…
        </p>
      }
    >
      <PointPosts
        point={{
          xpointid: point.id,
          title: point.title,
          lat: point.lat,
          lon: point.lon,
          city_forurl: point.location?.city_forurl ?? null,
        }}
        {...(onOpen ? { navigate: onOpen } : {})}
      />
    </Island>
  );
}

/** A plain left click, which a handler may take over; any other keeps the browser's meaning. */
function isPlainClick(event: MouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

/**
 * The full-screen point page (map-and-search §2, §4): media, the point's story, events, posts,
 * reviews, opening hours and a site viewer, with contacts and people beside. The server renders it
 * (src/web/ssr) and the browser hydrates the same tree, so it reads nothing from the window while
 * rendering.
 */
export function FullScreenPoint({
  point,
  category,
  host,
  locale,
  onClose,
  onOpen,
  website,
  hoursText,
}: FullScreenPointProps) {
  const [callbackOpen, setCallbackOpen] = useState(false);
  const closePath = canonicalPointPath(point.id, point.supertype);
  const controls = point.controls;
  const where = [point.location?.city, point.location?.country].filter(Boolean).join(', ');
  const open = (path: string) => (onOpen ? onOpen(path) : window.location.assign(path));
  return (
    <TimeFormatProvider locale={locale} timeZone={point.time_zone_name ?? undefined}>
      <SectionLevel.Provider value={2}>
        <div className="fullscreen-page">
          <header className="fullscreen-page__bar">
            <a className="fullscreen-page__brand" href="/maps">
              XPoint
            </a>
            <a
              className="xp-button fullscreen-page__close"
              href={closePath}
              onClick={(event) => {
                if (!onClose || !isPlainClick(event)) return;
                event.preventDefault();
                onClose(closePath);
              }}
            >
              <span aria-hidden="true">×</span> Close
            </a>
          </header>
          <main className="fullscreen-page__main" id="main">
            <article className="fullscreen-page__article">
              <div className="fullscreen-page__media">
                <MediaCarousel slides={point.carousel} title={point.title} />
              </div>
              <div className="fullscreen-page__title">
                <h1>{point.title}</h1>
                {(where || point.full_address) && (
                  <p className="fullscreen-page__where">
                    {point.full_address ? displayAddress(point.full_address) : where}
                    {point.full_address && where ? ` · ${where}` : ''}
                  </p>
                )}
                <PointSummary
                  point={point}
                  category={category}
                  rating={<LiveRatingLine point={point} />}
                  hoursText={hoursText}
                />
                <div className="point-panel__actions">
                  <PointActions
                    point={point}
                    onCallback={() => setCallbackOpen(true)}
                    chat={
                      // no session or router here: the conversation's page asks to sign in itself
                      <a className="xp-button" href={buildAddress({ screen: 'chat', pointId: point.id })}>
                        Chat
                      </a>
                    }
                  />
                </div>
              </div>

              <div className="fullscreen-page__columns">
                <div className="fullscreen-page__content">
                  <Section title="About" className="fullscreen-page__about">
                    {point.description?.trim() ? (
                      <Description text={point.description} />
                    ) : (
                      <p className="empty-note">The owner has not written a description yet.</p>
                    )}
                  </Section>
                  {point.events && <EventLists events={point.events} open={open} />}
                  <Section title="Posts" className="fullscreen-page__posts">
                    <PointPostsIsland point={point} onOpen={onOpen} />
                  </Section>
                  <Section title="Reviews" className="fullscreen-page__reviews">
                    <ReviewsIsland point={point} />
                  </Section>
                  <SiteViewer point={point} host={host} website={website} />
                </div>

                <aside className="fullscreen-page__aside" aria-label="Contacts and facts">
                  <PointFacts point={point} host={host} hoursText={hoursText} />
                  <VisitStats point={point} />
                  <ExternalSites point={point} host={host} />
                  {controls && (
                    <PointControls
                      controls={controls}
                      supertype={point.supertype}
                      owned={!!point.owner_username}
                      pointId={point.id}
                    />
                  )}
                </aside>
              </div>
            </article>
          </main>
          {controls?.claim && <ClaimBanner href={controls.claim} title={point.title} />}
          {callbackOpen && <PointCallback point={point} onClose={() => setCallbackOpen(false)} />}
        </div>
      </SectionLevel.Provider>
    </TimeFormatProvider>
  );
}
