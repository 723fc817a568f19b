import type { ReactNode } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { ClusterList } from '../map/ClusterList';
import { MapView } from '../map/MapView';
import { useMapNavigation } from '../map/useMapNavigation';
import { AccountPage } from '../features/accounts/AccountPage';
import { AuthPage } from '../features/accounts/AuthPage';
import { MapButtons } from '../features/accounts/MapButtons';
import { MyPointsPanel } from '../features/accounts/MyPointsPanel';
import { ProfilePage } from '../features/accounts/ProfilePage';
import { SessionProvider } from '../features/accounts/SessionProvider';
import { UserMenu } from '../features/accounts/UserMenu';

/** The map page: a full-viewport map under a small top bar (the search form joins it with search). */
function MapPage({ panel }: { panel?: ReactNode }) {
  const mapNavigation = useMapNavigation();
  return (
    <div className="app">
      <header className="topbar">
        <a className="brand" href="/" aria-label="XPoint home">
          XPoint
        </a>
        <UserMenu />
      </header>
      <main className="map-area">
        <MapView {...mapNavigation} />
        {panel}
        <MapButtons />
      </main>
    </div>
  );
}

/** Every page route renders the map for now; the app shell (side panel, view modes) comes later. */
const router = createBrowserRouter([
  { path: '/', element: <MapPage /> },
  { path: '/cluster/*', element: <MapPage panel={<ClusterList />} /> },
  { path: '/signin', element: <AuthPage mode="signin" /> },
  { path: '/signup', element: <AuthPage mode="signup" /> },
  { path: '/account', element: <AccountPage /> },
  { path: '/u/:username', element: <ProfilePage /> },
  { path: '/MyHelpRequests', element: <MapPage panel={<MyPointsPanel />} /> },
  { path: '/MeOnMap/Index', element: <MapPage panel={<MyPointsPanel />} /> },
  { path: '*', element: <MapPage /> },
]);

export function App() {
  return (
    <SessionProvider>
      <RouterProvider router={router} />
    </SessionProvider>
  );
}
