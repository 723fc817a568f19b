import { zodResolver } from '@hookform/resolvers/zod';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import Linkify from 'linkify-react';
import { useCallback, useId, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { COMMENT_MAX_LENGTH, commentLiveSchema, type CommentItem } from '../../../shared/api/comments';
import { socialTopic, type SocialLiveMessage } from '../../../shared/api/social-live';
import {
  cacheChange,
  optimisticUpdate,
  type CacheChange,
  type OptimisticContext,
} from '../../lib/optimistic';
import { errorText } from '../../lib/query';
import { useSocialTopic } from '../../live/socialTopic';
import { Avatar } from '../accounts/Avatar';
import { LOGIN_REASONS, useSession } from '../accounts/session';
import { LikeBar } from '../likes/LikeBar';
import type { LikeState } from '../likes/likeState';
import { formatPostDate } from '../posts/format';
import {
  TEMP_PREFIX,
  applyLive,
  drop,
  isTemporary,
  prepend,
  replace,
  settle,
  type CommentPages,
} from './cache';
import { addComment, commentsKey, commentsQuery, editComment, removeComment } from './commentsApi';
import './comments.css';

/** Links in a comment: web links only, opened apart, never vouched for (as a post's description). */
const LINK_OPTIONS = {
  target: '_blank',
  rel: 'nofollow ugc noopener',
  validate: { url: (value: string) => /^(https?:\/\/|www\.)/i.test(value), email: false },
} as const;

/** Social §5: empty text is never sent; the server's length rule, checked before sending. */
const textSchema = z
  .string()
  .trim()
  .min(1, 'Write something first.')
  .max(COMMENT_MAX_LENGTH, `At most ${COMMENT_MAX_LENGTH} characters.`);
const addFormSchema = z.object({ text: textSchema });
type AddForm = z.input<typeof addFormSchema>;

export interface CommentsProps {
  postId: string;
  /** the post's author: may remove any comment on it */
  postAuthorId: string;
}

/**
 * A post's comments (issue 18; social §4, §6, §8): newest first, ten at a time with "Show older
 * comments" (keyset pages), the box to add one, and inline edit and remove on one's own (remove
 * also for the post's author and admins). Each write shows at once and is put back if the server
 * refuses, with the server's text in the alert area. Others' comments arrive live on the post's
 * topic.
 */
export function Comments({ postId, postAuthorId }: CommentsProps) {
  const { user, requireAccount } = useSession();
  const client = useQueryClient();
  const headingId = useId();
  const [alert, setAlert] = useState<string | null>(null);
  const comments = useInfiniteQuery(commentsQuery(postId, user?.id ?? ''));
  const key = commentsKey(postId);
  const change = (update: (pages: CommentPages) => CommentPages) => [cacheChange<CommentPages>(key, update)];

  /** What the viewer may do with a comment heard live (the push carries nobody's rights). */
  const rights = useCallback(
    (item: CommentItem): CommentItem['viewer'] => {
      const mine = user !== null && user.id === item.author.id;
      return {
        can_edit: mine,
        can_remove: user !== null && (mine || user.id === postAuthorId || user.isAdmin),
      };
    },
    [user, postAuthorId],
  );
  const hear = useCallback(
    (message: SocialLiveMessage) => {
      if (message.kind !== 'comment') return;
      const live = commentLiveSchema.safeParse(message.data);
      if (!live.success) return;
      client.setQueriesData<CommentPages>({ queryKey: commentsKey(postId) }, (pages) =>
        pages ? applyLive(pages, live.data, rights) : pages,
      );
    },
    [client, postId, rights],
  );
  useSocialTopic(socialTopic('P', postId), hear);

  const refused = (error: unknown) => setAlert(errorText(error));

  const addOptimistic = optimisticUpdate(client, ({ text, tempId }: { text: string; tempId: string }) =>
    user === null
      ? []
      : change((pages) =>
          prepend(pages, {
            replid: tempId,
            objectid: postId,
            objecttype: 'P',
            text,
            author: { id: user.id, username: user.username, displayname: user.fullname, avatar: user.avatar },
            addedon: Date.now(),
            editedon: null,
            // edit and remove wait for the server's replid (social §4)
            viewer: { can_edit: false, can_remove: false },
            likes_up: 0,
            likes_down: 0,
            my_like: null,
          }),
        ),
  );
  const form = useForm<AddForm>({ resolver: zodResolver(addFormSchema), defaultValues: { text: '' } });
  const typed = useWatch({ control: form.control, name: 'text' }) ?? '';
  const add = useMutation({
    mutationFn: ({ text }: { text: string; tempId: string }) => addComment(postId, text),
    onMutate: addOptimistic.onMutate,
    onSuccess: (answer, { tempId }) =>
      client.setQueriesData<CommentPages>({ queryKey: key }, (pages) =>
        pages ? settle(pages, tempId, answer.comment, answer.count) : pages,
      ),
    onError: (error, variables, context: OptimisticContext | undefined) => {
      addOptimistic.onError(error, variables, context);
      refused(error);
      // the words typed are not lost: back in the box
      if (form.getValues('text').trim() === '') form.setValue('text', variables.text);
    },
    onSettled: addOptimistic.onSettled,
  });
  const submit = form.handleSubmit(({ text }) => {
    setAlert(null);
    form.reset({ text: '' });
    add.mutate({ text: text.trim(), tempId: `${TEMP_PREFIX}${crypto.randomUUID()}` });
  });

  const editOptimistic = optimisticUpdate(client, ({ id, text }: { id: string; text: string }) =>
    change((pages) => replace(pages, id, { text, editedon: Date.now() })),
  );
  const edit = useMutation({
    mutationFn: ({ id, text }: { id: string; text: string }) => editComment(id, text),
    ...editOptimistic,
    onError: (error, variables, context: OptimisticContext | undefined) => {
      editOptimistic.onError(error, variables, context);
      refused(error);
    },
  });

  const removeOptimistic = optimisticUpdate(client, (id: string) => change((pages) => drop(pages, id)));
  const remove = useMutation({
    mutationFn: (id: string) => removeComment(id),
    ...removeOptimistic,
    onError: (error, variables, context: OptimisticContext | undefined) => {
      removeOptimistic.onError(error, variables, context);
      refused(error);
    },
  });

  const items = comments.data?.pages.flatMap((page) => page.data) ?? [];
  const count = comments.data?.pages[0]?.count ?? 0;
  return (
    <section className="comments" aria-labelledby={headingId}>
      <h4 className="comments__title" id={headingId}>
        Comments{comments.data ? ` (${count})` : ''}
      </h4>
      {user !== null ? (
        <form className="comments__add" onSubmit={(event) => void submit(event)} noValidate>
          <label className="visually-hidden" htmlFor={`${headingId}-text`}>
            Write a comment
          </label>
          <textarea
            id={`${headingId}-text`}
            className="comments__input"
            rows={2}
            maxLength={COMMENT_MAX_LENGTH}
            placeholder="Write a comment…"
            {...form.register('text')}
          />
          <button type="submit" className="xp-button xp-button--primary" disabled={typed.trim() === ''}>
            Comment
          </button>
        </form>
      ) : (
        <p className="comments__signin">
          <button type="button" className="xp-button" onClick={() => requireAccount(LOGIN_REASONS.comment)}>
            Sign in to comment
          </button>
        </p>
      )}
      <div className="comments__alert" role="alert">
        {alert !== null && (
          <p className="comments__error">
            {alert}{' '}
            <button type="button" className="comments__link" onClick={() => setAlert(null)}>
              Dismiss
            </button>
          </p>
        )}
      </div>
      {comments.status === 'pending' && <p className="comments__note">Loading comments…</p>}
      {comments.status === 'error' && <p className="comments__error">{errorText(comments.error)}</p>}
      {comments.status === 'success' && items.length === 0 && (
        <p className="comments__note">No comments yet.</p>
      )}
      {items.length > 0 && (
        <ul className="comments__list">
          {items.map((item) => (
            <CommentView
              key={item.replid}
              item={item}
              likeChanges={(next) =>
                change((pages) =>
                  replace(pages, item.replid, {
                    likes_up: next.up,
                    likes_down: next.down,
                    my_like: next.mine,
                  }),
                )
              }
              onEdit={(text) => {
                setAlert(null);
                edit.mutate({ id: item.replid, text });
              }}
              onRemove={() => {
                setAlert(null);
                remove.mutate(item.replid);
              }}
            />
          ))}
        </ul>
      )}
      {comments.hasNextPage && (
        <button
          type="button"
          className="xp-button comments__older"
          disabled={comments.isFetchingNextPage}
          onClick={() => void comments.fetchNextPage()}
        >
          {comments.isFetchingNextPage ? 'Loading…' : 'Show older comments'}
        </button>
      )}
    </section>
  );
}

function CommentView({
  item,
  likeChanges,
  onEdit,
  onRemove,
}: {
  item: CommentItem;
  /** where the comment's likes live in the cached pages (LikeBar's changes) */
  likeChanges(next: LikeState): CacheChange[];
  onEdit(text: string): void;
  onRemove(): void;
}) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(item.text);
  const pending = isTemporary(item);
  const draftOk = textSchema.safeParse(draft).success;
  return (
    <li className={pending ? 'comments__item comments__item--pending' : 'comments__item'}>
      <Avatar fullname={item.author.displayname} username={item.author.username} src={item.author.avatar} />
      <div className="comments__body">
        <p className="comments__byline">
          <span className="comments__name">{item.author.displayname}</span>{' '}
          <time dateTime={new Date(item.addedon).toISOString()}>{formatPostDate(item.addedon)}</time>
          {item.editedon !== null && <span className="comments__edited"> · edited</span>}
          {pending && <span className="comments__edited"> · sending…</span>}
        </p>
        {editing ? (
          <form
            className="comments__edit"
            onSubmit={(event) => {
              event.preventDefault();
              if (!draftOk) return;
              setEditing(false);
              if (draft.trim() !== item.text) onEdit(draft.trim());
            }}
          >
            <label className="visually-hidden" htmlFor={`edit-${item.replid}`}>
              Edit your comment
            </label>
            <textarea
              id={`edit-${item.replid}`}
              className="comments__input"
              rows={2}
              maxLength={COMMENT_MAX_LENGTH}
              value={draft}
              onChange={(event) => setDraft(event.target.value)}
              autoFocus
            />
            <div className="comments__actions">
              <button type="submit" className="xp-button xp-button--primary" disabled={!draftOk}>
                Save
              </button>
              <button type="button" className="xp-button" onClick={() => setEditing(false)}>
                Cancel
              </button>
            </div>
          </form>
        ) : (
          <p className="comments__text">
            <Linkify options={LINK_OPTIONS}>{item.text}</Linkify>
          </p>
        )}
        {!pending && (
          <LikeBar
            objectType="C"
            objectId={item.replid}
            state={{ up: item.likes_up, down: item.likes_down, mine: item.my_like }}
            changes={likeChanges}
            subject={`${item.author.displayname}’s comment`}
            compact
            live
          />
        )}
        {!editing && !pending && (item.viewer.can_edit || item.viewer.can_remove) && (
          <div className="comments__actions">
            {item.viewer.can_edit && (
              <button
                type="button"
                className="comments__link"
                onClick={() => {
                  setDraft(item.text);
                  setEditing(true);
                }}
              >
                Edit
              </button>
            )}
            {item.viewer.can_remove && (
              <button type="button" className="comments__link" onClick={onRemove}>
                Remove
              </button>
            )}
          </div>
        )}
      </div>
    </li>
  );
}
