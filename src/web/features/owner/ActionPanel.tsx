import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { pointLink } from '../../../shared/address';
import { answersOf, errorText, refreshAfterWrite, useForgetOnLeave } from '../../lib/query';
import { revealOnMap } from '../../map/mapHandle';
import { refreshPointTiles } from '../../map/pointTiles';
import { useFullScreenLoader } from '../../shell/FullScreenLoader';
import { useDocumentTitle, useShell } from '../../shell/context';
import { ErrorPanel, PanelLoader, SidePanel } from '../../shell/SidePanel';
import { useSession } from '../accounts/session';
import { eventDetailsPath, eventDetailsQuery, pointDetailsPath, pointDetailsQuery } from '../details/queries';
import type { PointDetails } from '../details/schemas';
import { changePointPeople, deleteEvent, deletePoint, editableEventPath } from './ownerApi';
import { MAP_PATH, returnAfterDelete, returnAfterSave } from './returnPath';
import './owner.css';

/**
 * The owner's action pages (map-and-search §2 "links the product builds", §5, §6): delete a point
 * (/MyXPoints/Delete/{id}, /MyExperience/Delete?id=, /MyRental/Delete?id=), claim it
 * (/business/claim/{id}), become its consultant (/business/becomecm/{id}), stop consulting
 * (/business/ClearConsultant/{id}) and delete an event (/MyEvents/DeleteFromMap/{id}). Each is a panel
 * with one clear question, the name of what it is about, the action and a way back; the page itself
 * is the confirmation §5 asks for. The server decides who may: its refusal is shown as it says it,
 * and nothing changes.
 */

export type PointActionKind = 'delete' | 'claim' | 'become-consultant' | 'clear-consultant';

interface ActionText {
  title: string;
  question: (name: string) => string;
  explain: string;
  button: string;
  working: string;
  signInReason: string;
  danger: boolean;
}

export const POINT_ACTIONS: Record<PointActionKind, ActionText> = {
  delete: {
    title: 'Delete this XPoint',
    question: (name) => `Delete “${name}”?`,
    explain: 'It leaves the map and search at once, with its events. This cannot be undone.',
    button: 'Delete',
    working: 'Deleting…',
    signInReason: 'You need to sign in to delete an XPoint.',
    danger: true,
  },
  claim: {
    title: 'Claim this XPoint',
    question: (name) => `Claim “${name}”?`,
    explain:
      'Our team verifies every claim. Once it is approved you become its owner: you can edit its details, add events and answer its visitors. Until then it shows “verification pending”.',
    button: 'Send my claim',
    working: 'Claiming…',
    signInReason: 'You need to sign in to claim an XPoint.',
    danger: false,
  },
  'become-consultant': {
    title: 'Become a consultant',
    question: (name) => `Become the consultant of “${name}”?`,
    explain:
      'As its consultant you can keep its details right. If it has an owner, they are asked first: you can edit it once they accept.',
    button: 'Become consultant',
    working: 'Saving…',
    signInReason: 'You need to sign in to become a consultant.',
    danger: false,
  },
  'clear-consultant': {
    title: 'Stop consulting',
    question: (name) => `Stop consulting “${name}”?`,
    explain: 'You will no longer be able to edit it. Its owner keeps it.',
    button: 'Stop consulting',
    working: 'Saving…',
    signInReason: 'You need to sign in to stop consulting.',
    danger: true,
  },
};

/** The owner's (or an admin's) side of ending consulting: dismissing the consultant (issue 16). */
const DISMISS_CONSULTANT: ActionText = {
  title: 'Remove consultant',
  question: (name) => `Remove the consultant of “${name}”?`,
  explain: 'They will no longer be able to edit it. You can accept someone else later.',
  button: 'Remove consultant',
  working: 'Saving…',
  signInReason: 'You need to sign in to remove a consultant.',
  danger: true,
};

/** An owned point's consultant is the owner's choice: the offer is a request. */
const REQUEST_TO_CONSULT: ActionText = {
  title: 'Request to consult',
  question: (name) => `Ask the owner of “${name}” to let you consult?`,
  explain:
    'Its owner accepts or declines. Once accepted you can keep its details right; until then nothing changes.',
  button: 'Send request',
  working: 'Sending…',
  signInReason: 'You need to sign in to ask to consult.',
  danger: false,
};

export const EVENT_DELETE: ActionText = {
  title: 'Delete this event',
  question: (name) => `Delete the event “${name}”?`,
  explain: 'It leaves the map and its XPoint’s event lists at once. This cannot be undone.',
  button: 'Delete',
  working: 'Deleting…',
  signInReason: 'You need to sign in to delete an event.',
  danger: true,
};

