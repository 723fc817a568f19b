import { randomBytes } from 'node:crypto';
import type {
  AccountUser,
  ChangePasswordRequest,
  LoginRequest,
  RegisterRequest,
} from '../../../shared/api/accounts';
import { AppError } from '../../../shared/errors';
import type { Viewer } from '../../../shared/permissions';
import type { PasswordRule } from '../../../shared/validation/accounts';
import {
  isGuessable,
  userInputsOf,
  type PasswordStrength,
} from '../../../shared/validation/password-strength';
import { requireViewer } from '../../auth/hook';
import { revokeUserSessions } from '../../auth/sessions';
import type { Store } from '../../store/store';
import type { User } from '../../store/schema';
import { storeAvatar, type AvatarSource } from './avatar';
import type { MediaPlace } from '../../media/store';
import { hashPassword, verifyPassword } from './password';
import * as q from './queries';
import {
  clearAttempts,
  recordFailure,
  releaseAttempt,
  reserveAttempt,
  type ThrottlePolicy,
} from './throttle';

/**
 * Sign-in throttling (issue 16, finding 3), kept in the store so every process agrees. Failures count
 * per account and address: five from one address lock that address out of the account for 30 s, then
 * 1, 2, 4 ... up to 15 min, while the owner at another address signs in at once. A looser limit per
 * account across every address (50) stops an attack spread over many addresses; only then does the
 * owner wait too. An unknown login is throttled the same way, so a lock says nothing about which
 * accounts exist.
 */
export const SIGNIN_PER_ADDRESS: ThrottlePolicy = {
  limit: 5,
  baseLockMs: 30_000,
  maxLockMs: 15 * 60_000,
  forgetAfterMs: 15 * 60_000,
};
export const SIGNIN_PER_ACCOUNT: ThrottlePolicy = {
  limit: 50,
  baseLockMs: 60_000,
  maxLockMs: 15 * 60_000,
  forgetAfterMs: 15 * 60_000,
};

/**
 * Sign-ups answered "this email is taken" per address before its sign-ups wait: 3, then 15 min,
 * doubling to an hour. Taken usernames do not count: they are public, and picking a free one is normal.
 */
export const SIGNUP_EMAIL_CLASHES: ThrottlePolicy = {
  limit: 3,
  baseLockMs: 15 * 60_000,
  maxLockMs: 60 * 60_000,
  forgetAfterMs: 60 * 60_000,
};

/** A 429 for sign-ups from an address that has probed too many taken emails (Retry-After). */
export class SignUpPausedError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super('rateLimited', { retry: formatSeconds(retryAfterSeconds) });
  }
}

/** A 429 that also says when to try again (the route puts it in Retry-After). */
export class AccountLockedError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super('accountLocked', { retry: formatSeconds(retryAfterSeconds) });
  }
}

export interface CreateAccountInput {
  username: string;
  email: string;
  fullname: string;
  password: string;
  isAdmin?: boolean;
}

/** The account rules: sign-up, sign-in with throttling, password change, avatar. */
export class AccountService {
  private dummyHash: Promise<string> | undefined;

  constructor(
    private readonly store: Store,
    private readonly options: {
      passwordRule: PasswordRule;
      /** where avatars are stored */
      media: MediaPlace;
      /** zxcvbn for password changes (the routes pass it; the users CLI, which changes none, need not load it). */
      strength?: PasswordStrength;
    },
  ) {}

  /**
   * Creates the account (the route has validated it with the shared contract); 409 on a taken username
   * or email. A taken username is said plainly (usernames are public on profiles); a taken email is
   * said too, since a sign-up signs in at once and any other answer would be found out by the next
   * call, but an address gets only SIGNUP_EMAIL_CLASHES of those answers before its sign-ups wait, so
   * probing emails costs about 3 answers an hour per address (issue 16, finding 5; architecture.md).
   */
  async register(input: RegisterRequest, ip: string | null): Promise<User> {
    const key = `signup:${addressKey(ip)}`;
    const now = Date.now();
    // reserved first, atomically, so parallel probes cannot get more answers than the budget
    const budget = await reserveAttempt(this.store, key, SIGNUP_EMAIL_CLASHES, now);
    if (!budget.ok) throw new SignUpPausedError(Math.max(1, Math.ceil((budget.retryAt - now) / 1000)));
    try {
      const user = await this.createAccount(input);
      await releaseAttempt(this.store, key);
      return user;
    } catch (error) {
      if (error instanceof AppError && error.errorName === 'emailTaken')
        await recordFailure(this.store, key, SIGNUP_EMAIL_CLASHES, now);
      else await releaseAttempt(this.store, key);
      throw error;
    }
  }

  /** Also used by the users CLI (with isAdmin), after the same validation. */
  async createAccount(input: CreateAccountInput): Promise<User> {
    await this.refuseClash(input.username, input.email);
    const now = Date.now();
    const user: User = {
      id: randomBytes(9).toString('base64url'),
      username: input.username,
      username_lower: input.username.toLowerCase(),
      email: input.email,
      email_lower: input.email.toLowerCase(),
      fullname: input.fullname,
      avatar_url: null,
      status: 'active',
      is_admin: input.isAdmin ? 1 : 0,
      password_hash: await hashPassword(input.password),
      created_at: now,
      updated_at: now,
    };
    try {
      await q.insertUser(this.store, user);
    } catch (error) {
      // two sign-ups for one name at the same moment: the unique index decides, and we say which
      await this.refuseClash(input.username, input.email);
      throw error;
    }
    return user;
  }

