import { toDataURL } from 'qrcode';
import { pointLink } from '../../../shared/address';
import {
  REVIEWS_LIVE_KIND,
  REVIEW_INVITE_VALUE,
  REVIEW_OPEN_PARAM,
  REVIEW_OPEN_VALUE,
  parseReviewsCursor,
  reviewsCursorText,
  starsOfPercent,
  type InviteReview,
  type ReviewsCursor,
  type Review,
  type ReviewReply,
  type ReviewWrite,
  type ReviewWriteResponse,
  type ReviewsChange,
  type ReviewsPage,
  type ReviewsRequest,
  type ReviewsSummary,
} from '../../../shared/api/reviews';
import { AppError } from '../../../shared/errors';
import {
  canControlPoint,
  isSignedIn,
  mayOnPoint,
  type PointSubject,
  type Viewer,
} from '../../../shared/permissions';
import { requireViewer } from '../../auth/hook';
import type { Store } from '../../store/store';
import { newId } from '../points/rows';
import { likeSummaries, NO_LIKES } from '../likes/queries';
import type { SocialEvents } from '../social/events';
import * as q from './queries';

/**
 * Reviews (issue 18; social §2, §3; map-and-search §3, §6). Anyone reads a point's reviews; a
 * signed-in person who does not control the point writes one review of it (1-5 stars and text),
 * edits or deletes it; the point's owner, consultant or an admin answers each review once in public
 * and may not review it. Every change of a review rewrites the point's rating (0-100) and count in
 * the same transaction, then, once committed, tells the pages showing the point (the reviews change
 * event of social §3) and the people concerned (notifications).
 */
export class ReviewService {
  constructor(
    private readonly store: Store,
    private readonly options: { social: SocialEvents; publicUrl: string; now?: () => number },
  ) {}

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  private async pointOr404(id: string): Promise<q.ReviewPoint> {
    const point = await q.findPoint(this.store.db, id);
    if (!point) throw new AppError('pointNotFound', { id });
    return point;
  }

  /** POST /review/reviews: the modal's content. */
  async page(viewer: Viewer, request: ReviewsRequest): Promise<ReviewsPage> {
    const point = await this.pointOr404(request.appid);
    const controls = canControlPoint(viewer, subjectOf(point));
    const cursor = cursorOf(request);
    const [rows, own] = await Promise.all([
      cursor !== undefined || request.pagenumber === 1
        ? q.reviewsBefore(this.store.db, point.id, cursor, request.pagesize + 1)
        : q.reviewsPage(this.store.db, point.id, request.pagenumber, request.pagesize),
      isSignedIn(viewer) ? q.findOwnReview(this.store.db, point.id, viewer.id) : undefined,
    ]);
    const shown = rows.slice(0, request.pagesize);
    const last = shown.at(-1);
    const likes = await likeSummaries(
      this.store.db,
      'R',
      [...shown.map((row) => row.id), ...(own ? [own.id] : [])],
      viewer?.id,
    );
    const withLikes = (row: q.ReviewRow) => ({ ...reviewOf(row, viewer, controls), ...likes.get(row.id) });
    return {
      appid: point.id,
      title: point.title,
      prefix: request.prefix,
      summary: summaryOf(point.rating, point.rating_count),
      viewer: {
        signed_in: isSignedIn(viewer),
        can_review: isSignedIn(viewer) && !controls,
        can_reply: controls,
        own: own ? withLikes(own) : null,
      },
      reviews: shown.map(withLikes),
      pagenumber: request.pagenumber,
      pagesize: request.pagesize,
      hasmore: rows.length > request.pagesize,
      next:
        rows.length > request.pagesize && last
          ? reviewsCursorText({ at: Number(last.created_at), id: last.id })
          : null,
    };
  }

  /** POST /v1/reviews/add: the viewer's one review of the point. */
  async add(viewer: Viewer, body: ReviewWrite): Promise<ReviewWriteResponse> {
    const me = requireViewer(viewer);
    const point = await this.reviewablePoint(me, body.appid);
    const id = newId();
    const now = this.now();
    const totals = await this.store.db.transaction().execute(async (trx) => {
      await q.lockPoint(trx, this.store.dialect, point.id);
      const inserted = await q.insertReview(trx, {
        id,
        point_id: point.id,
        user_id: me.id,
        stars: body.stars,
        text: body.text === '' ? null : body.text,
        now,
      });
      // the unique key (one review per person and point) settles two adds racing each other
      if (!inserted) throw new AppError('reviewAlreadyWritten');
      return q.refreshRating(trx, point.id);
    });
    return this.changed(me, point, 'add', body.stars, id, totals);
  }

