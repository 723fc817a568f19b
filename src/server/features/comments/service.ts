import {
  COMMENT_DUPLICATE_WINDOW_MS,
  COMMENT_OBJECT_TYPES,
  type CommentAddRequest,
  type CommentAddResponse,
  type CommentEditRequest,
  type CommentEditResponse,
  type CommentItem,
  type CommentObjectType,
  type CommentPage,
  type CommentPageRequest,
  type CommentRemoveRequest,
  type CommentRemoveResponse,
} from '../../../shared/api/comments';
import { AppError } from '../../../shared/errors';
import { canChangeComment, canRemoveComment, isAdmin, type Viewer } from '../../../shared/permissions';
import { requireViewer } from '../../auth/hook';
import type { Store } from '../../store/store';
import { likeSummaries, NO_LIKES } from '../likes/queries';
import type { SocialEvents } from '../social/events';
import { newCommentId } from './ids';
import * as q from './queries';

/**
 * Comments on posts (issue 18; social §3-§8). Who may: anyone reads the comments of a post they may
 * see (a hidden post: its author and admins); signed-in users comment; only the author edits; the
 * author, the post's author and admins remove. A refusal changes nothing.
 *
 * Remove deletes the row (and the likes on it) rather than marking it: the person asked for their
 * words to go, nothing in the product shows a removed comment, and the keyset stays one index range
 * with no tombstones to skip. The post's `comments_count` changes in the same transaction as the
 * row, so it is exact under concurrency (two removes of one comment: the second deletes nothing and
 * counts nothing).
 */

/** What a comment needs from its HTTP request: the per-person rate (5 s between comments). */
export interface CommentHooks {
  /** counts one comment for the viewer; throws commentTooSoon (with Retry-After) when too soon */
  limit(): Promise<void>;
}

