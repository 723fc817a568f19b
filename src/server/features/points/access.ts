import { AppError } from '../../../shared/errors';
import { canControlPoint, type PointSubject, type Viewer } from '../../../shared/permissions';
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
 * The point for one of its controllers (owner, consultant, admin: spec §5), or 401, 404, 403 in this
 * order: a visitor learns nothing about which points exist. Editing a point and adding an event
 * under it (spec §6) both ask this.
 */
export async function controlledPoint(store: Store, viewer: Viewer, id: string): Promise<q.PointForWrite> {
  requireViewer(viewer);
  const point = await pointOr404(store, id);
  if (!canControlPoint(viewer, subjectOf(point))) throw new AppError('forbidden');
  return point;
}
