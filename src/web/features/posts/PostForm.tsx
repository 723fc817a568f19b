import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { NearbyPlace, PostFormState, PostResult, PostSaveResponse } from '../../../shared/api/posts';
import { ApiError } from '../../lib/api';
import { errorAt } from '../../ui/formErrors';
import { useRefusalFocus } from '../../ui/useRefusalFocus';
import { CATEGORY_NAMES } from './categories';
import type { PlaceChoice } from './context';
import { CoverPicker, type CoverValue } from './CoverPicker';
import { isExpiredDate } from './format';
import {
  formFieldOf,
  formFields,
  initialValues,
  postFormValuesSchema,
  type PostFormValues,
} from './postForm';
import { nearbyPlaces, savePost } from './postsApi';
import { VideoPicker, type VideoValue } from './VideoPicker';
import { formatDistance } from '../../../shared/format';

export interface PostFormProps {
  state: PostFormState;
  /** the point the form was opened from, preselected */
  place?: PlaceChoice;
  /** where the nearby places are looked for: the point, else the map's centre */
  origin: { lat: number; lon: number } | null;
  onSaved(post: PostResult): void;
  onCancel(): void;
  /** the modal's "Close (also Cancels upload)" reaches the running uploads through this */
  registerCancel(cancel: (() => void) | null): void;
}

type Tab = 'cover' | 'video';

/**
 * The create and edit form of a post (social §2-§5): title, description, category, the expiry
 * select, the place (nearby places of the point or the map's centre, or none), and tabs for the
 * cover (cropped square) and the video (uploaded resumably beforehand). Saving posts the form's own
 * action as multipart with a progress bar; the form is disabled meanwhile; the server's refusals
 * go beside their field, anything else in the form's message ('Server returned Error!' if empty).
 */
