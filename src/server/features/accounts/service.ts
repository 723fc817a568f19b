import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type {
  AccountUser,
  ChangePasswordRequest,
  LoginRequest,
  RegisterRequest,
} from '../../../shared/api/accounts';
import { AppError } from '../../../shared/errors';
import type { Viewer } from '../../../shared/permissions';
import type { PasswordRule } from '../../../shared/validation/accounts';
import { requireViewer } from '../../auth/hook';
import { revokeUserSessions } from '../../auth/sessions';
import type { Store } from '../../store/store';
import type { User } from '../../store/schema';
import { storeAvatar, type AvatarSource } from './avatar';
import { hashPassword, verifyPassword } from './password';
import * as q from './queries';

/** Per-account throttling of failed sign-ins (shared by every process through the store). */
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;
/** Failures within the window before the account is locked. */
export const LOGIN_FAILURES_BEFORE_LOCK = 5;
/** The first lock; each further failure doubles it, up to the window. */
export const LOGIN_LOCK_BASE_MS = 30_000;

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
    private readonly options: { passwordRule: PasswordRule; mediaDir: string },
  ) {}

  /** Validates with the shared contract and creates the account; 409 on a taken username or email. */
  async register(input: RegisterRequest): Promise<User> {
    return this.createAccount(input);
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
   * the same answer, after the same work (a dummy hash is checked for unknown logins). An account with
   * too many recent failures is refused with 429 until its lock passes, right password or not.
   */
  async authenticate({ login, password }: LoginRequest, ip: string | null): Promise<User> {
    const user = await q.findUserByLogin(this.store, login);
    const key = user ? `user:${user.id}` : `login:${login.toLowerCase()}`;
    const now = Date.now();

    const failures = await q.recentFailures(this.store, key, now - LOGIN_FAILURE_WINDOW_MS);
    const lockedUntil = lockEnd(failures);
    if (lockedUntil > now) throw new AccountLockedError(Math.ceil((lockedUntil - now) / 1000));

    const ok = await verifyPassword(password, user?.password_hash ?? (await this.hashForUnknown()));
    if (!user || !user.password_hash || !ok) {
      await q.recordFailure(this.store, key, ip, now, now - LOGIN_FAILURE_WINDOW_MS);
      throw new AppError('wrongCredentials');
    }
    await q.clearFailures(this.store, [key]);
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
    const stored = await storeAvatar(image, this.options.mediaDir);
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

/** When the lock from these failures (newest first) ends; 0 when there is none. */
export function lockEnd(failures: number[]): number {
  if (failures.length < LOGIN_FAILURES_BEFORE_LOCK) return 0;
  const extra = failures.length - LOGIN_FAILURES_BEFORE_LOCK;
  const lockMs = Math.min(LOGIN_FAILURE_WINDOW_MS, LOGIN_LOCK_BASE_MS * 2 ** Math.min(extra, 10));
  return (failures[0] ?? 0) + lockMs;
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

export function mediaDirOf(dataDir: string): string {
  return path.join(dataDir, 'media');
}