  private async refuseClash(username: string, email: string): Promise<void> {
    const clash = await q.findClash(this.store, username.toLowerCase(), email.toLowerCase());
    if (clash.username) throw new AppError('usernameTaken', { username });
    if (clash.email) throw new AppError('emailTaken');
  }

  /**
   * The user for a login (username or email) and password. An unknown login and a wrong password get
   * the same answer, after the same work (a dummy hash is checked for unknown logins). An address with
   * too many recent failures on this account, or an account failing from everywhere, is refused with
   * 429 until its lock passes, right password or not.
   */
  async authenticate({ login, password }: LoginRequest, ip: string | null): Promise<User> {
    const user = await q.findUserByLogin(this.store, login);
    const account = user ? `user:${user.id}` : `login:${login.toLowerCase()}`;
    const pairKey = `pair:${account}|${addressKey(ip)}`;
    const accountKey = `account:${account}`;
    const now = Date.now();

    // reserve before checking: the store decides atomically whether this attempt may run at all
    const pair = await reserveAttempt(this.store, pairKey, SIGNIN_PER_ADDRESS, now);
    if (!pair.ok) throw lockedUntil(pair.retryAt, now);
    const wide = await reserveAttempt(this.store, accountKey, SIGNIN_PER_ACCOUNT, now);
    if (!wide.ok) {
      await releaseAttempt(this.store, pairKey);
      throw lockedUntil(wide.retryAt, now);
    }

    const ok = await verifyPassword(password, user?.password_hash ?? (await this.hashForUnknown()));
    if (!user || !user.password_hash || !ok) {
      await recordFailure(this.store, pairKey, SIGNIN_PER_ADDRESS, now);
      await recordFailure(this.store, accountKey, SIGNIN_PER_ACCOUNT, now);
      throw new AppError('wrongCredentials');
    }
    // the owner is in: this address starts afresh; the account-wide streak only gives back this attempt,
    // so an attacker elsewhere is not reset by the owner signing in
    await clearAttempts(this.store, pairKey);
    await releaseAttempt(this.store, accountKey);
    return user;
  }

  async me(viewer: Viewer): Promise<User> {
    const signedIn = requireViewer(viewer);
    const user = await q.findUserById(this.store, signedIn.id);
    if (!user) throw new AppError('sessionInvalid');
    return user;
  }

  /** Checks the current password, stores the new one and signs out every other session. */
  async changePassword(
    viewer: Viewer,
    sessionId: string | undefined,
    input: ChangePasswordRequest,
  ): Promise<User> {
    const user = await this.me(viewer);
    if (!(await verifyPassword(input.currentPassword, user.password_hash))) {
      throw new AppError('wrongCurrentPassword');
    }
    // the contract refused common passwords; only here is it known whose names to refuse too
    const { strength } = this.options;
    if (strength && isGuessable(input.newPassword, userInputsOf(user), strength))
      throw new AppError('passwordTooGuessable', { field: 'newPassword' });
    const now = Date.now();
    await q.updatePasswordHash(this.store, user.id, await hashPassword(input.newPassword), now);
    await revokeUserSessions(this.store, user.id, now, sessionId);
    return user;
  }

  async signOutEverywhere(viewer: Viewer): Promise<void> {
    const signedIn = requireViewer(viewer);
    await revokeUserSessions(this.store, signedIn.id, Date.now());
  }

  async setAvatar(viewer: Viewer, { image }: { image: AvatarSource }): Promise<User> {
    const user = await this.me(viewer);
    const stored = await storeAvatar(image, this.options.media);
    const now = Date.now();
    const { url, ...asset } = stored;
    await q.setAvatar(this.store, user.id, asset, url, now);
    return { ...user, avatar_url: url, updated_at: now };
  }

  private hashForUnknown(): Promise<string> {
    this.dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
    return this.dummyHash;
  }
}

function lockedUntil(retryAt: number, now: number): AccountLockedError {
  return new AccountLockedError(Math.max(1, Math.ceil((retryAt - now) / 1000)));
}

/**
 * The address a sign-in is counted under: an IPv4 address as it is, an IPv6 address by its /64 (one
 * home or host is given a whole /64, so counting single IPv6 addresses would let it rotate freely).
 */
export function addressKey(ip: string | null): string {
  if (!ip) return 'unknown';
  if (!ip.includes(':')) return ip;
  if (ip.toLowerCase().startsWith('::ffff:') && ip.includes('.')) return ip.slice(7);
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = ip.includes('::') && tail ? tail.split(':') : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = ip.includes('::')
    ? [...headGroups, ...Array(Math.max(0, missing)).fill('0'), ...tailGroups]
    : headGroups;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

export function toAccountUser(user: User): AccountUser {
  return {
    id: user.id,
    username: user.username,
    fullname: user.fullname,
    email: user.email,
    avatar: user.avatar_url,
    isAdmin: Number(user.is_admin) === 1,
  };
}

function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  return `${Math.ceil(seconds / 60)} min`;
}
