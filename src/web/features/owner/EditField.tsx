import { useId, type ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';

/** The controls a field of the edit form can be. */
export type FieldControl =
  | { kind: 'text'; inputMode?: 'decimal' | 'email' | 'tel' | 'url' | 'numeric'; autoComplete?: string }
  | { kind: 'textarea'; rows: number }
  | { kind: 'datetime' }
  | { kind: 'select'; options: readonly { value: string; label: string }[] };

export interface EditFieldProps {
  /** `register(path)` of the form; the path (`title`, `contacts.0.roleoverride`) is the wire path. */
  registration: UseFormRegisterReturn;
  label: string;
  control?: FieldControl;
  required?: boolean;
  error?: string | undefined;
  /** shown under the field with the error (and read with the input). */
  hint?: ReactNode;
}

/**
 * A labelled field with its hint and error linked by aria-describedby, in the add-new form's look
 * (`addnew-field`): the one shape of every text, date and choice field of the edit form.
 */
export function EditField({
  registration,
  label,
  control = { kind: 'text' },
  required = false,
  error,
  hint,
}: EditFieldProps) {
  const id = useId();
  const described = [hint !== undefined ? `${id}-hint` : null, error ? `${id}-error` : null]
    .filter(Boolean)
    .join(' ');
  const common = {
    id,
    required,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': described || undefined,
    ...registration,
  };
  let input: ReactNode;
  if (control.kind === 'textarea') input = <textarea {...common} rows={control.rows} />;
  else if (control.kind === 'select')
    input = (
      <select {...common}>
        {control.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    );
  else
    input = (
      <input
        {...common}
        type={control.kind === 'datetime' ? 'datetime-local' : 'text'}
        inputMode={control.kind === 'text' ? control.inputMode : undefined}
        autoComplete={control.kind === 'text' ? (control.autoComplete ?? 'off') : 'off'}
      />
    );
  return (
    <div className="addnew-field point-edit__field">
      <label htmlFor={id}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      {input}
      {hint !== undefined && (
        <div className="point-edit__hint" id={`${id}-hint`}>
          {hint}
        </div>
      )}
      {error && (
        <p className="addnew-field__error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** A checkbox with its label, and the error the server may give it. */
export function CheckField({
  registration,
  label,
  disabled = false,
  hint,
  error,
}: {
  registration: UseFormRegisterReturn;
  label: string;
  disabled?: boolean;
  hint?: string;
  error?: string | undefined;
}) {
  const id = useId();
  return (
    <div className="point-edit__check">
      <label htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          disabled={disabled}
          aria-invalid={error ? true : undefined}
          aria-describedby={hint || error ? `${id}-more` : undefined}
          {...registration}
        />{' '}
        {label}
      </label>
      {(hint || error) && (
        <p className={error ? 'addnew-field__error' : 'point-edit__hint'} id={`${id}-more`}>
          {error ?? hint}
        </p>
      )}
    </div>
  );
}
