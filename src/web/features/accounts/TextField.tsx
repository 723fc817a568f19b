export interface TextFieldProps {
  /** the input's id; the hint and the error take it as their prefix. */
  id: string;
  name: string;
  label: string;
  type: 'text' | 'email' | 'password';
  autoComplete: string;
  autoFocus?: boolean;
  value: string;
  /** shown under the field (and read with it) in place of the hint. */
  error?: string | undefined;
  hint?: string | undefined;
  onChange(value: string): void;
}

/** A labelled input with its hint or its error, linked by aria-describedby: every account form's field. */
export function TextField({
  id,
  name,
  label,
  type,
  autoComplete,
  autoFocus,
  value,
  error,
  hint,
  onChange,
}: TextFieldProps) {
  const described = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className="auth-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type={type}
        autoComplete={autoComplete}
        autoFocus={autoFocus}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        onChange={(event) => onChange(event.target.value)}
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
