import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { lazySchema } from '../../lib/schemas';
import type { AccountUser } from '../../../shared/api/accounts';
import { ERRORS } from '../../../shared/errors';
import { ApiError, apiGet, apiPost, refreshAntiforgeryToken, setAntiforgeryToken } from '../../lib/api';
import { SessionContext, type AuthTab, type Session, type SignUpInput } from './session';

/**
 * The global user data the server puts in the page (social §3): the signed-in user's id, empty for a
 * visitor. A visitor's page then never asks GET /v1/account/me just to hear 401; a signed-in one asks
 * for the rest of the profile. The session itself stays in the httpOnly cookie.
 */
/** The sign-in form loads when it is first asked for: most pages never show it. */
const LoginModal = lazy(() => import('./LoginModal').then((module) => ({ default: module.LoginModal })));

function pageUserId(): string {
  // rendering on the server (the full-screen page): nobody is known until the browser takes over
  if (typeof document === 'undefined') return '';
  return document.querySelector<HTMLMetaElement>('meta[name="xp-user-id"]')?.content ?? '';
}

function readHint(): boolean {
  return pageUserId() !== '';
}

/** The catalogue's antiforgeryMissing (src/shared/errors.ts). */
const ANTIFORGERY_MISSING = ERRORS.antiforgeryMissing.code;

interface ModalState {
  tab: AuthTab;
  reason: string | null;
}

/**
 * Holds the global user data (social §3) for the whole app, asks the server who we are on start
 * (a 401 means a visitor), and owns the login modal that any action needing an account opens.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<AccountUser | null>(null);
  const [loading, setLoading] = useState(readHint);
  const [modal, setModal] = useState<ModalState | null>(null);
  /** what to do once the visitor signs in through the modal. */
  const pending = useRef<(() => void) | null>(null);

  useEffect(() => {
    if (!readHint()) return;
    const controller = new AbortController();
    apiGet('/v1/account/me', lazySchema('meResponseSchema'), { signal: controller.signal })
      .then(({ user: me }) => setUser(me))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        // 401 is simply a visitor; anything else also leaves us signed out, and the next action says why
        if (!(error instanceof ApiError)) console.warn('XPoint: could not read the session', error);
        setUser(null);
      })
      .finally(() => {
        if (!controller.signal.aborted) setLoading(false);
      });
    return () => controller.abort();
  }, []);

  const signIn = useCallback(async (login: string, password: string) => {
    const answer = await apiPost('/v1/account/login', lazySchema('loginResponseSchema'), { login, password });
    setAntiforgeryToken(answer.antiforgery);
    setUser(answer.user);
    return answer.user;
  }, []);

  const signUp = useCallback(async (input: SignUpInput) => {
    const answer = await apiPost('/v1/account/register', lazySchema('registerResponseSchema'), input);
    // the register answer has no anti-forgery token: ask for the one bound to the new session
    setUser(answer.user);
    // the account exists and the cookie is set: a failed refresh must not read as a failed sign-up
    await refreshAntiforgeryToken().catch((error: unknown) =>
      console.warn('XPoint: could not refresh the anti-forgery token', error),
    );
    return answer.user;
  }, []);

  /**
   * Signs out on the server first (this session, or every session of the account): if that fails
   * (offline), the user stays signed in and the error is thrown, rather than a page that says
   * "signed out" over a live session. A stale anti-forgery token (another tab signed in again) is
   * refreshed and the call tried once more.
   */
  const endSessions = useCallback(async (path: '/v1/account/logout' | '/v1/account/logout-everywhere') => {
    const logout = () => apiPost(path, lazySchema('okResponseSchema'));
    try {
      await logout();
    } catch (error) {
      if (error instanceof ApiError && error.code === ANTIFORGERY_MISSING) {
        await refreshAntiforgeryToken();
        await logout();
      } else if (!(error instanceof ApiError && error.status === 401)) {
        throw error;
      }
    }
    setUser(null);
    await refreshAntiforgeryToken().catch(() => undefined);
  }, []);

  const signOut = useCallback(() => endSessions('/v1/account/logout'), [endSessions]);
  const signOutEverywhere = useCallback(() => endSessions('/v1/account/logout-everywhere'), [endSessions]);
  const updateUser = useCallback((next: AccountUser) => setUser(next), []);

  const openLogin = useCallback((tab: AuthTab = 'signin') => {
    pending.current = null;
    setModal({ tab, reason: null });
  }, []);

  const signedIn = user !== null && user.id !== '';

  const requireAccount = useCallback(
    (reason: string, then?: () => void) => {
      if (signedIn) return true;
      pending.current = then ?? null;
      setModal({ tab: 'signin', reason });
      return false;
    },
    [signedIn],
  );

  const closeModal = useCallback(() => {
    pending.current = null;
    setModal(null);
  }, []);

  const onModalSignedIn = useCallback(() => {
    const then = pending.current;
    pending.current = null;
    setModal(null);
    then?.();
  }, []);

  const session = useMemo<Session>(
    () => ({
      user,
      globalUser: { userId: user?.id ?? '' },
      signedIn,
      loading,
      signIn,
      signUp,
      signOut,
      signOutEverywhere,
      updateUser,
      requireAccount,
      openLogin,
    }),
    [
      user,
      signedIn,
      loading,
      signIn,
      signUp,
      signOut,
      signOutEverywhere,
      updateUser,
      requireAccount,
      openLogin,
    ],
  );

  return (
    <SessionContext.Provider value={session}>
      {children}
      {modal !== null && (
        <Suspense fallback={null}>
          <LoginModal
            initialTab={modal.tab}
            reason={modal.reason}
            onClose={closeModal}
            onSignedIn={onModalSignedIn}
          />
        </Suspense>
      )}
    </SessionContext.Provider>
  );
}
