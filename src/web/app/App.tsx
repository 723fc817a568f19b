import { createBrowserRouter, RouterProvider } from 'react-router';
import { ProfilePage } from '../features/accounts/ProfilePage';
import { SessionProvider } from '../features/accounts/SessionProvider';
import { FullScreenLoaderProvider } from '../shell/FullScreenLoader';
import { Shell } from '../shell/Shell';

/**
 * Account pages stand alone; every other address is the shell over the map, which reads its
 * screen from the address (src/shared/address) so the map is created once and kept.
 */
const router = createBrowserRouter([
  // the account forms load on demand: the map page's first load stays without the form library
  {
    path: '/signin',
    lazy: () =>
      import('../features/accounts/AuthPage').then(({ AuthPage }) => ({
        element: <AuthPage mode="signin" />,
      })),
  },
  {
    path: '/signup',
    lazy: () =>
      import('../features/accounts/AuthPage').then(({ AuthPage }) => ({
        element: <AuthPage mode="signup" />,
      })),
  },
  {
    path: '/account',
    lazy: () =>
      import('../features/accounts/AccountPage').then(({ AccountPage }) => ({ Component: AccountPage })),
  },
  { path: '/u/:username', element: <ProfilePage /> },
  { path: '*', element: <Shell /> },
]);

export function App() {
  return (
    <SessionProvider>
      <FullScreenLoaderProvider>
        <RouterProvider router={router} />
      </FullScreenLoaderProvider>
    </SessionProvider>
  );
}