export function PostForm({ state, place, origin, onSaved, onCancel, registerCancel }: PostFormProps) {
  const id = useId();
  const post = state.post;
  const { register, handleSubmit, setError, formState, control, reset } = useForm<PostFormValues>({
    defaultValues: initialValues(state, place?.xpointid),
    resolver: zodResolver(postFormValuesSchema),
    shouldFocusError: false,
  });
  const [expiry, expiryDate, chosenPlace] = useWatch({
    control,
    name: ['expiry', 'expiry_date', 'xpointid'],
  });
  const [tab, setTab] = useState<Tab>('cover');
  const [cover, setCover] = useState<CoverValue>({ kind: 'kept' });
  const [coverError, setCoverError] = useState<string | null>(null);
  const [video, setVideo] = useState<VideoValue>({ kind: 'kept' });
  const [videoBusy, setVideoBusy] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const saving = useRef<AbortController | null>(null);
  const videoCancel = useRef<(() => void) | null>(null);
  const formRef = useRefusalFocus('.posts-form__message', formState.submitCount);
  const submitting = formState.isSubmitting;
  // a mutation: the modal refreshes the posts answers after a save (not the app's catch-all refresh)
  const write = useMutation({ mutationFn: (save: () => Promise<PostSaveResponse>) => save() });

  // the modal's close button stops both the video upload and a save on its way
  useEffect(() => {
    registerCancel(() => {
      videoCancel.current?.();
      saving.current?.abort();
    });
    return () => registerCancel(null);
  }, [registerCancel]);

  // social §9: the title takes focus after 500 ms (the modal's opening has settled by then)
  useEffect(() => {
    const timer = window.setTimeout(() => document.getElementById(`${id}-title`)?.focus(), 500);
    return () => window.clearTimeout(timer);
  }, [id]);

  const places = useNearbyPlaces(origin, place, post);

  const save = async (values: PostFormValues) => {
    setFormError(null);
    setCoverError(null);
    const controller = new AbortController();
    saving.current = controller;
    setProgress(0);
    const chosen = places.list.find((entry) => entry.xpointid === values.xpointid);
    try {
      const answer = await write.mutateAsync(() =>
        savePost(
          state.action,
          formFields(state, values, cover, video, chosen?.city_forurl ?? null),
          cover.kind === 'blob' ? cover.blob : null,
          setProgress,
          controller.signal,
        ),
      );
      if (answer.error_n > 0 || answer.post === null) {
        setFormError(
          answer.error_n > 0
            ? answer.error_msg || 'Server returned Error!'
            : 'Server returned EMPTY/Invalid response!',
        );
        return;
      }
      if (post === null) {
        // social §4: after a new post the form is emptied (a next one gets a fresh id when opened)
        reset(initialValues({ ...state, post: null }, undefined));
        setCover({ kind: 'kept' });
        setVideo({ kind: 'kept' });
      }
      onSaved(answer.post);
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return;
      const named = error instanceof ApiError && error.field !== undefined ? formFieldOf(error.field) : null;
      const reason = error instanceof ApiError ? error.reason : String(error);
      if (named === 'cover') setCoverError(reason);
      else if (named !== null && named !== 'video') setError(named, { message: reason });
      setFormError(reason || 'Server returned Error!');
    } finally {
      saving.current = null;
      setProgress(null);
    }
  };
  // made in the handler, not while rendering: the save reaches the upload's abort controller (a ref)
  const submit = (event: FormEvent<HTMLFormElement>) =>
    handleSubmit(save, () => setFormError('Please correct the marked fields.'))(event);

  const field = (name: keyof PostFormValues) => {
    const error = errorAt(formState.errors, name);
    return {
      id: `${id}-${name}`,
      'aria-invalid': error ? true : undefined,
      'aria-describedby': error ? `${id}-${name}-error` : undefined,
    };
  };
  const fieldError = (name: keyof PostFormValues) => {
    const error = errorAt(formState.errors, name);
    return error ? (
      <p className="addnew-field__error" id={`${id}-${name}-error`}>
        {error}
      </p>
    ) : null;
  };

  const expired = expiry === 'custom' && isExpiredDate(expiryDate);
  return (
    <form
      ref={formRef}
      className="posts-form"
      noValidate
      aria-label={post === null ? 'New post' : 'Edit the post'}
      onSubmit={(event) => void submit(event)}
    >
      <fieldset className="posts-form__fields" disabled={submitting}>
        <div className="posts-tabs" role="tablist" aria-label="Cover picture or video">
          {(['cover', 'video'] as const).map((name) => (
            <button
              key={name}
              id={`${id}-tab-${name}`}
              type="button"
              role="tab"
              className="posts-tabs__tab"
              aria-selected={tab === name}
              aria-controls={`${id}-panel-${name}`}
              tabIndex={tab === name ? 0 : -1}
              onClick={() => setTab(name)}
              onKeyDown={(event) => {
                if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
                const other = name === 'cover' ? 'video' : 'cover';
                setTab(other);
                document.getElementById(`${id}-tab-${other}`)?.focus();
              }}
            >
              {name === 'cover' ? 'Cover image' : 'Video'}
            </button>
          ))}
        </div>
        {/* both panels stay mounted: an upload goes on while the other tab is shown */}
        <div
          id={`${id}-panel-cover`}
          role="tabpanel"
          aria-labelledby={`${id}-tab-cover`}
          hidden={tab !== 'cover'}
          className="posts-tabs__panel"
        >
          <CoverPicker
            currentUrl={post?.image_url ?? null}
            value={cover}
            onChange={(value) => {
              setCover(value);
              setCoverError(null);
            }}
            limitBytes={state.limits.image_bytes}
            disabled={submitting}
            error={coverError}
            onError={setCoverError}
          />
        </div>
        <div
          id={`${id}-panel-video`}
          role="tabpanel"
          aria-labelledby={`${id}-tab-video`}
          hidden={tab !== 'video'}
          className="posts-tabs__panel"
        >
          <VideoPicker
            postId={state.id}
            current={
              post?.video_state == null
                ? null
                : { state: post.video_state, error: post.video_error, url: post.video_url }
            }
            value={video}
            onChange={setVideo}
            limitBytes={state.limits.video_bytes}
            disabled={submitting}
            onBusy={setVideoBusy}
            registerCancel={(cancel) => {
              videoCancel.current = cancel;
            }}
          />
        </div>

        <div className="addnew-field">
          <label htmlFor={`${id}-title`}>Title</label>
          <input {...field('title')} {...register('title')} type="text" autoComplete="off" />
          {fieldError('title')}
        </div>
        <div className="addnew-field">
          <label htmlFor={`${id}-description`}>Description</label>
          <textarea {...field('description')} {...register('description')} rows={5} />
          {fieldError('description')}
        </div>
        <div className="posts-form__row">
          <div className="addnew-field">
            <label htmlFor={`${id}-type`}>Category</label>
            <select {...field('type')} {...register('type')}>
              {state.categories.map((category) => (
                <option key={category} value={category}>
                  {CATEGORY_NAMES[category]}
                </option>
              ))}
            </select>
            {fieldError('type')}
          </div>
          <div className="addnew-field">
            <label htmlFor={`${id}-expiry`}>Expires</label>
            <select {...field('expiry')} {...register('expiry')}>
              <option value="notset">Not set</option>
              <option value="custom">On a date…</option>
            </select>
          </div>
        </div>
        {expiry === 'custom' && (
          <div className="addnew-field">
            <label htmlFor={`${id}-expiry_date`}>Expiry date</label>
            <input {...field('expiry_date')} {...register('expiry_date')} type="datetime-local" />
            {fieldError('expiry_date')}
            {expired && (
              <p className="posts-form__hint" role="status">
                This date has passed: the post will be saved as expired. It leaves the map and the place’s
                page, and stays on your profile marked Expired.
              </p>
            )}
          </div>
        )}

        <PlaceList
          id={id}
          places={places}
          chosen={chosenPlace}
          registration={register('xpointid')}
          error={fieldError('xpointid')}
        />
      </fieldset>

      {progress !== null && (
        <div className="posts-progress">
          <progress className="posts-progress__bar" max={1} value={progress} aria-label="Saving the post" />
          <span className="posts-progress__text">Saving… {Math.round(progress * 100)}%</span>
        </div>
      )}
      {formError !== null && (
        <p className="posts-form__message" role="alert" tabIndex={-1}>
          {formError}
        </p>
      )}
      <div className="posts-form__actions">
        <button type="button" className="xp-button" onClick={onCancel}>
          Cancel
        </button>
        <button
          type="submit"
          className="xp-button xp-button--primary"
          disabled={submitting || videoBusy}
          title={videoBusy ? 'Wait for the video to finish uploading' : undefined}
        >
          {submitting ? 'Saving…' : post === null ? 'Publish' : 'Save'}
        </button>
      </div>
    </form>
  );
}

