import type { GlobalBeamItem } from '../../../shared/api/live';
import type { StoreChange } from '../../store/changes';
import type { ChangeFollower, Subscription } from '../../store/follower';
import type { Store } from '../../store/store';
import { beamsOf, combineFlags } from './flags';
import { findPoints } from './queries';
import { pointBeam } from './service';

/** A report is new for this long after it was created: older ones coming through the feed are edits. */
const NEW_FOR_MS = 5 * 60_000;
/** Reports remembered as already beamed (one beam each). */
const REMEMBER = 10_000;

/**
 * New incidents and help requests beam once, the moment they appear, whoever created them (any
 * process, a script): every process follows the store's change feed and beams to its own devices.
 */
export class ReportBeams {
  private subscription: Subscription | undefined;
  private readonly beamed = new Set<string>();

  constructor(
    private readonly store: Store,
    private readonly deliver: (beam: GlobalBeamItem) => void,
    private readonly follower: ChangeFollower,
    private readonly now: () => number = Date.now,
  ) {}

  async start(): Promise<void> {
    this.subscription ??= await this.follower.subscribe({
      name: 'report beams',
      onChanges: (kind, changes) => (kind === 'point' ? this.onChanges(changes) : undefined),
    });
  }

  async stop(): Promise<void> {
    await this.subscription?.close();
  }

  private async onChanges(changes: readonly StoreChange[]): Promise<void> {
    const ids = [...new Set(changes.filter((c) => c.op === 'upsert').map((c) => c.objectId))].filter(
      (id) => !this.beamed.has(id),
    );
    if (ids.length === 0) return;
    const now = this.now();
    for (const point of await findPoints(this.store, ids)) {
      if (point.supertype !== 'incident' && point.supertype !== 'helprequest') continue;
      if (now - point.created_at > NEW_FOR_MS) continue;
      this.beamed.add(point.id);
      if (this.beamed.size > REMEMBER) this.beamed.delete(this.beamed.values().next().value as string);
      const beam = pointBeam('hot', point);
      beam.properties.beam = beamsOf(
        combineFlags({ stored: point.beamtype, supertype: point.supertype, rank: 0, events: [] }),
      );
      this.deliver(beam);
    }
  }
}
