import { useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { MAX_CONTACTS } from '../../../shared/api/points';
import { CONTACT_ROLES, type ContactRole } from '../../../shared/domain/enums';
import { EditField } from './EditField';
import { errorAt } from '../../ui/formErrors';
import { CONTACT_LABELS, emptyContact, type ContactValues, type EditValues } from './editForm';

const ROLE_OPTIONS = (Object.keys(CONTACT_ROLES) as ContactRole[]).map((code) => ({
  value: code,
  label: `${CONTACT_ROLES[code]} (${code})`,
}));

/**
 * The point's contacts (map-and-search §3) in order, each with a role code (ADMN, _CEO, OWNR, or
 * CUST with its own role name), a name or one of our usernames. The whole list is saved at once.
 */
export function ContactsEditor() {
  const { control, register, formState } = useFormContext<EditValues>();
  const { fields, append, move, remove } = useFieldArray({ control, name: 'contacts' });
  const roles = useWatch({ control, name: 'contacts' }).map((contact) => contact.roleid);
  const errors = formState.errors;
  return (
    <div className="contacts-editor">
      {fields.length === 0 && <p className="point-edit__hint">No contacts yet.</p>}
      <ol className="contacts-editor__list">
        {fields.map((entry, index) => {
          const path = (field: keyof ContactValues) => `contacts.${index}.${field}` as const;
          const field = (
            name: Exclude<keyof ContactValues, 'roleid'>,
            label: string = CONTACT_LABELS[name],
          ) => (
            <EditField
              registration={register(path(name))}
              label={label}
              required={name === 'roleoverride'}
              error={errorAt(errors, path(name))}
            />
          );
          return (
            <li key={entry.id} className="contacts-editor__item" aria-label={`Contact ${index + 1}`}>
              <div className="addnew-form__row">
                <EditField
                  registration={register(path('roleid'))}
                  label={CONTACT_LABELS.roleid}
                  control={{ kind: 'select', options: ROLE_OPTIONS }}
                  error={errorAt(errors, path('roleid'))}
                />
                {roles[index] === 'CUST' && field('roleoverride')}
              </div>
              <div className="addnew-form__row">
                {field('contact_firstname')}
                {field('contact_lastname')}
              </div>
              {field(
                'contact_username',
                `${CONTACT_LABELS.contact_username} (optional: links to their profile)`,
              )}
              <div className="contacts-editor__actions">
                <button
                  type="button"
                  className="link-button"
                  disabled={index === 0}
                  aria-label={`Move contact ${index + 1} up`}
                  onClick={() => move(index, index - 1)}
                >
                  Up
                </button>
                <button
                  type="button"
                  className="link-button"
                  disabled={index === fields.length - 1}
                  aria-label={`Move contact ${index + 1} down`}
                  onClick={() => move(index, index + 1)}
                >
                  Down
                </button>
                <button
                  type="button"
                  className="link-button point-edit__danger"
                  aria-label={`Remove contact ${index + 1}`}
                  onClick={() => remove(index)}
                >
                  Remove
                </button>
              </div>
            </li>
          );
        })}
      </ol>
      {errorAt(errors, 'contacts') !== undefined && (
        <p className="addnew-field__error">{errorAt(errors, 'contacts')}</p>
      )}
      <button
        type="button"
        className="xp-button"
        disabled={fields.length >= MAX_CONTACTS}
        onClick={() => append(emptyContact())}
      >
        Add a contact
      </button>
    </div>
  );
}
