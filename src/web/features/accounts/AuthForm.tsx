import { useId, useState, type FormEvent } from 'react';
import type { z } from 'zod';
import {
  emailSchema,
  fullnameSchema,
  loginRequestSchema,
  newPasswordSchema,
  usernameSchema,
} from '../../../shared/api/accounts';
import { DEFAULT_PASSWORD_RULE, USERNAME_MAX_LENGTH } from '../../../shared/validation/accounts';
import { fieldError } from '../../lib/api';
import { useSession, type AuthTab } from './session';
import { TextField, type TextFieldProps } from './TextField';

type FieldName = 'login' | 'password' | 'username' | 'email' | 'fullname';

interface FieldSpec {
  name: FieldName;
  label: string;
  type: TextFieldProps['type'];
  autoComplete: string;
  schema: z.ZodType<string>;
  hint?: string;
}

/**
 * The same rules as the server (src/shared/api/accounts.ts). The server may be configured with a
 * stricter password rule than the default; its answer is then shown beside the field.
 */
const SIGN_IN_FIELDS: FieldSpec[] = [
  {
    name: 'login',
    label: 'Username or email',
    type: 'text',
    autoComplete: 'username',
    schema: loginRequestSchema.shape.login,
  },
  {
    name: 'password',
    label: 'Password',
    type: 'password',
    autoComplete: 'current-password',
    schema: loginRequestSchema.shape.password,
  },
];

const SIGN_UP_FIELDS: FieldSpec[] = [
  { name: 'fullname', label: 'Full name', type: 'text', autoComplete: 'name', schema: fullnameSchema },
  {
    name: 'username',
    label: 'Username',
    type: 'text',
    autoComplete: 'username',
    schema: usernameSchema,
    hint: `Letters, digits, _ and -; up to ${USERNAME_MAX_LENGTH} characters. Your profile is /u/username.`,
  },
  { name: 'email', label: 'Email', type: 'email', autoComplete: 'email', schema: emailSchema },
  {
    name: 'password',
    label: 'Password',
    type: 'password',
    autoComplete: 'new-password',
    schema: newPasswordSchema(DEFAULT_PASSWORD_RULE),
    hint: `At least ${DEFAULT_PASSWORD_RULE.minLength} characters.`,
  },
];

/** 'is required.' reads as 'Username is required.'; a full sentence stays as it is. */
function messageFor(label: string, reason: string): string {
  if (/^(is|must|may|does|should) /.test(reason)) return `${label} ${reason}`;
  return reason.charAt(0).toUpperCase() + reason.slice(1);
}

export interface AuthFormProps {
  mode: AuthTab;
  /** called once the account is signed in. */
  onDone: () => void;
  /** focus the first field on mount (the modal does; a full page lets the browser decide). */
  autoFocus?: boolean;
}

/** The sign-in or create-account form: labelled fields, the shared rules, server errors in place. */
export function AuthForm({ mode, onDone, autoFocus = false }: AuthFormProps) {
  const { signIn, signUp } = useSession();
  const id = useId();
  const fields = mode === 'signin' ? SIGN_IN_FIELDS : SIGN_UP_FIELDS;
  const [values, setValues] = useState<Partial<Record<FieldName, string>>>({});
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const check = (): Partial<Record<FieldName, string>> => {
    const found: Partial<Record<FieldName, string>> = {};
    for (const field of fields) {
      const result = field.schema.safeParse(values[field.name] ?? '');
      if (!result.success) found[field.name] = messageFor(field.label, result.error.issues[0]?.message ?? '');
    }
    return found;
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const found = check();
    setErrors(found);
    setFormError(null);
    const firstBad = fields.find((field) => found[field.name] !== undefined);
    if (firstBad) {
      document.getElementById(`${id}-${firstBad.name}`)?.focus();
      return;
    }
    setBusy(true);
    try {
      if (mode === 'signin') await signIn((values.login ?? '').trim(), values.password ?? '');
      else
        await signUp({
          fullname: (values.fullname ?? '').trim(),
          username: (values.username ?? '').trim(),
          email: (values.email ?? '').trim(),
          password: values.password ?? '',
        });
      onDone();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const spot = fieldError(error);
      const field = spot ? fields.find((f) => f.name === spot.field) : undefined;
      if (spot && field) {
        setErrors({ [field.name]: messageFor(field.label, spot.reason) });
        document.getElementById(`${id}-${field.name}`)?.focus();
      } else {
        setFormError(message);
      }
      setBusy(false);
    }
  };

  return (
    <form className="auth-form" noValidate onSubmit={onSubmit} aria-busy={busy}>
      {formError !== null && (
        <p className="auth-form__error" role="alert">
          {formError}
        </p>
      )}
      <fieldset disabled={busy}>
        {fields.map((field, index) => (
          <TextField
            key={field.name}
            id={`${id}-${field.name}`}
            name={field.name}
            label={field.label}
            type={field.type}
            autoComplete={field.autoComplete}
            autoFocus={autoFocus && index === 0}
            value={values[field.name] ?? ''}
            error={errors[field.name]}
            hint={field.hint}
            onChange={(value) => setValues((previous) => ({ ...previous, [field.name]: value }))}
          />
        ))}
        <button type="submit" className="xp-button xp-button--primary auth-form__submit">
          {busy
            ? mode === 'signin'
              ? 'Signing in…'
              : 'Creating your account…'
            : mode === 'signin'
              ? 'Sign in'
              : 'Create account'}
        </button>
      </fieldset>
    </form>
  );
}
