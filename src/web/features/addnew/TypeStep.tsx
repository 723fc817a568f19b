import { useId, useState, type FormEvent } from 'react';
import type { AddNewSupertype } from '../../../shared/address';
import { categoriesFor } from '../../../shared/domain/categories';
import { rememberType, rememberedType } from './draft';
import { SUPERTYPE_TEXT } from './supertypeText';
import { exactType, visibleTypes } from './typeChoice';

export interface TypeStepProps {
  supertype: AddNewSupertype;
  /** a type the address named that the supertype does not have. */
  unknownType?: string | undefined;
  onNext(type: string): void;
  onBack(): void;
}

/**
 * Step 2 (§4): the type, from a list of the supertype's categories. The common ones show first and
 * 'Show all' lists every one; typing filters, and typing a type's exact name selects it. Next goes
 * to step 3 with the type in the address.
 */
export function TypeStep({ supertype, unknownType, onNext, onBack }: TypeStepProps) {
  const categories = categoriesFor(supertype);
  const [query, setQuery] = useState('');
  const [showAll, setShowAll] = useState(false);
  const [selected, setSelected] = useState<string | null>(() => rememberedType(supertype));
  const [missing, setMissing] = useState(false);
  const id = useId();
  const shown = visibleTypes(categories, query, showAll, selected);

  const choose = (type: string) => {
    setSelected(type);
    setMissing(false);
    rememberType(supertype, type);
  };
  const onQuery = (value: string) => {
    setQuery(value);
    const exact = exactType(categories, value);
    if (exact !== undefined) choose(exact.key);
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (selected === null) setMissing(true);
    else onNext(selected);
  };

  return (
    <form className="addnew-step addnew-types" onSubmit={onSubmit} noValidate>
      <p className="addnew-step__lead">
        What kind of <strong>{SUPERTYPE_TEXT[supertype].name.toLowerCase()}</strong> is it?
      </p>
      {unknownType !== undefined && (
        <p className="addnew-notice" role="alert">
          “{unknownType}” is not a type of {SUPERTYPE_TEXT[supertype].name.toLowerCase()}. Pick one below.
        </p>
      )}
      <div className="addnew-field">
        <label htmlFor={`${id}-filter`}>Find a type</label>
        <input
          id={`${id}-filter`}
          type="search"
          autoComplete="off"
          value={query}
          aria-describedby={`${id}-count`}
          onChange={(event) => onQuery(event.target.value)}
        />
      </div>
      <label className="addnew-types__all">
        <input type="checkbox" checked={showAll} onChange={(event) => setShowAll(event.target.checked)} />
        Show all {categories.length} types
      </label>
      <p className="addnew-types__count" id={`${id}-count`} aria-live="polite">
        {shown.length === 0
          ? 'No type matches. Clear the text to see the list again.'
          : `${shown.length} of ${categories.length} types shown`}
      </p>
      <fieldset className="addnew-types__list" aria-invalid={missing || undefined}>
        <legend className="visually-hidden">Type</legend>
        {shown.map((category) => (
          <label key={category.key} className="addnew-type">
            <input
              type="radio"
              name={`${id}-type`}
              value={category.key}
              checked={selected === category.key}
              onChange={() => choose(category.key)}
            />
            <span>{category.name}</span>
          </label>
        ))}
      </fieldset>
      {missing && (
        <p className="addnew-field__error" role="alert">
          Pick a type first.
        </p>
      )}
      <div className="addnew-actions">
        <button type="button" className="xp-button" onClick={onBack}>
          Back
        </button>
        <button type="submit" className="xp-button xp-button--primary" aria-disabled={selected === null}>
          Next
        </button>
      </div>
    </form>
  );
}
