import { AppError } from '../../../shared/errors';
import {
  isAllowed,
  pointOutcome,
  type Action,
  type PointSubject,
  type Viewer,
} from '../../../shared/permissions';
import { requireViewer } from '../../auth/hook';
import type { Store } from '../../store/store';
import * as q from './queries';

/** Who a point's permission rules look at (spec §5, §6). */
export function subjectOf(point: q.PointForWrite): PointSubject {
  return {
    supertype: point.supertype,
    owner_username: point.owner_username ?? null,
    consultant_username: point.consultant_username ?? null,
    allow_consulting: point.allow_consulting,
  };
}

export async function pointOr404(store: Store, id: string): Promise<q.PointForWrite> {
  const point = await q.findPointForWrite(store, id);
  if (!point) throw new AppError('pointNotFound', { id });
  return point;
}

/**
 * The point, if the authorisation table lets the viewer do `action` on it (spec §5; editing a point and
 * adding an event under it, spec §6, ask 'update' and 'addChildEvent'), or 401, 404 and the table's
 * refusal in this order: a visitor learns nothing about which points exist.
 */
export async function controlledPoint(
  store: Store,
  viewer: Viewer,
  id: string,
  action: Action = 'update',
): Promise<q.PointForWrite> {
  requireViewer(viewer);
  const point = await pointOr404(store, id);
  authorize(viewer, action, subjectOf(point));
  return point;
}

/** The table's answer, thrown when it refuses; `params` fill the refusal's message. */
export function authorize(
  viewer: Viewer,
  action: Action,
  subject: PointSubject,
  params: Record<string, string | number> = {},
): 'ok' | 'pending' {
  const outcome = pointOutcome(viewer, action, subject);
  if (!isAllowed(outcome)) throw new AppError(outcome, params);
  return outcome;
}
