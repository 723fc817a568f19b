import { useId } from 'react';
import type { FieldError, Path } from 'react-hook-form';
import type { z } from 'zod';
import { loginRequestSchema, registerRequestSchema } from '../../../shared/api/accounts';
import { DEFAULT_PASSWORD_RULE, USERNAME_MAX_LENGTH } from '../../../shared/validation/accounts';
import type { PasswordStrength } from '../../../shared/validation/password-strength';
import { messageFor, useAccountForm } from './accountForm';
import { useSession, type AuthTab } from './session';
import { TextField, type TextFieldProps } from './TextField';

export interface FieldSpec<Name extends string> {
  name: Name;
  label: string;
  type: TextFieldProps['type'];
  autoComplete: string;
  hint?: string;
}

const SIGN_IN_FIELDS: FieldSpec<'login' | 'password'>[] = [
  { name: 'login', label: 'Username or email', type: 'text', autoComplete: 'username' },
  { name: 'password', label: 'Password', type: 'password', autoComplete: 'current-password' },
];

/**
 * The server's own rule (src/shared/api/accounts.ts). It may be configured with a stricter password
 * rule than the default; its answer is then shown beside the field.
 */
const SIGN_UP_SCHEMA = registerRequestSchema(DEFAULT_PASSWORD_RULE);
/** ...and with the strength estimator once it has loaded: common and easily guessed passwords refused. */
const signUpSchemaWith = (strength: PasswordStrength) =>
  registerRequestSchema(DEFAULT_PASSWORD_RULE, strength);

const SIGN_UP_FIELDS: FieldSpec<'fullname' | 'username' | 'email' | 'password'>[] = [
  { name: 'fullname', label: 'Full name', type: 'text', autoComplete: 'name' },
  {
    name: 'username',
    label: 'Username',
    type: 'text',
    autoComplete: 'username',
    hint: `Letters, digits, _ and -; up to ${USERNAME_MAX_LENGTH} characters. Your profile is /u/username.`,
  },
  { name: 'email', label: 'Email', type: 'email', autoComplete: 'email' },
  {
    name: 'password',
    label: 'Password',
    type: 'password',
    autoComplete: 'new-password',
    hint: `At least ${DEFAULT_PASSWORD_RULE.minLength} characters, not easy to guess: a few unrelated words work well.`,
  },
];

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
  return mode === 'signin' ? (
    <AccountForm
      schema={loginRequestSchema}
      fields={SIGN_IN_FIELDS}
      autoFocus={autoFocus}
      labels={['Sign in', 'Signing in…']}
      send={async ({ login, password }) => {
        await signIn(login, password);
        onDone();
      }}
    />
  ) : (
    <AccountForm
      schema={SIGN_UP_SCHEMA}
      withStrength={signUpSchemaWith}
      fields={SIGN_UP_FIELDS}
      autoFocus={autoFocus}
      labels={['Create account', 'Creating your account…']}
      send={async (values) => {
        await signUp(values);
        onDone();
      }}
    />
  );
}

interface AccountFormProps<T extends Record<string, string>> {
  schema: z.ZodType<T, T>;
  /** the contract with the password strength estimator, for a form that sets a password. */
  withStrength?: ((strength: PasswordStrength) => z.ZodType<T, T>) | undefined;
  fields: FieldSpec<keyof T & string>[];
  autoFocus?: boolean;
  /** the settings page's look (`account__form`, the button in `account__actions`); the modal's by default. */
  settings?: boolean;
  /** the submit button's label, then its label while the call is out. */
  labels: [string, string];
  send(values: T): Promise<void>;
}

/**
 * An account form: its labelled fields, the contract's rules beside each, the server's refusal
 * beside its field or above the form; emptied once `send` succeeds.
 */
export function AccountForm<T extends Record<string, string>>({
  schema,
  withStrength,
  fields,
  autoFocus = false,
  settings = false,
  labels,
  send,
}: AccountFormProps<T>) {
  const id = useId();
  const { register, handleSubmit, formState, refuse, reset } = useAccountForm(
    schema,
    fields.map((field) => field.name),
    withStrength,
  );
  const { errors, isSubmitting } = formState;
  const onSubmit = handleSubmit(async (values) => {
    try {
      await send(values);
      reset();
    } catch (error) {
      refuse(error);
    }
  });

  return (
    <form
      className={settings ? 'auth-form account__form' : 'auth-form'}
      noValidate
      onSubmit={(event) => void onSubmit(event)}
      aria-busy={isSubmitting}
    >
      {errors.root?.server && (
        <p className="auth-form__error" role="alert">
          {errors.root.server.message}
        </p>
      )}
      <fieldset disabled={isSubmitting}>
        {fields.map((field, index) => {
          const reason = (errors[field.name] as FieldError | undefined)?.message;
          return (
            <TextField
              key={field.name}
              id={`${id}-${field.name}`}
              label={field.label}
              type={field.type}
              autoComplete={field.autoComplete}
              autoFocus={autoFocus && index === 0}
              registration={register(field.name as Path<T>)}
              error={reason === undefined ? undefined : messageFor(field.label, reason)}
              hint={field.hint}
            />
          );
        })}
        {settings ? (
          <div className="account__actions">
            <button type="submit" className="xp-button xp-button--primary">
              {isSubmitting ? labels[1] : labels[0]}
            </button>
          </div>
        ) : (
          <button type="submit" className="xp-button xp-button--primary auth-form__submit">
            {isSubmitting ? labels[1] : labels[0]}
          </button>
        )}
      </fieldset>
    </form>
  );
}
