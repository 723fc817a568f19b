import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState, type ChangeEvent, type ReactNode } from 'react';
import { useFieldArray, useForm, useWatch, type Path, type UseFormRegister } from 'react-hook-form';
import { MAX_EVENT_INTERVALS, MAX_EVENT_TICKETS } from '../../../shared/api/events';
import { categoriesFor } from '../../../shared/domain/categories';
import { ADMISSIONS, type Admission } from '../../../shared/domain/enums';
import { ApiError, fieldError } from '../../lib/api';
import { refreshPointTiles } from '../../map/pointTiles';
import { useFullScreenLoader } from '../../shell/FullScreenLoader';
import { errorAt } from '../../ui/formErrors';
import { useRefusalFocus } from '../../ui/useRefusalFocus';
import {
  MESSAGES,
  eventFormSchema,
  formPathOf,
  ticketSummary,
  toEventBody,
  type EventFormValues,
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

type Name = Path<EventFormValues>;

/**
 * The event form (map-and-search §3 event fields, issue 8): what, when (start, end and openings),
 * where (the point's place or coordinates), admission and tickets, website, description and cover.
 * react-hook-form keeps the values; eventForm.ts's schema checks them before anything is sent, and
 * the server's refusals go beside the field they name. A save over someone else's newer change is
 * refused with a clear message.
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
  const { register, control, handleSubmit, getValues, setError, formState } = useForm<EventFormValues>({
    defaultValues: initial,
    resolver: zodResolver(eventFormSchema({ hasParent: parent !== null })),
    // one focus rule for the form’s own checks and the server’s refusals: useRefusalFocus
    shouldFocusError: false,
  });
  const intervals = useFieldArray({ control, name: 'intervals' });
  const tickets = useFieldArray({ control, name: 'tickets' });
  const [admission, ticketValues] = useWatch({ control, name: ['admission', 'tickets'] });
  const [formError, setFormError] = useState<string | null>(null);
  const [saved, setSaved] = useState<Saved | null>(savedAtStart);
  const [cover, setCover] = useState<File | null>(null);
  const [coverError, setCoverError] = useState<string | null>(null);
  const formRef = useRefusalFocus('.owner-alert', formState.submitCount);
  const field = (name: Name) => ({ id: `${id}-${name}`, error: errorAt(formState.errors, name) });
  /** a labelled text input bound to the form. */
  const input = (name: Name, label: string, extra: Omit<InputProps, 'name' | 'register'> = {}) => (
    <Field {...field(name)} label={label} required={extra.required}>
      {(props) => <Input {...props} {...extra} name={name} register={register} />}
    </Field>
  );

  const onCover = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    setCoverError(null);
    if (file === undefined) return setCover(null);
    if (file.size > COVER_MAX_BYTES) {
      setCover(null);
      setCoverError('Invalid image size. Max allowed 10 MB');
      return;
    }
    // sent as it is when the event is saved (multipart: the browser streams it from the disk)
    setCover(file);
  };

  const save = async (values: EventFormValues) => {
    const body = toEventBody(values, saved ? 'update' : 'create');
    const written = saved
      ? await updateEvent({ ...body, id: saved.id, version: saved.version })
      : await createEvent(parent ? { ...body, xpoint_id: parent.id } : body);
    let current: Saved = { id: written.id, version: written.version, url: written.url };
    setSaved(current);
    if (cover !== null) {
      try {
        const media = await uploadEventCover(current.id, current.version, cover);
        current = { ...current, version: media.version };
        setSaved(current);
      } catch (error) {
        // the event is saved; only its cover was refused: the form stays, now editing that event
        setCoverError(error instanceof Error ? error.message : String(error));
        setFormError(
          'The event was saved, but its cover image was refused. Choose another image, or save without one.',
        );
        setCover(null);
        return;
      }
    }
    refreshPointTiles();
    onDone(current.url);
  };

  const submit = handleSubmit(
    (values) => {
      setFormError(null);
      setCoverError(null);
      // awaited, so the submission ends (and focus follows a refusal) once the server has answered
      return loader
        .run(save(values), saved ? 'Saving the event…' : 'Adding the event…')
        .catch((error: unknown) => {
          if (error instanceof ApiError && error.status === 409 && error.code === STALE_VERSION_CODE) {
            setFormError(MESSAGES.stale);
            return;
          }
          const named = fieldError(error);
          const path = named === null ? null : formPathOf(named.field);
          if (named !== null && path !== null) setError(path as Name, { message: named.reason });
          setFormError(error instanceof Error ? error.message : String(error));
        });
    },
    () => setFormError('Please correct the marked fields.'),
  );

  return (
    <form
      ref={formRef}
      className="owner-form"
      onSubmit={(event) => void submit(event)}
      noValidate
      aria-label="The event"
    >
      {formError !== null && (
        <p className="owner-alert" role="alert" tabIndex={-1}>
          {formError}
        </p>
      )}

      <fieldset className="owner-form__group">
        <legend>What</legend>
        {input('title', 'Title', { required: true })}
        <div className="owner-form__row">
          <Field {...field('type')} label="Type" required>
            {(props) => (
              <select {...props} {...register('type')}>
                <option value="">Choose a type</option>
                {EVENT_TYPES.map((category) => (
                  <option key={category.key} value={category.key}>
                    {category.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          {input('subtype', 'Subtype')}
        </div>
      </fieldset>

      <fieldset className="owner-form__group">
        <legend>When</legend>
        <DateTimeField {...field('start')} name="start" label="Starts" register={register} />
        <DateTimeField {...field('end')} name="end" label="Ends" register={register} />
        <EntryList
          count={intervals.fields.length}
          keys={intervals.fields.map((entry) => entry.id)}
          max={MAX_EVENT_INTERVALS}
          empty={
            <p className="owner-field__hint">No separate opening times: open from the start to the end.</p>
          }
          removeLabel={(index) => `Remove opening ${index + 1}`}
          addLabel="Add an opening time"
          onAdd={() => intervals.append({ start: getValues('start'), end: getValues('end') })}
          onRemove={intervals.remove}
        >
          {(index) => (
            <>
              <DateTimeField
                {...field(`intervals.${index}.start`)}
                name={`intervals.${index}.start`}
                label={`Opening ${index + 1} from`}
                register={register}
              />
              <DateTimeField
                {...field(`intervals.${index}.end`)}
                name={`intervals.${index}.end`}
                label={`Opening ${index + 1} until`}
                register={register}
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
          {input('lat', 'Latitude', { required: parent === null, inputMode: 'decimal' })}
          {input('lon', 'Longitude', { required: parent === null, inputMode: 'decimal' })}
        </div>
        {input('address', 'Address', { autoComplete: 'street-address' })}
      </fieldset>

      <fieldset className="owner-form__group">
        <legend>Admission and tickets</legend>
        <div className="owner-form__row">
          <Field {...field('admission')} label="Admission">
            {(props) => (
              <select {...props} {...register('admission')}>
                {ADMISSIONS.map((value) => (
                  <option key={value} value={value}>
                    {ADMISSION_NAMES[value]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          {input('admissionprice', 'Admission price', {
            required: admission === 'paid',
            inputMode: 'decimal',
          })}
        </div>
        <EntryList
          count={tickets.fields.length}
          keys={tickets.fields.map((entry) => entry.id)}
          max={MAX_EVENT_TICKETS}
          removeLabel={(index) => `Remove ticket ${index + 1}`}
          addLabel="Add a ticket option"
          onAdd={() => tickets.append({ name: '', unit_price: '', max_quantity: '1' })}
          onRemove={tickets.remove}
        >
          {(index) => (
            <>
              {input(`tickets.${index}.name`, `Ticket ${index + 1} name`)}
              <div className="owner-form__row">
                {input(`tickets.${index}.unit_price`, 'Unit price', { inputMode: 'decimal' })}
                {input(`tickets.${index}.max_quantity`, 'Most per order', { inputMode: 'numeric' })}
              </div>
              <p className="owner-ticket__total" aria-live="polite">
                {ticketValues[index] ? ticketSummary(ticketValues[index]) : ''}
              </p>
            </>
          )}
        </EntryList>
      </fieldset>

      <fieldset className="owner-form__group">
        <legend>More</legend>
        {input('website', 'Website', { type: 'url', inputMode: 'url' })}
        <Field {...field('description')} label="Description">
          {(props) => <textarea {...props} {...register('description')} rows={4} />}
        </Field>
        <Field
          id={`${id}-cover`}
          error={coverError ?? undefined}
          label="Cover image"
          hint="JPEG, PNG, GIF or WebP, up to 10 MB."
        >
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

interface EntryListProps {
  count: number;
  /** each entry's stable key (useFieldArray's ids), so removing one keeps the others' fields. */
  keys: string[];
  /** the most entries the server takes: no Add button once there are this many. */
  max: number;
  /** shown instead of the list while there are no entries; nothing by default. */
  empty?: ReactNode;
  /** the name of the button that removes entry `index` ("Remove ticket 2"). */
  removeLabel(index: number): string;
  addLabel: string;
  onAdd(): void;
  onRemove(index: number): void;
  /** an entry's fields. */
  children(index: number): ReactNode;
}

/**
 * A group of repeated entries (the openings, the tickets): an ordered list with the fields and a
 * Remove button in each item, then an Add button while there are fewer than `max`.
 */
function EntryList({
  count,
  keys,
  max,
  empty,
  removeLabel,
  addLabel,
  onAdd,
  onRemove,
  children,
}: EntryListProps) {
  return (
    <>
      {count === 0 ? (
        empty
      ) : (
        <ol className="owner-list">
          {keys.map((key, index) => (
            <li key={key} className="owner-list__item">
              {children(index)}
              <button type="button" className="link-button" onClick={() => onRemove(index)}>
                {removeLabel(index)}
              </button>
            </li>
          ))}
        </ol>
      )}
      {count < max && (
        <button type="button" className="xp-button" onClick={onAdd}>
          {addLabel}
        </button>
      )}
    </>
  );
}

interface InputProps {
  name: Name;
  register: UseFormRegister<EventFormValues>;
  required?: boolean;
  type?: 'text' | 'url';
  inputMode?: 'decimal' | 'numeric' | 'url';
  autoComplete?: string;
}

/** A text input bound to the form, with the label's ids from its Field. */
function Input({ name, register, type = 'text', ...rest }: InputProps & ControlProps) {
  return <input {...rest} {...register(name)} type={type} />;
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
  name: 'start' | 'end' | `intervals.${number}.${'start' | 'end'}`;
  label: string;
  error: string | undefined;
  register: UseFormRegister<EventFormValues>;
}

/** A date and a time side by side, one label for both, one message under them. */
function DateTimeField({ id, name, label, error, register }: DateTimeFieldProps) {
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
            aria-invalid={invalid}
            aria-describedby={described}
            {...register(`${name}.date`)}
          />
        </label>
        <label className="owner-datetime__part">
          <span className="visually-hidden">{label}: time</span>
          <input
            type="time"
            aria-invalid={invalid}
            aria-describedby={described}
            {...register(`${name}.time`)}
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