interface Places {
  list: NearbyPlace[];
  status: 'loading' | 'ready' | 'error';
  error: string | null;
}

/** The nearby places (at most 30), with the preselected point (or the post's) first when not among them. */
function useNearbyPlaces(
  origin: { lat: number; lon: number } | null,
  place: PlaceChoice | undefined,
  post: PostResult | null,
): Places {
  const [answer, setAnswer] = useState<Places>({ list: [], status: 'loading', error: null });
  const lat = origin?.lat ?? null;
  const lon = origin?.lon ?? null;
  useEffect(() => {
    if (lat === null || lon === null) return;
    const controller = new AbortController();
    nearbyPlaces(lat, lon, controller.signal)
      .then((list) => setAnswer({ list, status: 'ready', error: null }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        // social §8 110800: the nearby answer was missing or empty
        setAnswer({
          list: [],
          status: 'error',
          error: `Nearby places could not be loaded (110800): ${error instanceof Error ? error.message : String(error)}`,
        });
      });
    return () => controller.abort();
  }, [lat, lon]);

  const noOrigin = lat === null || lon === null;
  return useMemo(() => {
    const found: Places = noOrigin ? { list: [], status: 'ready', error: null } : answer;
    const first: NearbyPlace[] = [];
    const own =
      place ??
      (post?.xpointid
        ? {
            xpointid: post.xpointid,
            title: post.xpoint_title ?? 'The post’s place',
            lat: post.lat ?? 0,
            lon: post.lon ?? 0,
            city_forurl: post.city_forurl,
          }
        : undefined);
    if (own !== undefined && !found.list.some((entry) => entry.xpointid === own.xpointid))
      first.push({
        xpointid: own.xpointid,
        title: own.title,
        supertype: '',
        type: '',
        address: null,
        lat: own.lat,
        lon: own.lon,
        distance_m: 0,
        city_forurl: own.city_forurl ?? null,
      });
    return { ...found, list: [...first, ...found.list] };
  }, [answer, noOrigin, place, post]);
}

function PlaceList({
  id,
  places,
  chosen,
  registration,
  error,
}: {
  id: string;
  places: Places;
  chosen: string;
  registration: ReturnType<ReturnType<typeof useForm<PostFormValues>>['register']>;
  error: ReactNode;
}) {
  const [search, setSearch] = useState('');
  const needle = search.trim().toLowerCase();
  const shown = places.list.filter(
    (entry) =>
      entry.xpointid === chosen ||
      needle === '' ||
      entry.title.toLowerCase().includes(needle) ||
      (entry.address ?? '').toLowerCase().includes(needle),
  );
  return (
    <fieldset className="posts-places">
      <legend className="posts-form__label">Place</legend>
      <input
        type="search"
        className="posts-places__search"
        placeholder="Search nearby places"
        aria-label="Search nearby places"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      <div className="posts-places__list">
        <label className="posts-places__option">
          <input type="radio" value="" {...registration} />
          <span>No place</span>
        </label>
        {shown.map((entry) => (
          <label key={entry.xpointid} className="posts-places__option">
            <input type="radio" value={entry.xpointid} {...registration} />
            <span>
              {entry.title}
              {entry.distance_m > 0 && (
                <span className="posts-places__distance"> · {formatDistance(entry.distance_m)}</span>
              )}
            </span>
          </label>
        ))}
        {places.status === 'loading' && <p className="posts-form__hint">Looking for places nearby…</p>}
        {places.status === 'ready' && shown.length === 0 && needle !== '' && (
          <p className="posts-form__hint">No results found</p>
        )}
      </div>
      {places.error !== null && (
        <p className="addnew-field__error" id={`${id}-places-error`}>
          {places.error}
        </p>
      )}
      {error}
    </fieldset>
  );
}
