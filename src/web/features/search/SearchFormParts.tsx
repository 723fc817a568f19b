import type { ChangeEvent } from 'react';
import { SEARCH_SUPERTYPES, type SearchSupertype } from '../../../shared/address';
import { LAYER_GROUP_NAMES } from '../../map/layerVisibility';

/** Names of the supertype filter (§2 search form dropdown): the map's names for the same groups. */
const SUPERTYPE_LABELS: Readonly<Record<SearchSupertype, string>> = LAYER_GROUP_NAMES;

/**
 * The search form's supertype filter with its label: controlled in the app's form, a plain field
 * (`name`, `defaultValue`) in the server's first paint (ssr/FirstPaint.tsx), the same markup in both.
 */
export function SupertypeSelect(
  props:
    | { value: SearchSupertype | ''; onChange(value: SearchSupertype | ''): void }
    | { name: string; defaultValue: SearchSupertype | '' },
) {
  const field =
    'onChange' in props
      ? {
          value: props.value,
          onChange: (event: ChangeEvent<HTMLSelectElement>) =>
            props.onChange(event.target.value as SearchSupertype | ''),
        }
      : { name: props.name, defaultValue: props.defaultValue };
  return (
    <>
      <label className="visually-hidden" htmlFor="search-supertype">
        Kind of place
      </label>
      <select id="search-supertype" className="search-form__supertype" {...field}>
        <option value="">All</option>
        {SEARCH_SUPERTYPES.map((name) => (
          <option key={name} value={name}>
            {SUPERTYPE_LABELS[name]}
          </option>
        ))}
      </select>
    </>
  );
}

/** The search form's submit button, a magnifier. */
export function SearchSubmit() {
  return (
    <button type="submit" className="search-form__submit" aria-label="Search">
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
        <circle cx="10.5" cy="10.5" r="6.5" fill="none" stroke="currentColor" strokeWidth="2.2" />
        <path d="M15.5 15.5 21 21" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
      </svg>
    </button>
  );
}
