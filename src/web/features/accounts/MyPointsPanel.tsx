import { useLocation } from 'react-router';
import { useShell } from '../../shell/Shell';
import { SidePanel } from '../../shell/SidePanel';
import { useSession, LOGIN_REASONS } from './session';
import { useProfile } from './useProfile';
import { PointCard } from './PointCard';

/** The two "buttons on the map" pages of map-and-search §2, and what each lists. */
export const MY_POINTS_PAGES = {
  helpRequests: {
    path: '/MyHelpRequests',
    title: 'My help requests',
    supertype: 'helprequest',
    empty: 'You have no help requests yet.',
    reason: LOGIN_REASONS.helpRequests,
  },
  meOnMap: {
    path: '/MeOnMap/Index',
    title: 'Me on map',
    supertype: 'service',
    empty: 'You are not on the map yet: you have no service point.',
    reason: LOGIN_REASONS.meOnMap,
  },
} as const;

type MyPointsPage = (typeof MY_POINTS_PAGES)[keyof typeof MY_POINTS_PAGES];

export function myPointsPageFor(pathname: string): MyPointsPage | null {
  const lower = pathname.replace(/\/+$/, '').toLowerCase();
  return Object.values(MY_POINTS_PAGES).find((page) => page.path.toLowerCase() === lower) ?? null;
}

/** A panel over the map listing the signed-in user's help requests or service point. */
export function MyPointsPanel() {
  const { pathname } = useLocation();
  const page = myPointsPageFor(pathname);
  if (page === null) return null;
  return <MyPointsPanelFor page={page} />;
}

function MyPointsPanelFor({ page }: { page: MyPointsPage }) {
  const { user, loading, requireAccount } = useSession();
  const { navigation } = useShell();
  const state = useProfile(user?.username ?? null, { supertype: page.supertype, pagesize: 48 });

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
  else if (state.status === 'loading') body = <p className="my-points__note">Loading…</p>;
  else if (state.status === 'ready' && state.profile.points.items.length === 0)
    body = <p className="my-points__note my-points__empty">{page.empty}</p>;
  else if (state.status === 'ready')
    body = (
      <ul className="point-cards point-cards--compact">
        {state.profile.points.items.map((point) => (
          <li key={point.id}>
            <PointCard point={point} />
          </li>
        ))}
      </ul>
    );
  else
    body = (
      <p className="my-points__note" role="alert">
        {state.status === 'error' ? state.message : 'Your profile could not be found.'}
      </p>
    );

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
