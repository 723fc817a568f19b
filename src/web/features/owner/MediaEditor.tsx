import { useId, useState, type ChangeEvent } from 'react';
import type { EditablePoint, MediaSlot } from '../../../shared/api/points';
import { isConflict, uploadMedia, type MediaUpload } from './editApi';
import { HealthStatus } from '../../../shared/domain/enums';
import {
  MAX_HEALTH_PHOTOS,
  MAX_SCREENSHOTS,
  SLOT_LABELS,
  acceptFor,
  checkPickedFile,
  healthPhotoRoom,
  screenshotRoom,
  sortedScreenshots,
  uploadErrorMessage,
} from './media';

type ManySlot = 'screenshot' | 'health';
type SingleSlot = Exclude<MediaSlot, ManySlot>;
type Placed = { position: number; url: string };

interface MediaState {
  cover_image: string | null;
  cover_video: string | null;
  logo: string | null;
  screenshot: Placed[];
  health: Placed[];
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
 * The point's media (map-and-search §3: cover image or video, logo, up to 14 screenshots, up to 20
 * health photos, shown once the point's health status is verified). Each file
 * is sent as soon as it is chosen (POST /v1/xpoint/media, one file per call), one call at a time so
 * each carries the version the previous one answered. The server checks the content and the size
 * and resizes; what it refuses is shown beside the slot in its own words, and nothing changes.
 */
export function MediaEditor({ point, version, onVersion, onConflict, enqueue }: MediaEditorProps) {
  const [media, setMedia] = useState<MediaState>(() => ({
    cover_image: point.url_cover_image,
    cover_video: point.url_cover_video,
    logo: point.url_icon_or_logo,
    screenshot: sortedScreenshots(point.screenshots),
    health: sortedScreenshots(point.health_photos),
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
          if (answer.slot !== 'screenshot' && answer.slot !== 'health')
            return { ...current, [answer.slot]: answer.url };
          const others = current[answer.slot].filter((shot) => shot.position !== answer.position);
          return {
            ...current,
            [answer.slot]:
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
    const room =
      slot === 'screenshot'
        ? screenshotRoom(media.screenshot.length)
        : slot === 'health'
          ? healthPhotoRoom(media.health.length)
          : 1;
    if ((slot === 'screenshot' || slot === 'health') && files.length > room) {
      const most =
        slot === 'health' ? `${MAX_HEALTH_PHOTOS} health photos` : `${MAX_SCREENSHOTS} screenshots`;
      setErrors((current) => ({
        ...current,
        [slot]: `A point has at most ${most}: ${room === 0 ? 'remove one first' : `there is room for ${room} more`}.`,
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
      <Gallery
        slot="screenshot"
        shots={media.screenshot}
        pending={pending.screenshot}
        progress={progress.screenshot}
        error={errors.screenshot}
        onPick={(files) => void pick('screenshot', files)}
        onRemove={(position) => remove('screenshot', position)}
      />
      <Gallery
        slot="health"
        shots={media.health}
        pending={pending.health}
        progress={progress.health}
        error={errors.health}
        hint={
          point.health_status === HealthStatus.verified
            ? 'Your health status is verified: these photos show on the point to everyone.'
            : 'Photos of your health papers show on the point once its health status is verified.'
        }
        onPick={(files) => void pick('health', files)}
        onRemove={(position) => remove('health', position)}
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

const GALLERIES = {
  screenshot: { title: 'Screenshots', item: 'screenshot', most: MAX_SCREENSHOTS, add: 'Add screenshots' },
  health: { title: 'Health photos', item: 'health photo', most: MAX_HEALTH_PHOTOS, add: 'Add health photos' },
} as const satisfies Record<ManySlot, { title: string; item: string; most: number; add: string }>;

/** A slot of many files at positions (spec §3: screenshots 1..14; healthdata: health photos 1..20). */
function Gallery({
  slot,
  shots,
  pending,
  progress,
  error,
  hint,
  onPick,
  onRemove,
}: {
  slot: ManySlot;
  shots: Placed[];
  pending: string | undefined;
  progress: number | undefined;
  error: string | undefined;
  hint?: string;
  onPick(files: File[]): void;
  onRemove(position: number): void;
}) {
  const id = useId();
  const { title, item, most, add } = GALLERIES[slot];
  const Item = item.charAt(0).toUpperCase() + item.slice(1);
  const full = shots.length >= most;
  return (
    <div
      className={`media-slot media-slot--${slot === 'health' ? 'health' : 'screenshots'}`}
      role="group"
      aria-labelledby={`${id}-label`}
    >
      <p className="media-slot__label" id={`${id}-label`}>
        {title} ({shots.length} of {most})
      </p>
      {hint !== undefined && <p className="point-edit__hint">{hint}</p>}
      {(shots.length > 0 || pending !== undefined) && (
        <ul className="media-shots">
          {shots.map((shot) => (
            <li key={shot.position}>
              <img src={shot.url} alt={`${Item} ${shot.position}`} />
              <button
                type="button"
                className="media-shots__remove"
                aria-label={`Remove ${item} ${shot.position}`}
                onClick={() => onRemove(shot.position)}
              >
                ×
              </button>
            </li>
          ))}
          {pending !== undefined && (
            <li className="media-shots__pending">
              <img src={pending} alt={`A ${item} on its way`} />
              <UploadProgress sent={progress} compact />
            </li>
          )}
        </ul>
      )}
      <div className="media-slot__actions">
        <label className={full ? 'xp-button media-slot__pick is-disabled' : 'xp-button media-slot__pick'}>
          {add}
          <input
            type="file"
            className="visually-hidden"
            multiple
            accept={acceptFor(slot)}
            aria-label={`${title}: choose files`}
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