/** Supertypes whose claim carries the claimer's words (§6: claim text only for experience and rental). */
const CLAIM_TEXT_SUPERTYPES = new Set(['experience', 'rental']);

/** Every list of the user's own points and events (MyItems), whatever its scope. */
const MY_POINTS = answersOf('/v1/account/mypoints');

/** Navigation within the shell that keeps the map where it is (its view lives in the hash). */
function useGo(): (to: string) => void {
  const navigate = useNavigate();
  return (to: string) => void navigate(`${to}${window.location.hash}`, { replace: true });
}

export interface PointActionPanelProps {
  action: PointActionKind;
  id: string;
  successUrl?: string | undefined;
}

/** A point's action page; what it shows depends on who looks, so signing in loads it again. */
export function PointActionPanel(props: PointActionPanelProps) {
  const { user } = useSession();
  return <PointActionLevel key={`${props.action}:${props.id}:${user?.id ?? ''}`} {...props} />;
}

/**
 * The point's write, as a mutation: it answers the address to open next, and leaves no cached answer
 * it changed (the point's details, the user's lists) to be shown again as it was.
 */
function usePointAction(action: PointActionKind, successUrl: string | undefined) {
  const client = useQueryClient();
  const forget = useForgetOnLeave();
  return useMutation({
    mutationFn: async ({ point, text }: { point: PointDetails; text?: string }): Promise<string> => {
      if (action === 'delete') {
        await deletePoint(point.id);
        return returnAfterDelete(successUrl, point.id);
      }
      const api =
        action === 'claim'
          ? 'claim'
          : action === 'become-consultant'
            ? 'becomeconsultant'
            : 'clearconsultant';
      const answer = await changePointPeople(api, point.id, text);
      // the point opens with its new owner or consultant, or saying what it waits for; stopping
      // returns where it was asked from
      return action === 'clear-consultant' ? returnAfterSave(successUrl, answer.url) : answer.url;
    },
    onSuccess: async (_next, { point }) => {
      if (action === 'delete') {
        forget(answersOf(pointDetailsPath(point.id)));
        refreshPointTiles();
      } else {
        // its controls change with its people: the point opens as the server now has it
        await refreshAfterWrite(client, answersOf(pointDetailsPath(point.id)));
      }
      await refreshAfterWrite(client, MY_POINTS);
    },
  });
}

function PointActionLevel({ action, id, successUrl }: PointActionPanelProps) {
  const { navigation } = useShell();
  const { user } = useSession();
  const go = useGo();
  const loader = useFullScreenLoader();
  const resource = useQuery(pointDetailsQuery(id, user?.id ?? ''));
  const point = resource.data ?? null;
  const text =
    action === 'clear-consultant' && point?.controls?.dismiss_consultant
      ? DISMISS_CONSULTANT
      : action === 'become-consultant' && point?.owner_username
        ? REQUEST_TO_CONSULT
        : POINT_ACTIONS[action];
  const write = usePointAction(action, successUrl);
  const [claimText, setClaimText] = useState('');
  const textId = useId();
  useDocumentTitle(text.title);
  // the place the question is about shows beside the panel
  useEffect(() => {
    if (point !== null) revealOnMap(point.lon, point.lat);
  }, [point]);

  const pointPage = point ? pointLink(point.id, point.supertype) : MAP_PATH;
  const cancel = () => go(returnAfterSave(successUrl, pointPage));

  const run = async () => {
    if (point === null) return;
    const withText = action === 'claim' && CLAIM_TEXT_SUPERTYPES.has(point.supertype) ? claimText : undefined;
    go(await loader.run(write.mutateAsync({ point, text: withText }), text.working));
  };

  let body: ReactNode;
  if (resource.status === 'pending') body = <PanelLoader label="Loading the XPoint…" />;
  else if (resource.status === 'error') body = <ErrorPanel message={errorText(resource.error)} />;
  else
    body = (
      <ConfirmAction
        text={text}
        name={resource.data.title}
        onConfirm={run}
        onCancel={cancel}
        extra={
          action === 'claim' && CLAIM_TEXT_SUPERTYPES.has(resource.data.supertype) ? (
            <div className="owner-field">
              <label htmlFor={textId}>
                Why is this {resource.data.supertype} yours?{' '}
                <span className="owner-field__hint">(optional)</span>
              </label>
              <textarea
                id={textId}
                name="text"
                rows={3}
                value={claimText}
                onChange={(event) => setClaimText(event.target.value)}
              />
            </div>
          ) : null
        }
      />
    );
  return (
    <SidePanel
      title={text.title}
      className="owner-panel owner-action"
      onClose={navigation.toMap}
      onBack={cancel}
      levelKey={`${action}:${id}:${resource.status}`}
    >
      {body}
    </SidePanel>
  );
}

