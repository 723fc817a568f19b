import {
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
} from '@tanstack/react-query';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { REVIEW_REPLY_MAX_LENGTH, type Review, type ReviewsPage } from '../../../shared/api/reviews';
import { cacheChange } from '../../lib/optimistic';
import { errorText } from '../../lib/query';
import { Dialog } from '../../ui/Dialog';
import { Avatar } from '../accounts/Avatar';
import { useSession } from '../accounts/session';
import { LikeBar } from '../likes/LikeBar';
import { ReviewForm } from './ReviewForm';
import { reviewsErrorText } from './errors';
import { rememberWriting, takeWriting } from './writeIntent';
import {
  deleteReply,
  deleteReview,
  inviteReviewQuery,
  refreshReviews,
  reviewsQuery,
  REVIEWS_PATH,
  saveReply,
} from './reviewsApi';
import './reviews.css';

/** Social §4: the loading cover goes after 5 s at most. */
export const REVIEWS_LOADING_COVER_MS = 5000;
export const REVIEW_LOGIN_REASON = 'You need to login to write a review.';

const dateFormat = new Intl.DateTimeFormat('en', { day: '2-digit', month: 'short', year: 'numeric' });

/**
 * The reviews modal (social §2, §4): titled Reviews, a loading cover until the first page arrives (5 s
 * at most), the point's rating, the viewer's own review with edit and delete or the form to write one
 * (a visitor is asked to sign in), the reviews newest first with the owner's public answers, and the
 * invite link for the point's controllers. `write` opens the form at once (the invite link's flag).
 */
export function ReviewsModal({
  point,
  write = false,
  invite = false,
  onClose,
}: {
  point: { id: string; title: string };
  write?: boolean;
  /** the invite box opens at once (a controller who followed /Review/InviteReview?appid=) */
  invite?: boolean;
  onClose(): void;
}) {
  const titleId = useId();
  const { user, requireAccount } = useSession();
  const viewer = user?.id ?? '';
  const reviews = useInfiniteQuery(reviewsQuery(point.id, viewer));
  const [timedOut, setTimedOut] = useState(false);
  const [formOpen, setFormOpen] = useState(write);
  useEffect(() => {
    const timer = window.setTimeout(() => setTimedOut(true), REVIEWS_LOADING_COVER_MS);
    return () => window.clearTimeout(timer);
  }, []);
  const covered = reviews.status === 'pending' && !timedOut;
  const first: ReviewsPage | undefined = reviews.data?.pages[0];

  // after a sign-in the panel (and this modal) may mount again: the form opens there (writeIntent.ts)
  const afterSignIn = useCallback(() => {
    rememberWriting(point.id);
    setFormOpen(true);
  }, [point.id]);
  useEffect(() => {
    if (formOpen) takeWriting(point.id);
  }, [formOpen, point.id]);

  // the invite link's flag for a visitor: the login modal, then the form
  const askedLogin = useRef(false);
  useEffect(() => {
    if (!write || askedLogin.current || first === undefined || first.viewer.signed_in) return;
    askedLogin.current = true;
    requireAccount(REVIEW_LOGIN_REASON, afterSignIn);
  }, [write, first, requireAccount, afterSignIn]);

  const startWriting = () => {
    if (requireAccount(REVIEW_LOGIN_REASON, afterSignIn)) setFormOpen(true);
  };

  return (
    <Dialog className="reviews-modal" labelledBy={titleId} onClose={onClose}>
      <div className="xp-modal__head">
        <h2 id={titleId} className="xp-modal__title">
          Reviews
        </h2>
        <button type="button" className="xp-modal__close" aria-label="Close" title="Close" onClick={onClose}>
          ×
        </button>
      </div>
      <div className="reviews-modal__body" aria-busy={covered}>
        <p className="reviews-modal__point">{first?.title ?? point.title}</p>
        {reviews.status === 'error' && (
          <p className="reviews-modal__error" role="alert">
            {reviewsErrorText(reviews.error)}
          </p>
        )}
        {first && (
          <>
            <ReviewsSummary page={first} />
            <ViewerReview
              page={first}
              formOpen={formOpen}
              onWrite={startWriting}
              onFormClose={() => setFormOpen(false)}
            />
            {first.viewer.can_reply && (
              <InviteReviews appid={first.appid} viewer={viewer} initiallyOpen={invite} />
            )}
            <ol className="reviews-list" aria-label="Reviews, newest first">
              {(reviews.data?.pages ?? [])
                .flatMap((page) => page.reviews)
                // one's own review shows once, above the list, with its buttons
                .filter((review) => review.reviewid !== first.viewer.own?.reviewid)
                .map((review) => (
                  <ReviewItem key={review.reviewid} review={review} />
                ))}
            </ol>
            {reviews.hasNextPage && (
              <button
                type="button"
                className="xp-button reviews-modal__more"
                disabled={reviews.isFetchingNextPage}
                onClick={() => void reviews.fetchNextPage()}
              >
                {reviews.isFetchingNextPage ? 'Loading…' : 'More reviews'}
              </button>
            )}
            {reviews.isFetchNextPageError && (
              <p className="reviews-modal__error" role="alert">
                {reviewsErrorText(reviews.error)}
              </p>
            )}
          </>
        )}
        {covered && (
          <div className="reviews-modal__cover" role="status">
            <span className="spinner" aria-hidden="true" /> Loading…
          </div>
        )}
      </div>
    </Dialog>
  );
}

