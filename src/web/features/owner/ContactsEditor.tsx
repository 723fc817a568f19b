import { MAX_CONTACTS } from '../../../shared/api/points';
import { CONTACT_ROLES, type ContactRole } from '../../../shared/domain/enums';
import { EditField } from './EditField';
import { CONTACT_LABELS, emptyContact, type ContactValues } from './editForm';

const ROLE_OPTIONS = (Object.keys(CONTACT_ROLES) as ContactRole[]).map((code) => ({
  value: code,
  label: `${CONTACT_ROLES[code]} (${code})`,
}));

/**
 * The point's contacts (map-and-search §3) in order, each with a role code (ADMN, _CEO, OWNR, or
 * CUST with its own role name), a name or one of our usernames. The whole list is saved at once.
 */
export function ContactsEditor({
  contacts,
  errors,
  onChange,
}: {
  contacts: ContactValues[];
  /** errors by field path (`contacts.1.roleoverride`). */
  errors: Record<string, string>;
  onChange(contacts: ContactValues[]): void;
}) {
  const update = (index: number, patch: Partial<ContactValues>) =>
    onChange(contacts.map((contact, i) => (i === index ? { ...contact, ...patch } : contact)));
  const move = (index: number, by: -1 | 1) => {
    const next = [...contacts];
    const [moved] = next.splice(index, 1);
    if (moved !== undefined) next.splice(index + by, 0, moved);
    onChange(next);
  };
  const listError = errors['contacts'];
  return (
    <div className="contacts-editor">
      {contacts.length === 0 && <p className="point-edit__hint">No contacts yet.</p>}
      <ol className="contacts-editor__list">
        {contacts.map((contact, index) => {
          const path = (field: keyof ContactValues) => `contacts.${index}.${field}`;
          return (
            <li key={index} className="contacts-editor__item" aria-label={`Contact ${index + 1}`}>
              <div className="addnew-form__row">
                <EditField
                  name={path('roleid')}
                  label={CONTACT_LABELS.roleid}
                  value={contact.roleid}
                  control={{ kind: 'select', options: ROLE_OPTIONS }}
                  error={errors[path('roleid')]}
                  onChange={(value) => update(index, { roleid: value as ContactRole })}
                />
                {contact.roleid === 'CUST' && (
                  <EditField
                    name={path('roleoverride')}
                    label={CONTACT_LABELS.roleoverride}
                    value={contact.roleoverride}
                    required
                    error={errors[path('roleoverride')]}
                    onChange={(value) => update(index, { roleoverride: value })}
                  />
                )}
              </div>
              <div className="addnew-form__row">
                <EditField
                  name={path('contact_firstname')}
                  label={CONTACT_LABELS.contact_firstname}
                  value={contact.contact_firstname}
                  error={errors[path('contact_firstname')]}
                  onChange={(value) => update(index, { contact_firstname: value })}
                />
                <EditField
                  name={path('contact_lastname')}
                  label={CONTACT_LABELS.contact_lastname}
                  value={contact.contact_lastname}
                  error={errors[path('contact_lastname')]}
                  onChange={(value) => update(index, { contact_lastname: value })}
                />
              </div>
              <EditField
                name={path('contact_username')}
                label={`${CONTACT_LABELS.contact_username} (optional: links to their profile)`}
                value={contact.contact_username}
                error={errors[path('contact_username')]}
                onChange={(value) => update(index, { contact_username: value })}
              />
              <div className="contacts-editor__actions">
                <button
                  type="button"
                  className="link-button"
                  disabled={index === 0}
                  aria-label={`Move contact ${index + 1} up`}
                  onClick={() => move(index, -1)}
                >
                  Up
                </button>
                <button
                  type="button"
                  className="link-button"
                  disabled={index === contacts.length - 1}
                  aria-label={`Move contact ${index + 1} down`}
                  onClick={() => move(index, 1)}
                >
                  Down
                </button>
                <button
                  type="button"
                  className="link-button point-edit__danger"
                  aria-label={`Remove contact ${index + 1}`}
                  onClick={() => onChange(contacts.filter((_, i) => i !== index))}
                >
                  Remove
                </button>
              </div>
            </li>
          );
        })}
      </ol>
      {listError && <p className="addnew-field__error">{listError}</p>}
      <button
        type="button"
        className="xp-button"
        disabled={contacts.length >= MAX_CONTACTS}
        onClick={() => onChange([...contacts, emptyContact()])}
      >
        Add a contact
      </button>
    </div>
  );
}
