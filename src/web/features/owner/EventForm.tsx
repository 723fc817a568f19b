import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { MAX_EVENT_INTERVALS, MAX_EVENT_TICKETS } from '../../../shared/api/events';
import { categoriesFor } from '../../../shared/domain/categories';
import { ADMISSIONS, type Admission } from '../../../shared/domain/enums';
import { ApiError } from '../../lib/api';
import { refreshPointTiles } from '../../map/pointTiles';
import { useFullScreenLoader } from '../../shell/FullScreenLoader';
import {
  MESSAGES,
  fieldOfServerMessage,
  ticketSummary,
  toEventBody,
  validateEventValues,
  type DateTimeValues,
  type EventFormValues,
  type FieldErrors,
  type IntervalValues,
  type TicketValues,
} from './eventForm';
import { createEvent, updateEvent, uploadEventCover } from './ownerApi';

/** The server's image limit (2008 "Invalid image size. Max allowed 10 MB"), checked before sending. */
export const COVER_MAX_BYTES = 10 * 1024 * 1024;
const STALE_VERSION_CODE = 1012;

const ADMISSION_NAMES: Record<Admission, string> = { free: 'Free', paid: 'Paid', donation: 'By donation' };
const EVENT_TYPES = [...categoriesFor('event')].sort((a, b) => a.name.localeCompare(b.name));

/** The event being edited, once it exists on the server (edit, or a create whose cover failed). */
interface Saved {
  id: string;
  version: number;
  url: string;
}

export interface EventFormProps {
  /** the event being edited; null for a new one (create, copy to new, add as child). */
  saved: Saved | null;
  initial: EventFormValues;
  /** the XPoint the event belongs to: it may take its place. */
  parent: { id: string; title: string } | null;
  coverUrl: string | null;
  submitLabel: string;
  onDone(url: string): void;
  onCancel(): void;
}

/**
 * The event form (map-and-search §3 event fields, issue 8): what, when (start, end and openings),
 * where (the point's place or coordinates), admission and tickets, website, description and cover.
 * Each mistake shows beside its field before anything is sent; the server's refusals too, and a save
 * over someone else's newer change is refused with a clear message.
 */
