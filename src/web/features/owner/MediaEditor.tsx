import { useId, useState, type ChangeEvent } from 'react';
import type { EditablePoint, MediaSlot } from '../../../shared/api/points';
import { isConflict, uploadMedia, type MediaUpload } from './editApi';
import {
  MAX_SCREENSHOTS,
  SLOT_LABELS,
  acceptFor,
  checkPickedFile,
  screenshotRoom,
  sortedScreenshots,
  uploadErrorMessage,
} from './media';

type SingleSlot = Exclude<MediaSlot, 'screenshot'>;

interface MediaState {
  cover_image: string | null;
  cover_video: string | null;
  logo: string | null;
  screenshots: { position: number; url: string }[];
}

export interface MediaEditorProps {
  point: EditablePoint;
  /** the version the next write must carry (uploads move it on). */
  version(): number;
  onVersion(version: number): void;
  /** someone else saved the point in between: the panel says so and offers to reload. */
  onConflict(): void;
  /**
   * Runs a write after the point's writes before it (uploads here, the form's save), so each
   * carries the version the one before answered.
   */
  enqueue(write: () => Promise<void>): Promise<void>;
}

const SINGLE_SLOTS: readonly SingleSlot[] = ['cover_image', 'cover_video', 'logo'];

/**
 * The point's media (map-and-search §3: cover image or video, logo, up to 14 screenshots). Each file
 * is sent as soon as it is chosen (POST /v1/xpoint/media, one file per call), one call at a time so
 * each carries the version the previous one answered. The server checks the content and the size
 * and resizes; what it refuses is shown beside the slot in its own words, and nothing changes.
 */
export function MediaEditor({ point, version, onVersion, onConflict, enqueue }: MediaEditorProps) {
  const [media, setMedia] = useState<MediaState>(() => ({
    cover_image: point.url_cover_image,
    cover_video: point.url_cover_video,
    logo: point.url_icon_or_logo,
    screenshots: sortedScreenshots(point.screenshots),
  }));
  /** a local preview (an object URL of the picked file) while it is on its way, by slot. */
  const [pending, setPending] = useState<Partial<Record<MediaSlot, string>>>({});
  /** how much of the file on its way has been sent, 0..1, by slot. */
  const [progress, setProgress] = useState<Partial<Record<MediaSlot, number>>>({});
  const [errors, setErrors] = useState<Partial<Record<MediaSlot, string>>>({});

  const send = (upload: Omit<MediaUpload, 'id' | 'version'>, fileName: string) => {
    const run = async () => {
      try {
        const answer = await uploadMedia({ ...upload, id: point.id, version: version() }, (sent) =>
          setProgress((current) => ({ ...current, [upload.slot]: sent })),
        );
        onVersion(answer.version);
        setMedia((current) => {
          if (answer.slot !== 'screenshot') return { ...current, [answer.slot]: answer.url };
          const others = current.screenshots.filter((shot) => shot.position !== answer.position);
          return {
            ...current,
            screenshots:
              answer.url === null || answer.position === null
                ? others
                : sortedScreenshots([...others, { position: answer.position, url: answer.url }]),
          };
        });
      } catch (error) {
        if (isConflict(error)) onConflict();
        else
          setErrors((current) => ({
            ...current,
            [upload.slot]: uploadErrorMessage(error, upload.slot, fileName),
          }));
      } finally {
        setPending((current) => {
          const { [upload.slot]: preview, ...rest } = current;
          if (preview !== undefined) URL.revokeObjectURL(preview);
          return rest;
        });
        setProgress((current) => {
          const { [upload.slot]: _done, ...rest } = current;
          return rest;
        });
      }
    };
    return enqueue(run);
  };

  const pick = async (slot: MediaSlot, files: readonly File[]) => {
    setErrors((current) => ({ ...current, [slot]: undefined }));
    const room = slot === 'screenshot' ? screenshotRoom(media.screenshots.length) : 1;
    if (slot === 'screenshot' && files.length > room) {
      setErrors((current) => ({
        ...current,
        screenshot: `A point has at most ${MAX_SCREENSHOTS} screenshots: ${room === 0 ? 'remove one first' : `there is room for ${room} more`}.`,
      }));
      return;
    }
    for (const file of files) {
      const problem = checkPickedFile(file, slot);
      if (problem !== null) {
        setErrors((current) => ({ ...current, [slot]: problem }));
        return;
      }
    }
    for (const file of files) {
      // the browser streams the file from the disk: nothing is read into memory here
      setPending((current) => ({ ...current, [slot]: URL.createObjectURL(file) }));
      await send({ slot, file }, file.name);
    }
  };

  const remove = (slot: MediaSlot, position?: number) => {
    setErrors((current) => ({ ...current, [slot]: undefined }));
    void send({ slot, file: null, ...(position === undefined ? {} : { position }) }, '');
  };

  return (
    <div className="media-editor">
      <p className="point-edit__hint">
        Pictures and the video are saved as soon as you choose them. Images: JPEG, PNG, GIF or WebP up to 10
        MB; videos: MP4, WebM, QuickTime or Ogg up to 100 MB.
      </p>
      {SINGLE_SLOTS.map((slot) => (
        <MediaSlotEditor
          key={slot}
          slot={slot}
          url={pending[slot] ?? media[slot]}
          busy={pending[slot] !== undefined}
          progress={progress[slot]}
          error={errors[slot]}
          onPick={(files) => void pick(slot, files)}
          onRemove={() => remove(slot)}
        />
      ))}
      <Screenshots
        shots={media.screenshots}
        pending={pending.screenshot}
        progress={progress.screenshot}
        error={errors.screenshot}
        onPick={(files) => void pick('screenshot', files)}
        onRemove={(position) => remove('screenshot', position)}
      />
    </div>
  );
}

