import { useMemo, type FormEvent, type ReactNode, type RefObject } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { categoriesFor } from '../../../shared/domain/categories';
import { isPointSupertype } from '../../../shared/domain/supertypes';
import { errorAt } from '../../ui/formErrors';
import { CheckField, EditField, type FieldControl } from './EditField';
import { ContactsEditor } from './ContactsEditor';
import { FIELD_LABELS, HELP_LABELS, partsFor, type EditValues, type TextField } from './editForm';
import { OpeningHoursField } from './OpeningHoursField';
import type { LivePlace } from './openingHoursLive';

export interface PointEditFormProps {
  supertype: string;
  /** where the point is, for the opening-hours preview. */
  place: LivePlace;
  /** false for a consultant: allow_consulting is the owner's (or an admin's) setting. */
  canSetConsulting: boolean;
  /** above the fields: the conflict notice. */
  notices?: ReactNode;
  /** a refusal that is not about one field. */
  formError: string | null;
  /** the media section (edit only). */
  media?: ReactNode;
  submitLabel: string;
  formRef: RefObject<HTMLFormElement | null>;
  onSubmit(): void;
  onCancel(): void;
}

const CONTROLS: Partial<Record<TextField, FieldControl>> = {
  description: { kind: 'textarea', rows: 5 },
  lat: { kind: 'text', inputMode: 'decimal' },
  lon: { kind: 'text', inputMode: 'decimal' },
  delivery_lat: { kind: 'text', inputMode: 'decimal' },
  delivery_lng: { kind: 'text', inputMode: 'decimal' },
  owner_callchat_priceperminute: { kind: 'text', inputMode: 'decimal' },
  street: { kind: 'text', autoComplete: 'address-line1' },
  city: { kind: 'text', autoComplete: 'address-level2' },
  region: { kind: 'text', autoComplete: 'address-level1' },
  postalcode: { kind: 'text', autoComplete: 'postal-code' },
  country: { kind: 'text', autoComplete: 'country-name' },
  link_email: { kind: 'text', inputMode: 'email' },
  link_phone: { kind: 'text', inputMode: 'tel' },
  link_website: { kind: 'text', inputMode: 'url' },
  link_facebook: { kind: 'text', inputMode: 'url' },
  pickup_date_time: { kind: 'datetime' },
};

/**
 * Every editable field of a point (docs/api/points-write.md "Editable point fields"), grouped the
 * way an owner thinks of them; service and help-request fields only for those points. The values,
 * errors and lists live in the react-hook-form of PointEditPanel (read here through its context).
 */
export function PointEditForm({
  supertype,
  place,
  canSetConsulting,
  notices,
  formError,
  media,
  submitLabel,
  formRef,
  onSubmit,
  onCancel,
}: PointEditFormProps) {
  const { register, control, formState } = useFormContext<EditValues>();
  const parts = partsFor(supertype);
  const errors = formState.errors;
  const type = useWatch({ control, name: 'type' });

  const typeOptions = useMemo(() => {
    const list = isPointSupertype(supertype) ? categoriesFor(supertype) : [];
    const options = list.map((category) => ({ value: category.key, label: category.name }));
    if (!options.some((option) => option.value === type))
      options.unshift({ value: type, label: `${type.replaceAll('_', ' ')} (not in the list)` });
    return options;
  }, [supertype, type]);

  const field = (name: TextField, extra: { required?: boolean; hint?: ReactNode; label?: string } = {}) => (
    <EditField
      registration={register(name)}
      label={extra.label ?? FIELD_LABELS[name]}
      control={CONTROLS[name]}
      required={extra.required}
      hint={extra.hint}
      error={errorAt(errors, name)}
    />
  );
  const help = (part: keyof typeof HELP_LABELS) => ({
    registration: register(`helprequestdata.${part}`),
    label: HELP_LABELS[part],
    error: errorAt(errors, `helprequestdata.${part}`),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };

  return (
    <form
      ref={formRef}
      className="point-edit__form"
      noValidate
      onSubmit={submit}
      aria-label="Edit the XPoint"
    >
      {notices}
      {formError !== null && (
        <p className="point-edit__form-error" role="alert" tabIndex={-1}>
          {formError}
        </p>
      )}

      <Section title="About">
        {field('title', { required: true })}
        <EditField
          registration={register('type')}
          label={FIELD_LABELS.type}
          control={{ kind: 'select', options: typeOptions }}
          error={errorAt(errors, 'type')}
        />
        {field('subtype', { hint: 'Your own word for it, when the type is not precise enough.' })}
        {field('tagline')}
        {field('description')}
      </Section>

      <Section title="Place">
        <div className="addnew-form__row">
          {field('lat', { required: true })}
          {field('lon', { required: true })}
        </div>
        {field('address', { hint: 'Leave empty to compose it from the parts below.' })}
        {field('street')}
        <div className="addnew-form__row">
          {field('city')}
          {field('region')}
        </div>
        <div className="addnew-form__row">
          {field('postalcode')}
          {field('country')}
        </div>
      </Section>

      <Section title="When it is open">
        <OpeningHoursField place={place} />
      </Section>

      <Section title="Links">
        {field('link_email')}
        {field('link_phone')}
        {field('link_website')}
        {field('link_facebook')}
      </Section>

      <Section title="Contacts">
        <ContactsEditor />
      </Section>

      {parts.service && (
        <Section title="Service">
          {field('xpointService')}
          <CheckField
            registration={register('meonmap_enabled')}
            label={FIELD_LABELS.meonmap_enabled}
            hint="Shows you on the map where you are."
            error={errorAt(errors, 'meonmap_enabled')}
          />
          {field('owner_callchat_priceperminute', { hint: 'Two decimals; empty for free.' })}
        </Section>
      )}

      {parts.helpRequest && (
        <Section title="Help request">
          <div className="addnew-form__row">
            <EditField {...help('taskduration_minutes')} control={{ kind: 'text', inputMode: 'numeric' }} />
            <EditField {...help('taskbudget')} control={{ kind: 'text', inputMode: 'decimal' }} />
          </div>
          <EditField
            {...help('taskstart')}
            label={`${HELP_LABELS.taskstart} (your time)`}
            control={{ kind: 'datetime' }}
          />
          <CheckField {...help('canacceptjob')} />
          <CheckField {...help('canquote')} />
        </Section>
      )}

      <Section title="Pickup and delivery">
        {field('pickup_destination')}
        {field('pickup_date_time', {
          label: `${FIELD_LABELS.pickup_date_time} (your time)`,
          hint: 'Needed when there is a pickup destination.',
        })}
        <div className="addnew-form__row">
          {field('delivery_lat')}
          {field('delivery_lng')}
        </div>
      </Section>

      {parts.consulting && (
        <Section title="Consulting">
          <CheckField
            registration={register('allow_consulting')}
            label={FIELD_LABELS.allow_consulting}
            disabled={!canSetConsulting}
            hint={
              canSetConsulting
                ? 'Lets someone offer to manage this XPoint for you as its consultant.'
                : 'Only the owner or an admin can change this.'
            }
            error={errorAt(errors, 'allow_consulting')}
          />
        </Section>
      )}

      {media !== undefined && <Section title="Pictures and video">{media}</Section>}

      <div className="point-edit__actions">
        <button type="button" className="xp-button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="xp-button xp-button--primary">
          {submitLabel}
        </button>
      </div>
    </form>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="point-edit__section">
      <legend>{title}</legend>
      {children}
    </fieldset>
  );
}
