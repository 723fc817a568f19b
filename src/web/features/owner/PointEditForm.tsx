import { useEffect, useMemo, useRef, type FormEvent, type ReactNode } from 'react';
import { categoriesFor } from '../../../shared/domain/categories';
import { isPointSupertype } from '../../../shared/domain/supertypes';
import { CheckField, EditField, type FieldControl } from './EditField';
import { ContactsEditor } from './ContactsEditor';
import {
  FIELD_LABELS,
  HELP_LABELS,
  partsFor,
  type EditValues,
  type Problems,
  type TextField,
} from './editForm';
import { OpeningHoursField } from './OpeningHoursField';
import type { LivePlace } from './openingHoursLive';

export interface PointEditFormProps {
  supertype: string;
  values: EditValues;
  problems: Problems;
  /** where the point is, for the opening-hours preview. */
  place: LivePlace;
  /** false for a consultant: allow_consulting is the owner's (or an admin's) setting. */
  canSetConsulting: boolean;
  /** above the fields: the conflict notice, the form's own error. */
  notices?: ReactNode;
  /** the media section (edit only). */
  media?: ReactNode;
  submitLabel: string;
  onChange(patch: Partial<EditValues>): void;
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
 * way an owner thinks of them; service and help-request fields only for those points. The first
 * field in error takes focus when a save is refused.
 */
export function PointEditForm({
  supertype,
  values,
  problems,
  place,
  canSetConsulting,
  notices,
  media,
  submitLabel,
  onChange,
  onSubmit,
  onCancel,
}: PointEditFormProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const parts = partsFor(supertype);
  const errors = problems.fields;

  // a refused save: focus goes to the first field in error (in the form's order), else to the notice
  useEffect(() => {
    const form = formRef.current;
    if (form === null) return;
    const names = Object.keys(problems.fields);
    const first = Array.from(form.querySelectorAll<HTMLElement>('[name]')).find((element) =>
      names.includes(element.getAttribute('name') ?? ''),
    );
    if (first) first.focus();
    else if (problems.form !== null) form.querySelector<HTMLElement>('.point-edit__form-error')?.focus();
  }, [problems]);

  const typeOptions = useMemo(() => {
    const list = isPointSupertype(supertype) ? categoriesFor(supertype) : [];
    const options = list.map((category) => ({ value: category.key, label: category.name }));
    if (!options.some((option) => option.value === values.type))
      options.unshift({ value: values.type, label: `${values.type.replaceAll('_', ' ')} (not in the list)` });
    return options;
  }, [supertype, values.type]);

  const field = (name: TextField, extra: { required?: boolean; hint?: ReactNode; label?: string } = {}) => (
    <EditField
      name={name}
      label={extra.label ?? FIELD_LABELS[name]}
      value={values[name]}
      control={CONTROLS[name]}
      required={extra.required}
      hint={extra.hint}
      error={errors[name]}
      onChange={(value) => onChange({ [name]: value })}
    />
  );
  const help = values.helprequestdata;
  const helpPath = (part: keyof typeof HELP_LABELS) => `helprequestdata.${part}`;
  const setHelp = (patch: Partial<typeof help>) => onChange({ helprequestdata: { ...help, ...patch } });

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
      {problems.form !== null && (
        <p className="point-edit__form-error" role="alert" tabIndex={-1}>
          {problems.form}
        </p>
      )}

      <Section title="About">
        {field('title', { required: true })}
        <EditField
          name="type"
          label={FIELD_LABELS.type}
          value={values.type}
          control={{ kind: 'select', options: typeOptions }}
          error={errors['type']}
          onChange={(value) => onChange({ type: value })}
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
        <OpeningHoursField
          value={values.opening_hours}
          place={place}
          serverError={errors['opening_hours']}
          onChange={(value) => onChange({ opening_hours: value })}
        />
      </Section>

      <Section title="Links">
        {field('link_email')}
        {field('link_phone')}
        {field('link_website')}
        {field('link_facebook')}
      </Section>

      <Section title="Contacts">
        <ContactsEditor
          contacts={values.contacts}
          errors={errors}
          onChange={(contacts) => onChange({ contacts })}
        />
      </Section>

      {parts.service && (
        <Section title="Service">
          {field('xpointService')}
          <CheckField
            name="meonmap_enabled"
            label={FIELD_LABELS.meonmap_enabled}
            checked={values.meonmap_enabled}
            hint="Shows you on the map where you are."
            error={errors['meonmap_enabled']}
            onChange={(checked) => onChange({ meonmap_enabled: checked })}
          />
          {field('owner_callchat_priceperminute', { hint: 'Two decimals; empty for free.' })}
        </Section>
      )}

      {parts.helpRequest && (
        <Section title="Help request">
          <div className="addnew-form__row">
            <EditField
              name={helpPath('taskduration_minutes')}
              label={HELP_LABELS.taskduration_minutes}
              value={help.taskduration_minutes}
              control={{ kind: 'text', inputMode: 'numeric' }}
              error={errors[helpPath('taskduration_minutes')]}
              onChange={(value) => setHelp({ taskduration_minutes: value })}
            />
            <EditField
              name={helpPath('taskbudget')}
              label={HELP_LABELS.taskbudget}
              value={help.taskbudget}
              control={{ kind: 'text', inputMode: 'decimal' }}
              error={errors[helpPath('taskbudget')]}
              onChange={(value) => setHelp({ taskbudget: value })}
            />
          </div>
          <EditField
            name={helpPath('taskstart')}
            label={`${HELP_LABELS.taskstart} (your time)`}
            value={help.taskstart}
            control={{ kind: 'datetime' }}
            error={errors[helpPath('taskstart')]}
            onChange={(value) => setHelp({ taskstart: value })}
          />
          <CheckField
            name={helpPath('canacceptjob')}
            label={HELP_LABELS.canacceptjob}
            checked={help.canacceptjob}
            error={errors[helpPath('canacceptjob')]}
            onChange={(checked) => setHelp({ canacceptjob: checked })}
          />
          <CheckField
            name={helpPath('canquote')}
            label={HELP_LABELS.canquote}
            checked={help.canquote}
            error={errors[helpPath('canquote')]}
            onChange={(checked) => setHelp({ canquote: checked })}
          />
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
            name="allow_consulting"
            label={FIELD_LABELS.allow_consulting}
            checked={values.allow_consulting}
            disabled={!canSetConsulting}
            hint={
              canSetConsulting
                ? 'Lets someone offer to manage this XPoint for you as its consultant.'
                : 'Only the owner or an admin can change this.'
            }
            error={errors['allow_consulting']}
            onChange={(checked) => onChange({ allow_consulting: checked })}
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
