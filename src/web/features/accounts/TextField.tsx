import type { UseFormRegisterReturn } from 'react-hook-form';

export interface TextFieldProps {
  /** the input's id; the hint and the error take it as their prefix. */
  id: string;
  label: string;
  type: 'text' | 'email' | 'password';
  autoComplete: string;
  autoFocus?: boolean;
  /** the input's binding to its form (react-hook-form's `register(name)`). */
  registration: UseFormRegisterReturn;
  /** shown under the field (and read with it) in place of the hint. */
  error?: string | undefined;
  hint?: string | undefined;
}

/** A labelled input with its hint or its error, linked by aria-describedby: every account form's field. */
export function TextField({
  id,
  label,
  type,
  autoComplete,
  autoFocus,
  registration,
  error,
  hint,
}: TextFieldProps) {
  const described = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className="auth-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={type}
        autoComplete={autoComplete}
        autoFocus={autoFocus}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        {...registration}
      />
      {hint && !error && (
        <p className="auth-field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="auth-field__error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}
