import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { Upload } from 'tus-js-client';
import { ANTIFORGERY_HEADER } from '../../../shared/api/accounts';
import { EMPTY_MEDIA, type VideoState } from '../../../shared/api/posts';
import { VIDEO_UPLOAD_PATH, videoResponseSchema } from '../../../shared/api/videos';
import { apiGet, currentAntiforgeryToken } from '../../lib/api';
import { errorText } from '../../lib/query';
import { formatFileSize, videoSizeProblem } from './format';

/** How often the processing state is asked for, and for how long at most (a long transcode). */
const POLL_MS = 1000;
const POLL_LIMIT_MS = 15 * 60 * 1000;

/** The video field: the post's own (`kept`), an uploaded one by id, or EMPTY (removed). */
export type VideoValue = { kind: 'kept' } | { kind: 'uploaded'; id: string } | { kind: 'empty' };

type Phase =
  | { phase: 'idle' }
  | { phase: 'uploading'; name: string; sent: number; total: number }
  | { phase: 'processing'; id: string; state: VideoState; error: string | null; poster: string | null }
  | { phase: 'failed'; message: string };

export interface VideoPickerProps {
  postId: string;
  /** the post's video state when editing (null: it has none) */
  current: { state: VideoState; error: string | null; url: string | null } | null;
  value: VideoValue;
  onChange(value: VideoValue): void;
  limitBytes: number;
  disabled: boolean;
  /** true while a file is on its way: the form waits for it */
  onBusy(busy: boolean): void;
  /** the modal's close button cancels a running upload through this */
  registerCancel(cancel: (() => void) | null): void;
}

/**
 * The post's video (social §4, §5; issue 17): at most 100 MB and never empty, uploaded resumably
 * with tus (a dropped connection resumes where it stopped) with a real progress bar in bytes and
 * percent; Cancel aborts and deletes the partial upload on the server. Once uploaded, the server
 * probes it and may transcode it: its state is asked for until it is ready or has failed (with why).
 */