function filesOf(event: ChangeEvent<HTMLInputElement>): File[] {
  const files = Array.from(event.target.files ?? []);
  // the same file may be chosen again after a refusal
  event.target.value = '';
  return files;
}

function MediaSlotEditor({
  slot,
  url,
  busy,
  progress,
  error,
  onPick,
  onRemove,
}: {
  slot: SingleSlot;
  url: string | null;
  busy: boolean;
  progress: number | undefined;
  error: string | undefined;
  onPick(files: File[]): void;
  onRemove(): void;
}) {
  const id = useId();
  const label = SLOT_LABELS[slot];
  return (
    <div className="media-slot" role="group" aria-labelledby={`${id}-label`}>
      <p className="media-slot__label" id={`${id}-label`}>
        {label}
      </p>
      <div
        className={url === null ? 'media-slot__preview media-slot__preview--empty' : 'media-slot__preview'}
      >
        {url === null ? (
          <span className="media-slot__empty">None</span>
        ) : slot === 'cover_video' ? (
          <video src={url} muted playsInline preload="metadata" aria-label={`${label} preview`} />
        ) : (
          <img src={url} alt={`${label} preview`} />
        )}
        {busy && <UploadProgress sent={progress} />}
      </div>
      <div className="media-slot__actions">
        <label className="xp-button media-slot__pick">
          {url === null ? 'Choose a file' : 'Replace'}
          <input
            type="file"
            className="visually-hidden"
            accept={acceptFor(slot)}
            aria-label={`${label}: choose a file`}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            disabled={busy}
            onChange={(event) => onPick(filesOf(event))}
          />
        </label>
        {url !== null && !busy && (
          <button
            type="button"
            className="xp-button"
            onClick={onRemove}
            aria-label={`Remove the ${label.toLowerCase()}`}
          >
            Remove
          </button>
        )}
      </div>
      <SlotError id={id} error={error} />
    </div>
  );
}

function Screenshots({
  shots,
  pending,
  progress,
  error,
  onPick,
  onRemove,
}: {
  shots: { position: number; url: string }[];
  pending: string | undefined;
  progress: number | undefined;
  error: string | undefined;
  onPick(files: File[]): void;
  onRemove(position: number): void;
}) {
  const id = useId();
  const full = shots.length >= MAX_SCREENSHOTS;
  return (
    <div className="media-slot media-slot--screenshots" role="group" aria-labelledby={`${id}-label`}>
      <p className="media-slot__label" id={`${id}-label`}>
        Screenshots ({shots.length} of {MAX_SCREENSHOTS})
      </p>
      {(shots.length > 0 || pending !== undefined) && (
        <ul className="media-shots">
          {shots.map((shot) => (
            <li key={shot.position}>
              <img src={shot.url} alt={`Screenshot ${shot.position}`} />
              <button
                type="button"
                className="media-shots__remove"
                aria-label={`Remove screenshot ${shot.position}`}
                onClick={() => onRemove(shot.position)}
              >
                ×
              </button>
            </li>
          ))}
          {pending !== undefined && (
            <li className="media-shots__pending">
              <img src={pending} alt="A screenshot on its way" />
              <UploadProgress sent={progress} compact />
            </li>
          )}
        </ul>
      )}
      <div className="media-slot__actions">
        <label className={full ? 'xp-button media-slot__pick is-disabled' : 'xp-button media-slot__pick'}>
          Add screenshots
          <input
            type="file"
            className="visually-hidden"
            multiple
            accept={acceptFor('screenshot')}
            aria-label="Screenshots: choose files"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            disabled={full || pending !== undefined}
            onChange={(event) => onPick(filesOf(event))}
          />
        </label>
      </div>
      <SlotError id={id} error={error} />
    </div>
  );
}

/**
 * 'Uploading… 42%' over a file on its way, as a progressbar for assistive technology; the
 * percentage is left out until the browser reports one (and for a removal, which sends no file).
 */
function UploadProgress({ sent, compact = false }: { sent: number | undefined; compact?: boolean }) {
  const percent = sent === undefined ? undefined : Math.min(100, Math.round(sent * 100));
  // a screenshot's tile is narrow: there the percentage alone, once there is one
  const text = percent === undefined ? 'Uploading…' : compact ? `${percent}%` : `Uploading… ${percent}%`;
  return (
    <span
      className="media-slot__busy"
      role="progressbar"
      aria-label="Upload"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
    >
      {text}
    </span>
  );
}

/** A slot's failed upload or removal: announced when it appears, and named by the slot's input. */
function SlotError({ id, error }: { id: string; error: string | undefined }) {
  if (!error) return null;
  return (
    <p className="addnew-field__error" id={`${id}-error`} role="alert">
      {error}
    </p>
  );
}