  /** POST /v1/reviews/edit: changes the viewer's review of the point. */
  async edit(viewer: Viewer, body: ReviewWrite): Promise<ReviewWriteResponse> {
    const me = requireViewer(viewer);
    const point = await this.reviewablePoint(me, body.appid);
    const now = this.now();
    let reviewId = '';
    const totals = await this.store.db.transaction().execute(async (trx) => {
      await q.lockPoint(trx, this.store.dialect, point.id);
      const own = await q.findOwnReview(trx, point.id, me.id);
      if (!own) throw new AppError('reviewNotFound', { id: `of ${point.id} by you` });
      reviewId = own.id;
      await q.updateReview(trx, own.id, {
        stars: body.stars,
        text: body.text === '' ? null : body.text,
        now,
      });
      return q.refreshRating(trx, point.id);
    });
    return this.changed(me, point, 'update', body.stars, reviewId, totals);
  }

  /** POST /v1/reviews/delete: removes the viewer's review of the point. */
  async remove(viewer: Viewer, appid: string): Promise<ReviewWriteResponse> {
    const me = requireViewer(viewer);
    const point = await this.pointOr404(appid);
    const { own, totals } = await this.store.db.transaction().execute(async (trx) => {
      await q.lockPoint(trx, this.store.dialect, point.id);
      const own = await q.findOwnReview(trx, point.id, me.id);
      if (!own || !(await q.deleteReview(trx, own.id)))
        throw new AppError('reviewNotFound', { id: `of ${point.id} by you` });
      return { own, totals: await q.refreshRating(trx, point.id) };
    });
    return this.changed(me, point, 'delete', own.stars, own.id, totals);
  }

  /** POST /v1/reviews/reply: the controller's public answer; a second call edits it. */
  async reply(viewer: Viewer, body: ReviewReply): Promise<ReviewWriteResponse> {
    const me = requireViewer(viewer);
    const { review, point } = await this.answerable(me, body.reviewid);
    await q.setReply(
      this.store.db,
      review.id,
      { text: body.text, userId: me.id, now: this.now() },
      review.reply_at,
    );
    return this.replied(me, point, review);
  }

  /** POST /v1/reviews/reply/delete */
  async deleteReply(viewer: Viewer, reviewid: string): Promise<ReviewWriteResponse> {
    const me = requireViewer(viewer);
    const { review, point } = await this.answerable(me, reviewid);
    if (review.reply_text === null) throw new AppError('reviewReplyNotFound', { id: review.id });
    await q.setReply(this.store.db, review.id, null, null);
    return this.replied(me, point, review);
  }

  /** GET /Review/InviteReview?appid=: the link that opens the point with the review form, and its QR code. */
  async invite(viewer: Viewer, appid: string): Promise<InviteReview> {
    requireViewer(viewer);
    const point = await this.pointOr404(appid);
    if (!mayOnPoint(viewer, 'inviteReview', subjectOf(point)))
      throw new AppError('reviewInviteNotController');
    const url = `${this.options.publicUrl}${pointLink(point.id, point.supertype)}?${REVIEW_OPEN_PARAM}=${REVIEW_OPEN_VALUE}`;
    // drawn here, never by a service elsewhere: the link may be for a point not yet public
    const qr = await toDataURL(url, { errorCorrectionLevel: 'M', margin: 2, width: 240 });
    return { appid: point.id, title: point.title, url, qr };
  }

  /** Where a browser opening /Review/InviteReview goes: the point with its reviews and the invite box. */
  async invitePage(appid: string): Promise<string | null> {
    const point = await q.findPoint(this.store.db, appid);
    return point
      ? `${pointLink(point.id, point.supertype)}?${REVIEW_OPEN_PARAM}=${REVIEW_INVITE_VALUE}`
      : null;
  }

  private async reviewablePoint(me: NonNullable<Viewer>, appid: string): Promise<q.ReviewPoint> {
    const point = await this.pointOr404(appid);
    if (canControlPoint(me, subjectOf(point))) throw new AppError('reviewByController');
    return point;
  }

  private async answerable(me: NonNullable<Viewer>, reviewid: string) {
    const review = await q.findReview(this.store.db, reviewid);
    if (!review) throw new AppError('reviewNotFound', { id: reviewid });
    const point = await this.pointOr404(review.point_id);
    if (!canControlPoint(me, subjectOf(point))) throw new AppError('reviewReplyNotController');
    return { review, point };
  }

