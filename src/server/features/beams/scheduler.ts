import type { FastifyBaseLogger } from 'fastify';
import { UPCOMING_WINDOW_MS, type GlobalBeamItem } from '../../../shared/api/live';
import type { Store } from '../../store/store';
import { findPoints, hotRanks, liveEvents, pruneActivity, pruneKnownDevices } from './queries';
import { KNOWN_DEVICE_MS } from './service';
import { HOT_WINDOW_MS, eventBeam, pointBeam, type BeamService } from './service';

export interface SchedulerOptions {
  /** between two looks at the clock; default one minute. */
  intervalMs: number;
  /** a live event or hot point beams again after this long; default ten minutes. */
  repeatMs: number;
  /** hot points beamed per tick; the client shows the top 3 by rank. */
  hotCount: number;
  /**
   * Beams sent before the tick lets the event loop take a turn. A delivery costs about 50 us (finding
   * the devices that see the place), so a tick of 5,000 live events held a process for 270 ms at a
   * time in bench:cluster, and every request and write waiting behind it; 100 make slices of ~5 ms.
   */
  deliveriesPerTurn: number;
}

export const DEFAULT_SCHEDULER: SchedulerOptions = {
  intervalMs: 60_000,
  repeatMs: 10 * 60_000,
  hotCount: 3,
  deliveriesPerTurn: 100,
};
/** Events considered per tick. */
const EVENTS_PER_TICK = 5000;

/**
 * Beams that come from the clock: events starting within 120 minutes (soon), events running now
 * (open), and the hottest points (hot). Each beam is sent when its state begins and again every
 * `repeatMs` while it lasts. The store decides these beams, so every process computes them for its
 * own devices (`deliver` is local, not the bus): no process waits for another, none duplicates one.
 */
export class BeamScheduler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  /** what was last beamed per event or point, and when. */
  private readonly sent = new Map<string, { kind: GlobalBeamItem['kind']; at: number }>();
  private lastPrune = 0;

  constructor(
    private readonly store: Store,
    private readonly service: BeamService,
    private readonly deliver: (kind: 'xpoint_beam' | 'event_beam', beam: GlobalBeamItem) => void,
    private readonly log: FastifyBaseLogger,
    private readonly options: SchedulerOptions = DEFAULT_SCHEDULER,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.options.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One look at the clock; ticks never overlap. Returns the beams sent. */
  tick(now = Date.now()): Promise<void> {
    if (this.running) return this.running;
    this.running = this.run(now)
      .catch((error: unknown) => this.log.error({ err: error }, 'beam scheduler: tick failed'))
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  private due(key: string, kind: GlobalBeamItem['kind'], now: number): boolean {
    const last = this.sent.get(key);
    return !last || last.kind !== kind || now - last.at >= this.options.repeatMs;
  }

  private async run(now: number): Promise<void> {
    const live = new Set<string>();
    let sent = 0;
    const send = async (kind: 'xpoint_beam' | 'event_beam', beam: GlobalBeamItem) => {
      this.deliver(kind, beam);
      sent += 1;
      if (sent % this.options.deliveriesPerTurn === 0) await new Promise((turn) => setImmediate(turn));
    };
    const events = await liveEvents(this.store, now, UPCOMING_WINDOW_MS, null, EVENTS_PER_TICK);
    const statuses = await this.service.statusesOf(events, now);
    for (const event of events) {
      const status = statuses.get(event.id);
      if (!status) continue;
      const kind = status === 'current' ? 'open' : 'soon';
      const key = `e:${event.id}`;
      live.add(key);
      if (!this.due(key, kind, now)) continue;
      this.sent.set(key, { kind, at: now });
      await send('event_beam', eventBeam(kind, event));
    }
    const ranks = await hotRanks(this.store, now - HOT_WINDOW_MS, this.options.hotCount);
    for (const point of await findPoints(this.store, [...ranks.keys()])) {
      const key = `p:${point.id}`;
      live.add(key);
      if (!this.due(key, 'hot', now)) continue;
      this.sent.set(key, { kind: 'hot', at: now });
      await send('xpoint_beam', pointBeam('hot', point));
    }
    // forget what is over, so it beams again when it comes back
    for (const key of this.sent.keys()) if (!live.has(key)) this.sent.delete(key);
    if (now - this.lastPrune >= HOT_WINDOW_MS) {
      this.lastPrune = now;
      await pruneActivity(this.store, now - 24 * HOT_WINDOW_MS);
      await pruneKnownDevices(this.store, now - KNOWN_DEVICE_MS);
    }
  }
}
