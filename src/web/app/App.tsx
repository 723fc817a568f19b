import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, type ReactNode } from 'react';
import { ErrorBoundary } from 'react-error-boundary';
import { BrowserRouter, Route, Routes } from 'react-router';
import { SessionProvider } from '../features/accounts/SessionProvider';
import { onApiWrite } from '../lib/api';
import { createQueryClient, refreshAfterWrite } from '../lib/query';
import { FullScreenLoaderProvider } from '../shell/FullScreenLoader';
import { ScreenFailed } from '../shell/ScreenFailed';
import { Shell } from '../shell/Shell';

/*
 * The account pages load when one is opened: the map page, which nearly every visit starts on, does
 * without their forms (and keeps its first download within budget, README "initial JS").
 */
const AuthPage = lazy(() =>
  import('../features/accounts/AuthPage').then((module) => ({ default: module.AuthPage })),
);
const AccountPage = lazy(() =>
  import('../features/accounts/AccountPage').then((module) => ({ default: module.AccountPage })),
);
const ProfilePage = lazy(() =>
  import('../features/accounts/ProfilePage').then((module) => ({ default: module.ProfilePage })),
);
/** The admins' claims queue (issue 16): only admins ever open it. */
const ClaimsPage = lazy(() =>
  import('../features/admin/ClaimsPage').then((module) => ({ default: module.ClaimsPage })),
);

/** A page of its own, blank for the moment its script takes to arrive. */
function Page({ children }: { children: ReactNode }) {
  return <Suspense fallback={null}>{children}</Suspense>;
}

/**
 * Account pages stand alone; every other address is the shell over the map, which reads its
 * screen from the address (src/shared/address) so the map is created once and kept.
 */
const appRoutes = (
  <Routes>
    <Route
      path="/signin"
      element={
        <Page>
          <AuthPage mode="signin" />
        </Page>
      }
    />
    <Route
      path="/signup"
      element={
        <Page>
          <AuthPage mode="signup" />
        </Page>
      }
    />
    <Route
      path="/account"
      element={
        <Page>
          <AccountPage />
        </Page>
      }
    />
    <Route
      path="/u/:username"
      element={
        <Page>
          <ProfilePage />
        </Page>
      }
    />
    <Route
      path="/admin/claims"
      element={
        <Page>
          <ClaimsPage />
        </Page>
      }
    />
    <Route path="*" element={<Shell />} />
  </Routes>
);

/** The one cache of server state for the page's whole life (src/web/lib/query.ts). */
const queryClient = createQueryClient();
// A mutation refreshes the answers it names. A write made outside one (the forms, sign-in and
// sign-out) cannot say what it changed, so it refreshes everything: no stale answer is left behind.
const stopHearingWrites = onApiWrite(() => {
  if (queryClient.isMutating() === 0) void refreshAfterWrite(queryClient);
});
// in development a changed App.tsx runs again with a new cache: the old one stops listening
import.meta.hot?.dispose(stopHearingWrites);

/** Puts an answer the server's first paint came with in the cache, as `apiQuery(path, …, viewer)` keys it. */
export function seedAnswer(path: string, viewer: string, data: unknown): void {
  queryClient.setQueryData([path, viewer], data);
}

export function App() {
  return (
    <ErrorBoundary FallbackComponent={ScreenFailed}>
      <QueryClientProvider client={queryClient}>
        <SessionProvider>
          <FullScreenLoaderProvider>
            <BrowserRouter>{appRoutes}</BrowserRouter>
          </FullScreenLoaderProvider>
        </SessionProvider>
      </QueryClientProvider>
    </ErrorBoundary>
  );
}