  /** After a review's change has committed: the answer, the event to the point's pages, the notifications. */
  private async changed(
    me: NonNullable<Viewer>,
    point: q.ReviewPoint,
    actionType: 'add' | 'update' | 'delete',
    actionRating: number,
    reviewid: string,
    totals: { rating: number | null; count: number },
  ): Promise<ReviewWriteResponse> {
    const change: ReviewsChange = {
      actionType,
      actionRating,
      reviewid,
      ...summaryOf(totals.rating, totals.count),
    };
    this.emitChange(point.id, change);
    if (actionType !== 'delete')
      for (const recipientId of controllersOf(point))
        this.options.social.notify({
          recipientId,
          actorId: me.id,
          action: 'review',
          objectType: 'X',
          objectId: point.id,
        });
    const row = actionType === 'delete' ? undefined : await q.findReview(this.store.db, reviewid);
    return { change, review: row ? reviewOf(row, me, false) : null };
  }

  private async replied(me: NonNullable<Viewer>, point: q.ReviewPoint, before: q.ReviewRow) {
    const change: ReviewsChange = {
      actionType: 'reply',
      actionRating: 0,
      reviewid: before.id,
      ...summaryOf(point.rating, point.rating_count),
    };
    this.emitChange(point.id, change);
    this.options.social.notify({
      recipientId: before.user_id,
      actorId: me.id,
      action: 'review_reply',
      objectType: 'R',
      objectId: before.id,
    });
    const row = await q.findReview(this.store.db, before.id);
    return { change, review: row ? reviewOf(row, me, true) : null };
  }

  private emitChange(pointId: string, change: ReviewsChange) {
    this.options.social.emit({
      kind: 'object',
      objectType: 'X',
      objectId: pointId,
      message: { kind: REVIEWS_LIVE_KIND, data: change },
    });
  }
}

/**
 * The request's keyset position, if it names one. `pagenumber` above 1 with `before` would name two
 * pages: refused rather than one silently winning.
 */
function cursorOf(request: ReviewsRequest): ReviewsCursor | undefined {
  if (request.before === undefined || request.before === '') return undefined;
  const cursor = parseReviewsCursor(request.before);
  if (!cursor) throw new AppError('reviewsCursorInvalid', { reason: 'is not a position this list gave.' });
  if (request.pagenumber !== 1)
    throw new AppError('reviewsCursorInvalid', {
      reason: 'send either before (the next of the previous page) or a pagenumber, not both.',
    });
  return cursor;
}

function subjectOf(point: q.ReviewPoint): PointSubject {
  return {
    supertype: point.supertype,
    owner_username: point.owner_username ?? null,
    consultant_username: point.consultant_username ?? null,
    allow_consulting: Number(point.allow_consulting),
  };
}

/** Who is told of a new review: the point's owner and consultant (an admin is not, unless one of them). */
function controllersOf(point: q.ReviewPoint): string[] {
  return [...new Set([point.owner_userid, point.consultant_userid].filter((id): id is string => !!id))];
}

export function summaryOf(rating: number | null, count: number): ReviewsSummary {
  const percent = count === 0 || rating === null ? 0 : Math.round(Number(rating));
  return { avgRating: starsOfPercent(percent), avgRatingPercent: percent, reviewsCount: Number(count) };
}

function reviewOf(row: q.ReviewRow, viewer: Viewer, controls: boolean): Review {
  return {
    reviewid: row.id,
    appid: row.point_id,
    stars: Number(row.stars),
    text: row.text ?? '',
    addedon: Number(row.created_at),
    updatedon: Number(row.updated_at),
    author: {
      id: row.user_id,
      username: row.author_username,
      displayname: row.author_fullname,
      avatar: row.author_avatar ?? null,
    },
    reply:
      row.reply_text === null || row.reply_user_id === null
        ? null
        : {
            text: row.reply_text,
            addedon: Number(row.reply_at),
            updatedon: Number(row.reply_updated_at),
            by: {
              id: row.reply_user_id,
              username: row.replier_username ?? '',
              displayname: row.replier_fullname ?? '',
              avatar: row.replier_avatar ?? null,
            },
          },
    viewer: { is_own: isSignedIn(viewer) && viewer.id === row.user_id, can_reply: controls },
    // the page puts the review's likes in (likeSummaries); the answer to a write has none
    ...NO_LIKES,
  };
}
