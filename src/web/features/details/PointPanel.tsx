import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { canonicalPointPath, needsPrefixCorrection } from '../../../shared/address';
import { useSession } from '../accounts/session';
import { ChatButton } from '../chat/ChatButton';
import { errorText } from '../../lib/query';
import { revealOnMap } from '../../map/mapHandle';
import { showSelectedPlace } from '../../map/selectedPlace';
import { useDocumentTitle, useShell } from '../../shell/context';
import { ErrorPanel, PanelLoader, SidePanel } from '../../shell/SidePanel';
import { ClaimBanner } from './ClaimBanner';
import { Description } from './Description';
import { EventLists } from './EventLists';
import { MediaCarousel } from './MediaCarousel';
import { PointActions, PointCallback, PointSummary } from './PointSummary';
import { PointReviews } from '../reviews/PointReviews';
import { PointControls } from './PointControls';
import { ExternalSites, PointFacts, VisitStats } from './PointSections';
import { pointDetailsQuery } from './queries';
import { pointDetailsSchema, type PointDetails } from './schemas';
import { categoryName } from '../../../shared/domain/categories';
import './details.css';

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
  const { user } = useSession();
  const resource = useQuery(pointDetailsQuery(id, user?.id ?? ''));
  const details = resource.data ?? null;
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
  // and is marked there while its level is open (issue 21, item 10)
  useEffect(() => {
    if (details === null) return;
    showSelectedPlace({ lng: details.lon, lat: details.lat, title: details.title });
    return () => showSelectedPlace(null);
  }, [details]);

  // the same panel frame loading, failing and loaded; the level key tells React which state it shows
  const frame = {
    className: 'point-panel',
    onClose: navigation.toMap,
    onBack: navigation.canGoBack ? navigation.back : undefined,
  };
  if (resource.status === 'pending')
    return (
      <SidePanel title="Loading…" levelKey={id} {...frame}>
        <PanelLoader label="Loading the place…" />
      </SidePanel>
    );
  if (resource.status === 'error')
    return (
      <SidePanel title="Place" levelKey={`${id}!`} {...frame}>
        <ErrorPanel message={errorText(resource.error)} />
      </SidePanel>
    );
  return (
    <SidePanel title={resource.data.title} levelKey={`${id}.`} {...frame}>
      <PointBody point={resource.data} open={navigation.openLevel} />
    </SidePanel>
  );
}

function PointBody({ point, open }: { point: PointDetails; open(to: string): void }) {
  const { navigation } = useShell();
  const [callbackOpen, setCallbackOpen] = useState(false);
  const host = window.location.host;
  const controls = point.controls;
  return (
    <>
      <MediaCarousel slides={point.carousel} title={point.title} />
      <PointSummary
        point={point}
        category={categoryName(point.supertype, point.type)}
        rating={<PointReviews point={point} replaceAddress={navigation.replace} />}
      />
      <Description text={point.description ?? ''} />
      <div className="point-panel__actions">
        <PointActions
          point={point}
          onCallback={() => setCallbackOpen(true)}
          chat={
            <ChatButton pointId={point.id} controllers={[point.owner_username, point.consultant_username]} />
          }
        />
        {controls?.fullscreen && (
          <a className="xp-button" href={controls.fullscreen}>
            Full screen
          </a>
        )}
      </div>

      <PointFacts point={point} host={host} />
      {point.events && <EventLists events={point.events} open={open} />}
      <VisitStats point={point} />
      <ExternalSites point={point} host={host} />

      {controls && (
        <PointControls
          controls={controls}
          supertype={point.supertype}
          owned={!!point.owner_username}
          pointId={point.id}
          open={open}
        />
      )}
      {controls?.claim && <ClaimBanner href={controls.claim} title={point.title} />}
      {callbackOpen && <PointCallback point={point} onClose={() => setCallbackOpen(false)} />}
    </>
  );
}
