import { Suspense, lazy, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { isSafeReturnPath } from '../../../shared/address';
import { useShell } from '../../shell/context';
import { PanelLoader, SidePanel } from '../../shell/SidePanel';
import type { PointActionKind } from './ActionPanel';
import type { EventFormMode } from './EventFormPanel';
import type { MyItemsProps } from './MyItems';

/**
 * The owner's pages load when first opened, as the add-new flow does: their forms bring the write
 * contracts' rules (zod schemas, the opening-hours checker) along, which the first map paint does not
 * need. These wrappers are what the shell and the account panels import.
 */

const PointActionPanel = lazy(() => import('./ActionPanel').then((m) => ({ default: m.PointActionPanel })));
const EventDeletePanel = lazy(() => import('./ActionPanel').then((m) => ({ default: m.EventDeletePanel })));
const EventFormPanel = lazy(() => import('./EventFormPanel').then((m) => ({ default: m.EventFormPanel })));
const MyItemsList = lazy(() => import('./MyItems').then((m) => ({ default: m.MyItems })));

function PanelWhileLoading({ children }: { children: ReactNode }) {
  const { navigation } = useShell();
  return (
    <Suspense
      fallback={
        <SidePanel title="Loading…" className="owner-panel" onClose={navigation.toMap}>
          <PanelLoader />
        </SidePanel>
      }
    >
      {children}
    </Suspense>
  );
}

/** Delete, claim, become consultant, stop consulting: /MyXPoints/Delete/{id}, /business/claim/{id}, ... */
export function PointActionRoute(props: {
  action: PointActionKind;
  id: string;
  successUrl?: string | undefined;
}) {
  return (
    <PanelWhileLoading>
      <PointActionPanel {...props} />
    </PanelWhileLoading>
  );
}

/** /MyEvents/DeleteFromMap/{id} */
export function EventDeleteRoute(props: { id: string; successUrl?: string | undefined }) {
  return (
    <PanelWhileLoading>
      <EventDeletePanel {...props} />
    </PanelWhileLoading>
  );
}

/**
 * /e/{id}/Edit, /e/{id}/CopyToNew and /Event/AddAsChild?parentid={id}. The last one's route carries
 * no successUrl, so it is read from the address here (the product may still add one to any link).
 */
export function EventFormRoute(props: { mode: EventFormMode; id: string; successUrl?: string | undefined }) {
  const { search } = useLocation();
  const fromQuery = new URLSearchParams(search).get('successUrl') ?? undefined;
  const successUrl = props.successUrl ?? (isSafeReturnPath(fromQuery) ? fromQuery : undefined);
  return (
    <PanelWhileLoading>
      <EventFormPanel {...props} successUrl={successUrl} />
    </PanelWhileLoading>
  );
}

/** The signed-in user's points and events with their controls (inside the my-points panels). */
export function MyItemsRoute(props: MyItemsProps) {
  return (
    <Suspense fallback={<PanelLoader />}>
      <MyItemsList {...props} />
    </Suspense>
  );
}
