import { isValidId } from '../../../shared/domain/ids';
import { AppError } from '../../../shared/errors';
import {
  eventPermissions,
  pointPermissions,
  type EventPermissions,
  type PointPermissions,
  type Viewer,
} from '../../../shared/permissions';
import type { Store } from '../../store/store';
import { viewerPending } from '../points/requests';
import { findEventSubject, findPointSubject } from './queries';

/** The viewer's rights on one point or event, as the shared permission module computes them. */
export class PermissionService {
  constructor(private readonly store: Store) {}

  async forPoint(viewer: Viewer, id: string): Promise<PointPermissions> {
    if (!isValidId(id)) throw new AppError('invalidParam');
    const point = await findPointSubject(this.store, id);
    if (!point) throw new AppError('pointNotFound', { id });
    return pointPermissions(viewer, {
      ...point,
      ...(await viewerPending(this.store, id, viewer?.id || null)),
    });
  }

  async forEvent(viewer: Viewer, id: string): Promise<EventPermissions> {
    if (!isValidId(id)) throw new AppError('invalidEventId');
    const event = await findEventSubject(this.store, id);
    if (!event) throw new AppError('eventNotFound', { id });
    return eventPermissions(viewer, event);
  }
}