export interface EventDeletePanelProps {
  id: string;
  successUrl?: string | undefined;
}

/** /MyEvents/DeleteFromMap/{id}: the event leaves the map; the page returns where it came from. */
export function EventDeletePanel(props: EventDeletePanelProps) {
  const { user } = useSession();
  return <EventDeleteLevel key={`${props.id}:${user?.id ?? ''}`} {...props} />;
}

function EventDeleteLevel({ id, successUrl }: EventDeletePanelProps) {
  const { navigation } = useShell();
  const { user } = useSession();
  const go = useGo();
  const loader = useFullScreenLoader();
  const client = useQueryClient();
  const forget = useForgetOnLeave();
  const resource = useQuery(eventDetailsQuery(id, user?.id ?? ''));
  useDocumentTitle(EVENT_DELETE.title);
  const event = resource.data ?? null;
  const place = event?.location ?? null;
  useEffect(() => {
    if (place) revealOnMap(place.lon, place.lat);
  }, [place]);
  // a deleted event's page is gone: back to its XPoint, else the map
  const after = event?.xpoint_url ?? MAP_PATH;
  const cancel = () => go(returnAfterSave(successUrl, `/e/${id}`));
  const remove = useMutation({
    mutationFn: () => deleteEvent(id),
    onSuccess: async () => {
      forget(answersOf(eventDetailsPath(id)));
      forget(answersOf(editableEventPath(id)));
      refreshPointTiles();
      // its XPoint lists its events
      if (event?.xpoint_id) await refreshAfterWrite(client, answersOf(pointDetailsPath(event.xpoint_id)));
      await refreshAfterWrite(client, MY_POINTS);
    },
  });
  const run = async () => {
    await loader.run(remove.mutateAsync(), EVENT_DELETE.working);
    go(returnAfterDelete(successUrl, id, after));
  };
  return (
    <SidePanel
      title={EVENT_DELETE.title}
      className="owner-panel owner-action"
      onClose={navigation.toMap}
      onBack={cancel}
      levelKey={`event-delete:${id}:${resource.status}`}
    >
      {resource.status === 'pending' ? (
        <PanelLoader label="Loading the event…" />
      ) : resource.status === 'error' ? (
        <ErrorPanel message={errorText(resource.error)} />
      ) : (
        <ConfirmAction text={EVENT_DELETE} name={resource.data.title} onConfirm={run} onCancel={cancel} />
      )}
    </SidePanel>
  );
}

interface ConfirmActionProps {
  text: ActionText;
  name: string;
  extra?: ReactNode;
  onConfirm(): Promise<void>;
  onCancel(): void;
}

/**
 * The question, what it means, and the two answers. Signed-out visitors are asked to sign in first
 * (the login modal); a refusal keeps the page open with the server's reason.
 */
function ConfirmAction({ text, name, extra, onConfirm, onCancel }: ConfirmActionProps) {
  const { user, loading, requireAccount } = useSession();
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setFailure(null);
    onConfirm().then(
      () => setBusy(false),
      (error: unknown) => {
        setBusy(false);
        setFailure(errorText(error));
      },
    );
  };
  return (
    <form className="owner-confirm" onSubmit={submit} aria-label={text.title}>
      <p className="owner-confirm__question">{text.question(name)}</p>
      <p className="owner-confirm__explain">{text.explain}</p>
      {extra}
      {failure !== null && (
        <p className="owner-alert" role="alert">
          {failure}
        </p>
      )}
      {!loading && user === null ? (
        <div className="owner-confirm__signin">
          <p>{text.signInReason}</p>
          <div className="owner-actions">
            <button type="button" className="xp-button" onClick={onCancel}>
              Cancel
            </button>
            <button
              type="button"
              className="xp-button xp-button--primary"
              onClick={() => requireAccount(text.signInReason)}
            >
              Sign in
            </button>
          </div>
        </div>
      ) : (
        <div className="owner-actions">
          <button type="button" className="xp-button" onClick={onCancel}>
            Cancel
          </button>
          <button
            type="submit"
            className={text.danger ? 'xp-button owner-button--danger' : 'xp-button xp-button--primary'}
            disabled={busy || loading}
          >
            {text.button}
          </button>
        </div>
      )}
    </form>
  );
}