export function EventForm({
  saved: savedAtStart,
  initial,
  parent,
  coverUrl,
  submitLabel,
  onDone,
  onCancel,
}: EventFormProps) {
  const id = useId();
  const loader = useFullScreenLoader();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saved, setSaved] = useState<Saved | null>(savedAtStart);
  const [cover, setCover] = useState<{ name: string; data: string } | null>(null);
  const [attempt, setAttempt] = useState(0);

  // a refused submission: focus goes to the first field in error, else to the form's message
  useEffect(() => {
    if (attempt === 0) return;
    const form = formRef.current;
    const invalid = form?.querySelector<HTMLElement>('[aria-invalid="true"]');
    (invalid ?? form?.querySelector<HTMLElement>('.owner-alert'))?.focus();
  }, [attempt]);

  const set = <K extends keyof EventFormValues>(key: K, value: EventFormValues[K]) =>
    setValues((previous) => ({ ...previous, [key]: value }));
  const field = (name: string) => ({ id: `${id}-${name}`, error: errors[name] });

  const onCover = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    setErrors(({ cover: _old, ...rest }) => rest);
    if (file === undefined) return setCover(null);
    if (file.size > COVER_MAX_BYTES) {
      setCover(null);
      setErrors((previous) => ({ ...previous, cover: 'Invalid image size. Max allowed 10 MB' }));
      return;
    }
    const reader = new FileReader();
    reader.onload = () => setCover({ name: file.name, data: String(reader.result) });
    reader.onerror = () =>
      setErrors((previous) => ({ ...previous, cover: 'The file could not be read. Choose it again.' }));
    reader.readAsDataURL(file);
  };

  const refuse = (fieldErrors: FieldErrors, message: string | null) => {
    setErrors(fieldErrors);
    setFormError(message);
    setAttempt((n) => n + 1);
  };

  const save = async () => {
    const body = toEventBody(values, saved ? 'update' : 'create');
    const written = saved
      ? await updateEvent({ ...body, id: saved.id, version: saved.version })
      : await createEvent(parent ? { ...body, xpoint_id: parent.id } : body);
    let current: Saved = { id: written.id, version: written.version, url: written.url };
    setSaved(current);
    if (cover !== null) {
      try {
        const media = await uploadEventCover(current.id, current.version, cover.data);
        current = { ...current, version: media.version };
        setSaved(current);
      } catch (error) {
        // the event is saved; only its cover was refused: the form stays, now editing that event
        refuse(
          { cover: error instanceof Error ? error.message : String(error) },
          'The event was saved, but its cover image was refused. Choose another image, or save without one.',
        );
        setCover(null);
        return;
      }
    }
    refreshPointTiles();
    onDone(current.url);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateEventValues(values, { hasParent: parent !== null });
    if (Object.keys(found).length > 0) {
      refuse(found, 'Please correct the marked fields.');
      return;
    }
    setErrors({});
    setFormError(null);
    loader.run(save(), saved ? 'Saving the event…' : 'Adding the event…').catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 409 && error.code === STALE_VERSION_CODE) {
        refuse({}, MESSAGES.stale);
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      const placed = fieldOfServerMessage(message);
      refuse(placed ? { [placed.field]: placed.reason } : {}, message);
    });
  };

  const updateInterval = (index: number, part: keyof IntervalValues, value: DateTimeValues) =>
    set(
      'intervals',
      values.intervals.map((interval, i) => (i === index ? { ...interval, [part]: value } : interval)),
    );
  const updateTicket = (index: number, part: keyof TicketValues, value: string) =>
    set(
      'tickets',
      values.tickets.map((ticket, i) => (i === index ? { ...ticket, [part]: value } : ticket)),
    );

  return (
    <form ref={formRef} className="owner-form" onSubmit={submit} noValidate aria-label="The event">
      {formError !== null && (
        <p className="owner-alert" role="alert" tabIndex={-1}>
          {formError}
        </p>
      )}

      <fieldset className="owner-form__group">
        <legend>What</legend>
        <Field {...field('title')} label="Title" required>
          {(props) => (
            <input
              {...props}
              name="title"
              type="text"
              value={values.title}
              onChange={(e) => set('title', e.target.value)}
            />
          )}
        </Field>
        <div className="owner-form__row">
          <Field {...field('type')} label="Type" required>
            {(props) => (
              <select
                {...props}
                name="type"
                value={values.type}
                onChange={(e) => set('type', e.target.value)}
              >
                <option value="">Choose a type</option>
                {EVENT_TYPES.map((category) => (
                  <option key={category.key} value={category.key}>
                    {category.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field {...field('subtype')} label="Subtype">
            {(props) => (
              <input
                {...props}
                name="subtype"
                type="text"
                value={values.subtype}
                onChange={(e) => set('subtype', e.target.value)}
              />
            )}
          </Field>
        </div>
      </fieldset>

      <fieldset className="owner-form__group">
        <legend>When</legend>
        <DateTimeField
          {...field('start')}
          label="Starts"
          value={values.start}
          onChange={(v) => set('start', v)}
        />
        <DateTimeField {...field('end')} label="Ends" value={values.end} onChange={(v) => set('end', v)} />
        <EntryList
          entries={values.intervals}
          max={MAX_EVENT_INTERVALS}
          empty={
            <p className="owner-field__hint">No separate opening times: open from the start to the end.</p>
          }
          removeLabel={(index) => `Remove opening ${index + 1}`}
          addLabel="Add an opening time"
          newEntry={() => ({ start: values.start, end: values.end })}
          onChange={(intervals) => set('intervals', intervals)}
        >
          {(interval, index) => (
            <>
              <DateTimeField
                {...field(`intervals.${index}.start`)}
                label={`Opening ${index + 1} from`}
                value={interval.start}
                onChange={(v) => updateInterval(index, 'start', v)}
              />
              <DateTimeField
                {...field(`intervals.${index}.end`)}
                label={`Opening ${index + 1} until`}
                value={interval.end}
                onChange={(v) => updateInterval(index, 'end', v)}
              />
            </>
          )}
        </EntryList>
      </fieldset>

      <fieldset className="owner-form__group">
        <legend>Where</legend>
        {parent !== null && (
          <p className="owner-field__hint">
            At <strong>{parent.title}</strong>. Leave the coordinates empty to use its place.
          </p>
        )}
        <div className="owner-form__row">
          <Field {...field('lat')} label="Latitude" required={parent === null}>
            {(props) => (
              <input
                {...props}
                name="lat"
                type="text"
                inputMode="decimal"
                value={values.lat}
                onChange={(e) => set('lat', e.target.value)}
              />
            )}
          </Field>
          <Field {...field('lon')} label="Longitude" required={parent === null}>
            {(props) => (
              <input
                {...props}
                name="lon"
                type="text"
                inputMode="decimal"
                value={values.lon}
                onChange={(e) => set('lon', e.target.value)}
              />
            )}
          </Field>
        </div>
        <Field {...field('address')} label="Address">
          {(props) => (
            <input
              {...props}
              name="address"
              type="text"
              autoComplete="street-address"
              value={values.address}
              onChange={(e) => set('address', e.target.value)}
            />
          )}
        </Field>
      </fieldset>

      <fieldset className="owner-form__group">
        <legend>Admission and tickets</legend>
        <div className="owner-form__row">
          <Field {...field('admission')} label="Admission">
            {(props) => (
              <select
                {...props}
                name="admission"
                value={values.admission}
                onChange={(e) => set('admission', e.target.value as Admission)}
              >
                {ADMISSIONS.map((admission) => (
                  <option key={admission} value={admission}>
                    {ADMISSION_NAMES[admission]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field {...field('admissionprice')} label="Admission price" required={values.admission === 'paid'}>
            {(props) => (
              <input
                {...props}
                name="admissionprice"
                type="text"
                inputMode="decimal"
                value={values.admissionprice}
                onChange={(e) => set('admissionprice', e.target.value)}
              />
            )}
          </Field>
        </div>
        <EntryList
          entries={values.tickets}
          max={MAX_EVENT_TICKETS}
          removeLabel={(index) => `Remove ticket ${index + 1}`}
          addLabel="Add a ticket option"
          newEntry={() => ({ name: '', unit_price: '', max_quantity: '1' })}
          onChange={(tickets) => set('tickets', tickets)}
        >
          {(ticket, index) => (
            <>
              <Field {...field(`tickets.${index}.name`)} label={`Ticket ${index + 1} name`}>
                {(props) => (
                  <input
                    {...props}
                    type="text"
                    value={ticket.name}
                    onChange={(e) => updateTicket(index, 'name', e.target.value)}
                  />
                )}
              </Field>
              <div className="owner-form__row">
                <Field {...field(`tickets.${index}.unit_price`)} label="Unit price">
                  {(props) => (
                    <input
                      {...props}
                      type="text"
                      inputMode="decimal"
                      value={ticket.unit_price}
                      onChange={(e) => updateTicket(index, 'unit_price', e.target.value)}
                    />
                  )}
                </Field>
                <Field {...field(`tickets.${index}.max_quantity`)} label="Most per order">
                  {(props) => (
                    <input
                      {...props}
                      type="text"
                      inputMode="numeric"
                      value={ticket.max_quantity}
                      onChange={(e) => updateTicket(index, 'max_quantity', e.target.value)}
                    />
                  )}
                </Field>
              </div>
              <p className="owner-ticket__total" aria-live="polite">
                {ticketSummary(ticket)}
              </p>
            </>
          )}
        </EntryList>
      </fieldset>

      <fieldset className="owner-form__group">
        <legend>More</legend>
        <Field {...field('website')} label="Website">
          {(props) => (
            <input
              {...props}
              name="website"
              type="url"
              inputMode="url"
              value={values.website}
              onChange={(e) => set('website', e.target.value)}
            />
          )}
        </Field>
        <Field {...field('description')} label="Description">
          {(props) => (
            <textarea
              {...props}
              name="description"
              rows={4}
              value={values.description}
              onChange={(e) => set('description', e.target.value)}
            />
          )}
        </Field>
        <Field {...field('cover')} label="Cover image" hint="JPEG, PNG, GIF or WebP, up to 10 MB.">
          {(props) => <input {...props} name="cover" type="file" accept="image/*" onChange={onCover} />}
        </Field>
        {coverUrl !== null && cover === null && (
          <img className="owner-form__cover" src={coverUrl} alt="The current cover" />
        )}
      </fieldset>

      <div className="owner-actions owner-actions--sticky">
        <button type="button" className="xp-button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="xp-button xp-button--primary">
          {saved && !savedAtStart ? 'Save' : submitLabel}
        </button>
      </div>
    </form>
  );
}

interface ControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
  required: boolean | undefined;
}

interface EntryListProps<T> {
  entries: T[];
  /** the most entries the server takes: no Add button once there are this many. */
  max: number;
  /** shown instead of the list while there are no entries; nothing by default. */
  empty?: ReactNode;
  /** the name of the button that removes entry `index` ("Remove ticket 2"). */
  removeLabel(index: number): string;
  addLabel: string;
  /** the entry the Add button appends. */
  newEntry(): T;
  onChange(entries: T[]): void;
  /** an entry's fields. */
  children(entry: T, index: number): ReactNode;
}

/**
 * A group of repeated entries (the openings, the tickets): an ordered list with the fields and a
 * Remove button in each item, then an Add button while there are fewer than `max`.
 */
function EntryList<T>({
  entries,
  max,
  empty,
  removeLabel,
  addLabel,
  newEntry,
  onChange,
  children,
}: EntryListProps<T>) {
  return (
    <>
      {entries.length === 0 ? (
        empty
      ) : (
        <ol className="owner-list">
          {entries.map((entry, index) => (
            <li key={index} className="owner-list__item">
              {children(entry, index)}
              <button
                type="button"
                className="link-button"
                onClick={() => onChange(entries.filter((_, i) => i !== index))}
              >
                {removeLabel(index)}
              </button>
            </li>
          ))}
        </ol>
      )}
      {entries.length < max && (
        <button type="button" className="xp-button" onClick={() => onChange([...entries, newEntry()])}>
          {addLabel}
        </button>
      )}
    </>
  );
}

interface FieldProps {
  id: string;
  label: string;
  error: string | undefined;
  hint?: string;
  required?: boolean;
  children(props: ControlProps): ReactNode;
}

/** A label, the control, and its hint or its error, linked for screen readers. */
function Field({ id, label, error, hint, required, children }: FieldProps) {
  const described = error !== undefined ? `${id}-error` : hint !== undefined ? `${id}-hint` : undefined;
  return (
    <div className="owner-field">
      <label htmlFor={id}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      {children({
        id,
        'aria-invalid': error !== undefined || undefined,
        'aria-describedby': described,
        required,
      })}
      {error !== undefined ? (
        <p className="owner-field__error" id={`${id}-error`}>
          {error}
        </p>
      ) : (
        hint !== undefined && (
          <p className="owner-field__hint" id={`${id}-hint`}>
            {hint}
          </p>
        )
      )}
    </div>
  );
}

interface DateTimeFieldProps {
  id: string;
  label: string;
  error: string | undefined;
  value: DateTimeValues;
  onChange(value: DateTimeValues): void;
}

/** A date and a time side by side, one label for both, one message under them. */
function DateTimeField({ id, label, error, value, onChange }: DateTimeFieldProps) {
  const invalid = error !== undefined || undefined;
  const described = error !== undefined ? `${id}-error` : undefined;
  return (
    <fieldset className="owner-field owner-datetime">
      <legend>{label}</legend>
      <div className="owner-form__row">
        <label className="owner-datetime__part">
          <span className="visually-hidden">{label}: date</span>
          <input
            id={id}
            type="date"
            min="1901-01-01"
            value={value.date}
            aria-invalid={invalid}
            aria-describedby={described}
            onChange={(e) => onChange({ ...value, date: e.target.value })}
          />
        </label>
        <label className="owner-datetime__part">
          <span className="visually-hidden">{label}: time</span>
          <input
            type="time"
            value={value.time}
            aria-invalid={invalid}
            aria-describedby={described}
            onChange={(e) => onChange({ ...value, time: e.target.value })}
          />
        </label>
      </div>
      {error !== undefined && (
        <p className="owner-field__error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </fieldset>
  );
}
