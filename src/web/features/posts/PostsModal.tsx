import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { PostFormState, PostResult, PostWorkMode } from '../../../shared/api/posts';
import { successUrlFor } from '../../../shared/address/links';
import { errorText } from '../../lib/query';
import { Dialog } from '../../ui/Dialog';
import type { PostsRequest } from './context';
import { PostDetail } from './PostDetail';
import { PostForm } from './PostForm';
import { editPostForm, newPostForm, refreshPosts } from './postsApi';
import { announcePostWrite } from './writes';
import './posts.css';

/** Social §4: the loading cover goes after 5 s at most, whatever is still on its way. */
export const LOADING_COVER_MS = 5000;

export interface PostsModalProps {
  request: PostsRequest;
  /** AllFeatures: the backdrop does not close an open new or edit form (social §2). */
  workMode?: PostWorkMode;
  /** where the nearby places of a new post are looked for when it has no point: the map's centre */
  origin(): { lat: number; lon: number } | null;
  onClose(): void;
}

/**
 * The posts modal (social §2, §4): titled Post, its close button "Close (also Cancels upload)"
 * stops a running upload too; a loading cover while the content loads (gone after 5 s at most);
 * the details view, or the new/edit form, which shows the post once saved.
 */
export function PostsModal({ request, workMode = 'AllFeatures', origin, onClose }: PostsModalProps) {
  const titleId = useId();
  const client = useQueryClient();
  const [view, setView] = useState<PostsRequest>(request);
  /** the view whose content has arrived (or waited 5 s): each new view is covered until then */
  const [uncovered, setUncovered] = useState<PostsRequest | null>(null);
  const covered = uncovered !== view;
  const cancelUpload = useRef<(() => void) | null>(null);

  useEffect(() => {
    const timer = window.setTimeout(() => setUncovered(view), LOADING_COVER_MS);
    return () => window.clearTimeout(timer);
  }, [view]);
  const onLoaded = useCallback(() => setUncovered(view), [view]);
  const registerCancel = useCallback((cancel: (() => void) | null) => {
    cancelUpload.current = cancel;
  }, []);

  const close = () => {
    cancelUpload.current?.();
    onClose();
  };
  const formOpen = view.kind !== 'details';

  return (
    <Dialog
      className="posts-modal"
      labelledBy={titleId}
      onClose={close}
      closeOnBackdrop={!(workMode === 'AllFeatures' && formOpen)}
    >
      <div className="xp-modal__head">
        <h2 id={titleId} className="xp-modal__title">
          Post
        </h2>
        <button
          type="button"
          className="xp-modal__close"
          title="Close (also Cancels upload)"
          aria-label="Close (also Cancels upload)"
          onClick={close}
        >
          ×
        </button>
      </div>
      <div className="posts-modal__body" aria-busy={covered}>
        {view.kind === 'details' ? (
          <PostDetail
            key={view.id}
            id={view.id}
            onLoaded={onLoaded}
            onEdit={() => setView({ kind: 'edit', id: view.id })}
            onDeleted={close}
            onClose={close}
          />
        ) : (
          <FormLoader
            key={view.kind === 'edit' ? view.id : 'new'}
            request={view}
            origin={origin}
            onLoaded={onLoaded}
            registerCancel={registerCancel}
            onSaved={(post) => {
              announcePostWrite(post);
              void refreshPosts(client);
              setView({ kind: 'details', id: post.postid });
            }}
            onCancel={() => (view.kind === 'edit' ? setView({ kind: 'details', id: view.id }) : close())}
          />
        )}
        {covered && (
          <div className="posts-modal__cover" role="status">
            <span className="spinner" aria-hidden="true" /> Loading…
          </div>
        )}
      </div>
    </Dialog>
  );
}

function FormLoader({
  request,
  origin,
  onLoaded,
  registerCancel,
  onSaved,
  onCancel,
}: {
  request: Exclude<PostsRequest, { kind: 'details' }>;
  origin(): { lat: number; lon: number } | null;
  onLoaded(): void;
  registerCancel(cancel: (() => void) | null): void;
  onSaved(post: PostResult): void;
  onCancel(): void;
}) {
  const [state, setState] = useState<
    { status: 'loading' } | { status: 'ready'; form: PostFormState } | { status: 'error'; message: string }
  >({ status: 'loading' });
  const [centre] = useState(() =>
    request.kind === 'new' && request.place !== undefined
      ? { lat: request.place.lat, lon: request.place.lon }
      : origin(),
  );

  useEffect(() => {
    const controller = new AbortController();
    // the return address keeps a profile's page (social §2): the app comes back to it after a save
    const returnUrl = successUrlFor(window.location.pathname, window.location.search);
    // social §3: a new post's id is a GUID made here, once per opened form
    const load =
      request.kind === 'new'
        ? newPostForm(crypto.randomUUID(), returnUrl, controller.signal)
        : editPostForm(request.id, returnUrl, controller.signal);
    load
      .then((form) => setState({ status: 'ready', form }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        // social §8 64634: loading the form's data failed
        setState({ status: 'error', message: `${errorText(error)} (64634)` });
      })
      .finally(() => {
        if (!controller.signal.aborted) onLoaded();
      });
    return () => controller.abort();
  }, [request, onLoaded]);

  if (state.status === 'loading') return <p className="posts-detail__note">Loading the form…</p>;
  if (state.status === 'error')
    return (
      <div className="posts-detail__note">
        <p role="alert">{state.message}</p>
        <button type="button" className="xp-button" onClick={onCancel}>
          Close
        </button>
      </div>
    );
  const place = request.kind === 'new' ? request.place : undefined;
  return (
    <PostForm
      state={state.form}
      {...(place === undefined ? {} : { place })}
      origin={
        centre ??
        (state.form.post?.lat != null && state.form.post.lon != null
          ? { lat: state.form.post.lat, lon: state.form.post.lon }
          : null)
      }
      onSaved={onSaved}
      onCancel={onCancel}
      registerCancel={registerCancel}
    />
  );
}