function ReviewsSummary({ page }: { page: ReviewsPage }) {
  const { summary } = page;
  if (summary.reviewsCount < 1)
    return <p className="reviews-modal__none">No reviews yet. Be the first to review this place.</p>;
  return (
    <p className="reviews-summary">
      <Stars stars={summary.avgRating} />
      <strong className="reviews-summary__value">{summary.avgRating.toFixed(1)}</strong> / 5 ·{' '}
      {summary.reviewsCount} {summary.reviewsCount === 1 ? 'review' : 'reviews'}
    </p>
  );
}

/** Stars drawn for the eye; the number is said once, in words. */
function Stars({ stars }: { stars: number }) {
  const full = Math.round(stars);
  return (
    <span className="reviews-stars" role="img" aria-label={`${stars} out of 5 stars`}>
      {'★'.repeat(full)}
      <span className="reviews-stars__off">{'★'.repeat(5 - full)}</span>
    </span>
  );
}

function ViewerReview({
  page,
  formOpen,
  onWrite,
  onFormClose,
}: {
  page: ReviewsPage;
  formOpen: boolean;
  onWrite(): void;
  onFormClose(): void;
}) {
  const client = useQueryClient();
  const { own, can_review, signed_in } = page.viewer;
  const remove = useMutation({
    mutationFn: () => deleteReview(page.appid),
    onSuccess: () => refreshReviews(client, page.appid),
  });
  if (formOpen && (can_review || own))
    return <ReviewForm appid={page.appid} own={own} onDone={onFormClose} onCancel={onFormClose} />;
  if (own)
    return (
      <section className="reviews-own" aria-label="Your review">
        <h3 className="reviews-own__title">Your review</h3>
        <ReviewBody review={own} />
        <OwnerReply review={own} />
        <div className="reviews-own__buttons">
          <button type="button" className="xp-button" onClick={onWrite}>
            Edit review
          </button>
          <button
            type="button"
            className="xp-button"
            disabled={remove.isPending}
            onClick={() => {
              if (window.confirm('Delete your review?')) remove.mutate();
            }}
          >
            Delete review
          </button>
        </div>
        {remove.isError && (
          <p className="reviews-modal__error" role="alert">
            {errorText(remove.error)}
          </p>
        )}
      </section>
    );
  if (can_review || !signed_in)
    return (
      <button type="button" className="xp-button xp-button--primary reviews-modal__write" onClick={onWrite}>
        Write a review
      </button>
    );
  return null;
}

function ReviewBody({ review }: { review: Review }) {
  return (
    <>
      <div className="reviews-item__head">
        <Avatar
          fullname={review.author.displayname}
          username={review.author.username}
          src={review.author.avatar}
        />
        <div>
          <a className="reviews-item__author" href={`/u/${encodeURIComponent(review.author.username)}`}>
            {review.author.displayname || review.author.username}
          </a>
          <div className="reviews-item__meta">
            <Stars stars={review.stars} />{' '}
            <time dateTime={new Date(review.addedon).toISOString()}>{dateFormat.format(review.addedon)}</time>
            {review.updatedon > review.addedon && ' · edited'}
          </div>
        </div>
      </div>
      {review.text && <p className="reviews-item__text">{review.text}</p>}
    </>
  );
}

function ReviewItem({ review }: { review: Review }) {
  return (
    <li className="reviews-item">
      <ReviewBody review={review} />
      <LikeBar
        objectType="R"
        objectId={review.reviewid}
        state={{ up: review.likes_up, down: review.likes_down, mine: review.my_like }}
        changes={(next) => [
          cacheChange<InfiniteData<ReviewsPage, string | null>>([REVIEWS_PATH, review.appid], (pages) => ({
            ...pages,
            pages: pages.pages.map((page) => ({
              ...page,
              reviews: page.reviews.map((each) =>
                each.reviewid === review.reviewid
                  ? { ...each, likes_up: next.up, likes_down: next.down, my_like: next.mine }
                  : each,
              ),
            })),
          })),
        ]}
        subject={`${review.author.displayname || review.author.username}’s review`}
        compact
        live
      />
      <OwnerReply review={review} />
    </li>
  );
}

