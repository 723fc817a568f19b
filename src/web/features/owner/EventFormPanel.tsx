import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { editableEventSchema, type EditableEvent } from '../../../shared/api/events';
import { eventLink, pointLink } from '../../../shared/address';
import { apiQuery, errorText } from '../../lib/query';
import { revealOnMap } from '../../map/mapHandle';
import { useDocumentTitle, useShell } from '../../shell/context';
import { ErrorPanel, PanelLoader, SidePanel } from '../../shell/SidePanel';
import { useSession } from '../accounts/session';
import { pointDetailsQuery } from '../details/queries';
import { EventForm } from './EventForm';
import { emptyEventValues, valuesFromEditable } from './eventForm';
import { editableEventPath } from './ownerApi';
import { MAP_PATH, returnAfterSave } from './returnPath';
import './owner.css';

/**
 * The event form's pages (map-and-search §2): /e/{id}/Edit, /e/{id}/CopyToNew (a new event filled
 * from that one) and /Event/AddAsChild?parentid={id} (a new event of that XPoint). Events need an
 * account (§6: only their owner or an admin controls them); saving returns to successUrl or the
 * event's page.
 */

export type EventFormMode = 'edit' | 'copy' | 'add-child';

const TITLES: Record<EventFormMode, string> = {
  edit: 'Edit the event',
  copy: 'Copy to a new event',
  'add-child': 'Add an event',
};
const SIGN_IN_REASON = 'You need to sign in to add or edit events.';

export interface EventFormPanelProps {
  mode: EventFormMode;
  /** the event (edit, copy) or the parent XPoint (add as child). */
  id: string;
  successUrl?: string | undefined;
}

export function EventFormPanel(props: EventFormPanelProps) {
  const { user, loading } = useSession();
  if (loading) return <Frame mode={props.mode}>{<PanelLoader />}</Frame>;
  if (user === null)
    return (
      <Frame mode={props.mode}>
        <SignInFirst />
      </Frame>
    );
  return <EventFormLevel key={`${props.mode}:${props.id}:${user.id}`} {...props} />;
}

function Frame({
  mode,
  children,
  onBack,
}: {
  mode: EventFormMode;
  children: ReactNode;
  onBack?: () => void;
}) {
  const { navigation } = useShell();
  useDocumentTitle(TITLES[mode]);
  const back = onBack ?? (navigation.canGoBack ? navigation.back : undefined);
  return (
    <SidePanel
      title={TITLES[mode]}
      className="owner-panel owner-event"
      onClose={navigation.toMap}
      onBack={back}
    >
      {children}
    </SidePanel>
  );
}

function SignInFirst() {
  const { requireAccount } = useSession();
  return (
    <div className="owner-confirm">
      <p className="owner-confirm__explain">{SIGN_IN_REASON}</p>
      <div className="owner-actions">
        <button
          type="button"
          className="xp-button xp-button--primary"
          onClick={() => requireAccount(SIGN_IN_REASON)}
        >
          Sign in
        </button>
      </div>
    </div>
  );
}

function EventFormLevel({ mode, id, successUrl }: EventFormPanelProps) {
  const navigate = useNavigate();
  const go = (to: string) => void navigate(`${to}${window.location.hash}`, { replace: true });
  const viewer = useSession().user?.id ?? '';
  // a form starts from the server's latest version, never a cached one: saving an older version fails
  const event = useQuery({
    ...apiQuery(mode === 'add-child' ? null : editableEventPath(id), editableEventSchema, viewer),
    gcTime: 0,
  });
  const parentId = mode === 'add-child' ? id : event.status === 'success' ? event.data.xpoint_id : null;
  const parent = useQuery(pointDetailsQuery(parentId, viewer));

  const cancelTo =
    mode === 'add-child'
      ? returnAfterSave(
          successUrl,
          parent.status === 'success' ? pointLink(parent.data.id, parent.data.supertype) : MAP_PATH,
        )
      : returnAfterSave(successUrl, eventLink(id));
  const cancel = () => go(cancelTo);

  // the form's first values, computed once per loaded event; a new event starts after the hour it was opened in
  const [openedAt] = useState(() => Date.now());
  const editable: EditableEvent | null =
    mode !== 'add-child' && event.status === 'success' ? event.data : null;
  const initial = useMemo(
    () => (editable !== null ? valuesFromEditable(editable) : emptyEventValues(openedAt)),
    [editable, openedAt],
  );

  // the event's place (or its point's, for a new one) shows beside the form
  const readyParent = parent.status === 'success' ? parent.data : null;
  const placeLat = editable?.lat ?? readyParent?.lat ?? null;
  const placeLon = editable?.lon ?? readyParent?.lon ?? null;
  useEffect(() => {
    if (placeLat !== null && placeLon !== null) revealOnMap(placeLon, placeLat);
  }, [placeLat, placeLon]);

  let body: ReactNode;
  if (mode !== 'add-child' && event.status !== 'success')
    body =
      event.status === 'pending' ? (
        <PanelLoader label="Loading the event…" />
      ) : (
        <ErrorPanel message={errorText(event.error)} />
      );
  else if (parentId !== null && parent.status !== 'success')
    body =
      parent.status === 'pending' ? (
        <PanelLoader label="Loading the XPoint…" />
      ) : (
        <ErrorPanel message={errorText(parent.error)} />
      );
  else
    body = (
      <EventForm
        saved={
          editable !== null && mode === 'edit'
            ? { id: editable.id, version: editable.version, url: editable.url }
            : null
        }
        initial={initial}
        parent={
          parent.status === 'success' && parentId !== null
            ? { id: parent.data.id, title: parent.data.title }
            : null
        }
        coverUrl={mode === 'edit' ? (editable?.cover_url ?? null) : null}
        submitLabel={mode === 'edit' ? 'Save' : 'Add the event'}
        onDone={(url) => go(returnAfterSave(successUrl, url))}
        onCancel={cancel}
      />
    );
  return (
    <Frame mode={mode} onBack={cancel}>
      {body}
    </Frame>
  );
}
