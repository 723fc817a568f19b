import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { profileLink } from '../../../shared/address/links';
import {
  claimDecisionResponseSchema,
  claimQueueResponseSchema,
  type ClaimInQueue,
} from '../../../shared/api/points';
import { apiPost } from '../../lib/api';
import { answersOf, apiQuery, errorText, refreshAfterWrite } from '../../lib/query';
import { PageHeader } from '../accounts/PageHeader';
import { useSession } from '../accounts/session';
import { pointDetailsPath } from '../details/queries';
import { formatDateTime, timeAgo } from '../details/format';
import '../accounts/pages.css';
import './admin.css';

/** GET /v1/admin/claims: the pending claims, oldest first. */
export const CLAIM_QUEUE_PATH = '/v1/admin/claims';

const SIGN_IN_REASON = 'You need to sign in as an admin to verify claims.';
export const EMPTY_QUEUE = 'No claims are waiting for verification.';
export const ADMINS_ONLY = 'Only admins can verify claims.';

/** How the queue names each supertype (the claim's point may be any that can be claimed). */
const SUPERTYPE_NAMES: Record<string, string> = {
  business: 'Business',
  poi: 'Place of interest',
  virtualstore: 'Virtual store',
  service: 'Service',
  experience: 'Experience',
  rental: 'Rental',
  helprequest: 'Help request',
  incident: 'Incident',
};

type Decision = 'approve' | 'decline';

/**
 * /admin/claims (issue 16): the claims waiting for an admin, oldest first, each with its point (a
 * link to it), who claims it, what they wrote and when, and Approve / Decline. Approving makes the
 * claimant the owner (the point's other claims are declined); declining puts the point back as it
 * was. A visitor is asked to sign in; a signed-in user who is not an admin is refused.
 */
export function ClaimsPage() {
  const { user, signedIn, loading, requireAccount } = useSession();
  const asked = useRef(false);

  useEffect(() => {
    document.title = 'Claims to verify — XPoint';
  }, []);

  // a visitor arriving here gets the login modal once
  useEffect(() => {
    if (loading || asked.current) return;
    asked.current = true;
    if (!signedIn) requireAccount(SIGN_IN_REASON);
  }, [loading, signedIn, requireAccount]);

  return (
    <div className="page">
      <PageHeader />
      <main className="page__main admin-claims" aria-busy={loading}>
        <h1 className="admin-claims__title">Claims to verify</h1>
        {loading ? (
          <p className="admin-claims__note" role="status">
            Loading…
          </p>
        ) : !signedIn || user === null ? (
          <div className="admin-claims__card admin-claims__refusal">
            <p role="status">{SIGN_IN_REASON}</p>
            <button
              type="button"
              className="xp-button xp-button--primary"
              onClick={() => requireAccount(SIGN_IN_REASON)}
            >
              Sign in
            </button>
          </div>
        ) : !user.isAdmin ? (
          <Refusal message={ADMINS_ONLY} />
        ) : (
          <ClaimQueue viewer={user.id} />
        )}
      </main>
    </div>
  );
}

function Refusal({ message }: { message: string }) {
  return (
    <div className="admin-claims__card admin-claims__refusal">
      <p role="alert">{message}</p>
      <Link className="xp-button" to="/maps">
        Back to the map
      </Link>
    </div>
  );
}

