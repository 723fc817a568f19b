import { useEffect, useId, useRef, type FormEvent, type RefObject } from 'react';
import { Link } from 'react-router';
import type { DuplicateCandidate } from '../../../shared/api/points';
import { findCategory } from '../../../shared/domain/categories';
import {
  FIELD_LABELS,
  FORM_FIELDS,
  NEAR_CITY_MAX_M,
  type FieldErrors,
  type FormField,
  type FormState,
} from './addNewForm';

export interface FormProblems {
  fields: FieldErrors;
  /** a problem that is not about one field. */
  form: string | null;
}

export interface AddNewFormProps {
  supertypeName: string;
  typeName: string;
  state: FormState;
  problems: FormProblems;
  /** places the server found close by with a similar name, or null when none was reported. */
  duplicates: DuplicateCandidate[] | null;
  titleRef: RefObject<HTMLInputElement | null>;
  onEdit(field: FormField, value: string): void;
  onSubmit(): void;
  onSaveAnyway(): void;
  onChangeType(): void;
}

const AUTOCOMPLETE: Partial<Record<FormField, string>> = {
  street: 'address-line1',
  city: 'address-level2',
  region: 'address-level1',
  postalcode: 'postal-code',
  country: 'country-name',
};

/** Fields laid out two to a row where they are short (coordinates, city and region, code and country). */
const ROWS: FormField[][] = [
  ['title'],
  ['lat', 'lon'],
  ['address'],
  ['street'],
  ['city', 'region'],
  ['postalcode', 'country'],
];

/**
 * The add-new form (map-and-search §3 add-new fields): the supertype and type the address chose,
 * then title, coordinates (the marker's, editable) and the address parts. Each field has its label
 * and its error beside it; the first field in error takes focus when a submission is refused.
 */
export function AddNewForm({
  supertypeName,
  typeName,
  state,
  problems,
  duplicates,
  titleRef,
  onEdit,
  onSubmit,
  onSaveAnyway,
  onChangeType,
}: AddNewFormProps) {
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const duplicatesRef = useRef<HTMLDivElement>(null);

  // a refused submission: focus goes to the first field in error, or to the duplicate notice
  useEffect(() => {
    const first = FORM_FIELDS.find((field) => problems.fields[field] !== undefined);
    if (first !== undefined) formRef.current?.querySelector<HTMLInputElement>(`[name="${first}"]`)?.focus();
  }, [problems]);
  useEffect(() => {
    if (duplicates !== null && duplicates.length > 0) duplicatesRef.current?.focus();
  }, [duplicates]);

  const onFormSubmit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  const place = state.place;

  return (
    <form
      ref={formRef}
      className="addnew-form"
      onSubmit={onFormSubmit}
      noValidate
      aria-label="The new XPoint"
    >
      <dl className="addnew-form__kind">
        <div>
          <dt>Supertype</dt>
          <dd>{supertypeName}</dd>
        </div>
        <div>
          <dt>Type</dt>
          <dd>
            {typeName}{' '}
            <button type="button" className="link-button" onClick={onChangeType}>
              Change
            </button>
          </dd>
        </div>
      </dl>
      {ROWS.map((row) => (
        <div key={row.join('-')} className={row.length > 1 ? 'addnew-form__row' : undefined}>
          {row.map((field) => {
            const error = problems.fields[field];
            const inputId = `${id}-${field}`;
            return (
              <div key={field} className="addnew-field">
                <label htmlFor={inputId}>
                  {FIELD_LABELS[field]}
                  {field === 'title' && <span aria-hidden="true"> *</span>}
                </label>
                <input
                  id={inputId}
                  ref={field === 'title' ? titleRef : undefined}
                  name={field}
                  type="text"
                  inputMode={field === 'lat' || field === 'lon' ? 'decimal' : undefined}
                  autoComplete={AUTOCOMPLETE[field] ?? 'off'}
                  required={field === 'title' || field === 'lat' || field === 'lon'}
                  value={state.values[field]}
                  aria-invalid={error !== undefined || undefined}
                  aria-describedby={error !== undefined ? `${inputId}-error` : undefined}
                  onChange={(event) => onEdit(field, event.target.value)}
                />
                {error !== undefined && (
                  <p className="addnew-field__error" id={`${inputId}-error`}>
                    {error}
                  </p>
                )}
              </div>
            );
          })}
        </div>
      ))}
      <p className="addnew-form__place" aria-live="polite">
        {place === null
          ? 'Looking up the nearest town…'
          : place.kind === 'city'
            ? `Nearest town: ${[place.city, place.region, place.country].filter(Boolean).join(', ')} (${formatDistance(place.distanceM)}).`
            : `No town within ${NEAR_CITY_MAX_M / 1000} km: without an address the place reads ${place.text}.`}
      </p>
      {problems.form !== null && (
        <p className="addnew-form__error" role="alert">
          {problems.form}
        </p>
      )}
      {duplicates !== null && duplicates.length > 0 && (
        <div className="addnew-duplicates" role="alert" tabIndex={-1} ref={duplicatesRef}>
          <p className="addnew-duplicates__title">Is it already on the map?</p>
          <p>A place with a similar name is within 100 m:</p>
          <ul>
            {duplicates.map((candidate) => (
              <li key={candidate.id}>
                <span className="addnew-duplicates__name">{candidate.title}</span>{' '}
                <span className="addnew-duplicates__meta">
                  {findCategory(candidate.supertype, candidate.type)?.name ?? candidate.type},{' '}
                  {candidate.distance_m} m away
                </span>{' '}
                <Link to={candidate.url} aria-label={`Open it: ${candidate.title}`}>
                  Open it
                </Link>
              </li>
            ))}
          </ul>
          <button type="button" className="xp-button" onClick={onSaveAnyway}>
            Save anyway
          </button>
        </div>
      )}
      <div className="addnew-actions">
        <button type="submit" className="xp-button xp-button--primary">
          Add this XPoint
        </button>
      </div>
    </form>
  );
}

function formatDistance(metres: number): string {
  return metres < 1000 ? `${Math.round(metres)} m` : `${(metres / 1000).toFixed(metres < 10_000 ? 1 : 0)} km`;
}
