import { useLocation } from 'react-router';
import { useShell } from '../../shell/context';
import { SidePanel } from '../../shell/SidePanel';
import { MyItemsRoute } from '../owner/OwnerRoutes';
import { useSession, LOGIN_REASONS } from './session';

/** The two "buttons on the map" pages of map-and-search §2, and what each lists. */
export const MY_POINTS_PAGES = {
  helpRequests: {
    path: '/MyHelpRequests',
    title: 'My help requests',
    supertype: 'helprequest',
    listName: 'Help requests',
    empty: 'You have no help requests yet.',
    reason: LOGIN_REASONS.helpRequests,
  },
  meOnMap: {
    path: '/MeOnMap/Index',
    title: 'Me on map',
    supertype: 'service',
    listName: 'Service points',
    empty: 'You are not on the map yet: you have no service point.',
    reason: LOGIN_REASONS.meOnMap,
  },
} as const;

type MyPointsPage = (typeof MY_POINTS_PAGES)[keyof typeof MY_POINTS_PAGES];

export function myPointsPageFor(pathname: string): MyPointsPage | null {
  const lower = pathname.replace(/\/+$/, '').toLowerCase();
  return Object.values(MY_POINTS_PAGES).find((page) => page.path.toLowerCase() === lower) ?? null;
}

/**
 * A panel over the map listing the signed-in user's help requests or service points with their
 * controls, and on request all their points and events (GET /v1/account/mypoints: consulted points
 * too, which a public profile does not list).
 */
export function MyPointsPanel() {
  const { pathname } = useLocation();
  const page = myPointsPageFor(pathname);
  if (page === null) return null;
  return <MyPointsPanelFor page={page} />;
}

function MyPointsPanelFor({ page }: { page: MyPointsPage }) {
  const { user, loading, requireAccount } = useSession();
  const { navigation } = useShell();

  let body;
  if (loading) body = <p className="my-points__note">Loading…</p>;
  else if (user === null)
    body = (
      <div className="my-points__note">
        <p>{page.reason}</p>
        <button
          type="button"
          className="xp-button xp-button--primary"
          onClick={() => requireAccount(page.reason)}
        >
          Sign in
        </button>
      </div>
    );
  else
    body = <MyItemsRoute key={user.id} supertype={page.supertype} label={page.listName} empty={page.empty} />;

  return (
    <SidePanel
      title={page.title}
      className="my-points"
      onClose={navigation.toMap}
      closeLabel={`Close ${page.title}`}
    >
      {body}
    </SidePanel>
  );
}
