import { useCallback, useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { z } from 'zod';
import {
  changePasswordRequestSchema,
  meResponseSchema,
  type AccountUser,
} from '../../../shared/api/accounts';
import { DEFAULT_PASSWORD_RULE } from '../../../shared/validation/accounts';
import type { PasswordStrength } from '../../../shared/validation/password-strength';
import { apiPost, apiUpload, fieldError, fileForm } from '../../lib/api';
import { Avatar } from './Avatar';
import { PageHeader } from './PageHeader';
import { messageFor } from './accountForm';
import { AccountForm, type FieldSpec } from './AuthForm';
import { LOGIN_REASONS, useSession } from './session';
import './pages.css';

/** Social §5 and §9: an image of at most 10485760 bytes (the server checks the same). */
const MAX_IMAGE_BYTES = 10_485_760;
const MAX_IMAGE_LABEL = '10 MB';
/** The spec's extensions, plus WebP, which the server also takes. */
const IMAGE_EXTENSIONS = /\.(jpe?g|png|gif|webp)$/i;
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);
const EXTENSION_WARNING = 'Please upload file having extensions .jpeg/.jpg/.png/.gif only.';
const PASSWORD_CHANGED = 'Your password was changed. Other devices were signed out.';

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * /account: the signed-in user's settings — a new photo, a new password, and signing out on every
 * device. A visitor is asked to sign in (the login modal opens once, with a prompt behind it).
 */
export function AccountPage() {
  const { user, signedIn, loading, requireAccount } = useSession();
  /** the modal opens by itself once, for a visitor who came here; not after signing out here. */
  const asked = useRef(false);
  const [signedOutHere, setSignedOutHere] = useState(false);

  useEffect(() => {
    document.title = 'Account settings — XPoint';
  }, []);

  useEffect(() => {
    if (loading || asked.current) return;
    asked.current = true;
    // a user who signs out here sees the prompt; the modal opens only for a visitor arriving
    if (signedIn) return;
    requireAccount(LOGIN_REASONS.account);
  }, [loading, signedIn, requireAccount]);

  return (
    <div className="page">
      <PageHeader />
      <main className="page__main account" aria-busy={loading}>
        <h1 className="account__title">Account settings</h1>
        {loading ? (
          <p className="account__note" role="status">
            Loading your account…
          </p>
        ) : !signedIn || user === null ? (
          <div className="account__card account__prompt">
            <p role="status">
              {signedOutHere ? 'You were signed out on every device.' : LOGIN_REASONS.account}
            </p>
            <button
              type="button"
              className="xp-button xp-button--primary"
              onClick={() => requireAccount(LOGIN_REASONS.account)}
            >
              Sign in
            </button>
          </div>
        ) : (
          <>
            <PhotoSection user={user} />
            <PasswordSection />
            <SignOutEverywhereSection onSignedOut={() => setSignedOutHere(true)} />
          </>
        )}
      </main>
    </div>
  );
}

/** Reads a picked file as a data URL, for the preview beside the current photo. */
function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error('The file could not be read.'));
    reader.readAsDataURL(file);
  });
}

