import { useEffect, useId, useState, type ChangeEvent } from 'react';
import Cropper, { type Area } from 'react-easy-crop';
import { COVER_CROP_SIZE, EMPTY_MEDIA } from '../../../shared/api/posts';
import {
  COVER_ACCEPT,
  COVER_EXTENSION_WARNING,
  CROP_MIN_ZOOM,
  coverSizeProblem,
  isAcceptedCover,
  isHeic,
  maxZoomFor,
} from './format';

/**
 * What the cover field holds: the picture the post has (`kept`), a crop to send (`blob`, 512x512
 * JPEG; or a HEIC photo as chosen, which the server decodes), or EMPTY (back to the default).
 */
export type CoverValue =
  | { kind: 'kept' }
  /** `preview`: an object URL of the crop (null for a HEIC photo, which the browser cannot draw) */
  | { kind: 'blob'; blob: Blob; preview: string | null }
  | { kind: 'empty' };

export interface CoverPickerProps {
  /** the post's current cover (or the category's placeholder) */
  currentUrl: string | null;
  value: CoverValue;
  onChange(value: CoverValue): void;
  limitBytes: number;
  disabled: boolean;
  error: string | null;
  onError(message: string | null): void;
}

/**
 * The cover's crop flow (social §4): a preview; a chosen file opens the cropper (react-easy-crop:
 * square, zoom 0.1-6 on a slider, never under 50 pixels of the image, arrow keys move it); OK draws
 * the square into a 512x512 canvas and keeps the JPEG, Cancel drops the file; after OK a Delete
 * button goes back to the default picture, which sends EMPTY.
 */
export function CoverPicker({
  currentUrl,
  value,
  onChange,
  limitBytes,
  disabled,
  error,
  onError,
}: CoverPickerProps) {
  const id = useId();
  const [source, setSource] = useState<string | null>(null);
  // the crop's preview lives as long as the value holding it
  const preview = value.kind === 'blob' ? value.preview : null;
  useEffect(
    () => () => {
      if (preview !== null) URL.revokeObjectURL(preview);
    },
    [preview],
  );
  useEffect(
    () => () => {
      if (source !== null) URL.revokeObjectURL(source);
    },
    [source],
  );

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // the same file may be chosen again after a refusal or a cancel
    event.target.value = '';
    if (file === undefined) return;
    if (!isAcceptedCover(file.name)) {
      // social §5: a warning in the console, and the file is ignored
      console.warn(COVER_EXTENSION_WARNING);
      return;
    }
    const problem = coverSizeProblem(file.size, limitBytes);
    onError(problem);
    if (problem !== null) return;
    if (isHeic(file.name)) {
      onChange({ kind: 'blob', blob: file, preview: null });
      return;
    }
    setSource(URL.createObjectURL(file));
  };

  const shown = value.kind === 'empty' ? null : value.kind === 'blob' ? preview : currentUrl;
  return (
    <div className="posts-cover" role="group" aria-labelledby={`${id}-label`}>
      <p className="posts-form__label" id={`${id}-label`}>
        Cover picture
      </p>
      <div className="posts-cover__preview">
        {shown !== null ? (
          <img src={shown} alt="The cover picture" />
        ) : value.kind === 'blob' ? (
          <span className="posts-cover__default">{(value.blob as File).name ?? 'Photo chosen'}</span>
        ) : (
          <span className="posts-cover__default">Default picture</span>
        )}
      </div>
      <div className="posts-cover__actions">
        <label
          className={
            disabled ? 'xp-button posts-cover__pick posts-is-disabled' : 'xp-button posts-cover__pick'
          }
        >
          Choose a picture
          <input
            type="file"
            className="visually-hidden"
            accept={COVER_ACCEPT}
            aria-label="Cover picture: choose a file"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : `${id}-hint`}
            disabled={disabled}
            onChange={choose}
          />
        </label>
        {value.kind === 'blob' && (
          <button
            type="button"
            className="xp-button"
            disabled={disabled}
            onClick={() => onChange({ kind: 'empty' })}
          >
            Delete
          </button>
        )}
      </div>
      <p className="posts-form__hint" id={`${id}-hint`}>
        JPEG, PNG, GIF, WebP or HEIC up to 10 MB, cropped square.
      </p>
      {error && (
        <p className="addnew-field__error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
      {/* the hidden base64 field of the spec: EMPTY after Delete */}
      <input type="hidden" name="cover_image" value={value.kind === 'empty' ? EMPTY_MEDIA : ''} />
      {source !== null && (
        <CoverCropper
          source={source}
          onCancel={() => setSource(null)}
          onDone={(blob) => {
            setSource(null);
            onChange({ kind: 'blob', blob, preview: URL.createObjectURL(blob) });
          }}
          onError={(message) => {
            setSource(null);
            onError(message);
          }}
        />
      )}
    </div>
  );
}

