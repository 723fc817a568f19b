import { createContext, useContext } from 'react';
import type { AccountUser } from '../../../shared/api/accounts';

/**
 * Social §3's "global user data": the user id and an identity token. In the browser the identity
 * token is the httpOnly session cookie (script never sees it, so a script injection cannot steal
 * it); API clients use the token of the login answer instead. A visitor counts as signed in when
 * the id is non-empty (social §6).
 */
export interface GlobalUserData {
  /** '' for a visitor. */
  userId: string;
}

/** What the login modal opens on. */
export type AuthTab = 'signin' | 'signup';

export interface SignUpInput {
  username: string;
  email: string;
  fullname: string;
  password: string;
}

export interface Session {
  /** the signed-in user, or null for a visitor (also while the first check runs). */
  user: AccountUser | null;
  globalUser: GlobalUserData;
  signedIn: boolean;
  /** true until GET /v1/account/me has answered once. */
  loading: boolean;
  signIn(login: string, password: string): Promise<AccountUser>;
  signUp(input: SignUpInput): Promise<AccountUser>;
  signOut(): Promise<void>;
  /** Ends every session of the account on the server (all devices), then signs out here. */
  signOutEverywhere(): Promise<void>;
  /** Replaces the signed-in user with the server's newer copy (a new avatar, a changed password). */
  updateUser(user: AccountUser): void;
  /**
   * For an action that needs an account: true when signed in; otherwise opens the login modal
   * with `reason` at the top and answers false. `then` runs once the visitor has signed in there.
   */
  requireAccount(reason: string, then?: () => void): boolean;
  /** Opens the login modal without an action waiting on it (the header's Sign in button). */
  openLogin(tab?: AuthTab): void;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (session === null) throw new Error('useSession needs a <SessionProvider> above it.');
  return session;
}

/** The spec's reasons (social §8 and friends), shown at the top of the login modal. */
export const LOGIN_REASONS = {
  like: 'Sorry, You need to login to Like/Dislike.',
  follow: 'You need to login to follow this user.',
  createPost: 'You need to login to create a post.',
  comment: 'You need to login to comment.',
  helpRequests: 'You need to sign in to see your help requests.',
  meOnMap: 'You need to sign in to show yourself on the map.',
  account: 'You need to sign in to change your account.',
} as const;