function ClaimQueue({ viewer }: { viewer: string }) {
  const client = useQueryClient();
  const queue = useQuery(apiQuery(CLAIM_QUEUE_PATH, claimQueueResponseSchema, viewer));
  /** what the last decision did, read out once the list has updated. */
  const [done, setDone] = useState('');
  /**
   * The refusal of a decision, in the catalogue's words, above the list: the list is read again after
   * it, and the claim may have left it (another admin decided it first).
   */
  const [failure, setFailure] = useState<string | null>(null);
  /** where focus goes once a decision is done: its button has left with its claim */
  const messages = useRef<HTMLDivElement>(null);
  const decide = useMutation({
    mutationFn: ({ claim, decision }: { claim: ClaimInQueue; decision: Decision }) =>
      apiPost(`${CLAIM_QUEUE_PATH}/${decision}`, claimDecisionResponseSchema, { id: claim.id }),
    onMutate: () => {
      setFailure(null);
      setDone('');
    },
    onSuccess: (answer, { claim }) =>
      setDone(
        answer.status === 'approved'
          ? `Approved: ${claim.fullname} now owns “${claim.point_title}”.`
          : `Declined the claim of ${claim.fullname} on “${claim.point_title}”.`,
      ),
    onError: (error, { claim, decision }) =>
      setFailure(
        `Could not ${decision} the claim of ${claim.fullname} on “${claim.point_title}”: ${errorText(error)}`,
      ),
    onSettled: async (_answer, _error, { claim }) => {
      await refreshAfterWrite(client, answersOf(CLAIM_QUEUE_PATH));
      await refreshAfterWrite(client, answersOf(pointDetailsPath(claim.point_id)));
      messages.current?.focus();
    },
  });

  if (queue.isPending)
    return (
      <p className="admin-claims__note" role="status">
        Loading the claims…
      </p>
    );
  if (queue.isError) {
    // the server's refusal (403 for a user who stopped being an admin) in the catalogue's words
    return <Refusal message={errorText(queue.error)} />;
  }
  const items = queue.data.items;
  // 'how long ago' as of the list's arrival: it is read again after every decision
  const now = queue.dataUpdatedAt;
  return (
    <>
      <p className="admin-claims__note">
        Approving makes the claimant the owner and marks the place verified; the other claims on it are
        declined. Declining leaves it unowned.
      </p>
      <div ref={messages} className="admin-claims__messages" tabIndex={-1}>
        <p className="admin-claims__done" role="status">
          {done}
        </p>
        {failure !== null && (
          <p className="admin-claims__error" role="alert">
            {failure}
          </p>
        )}
      </div>
      {items.length === 0 ? (
        <p className="admin-claims__card admin-claims__empty">{EMPTY_QUEUE}</p>
      ) : (
        <ol className="admin-claims__list" aria-label="Pending claims">
          {items.map((claim) => {
            const working = decide.isPending && decide.variables.claim.id === claim.id;
            return (
              <li key={claim.id} className="admin-claims__card admin-claims__item">
                <div className="admin-claims__head">
                  <Link className="admin-claims__point" to={claim.url}>
                    {claim.point_title}
                  </Link>
                  <span className="admin-claims__type">
                    {SUPERTYPE_NAMES[claim.supertype] ?? claim.supertype}
                  </span>
                </div>
                <p className="admin-claims__who">
                  Claimed by{' '}
                  <Link to={profileLink(claim.username)}>
                    <strong>{claim.fullname}</strong>
                  </Link>{' '}
                  <span className="admin-claims__username">@{claim.username}</span>
                </p>
                <p className="admin-claims__when">
                  <time dateTime={new Date(claim.created_at).toISOString()}>
                    {timeAgo(claim.created_at, now)}
                  </time>
                  {' · '}
                  {formatDateTime(claim.created_at)}
                </p>
                {claim.text ? (
                  <blockquote className="admin-claims__text">{claim.text}</blockquote>
                ) : (
                  <p className="admin-claims__text admin-claims__text--none">No message with this claim.</p>
                )}
                <div className="admin-claims__actions">
                  <button
                    type="button"
                    className="xp-button xp-button--primary"
                    disabled={decide.isPending}
                    aria-label={`Approve the claim of ${claim.fullname} on ${claim.point_title}`}
                    onClick={() => decide.mutate({ claim, decision: 'approve' })}
                  >
                    {working && decide.variables.decision === 'approve' ? 'Approving…' : 'Approve'}
                  </button>
                  <button
                    type="button"
                    className="xp-button"
                    disabled={decide.isPending}
                    aria-label={`Decline the claim of ${claim.fullname} on ${claim.point_title}`}
                    onClick={() => decide.mutate({ claim, decision: 'decline' })}
                  >
                    {working && decide.variables.decision === 'decline' ? 'Declining…' : 'Decline'}
                  </button>
                </div>
              </li>
            );
          })}
        </ol>
      )}
    </>
  );
}