export function VideoPicker({
  postId,
  current,
  value,
  onChange,
  limitBytes,
  disabled,
  onBusy,
  registerCancel,
}: VideoPickerProps) {
  const id = useId();
  const [phase, setPhase] = useState<Phase>({ phase: 'idle' });
  const [error, setError] = useState<string | null>(null);
  const upload = useRef<Upload | null>(null);

  const cancel = () => {
    const running = upload.current;
    upload.current = null;
    if (running !== null) void running.abort(true).catch(() => undefined);
    setPhase({ phase: 'idle' });
    onBusy(false);
  };

  useEffect(() => {
    registerCancel(() => {
      const running = upload.current;
      upload.current = null;
      if (running !== null) void running.abort(true).catch(() => undefined);
    });
    return () => registerCancel(null);
  }, [registerCancel]);

  // the processing state, asked for until it settles
  const processingId = phase.phase === 'processing' ? phase.id : null;
  const settled = phase.phase === 'processing' && (phase.state === 'ready' || phase.state === 'failed');
  useEffect(() => {
    if (processingId === null || settled) return;
    const controller = new AbortController();
    const started = Date.now();
    let timer = 0;
    const ask = () => {
      apiGet(`/v1/videos/${encodeURIComponent(processingId)}`, videoResponseSchema, {
        signal: controller.signal,
      })
        .then((answer) => {
          setPhase({
            phase: 'processing',
            id: processingId,
            state: answer.state,
            error: answer.error ?? null,
            poster: answer.poster_url ?? null,
          });
          if (answer.state !== 'ready' && answer.state !== 'failed' && Date.now() - started < POLL_LIMIT_MS)
            timer = window.setTimeout(ask, POLL_MS);
        })
        .catch((failure: unknown) => {
          if (controller.signal.aborted) return;
          timer = window.setTimeout(ask, POLL_MS * 3);
          console.warn('XPoint: could not read the video state', failure);
        });
    };
    ask();
    return () => {
      controller.abort();
      window.clearTimeout(timer);
    };
  }, [processingId, settled]);

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file === undefined) return;
    const problem = videoSizeProblem(file.size, limitBytes);
    setError(problem);
    if (problem !== null) return;
    const token = currentAntiforgeryToken();
    const tus = new Upload(file, {
      endpoint: VIDEO_UPLOAD_PATH,
      retryDelays: [0, 1000, 3000, 5000],
      chunkSize: 5 * 1024 * 1024,
      metadata: { filename: file.name, filetype: file.type || 'video/mp4', post_id: postId },
      headers: token === null ? {} : { [ANTIFORGERY_HEADER]: token },
      removeFingerprintOnSuccess: true,
      onProgress: (sent, total) => setPhase({ phase: 'uploading', name: file.name, sent, total }),
      onSuccess: () => {
        const url = tus.url ?? '';
        const videoId = decodeURIComponent(url.slice(url.lastIndexOf('/') + 1));
        upload.current = null;
        onBusy(false);
        onChange({ kind: 'uploaded', id: videoId });
        setPhase({ phase: 'processing', id: videoId, state: 'queued', error: null, poster: null });
      },
      onError: (failure) => {
        upload.current = null;
        onBusy(false);
        setPhase({ phase: 'failed', message: uploadError(failure) });
      },
    });
    upload.current = tus;
    onBusy(true);
    setPhase({ phase: 'uploading', name: file.name, sent: 0, total: file.size });
    // an upload of the same file cut off before resumes where it stopped
    void tus.findPreviousUploads().then((previous) => {
      const last = previous[0];
      if (last !== undefined) tus.resumeFromPreviousUpload(last);
      tus.start();
    });
  };

  const hasVideo = value.kind === 'uploaded' || (value.kind === 'kept' && current !== null);
  return (
    <div className="posts-video" role="group" aria-labelledby={`${id}-label`}>
      <p className="posts-form__label" id={`${id}-label`}>
        Video
      </p>
      {phase.phase === 'uploading' && (
        <div className="posts-progress">
          <progress
            className="posts-progress__bar"
            max={phase.total}
            value={phase.sent}
            aria-label={`Uploading ${phase.name}`}
          />
          <span className="posts-progress__text">
            Uploading {formatFileSize(phase.sent)} of {formatFileSize(phase.total)} (
            {phase.total > 0 ? Math.floor((phase.sent / phase.total) * 100) : 0}%)
          </span>
          <button type="button" className="xp-button" onClick={cancel}>
            Cancel upload
          </button>
        </div>
      )}
      {phase.phase === 'processing' && <ProcessingState state={phase.state} error={phase.error} />}
      {phase.phase === 'failed' && (
        <p className="addnew-field__error" role="alert">
          {phase.message}
        </p>
      )}
      {phase.phase === 'idle' && value.kind === 'kept' && current !== null && (
        <ProcessingState state={current.state} error={current.error} />
      )}
      {phase.phase === 'idle' && !hasVideo && <p className="posts-form__hint">No video.</p>}
      <div className="posts-cover__actions">
        <label
          className={
            disabled || phase.phase === 'uploading'
              ? 'xp-button posts-cover__pick posts-is-disabled'
              : 'xp-button posts-cover__pick'
          }
        >
          {hasVideo ? 'Replace the video' : 'Choose a video'}
          <input
            type="file"
            className="visually-hidden"
            accept="video/*,.mp4,.mov,.webm,.mkv,.avi,.m4v"
            aria-label="Video: choose a file"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : `${id}-hint`}
            disabled={disabled || phase.phase === 'uploading'}
            onChange={choose}
          />
        </label>
        {hasVideo && phase.phase !== 'uploading' && (
          <button
            type="button"
            className="xp-button"
            disabled={disabled}
            onClick={() => {
              setPhase({ phase: 'idle' });
              onChange({ kind: 'empty' });
            }}
          >
            Remove the video
          </button>
        )}
      </div>
      <p className="posts-form__hint" id={`${id}-hint`}>
        Up to 100 MB. It resumes by itself if the connection drops.
      </p>
      {error && (
        <p className="addnew-field__error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
      <input type="hidden" name="video_id" value={value.kind === 'empty' ? EMPTY_MEDIA : ''} />
    </div>
  );
}

function ProcessingState({ state, error }: { state: VideoState; error: string | null }) {
  const text: Record<VideoState, string> = {
    uploading: 'Video: uploading…',
    queued: 'Video uploaded: waiting to be processed…',
    processing: 'Video uploaded: processing…',
    ready: 'Video ready.',
    failed: `The video could not be processed${error ? `: ${error}` : '.'}`,
  };
  return (
    <p className={state === 'failed' ? 'addnew-field__error' : 'posts-video__state'} role="status">
      {text[state]}
    </p>
  );
}

/** A tus failure as the server's own words when it answered, else the network's. */
function uploadError(failure: Error): string {
  const response = (failure as Error & { originalResponse?: { getBody(): string; getStatus(): number } })
    .originalResponse;
  if (response) {
    try {
      const body = JSON.parse(response.getBody()) as { error?: unknown };
      if (typeof body.error === 'string' && body.error !== '') return body.error;
    } catch {
      // not JSON: the status below
    }
    return `The video upload was refused (status ${response.getStatus()}).`;
  }
  return errorText(failure);
}