/** The owner's public answer (Yelp's): shown to all; its controllers write, edit or delete it. */
function OwnerReply({ review }: { review: Review }) {
  const client = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(review.reply?.text ?? '');
  const id = useId();
  const save = useMutation({
    mutationFn: () => saveReply(review.reviewid, text.trim()),
    onSuccess: async () => {
      await refreshReviews(client, review.appid);
      setEditing(false);
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteReply(review.reviewid),
    onSuccess: () => refreshReviews(client, review.appid),
  });
  const failure = save.error ?? remove.error;
  return (
    <>
      {review.reply && !editing && (
        <div className="reviews-reply">
          <p className="reviews-reply__by">
            Response from {review.reply.by.displayname || review.reply.by.username}
          </p>
          <p className="reviews-reply__text">{review.reply.text}</p>
        </div>
      )}
      {review.viewer.can_reply && editing && (
        <form
          className="reviews-reply-form"
          onSubmit={(event) => {
            event.preventDefault();
            if (text.trim() !== '') save.mutate();
          }}
        >
          <label htmlFor={`${id}-reply`} className="reviews-form__label">
            Your public answer
          </label>
          <textarea
            id={`${id}-reply`}
            className="reviews-form__text"
            rows={3}
            maxLength={REVIEW_REPLY_MAX_LENGTH}
            value={text}
            onChange={(event) => setText(event.target.value)}
          />
          <div className="reviews-form__buttons">
            <button
              type="submit"
              className="xp-button xp-button--primary"
              disabled={save.isPending || text.trim() === ''}
            >
              {save.isPending ? 'Saving…' : 'Post answer'}
            </button>
            <button type="button" className="xp-button" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {review.viewer.can_reply && !editing && (
        <div className="reviews-item__buttons">
          <button
            type="button"
            className="link-button"
            onClick={() => {
              setText(review.reply?.text ?? '');
              setEditing(true);
            }}
          >
            {review.reply ? 'Edit reply' : 'Reply'}
          </button>
          {review.reply && (
            <button
              type="button"
              className="link-button"
              disabled={remove.isPending}
              onClick={() => remove.mutate()}
            >
              Delete reply
            </button>
          )}
        </div>
      )}
      {failure && (
        <p className="reviews-modal__error" role="alert">
          {errorText(failure)}
        </p>
      )}
    </>
  );
}

/** For the point's controllers: the link that opens the review form, to share, and its QR code. */
function InviteReviews({
  appid,
  viewer,
  initiallyOpen,
}: {
  appid: string;
  viewer: string;
  initiallyOpen: boolean;
}) {
  const [open, setOpen] = useState(initiallyOpen);
  const [copied, setCopied] = useState(false);
  const invite = useQuery({ ...inviteReviewQuery(appid, viewer), enabled: open });
  return (
    <section className="reviews-invite" aria-label="Invite reviews">
      <button
        type="button"
        className="link-button"
        aria-expanded={open}
        onClick={() => setOpen((value) => !value)}
      >
        Invite reviews
      </button>
      {open && invite.status === 'pending' && <p role="status">Loading the link…</p>}
      {open && invite.status === 'error' && (
        <p className="reviews-modal__error" role="alert">
          {errorText(invite.error)}
        </p>
      )}
      {open && invite.data && (
        <div className="reviews-invite__box">
          <img
            className="reviews-invite__qr"
            src={invite.data.qr}
            width={160}
            height={160}
            alt={`QR code of the link to review ${invite.data.title}`}
          />
          <div>
            <p>Share this link: it opens {invite.data.title} with the review form ready.</p>
            <input
              className="reviews-invite__url"
              readOnly
              value={invite.data.url}
              aria-label="Link to write a review"
              onFocus={(event) => event.currentTarget.select()}
            />
            <button
              type="button"
              className="xp-button"
              onClick={() => {
                void navigator.clipboard?.writeText(invite.data.url).then(() => {
                  setCopied(true);
                  window.setTimeout(() => setCopied(false), 2000);
                });
              }}
            >
              {copied ? 'COPIED' : 'Copy link'}
            </button>
          </div>
        </div>
      )}
    </section>
  );
}