function CoverCropper({
  source,
  onCancel,
  onDone,
  onError,
}: {
  source: string;
  onCancel(): void;
  onDone(blob: Blob): void;
  onError(message: string): void;
}) {
  const id = useId();
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(1);
  const [maxZoom, setMaxZoom] = useState(6);
  const [area, setArea] = useState<Area | null>(null);
  const [working, setWorking] = useState(false);

  const ok = async () => {
    if (area === null) return;
    setWorking(true);
    try {
      onDone(await cropToJpeg(source, area));
    } catch {
      onError('This picture could not be read. Choose another one.');
    }
  };

  return (
    <div className="posts-crop" role="group" aria-label="Crop the cover picture">
      <div className="posts-crop__area">
        <Cropper
          image={source}
          crop={crop}
          zoom={zoom}
          aspect={1}
          minZoom={CROP_MIN_ZOOM}
          maxZoom={maxZoom}
          restrictPosition={false}
          keyboardStep={10}
          onCropChange={setCrop}
          onZoomChange={setZoom}
          onCropComplete={(_area, pixels) => setArea(pixels)}
          onMediaLoaded={(media) => setMaxZoom(maxZoomFor(Math.min(media.naturalWidth, media.naturalHeight)))}
          cropperProps={{ 'aria-label': 'Crop area: arrow keys move the picture' }}
        />
      </div>
      <div className="posts-crop__zoom">
        <label htmlFor={`${id}-zoom`}>Zoom</label>
        <input
          id={`${id}-zoom`}
          type="range"
          min={CROP_MIN_ZOOM}
          max={maxZoom}
          step={0.1}
          value={zoom}
          onChange={(event) => setZoom(Number(event.target.value))}
        />
      </div>
      <div className="posts-crop__actions">
        <button type="button" className="xp-button" onClick={onCancel} disabled={working}>
          Cancel
        </button>
        <button
          type="button"
          className="xp-button xp-button--primary"
          onClick={() => void ok()}
          disabled={working || area === null}
        >
          OK
        </button>
      </div>
    </div>
  );
}

/**
 * The crop's square drawn into a 512x512 canvas (white where a zoom under 1 leaves no picture) and
 * encoded as JPEG (social §3 crop result: jpeg, quality 1; §9: 512x512).
 */
async function cropToJpeg(source: string, area: Area): Promise<Blob> {
  const image = new Image();
  image.src = source;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = COVER_CROP_SIZE;
  canvas.height = COVER_CROP_SIZE;
  const context = canvas.getContext('2d');
  if (context === null) throw new Error('no canvas');
  context.fillStyle = '#fff';
  context.fillRect(0, 0, COVER_CROP_SIZE, COVER_CROP_SIZE);
  const scale = COVER_CROP_SIZE / area.width;
  context.drawImage(
    image,
    -area.x * scale,
    -area.y * scale,
    image.naturalWidth * scale,
    image.naturalHeight * scale,
  );
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('no blob'))), 'image/jpeg', 1),
  );
}
