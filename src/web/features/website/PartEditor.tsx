import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  useSensor,
  useSensors,
  type DragEndEvent,
} from '@dnd-kit/core';
import {
  SortableContext,
  arrayMove,
  rectSortingStrategy,
  sortableKeyboardCoordinates,
  useSortable,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import {
  WEBSITE_ERROR_SHOWN_MS,
  WEBSITE_FIELDS,
  WEBSITE_FIELD_MAX_CHARS,
  WEBSITE_MAX_LENGTH_MESSAGE,
  WEBSITE_PICS_PER_PART,
  changedFields,
  charCount,
  firstFreeSlot,
  isTooLong,
  orderedPictures,
  type WebsiteField,
  type WebsitePartData,
  type WebsitePicture,
} from '../../../shared/website';
import { ApiError } from '../../lib/api';
import { errorText } from '../../lib/query';
import { Dialog } from '../../ui/Dialog';
import { SitePicture } from './SitePart';
import { deletePicture, reorderPictures, setFields, uploadPicture, type WriteResult } from './websiteApi';

/** Social §5: the picture choice accepts these extensions only; anything else is ignored with a warning. */
const PICTURE_EXTENSIONS = /\.(jpe?g|png|gif)$/i;
const PICTURE_WARNING = 'Please upload file having extensions .jpeg/.jpg/.png/.gif only.';
/** Social §8: an upload answered 200 without its `status: 'success'`. */
const UPLOAD_UNREADABLE = 'failed to parse server response!';

const LABELS: Record<WebsiteField, string> = {
  title: 'Title',
  description: 'Description',
  line1: 'Line 1',
  line2: 'Line 2',
  line3: 'Line 3',
  line4: 'Line 4',
  line5: 'Line 5',
  line6: 'Line 6',
  line7: 'Line 7',
  line8: 'Line 8',
  line9: 'Line 9',
  line10: 'Line 10',
};

export interface PartEditorProps {
  xpointid: string;
  part: WebsitePartData;
  /** the site version the editor read; every call carries it */
  version: number;
  onSaved(result: WriteResult): void;
  onClose(): void;
  onError(message: string, forMs: number): void;
}

/**
 * One part in edit mode (social §4, §5): its text fields, each with its own maximum (an overrun shows
 * 'Max length for this field has been exceeded' and blocks saving), only the changed fields sent and
 * nothing changed meaning cancel; its pictures uploaded with progress, deleted after a confirmation,
 * and put in order by dragging or with the keyboard (Space to lift, arrows to move, Space to drop).
 */
export default function PartEditor({ xpointid, part, version, onSaved, onClose, onError }: PartEditorProps) {
  const formId = useId();
  const [values, setValues] = useState<Record<WebsiteField, string>>(
    () =>
      Object.fromEntries(WEBSITE_FIELDS.map((name) => [name, part.fields[name] ?? ''])) as Record<
        WebsiteField,
        string
      >,
  );
  const [saving, setSaving] = useState(false);
  // the newest version this editor knows: uploads one after another each carry the one before's
  const latest = useRef(version);
  useEffect(() => {
    latest.current = Math.max(latest.current, version);
  }, [version]);
  const saved = (result: WriteResult) => {
    latest.current = result.version;
    onSaved(result);
  };
  const tooLong = WEBSITE_FIELDS.filter((name) => isTooLong(name, values[name]));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (tooLong.length > 0) return;
    const changes = changedFields(part.fields, values);
    // nothing changed means cancel (social §5)
    if (changes.length === 0) return onClose();
    setSaving(true);
    try {
      saved(await setFields(xpointid, part.part_idx, changes, latest.current));
      onClose();
    } catch (error) {
      onError(errorText(error), WEBSITE_ERROR_SHOWN_MS);
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="website-editor">
      <form id={formId} className="website-editor__form" onSubmit={(event) => void submit(event)} noValidate>
        {WEBSITE_FIELDS.map((name) => {
          const over = isTooLong(name, values[name]);
          const inputId = `${formId}-${name}`;
          const noteId = `${inputId}-note`;
          const common = {
            id: inputId,
            name,
            value: values[name],
            'aria-invalid': over,
            'aria-describedby': noteId,
            onChange: (event: { target: { value: string } }) =>
              setValues((current) => ({ ...current, [name]: event.target.value })),
          };
          return (
            <div key={name} className={`website-editor__field website-editor__field--${name}`}>
              <label htmlFor={inputId}>{LABELS[name]}</label>
              {name === 'description' ? <textarea rows={4} {...common} /> : <input type="text" {...common} />}
              <span
                id={noteId}
                className={
                  over ? 'website-editor__count website-editor__count--over' : 'website-editor__count'
                }
              >
                {over
                  ? WEBSITE_MAX_LENGTH_MESSAGE
                  : `${charCount(values[name])} / ${WEBSITE_FIELD_MAX_CHARS[name]}`}
              </span>
            </div>
          );
        })}
        <div className="website-editor__actions">
          <button
            type="submit"
            className="xp-button xp-button--primary"
            disabled={saving || tooLong.length > 0}
          >
            {saving ? 'Saving…' : 'Save'}
          </button>
          <button type="button" className="xp-button" onClick={onClose} disabled={saving}>
            Cancel
          </button>
        </div>
      </form>
      <PictureManager
        xpointid={xpointid}
        part={part}
        version={() => latest.current}
        onSaved={saved}
        onError={onError}
      />
    </div>
  );
}

function PictureManager({
  xpointid,
  part,
  version,
  onSaved,
  onError,
}: {
  xpointid: string;
  part: WebsitePartData;
  version(): number;
  onSaved(result: WriteResult): void;
  onError(message: string, forMs: number): void;
}) {
  const pictures = orderedPictures(part.pictures);
  const [progress, setProgress] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<WebsitePicture | null>(null);
  const inputId = useId();
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const full = pictures.length >= WEBSITE_PICS_PER_PART;

  const upload = async (files: File[]) => {
    let current = pictures;
    for (const file of files) {
      if (!PICTURE_EXTENSIONS.test(file.name)) {
        console.warn(PICTURE_WARNING);
        continue;
      }
      const slot = firstFreeSlot(current);
      if (slot === null) {
        onError(`A section holds at most ${WEBSITE_PICS_PER_PART} pictures.`, WEBSITE_ERROR_SHOWN_MS);
        break;
      }
      setProgress(0);
      try {
        const result = await uploadPicture(xpointid, part.part_idx, slot, version(), file, setProgress);
        current = result.part.pictures;
        onSaved(result);
      } catch (error) {
        // social §8: a refusal shows the server's error; a 200 that is not {status: 'success'} this
        onError(
          error instanceof ApiError && error.status === 200 ? UPLOAD_UNREADABLE : errorText(error),
          WEBSITE_ERROR_SHOWN_MS,
        );
        break;
      } finally {
        setProgress(null);
      }
    }
  };

  const remove = async (picture: WebsitePicture) => {
    try {
      onSaved(await deletePicture(xpointid, part.part_idx, picture.pic_idx, version()));
    } catch (error) {
      onError(errorText(error), WEBSITE_ERROR_SHOWN_MS);
    }
  };

  const dragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const ids = pictures.map((p) => p.pic_idx);
    void move(arrayMove(ids, ids.indexOf(Number(active.id)), ids.indexOf(Number(over.id))));
  };
  /** One step earlier or later: the buttons beside each picture, for those who do not drag. */
  const step = (index: number, by: -1 | 1) => {
    const ids = pictures.map((p) => p.pic_idx);
    if (index + by < 0 || index + by >= ids.length) return;
    void move(arrayMove(ids, index, index + by));
  };
  const move = async (order: number[]) => {
    try {
      onSaved(await reorderPictures(xpointid, part.part_idx, order, version()));
    } catch (error) {
      onError(errorText(error), WEBSITE_ERROR_SHOWN_MS);
    }
  };

  return (
    <div className="website-pictures">
      <p className="website-pictures__hint" id={`${inputId}-hint`}>
        Pictures ({pictures.length} of {WEBSITE_PICS_PER_PART}). Drag to reorder, or focus a picture and press
        Space, then the arrow keys, then Space.
      </p>
      <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={dragEnd}>
        <SortableContext items={pictures.map((p) => p.pic_idx)} strategy={rectSortingStrategy}>
          <ul className="website-pictures__grid" aria-describedby={`${inputId}-hint`}>
            {pictures.map((picture, i) => (
              <SortablePicture
                key={picture.pic_idx}
                picture={picture}
                label={`Picture ${i + 1}`}
                first={i === 0}
                last={i === pictures.length - 1}
                onStep={(by) => step(i, by)}
                onDelete={() => setDeleting(picture)}
              />
            ))}
          </ul>
        </SortableContext>
      </DndContext>
      <div className="website-pictures__upload">
        <label htmlFor={inputId}>{full ? 'This section holds 10 pictures' : 'Add pictures'}</label>
        <input
          id={inputId}
          type="file"
          accept="image/jpeg,image/png,image/gif"
          multiple
          disabled={full || progress !== null}
          onChange={(event) => {
            const files = [...(event.target.files ?? [])];
            event.target.value = '';
            void upload(files);
          }}
        />
        {progress !== null && (
          <progress
            className="website-pictures__progress"
            max={1}
            value={progress}
            aria-label="Uploading the picture"
          />
        )}
      </div>
      {deleting && (
        <ConfirmDelete
          onCancel={() => setDeleting(null)}
          onConfirm={() => {
            const picture = deleting;
            setDeleting(null);
            void remove(picture);
          }}
        />
      )}
    </div>
  );
}

