import { useEffect, useId, useRef, type FormEvent, type RefObject } from 'react';
import { useFormContext } from 'react-hook-form';
import { Link } from 'react-router';
import type { DuplicateCandidate } from '../../../shared/api/points';
import { findCategory } from '../../../shared/domain/categories';
import { formatDistance } from '../../../shared/format';
import { errorAt } from '../../ui/formErrors';
import {
  FIELD_LABELS,
  NEAR_CITY_MAX_M,
  type FormField,
  type FormValues,
  type NearestPlace,
} from './addNewForm';

export interface AddNewFormProps {
  supertypeName: string;
  typeName: string;
  /** the lookup's answer for where the marker is, or null while none has come. */
  place: NearestPlace | null;
  /** a refusal that is not about one field (the contract's or the server's). */
  formError: string | null;
  /** places the server found close by with a similar name, or null when none was reported. */
  duplicates: DuplicateCandidate[] | null;
  formRef: RefObject<HTMLFormElement | null>;
  /** the visitor typed into a field (react-hook-form already holds the value). */
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
 * and its error beside it (the values and errors are PlaceStep's react-hook-form).
 */
export function AddNewForm({
  supertypeName,
  typeName,
  place,
  formError,
  duplicates,
  formRef,
  onEdit,
  onSubmit,
  onSaveAnyway,
  onChangeType,
}: AddNewFormProps) {
  const id = useId();
  const { register, formState } = useFormContext<FormValues>();
  const duplicatesRef = useRef<HTMLDivElement>(null);

  // a possible duplicate: focus goes to the notice, which offers to save anyway
  useEffect(() => {
    if (duplicates !== null && duplicates.length > 0) duplicatesRef.current?.focus();
  }, [duplicates]);

  const onFormSubmit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };

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
            const error = errorAt(formState.errors, field);
            const inputId = `${id}-${field}`;
            return (
              <div key={field} className="addnew-field">
                <label htmlFor={inputId}>
                  {FIELD_LABELS[field]}
                  {field === 'title' && <span aria-hidden="true"> *</span>}
                </label>
                <input
                  id={inputId}
                  type="text"
                  inputMode={field === 'lat' || field === 'lon' ? 'decimal' : undefined}
                  autoComplete={AUTOCOMPLETE[field] ?? 'off'}
                  required={field === 'title' || field === 'lat' || field === 'lon'}
                  aria-invalid={error !== undefined || undefined}
                  aria-describedby={error !== undefined ? `${inputId}-error` : undefined}
                  {...register(field, {
                    onChange: (event: { target: { value: string } }) => onEdit(field, event.target.value),
                  })}
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
            ? // the lookup knows towns, not streets (issue 21, item 10): it says the address is approximate
              `Nearest town: ${[place.city, place.region, place.country].filter(Boolean).join(', ')} (${formatDistance(place.distanceM)}). The street is not looked up: type it, or the address stays approximate.`
            : `No town within ${NEAR_CITY_MAX_M / 1000} km: without an address the place reads ${place.text}.`}
      </p>
      {formError !== null && (
        <p className="addnew-form__error" role="alert">
          {formError}
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