function PhotoSection({ user }: { user: AccountUser }) {
  const { updateUser } = useSession();
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<{ file: File; url: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);

  const onPick = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    setError(null);
    setStatus('');
    setPreview(null);
    if (!file) return;
    const clear = () => {
      if (inputRef.current) inputRef.current.value = '';
    };
    if (!IMAGE_EXTENSIONS.test(file.name) || (file.type !== '' && !IMAGE_TYPES.has(file.type))) {
      console.warn(EXTENSION_WARNING);
      setError(EXTENSION_WARNING);
      clear();
      return;
    }
    if (file.size > MAX_IMAGE_BYTES) {
      setError(`Invalid image size. Max allowed ${MAX_IMAGE_LABEL}`);
      clear();
      return;
    }
    try {
      setPreview({ file, url: await readAsDataUrl(file) });
      setStatus('Preview ready. Choose Save photo to use it.');
    } catch (failure) {
      setError(errorText(failure));
      clear();
    }
  };

  const onSave = async () => {
    if (preview === null || busy) return;
    setBusy(true);
    setError(null);
    setStatus('Uploading your photo…');
    try {
      // the file itself, as multipart/form-data: the browser streams it and reports the progress
      const answer = await apiUpload('/v1/account/avatar', meResponseSchema, fileForm({}, preview.file), {
        onProgress: (sent) => setStatus(`Uploading your photo… ${Math.round(sent * 100)}%`),
      });
      updateUser(answer.user);
      setPreview(null);
      if (inputRef.current) inputRef.current.value = '';
      setStatus('Your photo was saved.');
    } catch (failure) {
      setStatus('');
      const message = errorText(failure);
      // the server's 'image: must be …' reads as 'Photo must be …'
      const spot = fieldError(failure);
      setError(spot?.field === 'image' ? messageFor('Photo', spot.reason) : message);
    } finally {
      setBusy(false);
    }
  };

  const onCancel = () => {
    setPreview(null);
    setError(null);
    setStatus('');
    if (inputRef.current) inputRef.current.value = '';
  };

  return (
    <section className="account__card" aria-labelledby={`${id}-title`} aria-busy={busy}>
      <h2 id={`${id}-title`}>Photo</h2>
      <div className="account__photo">
        <div className="account__avatar" data-testid="account-avatar">
          <Avatar fullname={user.fullname} username={user.username} src={user.avatar} size={96} />
          <span className="account__caption">Current</span>
        </div>
        {preview !== null && (
          <div className="account__avatar">
            <img
              className="xp-avatar account__preview"
              src={preview.url}
              alt="Preview of your new photo"
              width={96}
              height={96}
            />
            <span className="account__caption">New</span>
          </div>
        )}
      </div>
      <div className="auth-field">
        <label htmlFor={`${id}-file`}>Choose a new photo</label>
        <input
          ref={inputRef}
          id={`${id}-file`}
          className="account__file"
          type="file"
          accept="image/jpeg,image/png,image/gif,image/webp"
          disabled={busy}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : `${id}-hint`}
          onChange={(event) => void onPick(event)}
        />
        {error ? (
          <p className="auth-field__error" id={`${id}-error`} role="alert">
            {error}
          </p>
        ) : (
          <p className="auth-field__hint" id={`${id}-hint`}>
            JPEG, PNG, GIF or WebP, up to {MAX_IMAGE_LABEL}. It is cropped to a square.
          </p>
        )}
      </div>
      <div className="account__actions">
        <button
          type="button"
          className="xp-button xp-button--primary"
          disabled={preview === null || busy}
          onClick={() => void onSave()}
        >
          {busy ? 'Saving photo…' : 'Save photo'}
        </button>
        {preview !== null && !busy && (
          <button type="button" className="xp-button" onClick={onCancel}>
            Cancel
          </button>
        )}
        {busy && <progress className="account__progress" aria-label="Uploading your photo" />}
      </div>
      <p className="account__status" role="status" aria-live="polite">
        {status}
      </p>
    </section>
  );
}

const PASSWORD_FIELDS: FieldSpec<'currentPassword' | 'newPassword' | 'confirmPassword'>[] = [
  { name: 'currentPassword', label: 'Current password', type: 'password', autoComplete: 'current-password' },
  {
    name: 'newPassword',
    label: 'New password',
    type: 'password',
    autoComplete: 'new-password',
    hint: `At least ${DEFAULT_PASSWORD_RULE.minLength} characters, not easy to guess: a few unrelated words work well.`,
  },
  { name: 'confirmPassword', label: 'Confirm new password', type: 'password', autoComplete: 'new-password' },
];

/**
 * The change-password contract, and the confirmation the server never sees; with the strength
 * estimator once loaded, refusing common passwords and the user's own names.
 */
function passwordSchema(strength?: PasswordStrength, account?: AccountUser) {
  return changePasswordRequestSchema(DEFAULT_PASSWORD_RULE, strength, account)
    .extend({ confirmPassword: z.string() })
    .refine((values) => values.confirmPassword === values.newPassword, {
      path: ['confirmPassword'],
      message: 'Please enter the same value again.',
      // checked with the other fields' problems, not only once they pass
      when: () => true,
    });
}
const PASSWORD_SCHEMA = passwordSchema();

function PasswordSection() {
  const { user, updateUser } = useSession();
  const withStrength = useCallback(
    (strength: PasswordStrength) => passwordSchema(strength, user ?? undefined),
    [user],
  );
  const id = useId();
  const [status, setStatus] = useState('');

  return (
    <section className="account__card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Change password</h2>
      <AccountForm
        schema={PASSWORD_SCHEMA}
        withStrength={withStrength}
        fields={PASSWORD_FIELDS}
        settings
        labels={['Change password', 'Changing password…']}
        send={async ({ currentPassword, newPassword }) => {
          setStatus('');
          const answer = await apiPost('/v1/account/password', meResponseSchema, {
            currentPassword,
            newPassword,
          });
          updateUser(answer.user);
          setStatus(PASSWORD_CHANGED);
        }}
      />
      <p className="account__status account__status--ok" role="status" aria-live="polite">
        {status}
      </p>
    </section>
  );
}

function SignOutEverywhereSection({ onSignedOut }: { onSignedOut: () => void }) {
  const { signOutEverywhere } = useSession();
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onClick = async () => {
    setBusy(true);
    setError(null);
    try {
      await signOutEverywhere();
      // this section is gone by now; the page's prompt says what happened
      onSignedOut();
    } catch (failure) {
      setError(errorText(failure));
      setBusy(false);
    }
  };

  return (
    <section className="account__card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Sign out everywhere</h2>
      <p className="account__text">
        Signs you out on every device and browser, this one included. Use it if you signed in on a computer
        that is not yours.
      </p>
      <div className="account__actions">
        <button type="button" className="xp-button" disabled={busy} onClick={() => void onClick()}>
          {busy ? 'Signing out…' : 'Sign out everywhere'}
        </button>
      </div>
      {error !== null && (
        <p className="auth-field__error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