export class CommentService {
  constructor(
    private readonly store: Store,
    private readonly social: SocialEvents | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /** POST /v1/webonly/comment/loadpage_beforeid: newest first, keyset on the id. */
  async page(viewer: Viewer, input: CommentPageRequest): Promise<CommentPage> {
    const object = await this.readableObject(viewer, input.objecttype, input.objectid);
    // one more than the page says whether there is another
    const rows = await q.pageBefore(
      this.store.db,
      input.objecttype,
      input.objectid,
      input.beforeid,
      input.pagesize + 1,
    );
    const shown = rows.slice(0, input.pagesize);
    const likes = await likeSummaries(
      this.store.db,
      'C',
      shown.map((row) => row.id),
      viewer?.id,
    );
    return {
      data: shown.map((row) => ({ ...itemOf(viewer, row, object), ...likes.get(row.id) })),
      hasmore: rows.length > input.pagesize,
      count: object.comments_count,
    };
  }

  /** POST /v1/webonly/comment/add */
  async add(viewer: Viewer, input: CommentAddRequest, hooks: CommentHooks): Promise<CommentAddResponse> {
    const user = requireViewer(viewer);
    const object = await this.readableObject(viewer, input.objecttype, input.objectid);
    const at = this.now();
    if (
      await q.sameTextSince(
        this.store.db,
        input.objecttype,
        input.objectid,
        user.id,
        input.text,
        at - COMMENT_DUPLICATE_WINDOW_MS,
      )
    )
      throw new AppError('commentDuplicate');
    await hooks.limit();
    const id = newCommentId(at);
    const count = await this.store.db.transaction().execute(async (trx) => {
      await q.insertComment(trx, {
        id,
        object_id: input.objectid,
        object_type: input.objecttype,
        user_id: user.id,
        text: input.text,
        at,
      });
      return q.bumpCount(trx, input.objectid, 1);
    });
    const row = await q.findComment(this.store.db, id);
    if (!row) throw new AppError('commentNotFound');
    const comment = itemOf(viewer, row, object);
    this.social?.emit({
      kind: 'object',
      objectType: input.objecttype,
      objectId: input.objectid,
      message: {
        kind: 'comment',
        data: { action: 'add', commentid: id, comment: itemOf(null, row, object), count },
      },
    });
    this.social?.notify({
      recipientId: object.user_id,
      actorId: user.id,
      action: 'comment',
      objectType: input.objecttype,
      objectId: input.objectid,
    });
    return { replid: id, text: row.text, comment, count };
  }

  /** POST /v1/webonly/comment/edit: its author only (social §6). */
  async edit(viewer: Viewer, input: CommentEditRequest): Promise<CommentEditResponse> {
    requireViewer(viewer);
    const { row, object } = await this.readableComment(viewer, input.commentid);
    if (!canChangeComment(viewer, { author_id: row.user_id })) throw new AppError('commentNotAuthor');
    const at = Math.max(this.now(), Number(row.created_at));
    if (!(await q.updateText(this.store.db, row.id, input.newtext, at)))
      throw new AppError('commentNotFound');
    const edited = { ...row, text: input.newtext, updated_at: at };
    this.social?.emit({
      kind: 'object',
      objectType: typeOf(row),
      objectId: row.object_id,
      message: {
        kind: 'comment',
        data: {
          action: 'edit',
          commentid: row.id,
          comment: itemOf(null, edited, object),
          count: object.comments_count,
        },
      },
    });
    return { text: edited.text, comment: itemOf(viewer, edited, object) };
  }

  /** POST /v1/webonly/comment/remove: its author, the post's author, admins. */
  async remove(viewer: Viewer, input: CommentRemoveRequest): Promise<CommentRemoveResponse> {
    requireViewer(viewer);
    const { row, object } = await this.readableComment(viewer, input.commentid);
    if (!canRemoveComment(viewer, { author_id: row.user_id }, object))
      throw new AppError('commentRemoveForbidden');
    const count = await this.store.db.transaction().execute(async (trx) => {
      if (!(await q.deleteComment(trx, row.id))) return null;
      return q.bumpCount(trx, row.object_id, -1);
    });
    if (count === null) throw new AppError('commentNotFound');
    this.social?.emit({
      kind: 'object',
      objectType: typeOf(row),
      objectId: row.object_id,
      message: { kind: 'comment', data: { action: 'remove', commentid: row.id, count } },
    });
    return { commentid: row.id, count };
  }

  /** The object, if the viewer may see it: a hidden post is its author's and admins' only. */
  private async readableObject(
    viewer: Viewer,
    type: CommentObjectType,
    id: string,
  ): Promise<q.CommentedObject> {
    const object = await q.findObject(this.store.db, type, id);
    if (!object || (object.hidden_at !== null && viewer?.id !== object.user_id && !isAdmin(viewer)))
      throw new AppError('commentObjectNotFound', { id });
    return object;
  }

  private async readableComment(
    viewer: Viewer,
    id: string,
  ): Promise<{ row: q.CommentRow; object: q.CommentedObject }> {
    const row = await q.findComment(this.store.db, id);
    if (!row) throw new AppError('commentNotFound');
    try {
      return { row, object: await this.readableObject(viewer, typeOf(row), row.object_id) };
    } catch (error) {
      if (error instanceof AppError) throw new AppError('commentNotFound');
      throw error;
    }
  }
}

function typeOf(row: q.CommentRow): CommentObjectType {
  return (COMMENT_OBJECT_TYPES as readonly string[]).includes(row.object_type)
    ? (row.object_type as CommentObjectType)
    : 'P';
}

/** Social §3's Comment as `viewer` sees it (null: as anyone, for the live pushes). */
export function itemOf(viewer: Viewer, row: q.CommentRow, object: { user_id: string }): CommentItem {
  const author = { author_id: row.user_id };
  return {
    replid: row.id,
    objectid: row.object_id,
    objecttype: typeOf(row),
    text: row.text,
    author: { id: row.user_id, username: row.username, displayname: row.fullname, avatar: row.avatar_url },
    addedon: Number(row.created_at),
    editedon: Number(row.updated_at) > Number(row.created_at) ? Number(row.updated_at) : null,
    viewer: {
      can_edit: canChangeComment(viewer, author),
      can_remove: canRemoveComment(viewer, author, object),
    },
    // a page puts the comment's likes in (likeSummaries); an answer to a write or a push has none
    ...NO_LIKES,
  };
}
