import { createBrowserRouter, RouterProvider } from 'react-router';
import { AccountPage } from '../features/accounts/AccountPage';
import { AuthPage } from '../features/accounts/AuthPage';
import { ProfilePage } from '../features/accounts/ProfilePage';
import { SessionProvider } from '../features/accounts/SessionProvider';
import { FullScreenLoaderProvider } from '../shell/FullScreenLoader';
import { Shell } from '../shell/Shell';

/**
 * Account pages stand alone; every other address is the shell over the map, which reads its
 * screen from the address (src/shared/address) so the map is created once and kept.
 */
const router = createBrowserRouter([
  { path: '/signin', element: <AuthPage mode="signin" /> },
  { path: '/signup', element: <AuthPage mode="signup" /> },
  { path: '/account', element: <AccountPage /> },
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
