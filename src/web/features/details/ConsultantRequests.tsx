import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { consultantRequestsResponseSchema, pointPeopleResponseSchema } from '../../../shared/api/points';
import { apiPost } from '../../lib/api';
import { answersOf, apiQuery, errorText, refreshAfterWrite } from '../../lib/query';
import { useSession } from '../accounts/session';
import { StandaloneProviders } from '../accounts/StandaloneProviders';
import { timeAgo } from './format';
import { pointDetailsPath } from './queries';

/** GET /v1/xpoint/consultantrequests?id=: the owner's (or an admin's) pending requests to consult. */
export function consultantRequestsPath(pointId: string): string {
  return `/v1/xpoint/consultantrequests?id=${encodeURIComponent(pointId)}`;
}

/**
 * The owner's list of people asking to consult the point (issue 16): each with Accept and Decline.
 * Accepting makes them the consultant (and declines the others); the panel then shows them as such.
 * It also shows on the server-rendered full-screen page, which has neither the app's query cache nor
 * its session (it used to blank that page for owners).
 */
export function ConsultantRequests({ pointId }: { pointId: string }) {
  return (
    <StandaloneProviders>
      <RequestsList pointId={pointId} />
    </StandaloneProviders>
  );
}

function RequestsList({ pointId }: { pointId: string }) {
  const viewer = useSession().user?.id ?? '';
  const client = useQueryClient();
  const path = consultantRequestsPath(pointId);
  const list = useQuery(apiQuery(path, consultantRequestsResponseSchema, viewer));
  const [failure, setFailure] = useState<string | null>(null);
  const answer = useMutation({
    mutationFn: ({ username, accept }: { username: string; accept: boolean }) =>
      apiPost(`/v1/xpoint/consultantrequest/${accept ? 'accept' : 'decline'}`, pointPeopleResponseSchema, {
        id: pointId,
        username,
      }),
    onMutate: () => setFailure(null),
    onError: (error) => setFailure(errorText(error)),
    onSettled: async () => {
      await refreshAfterWrite(client, answersOf(path));
      await refreshAfterWrite(client, answersOf(pointDetailsPath(pointId)));
    },
  });
  const items = list.data?.items ?? [];
  if (items.length === 0 && failure === null) return null;
  return (
    <section className="consultant-requests" aria-label="Requests to consult">
      <h3 className="consultant-requests__title">Requests to consult</h3>
      <ul className="consultant-requests__list">
        {items.map((request) => (
          <li key={request.username} className="consultant-requests__item">
            <span className="consultant-requests__who">
              <strong>{request.fullname}</strong> @{request.username}
              <span className="consultant-requests__when">
                asked {timeAgo(request.created_at, list.dataUpdatedAt)}
              </span>
            </span>
            <span className="consultant-requests__actions">
              <button
                type="button"
                className="xp-button xp-button--primary"
                disabled={answer.isPending}
                onClick={() => answer.mutate({ username: request.username, accept: true })}
              >
                Accept
              </button>
              <button
                type="button"
                className="xp-button"
                disabled={answer.isPending}
                onClick={() => answer.mutate({ username: request.username, accept: false })}
              >
                Decline
              </button>
            </span>
          </li>
        ))}
      </ul>
      {failure !== null && (
        <p className="owner-alert" role="alert">
          {failure}
        </p>
      )}
    </section>
  );
}