function SortablePicture({
  picture,
  label,
  first,
  last,
  onStep,
  onDelete,
}: {
  picture: WebsitePicture;
  label: string;
  first: boolean;
  last: boolean;
  onStep(by: -1 | 1): void;
  onDelete(): void;
}) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({
    id: picture.pic_idx,
  });
  return (
    <li
      ref={setNodeRef}
      className={isDragging ? 'website-pictures__item is-dragging' : 'website-pictures__item'}
      style={{ transform: CSS.Transform.toString(transform), transition }}
    >
      <div
        className="website-pictures__handle"
        {...attributes}
        {...listeners}
        aria-label={`${label}: drag to reorder`}
      >
        <SitePicture picture={picture} alt="" />
      </div>
      <div className="website-pictures__buttons">
        <button
          type="button"
          className="xp-button website-pictures__move"
          onClick={() => onStep(-1)}
          disabled={first}
          aria-label={`Move ${label.toLowerCase()} earlier`}
        >
          ←
        </button>
        <button
          type="button"
          className="xp-button website-pictures__move"
          onClick={() => onStep(1)}
          disabled={last}
          aria-label={`Move ${label.toLowerCase()} later`}
        >
          →
        </button>
        <button type="button" className="xp-button website-pictures__delete" onClick={onDelete}>
          Delete<span className="visually-hidden"> {label.toLowerCase()}</span>
        </button>
      </div>
    </li>
  );
}

/** Social §5: a picture is deleted only after a confirmation. */
function ConfirmDelete({ onCancel, onConfirm }: { onCancel(): void; onConfirm(): void }) {
  const titleId = useId();
  return (
    <Dialog
      className="website-confirm"
      labelledBy={titleId}
      onClose={onCancel}
      initialFocus=".website-confirm__cancel"
    >
      <h2 id={titleId} className="xp-modal__title">
        Delete this picture?
      </h2>
      <p>It will be removed from the site for everyone.</p>
      <div className="website-confirm__actions">
        <button type="button" className="xp-button website-confirm__cancel" onClick={onCancel}>
          Keep it
        </button>
        <button type="button" className="xp-button website-confirm__delete" onClick={onConfirm}>
          Delete
        </button>
      </div>
    </Dialog>
  );
}
