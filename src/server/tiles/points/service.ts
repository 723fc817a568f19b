import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { LAYER_GROUPS, type ClusterLeavesPage, type LayerGroup } from '../../../shared/map/contract';
import type { ChangeKind, StoreChange } from '../../store/changes';
import type { ChangeFollower, Subscription } from '../../store/follower';
import type { Store } from '../../store/store';
import { PointTileIndex } from './index';
import { ByteLru } from './lru';
import { readByIds, readSnapshot } from './queries';

/** Encoded tiles kept, by bytes (raw and gzipped together). */
const CACHE_BYTES = 64 * 1024 * 1024;
/** How often ended events are swept off the map. */
const SWEEP_EVERY_MS = 60_000;
/** setTimeout's longest delay; a post expiring later is looked at again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface EncodedTile {
  raw: Buffer;
  gzip: Buffer | undefined;
}

export interface TileAnswer {
  /** null: the tile is empty (answered 204). */
  tile: EncodedTile | null;
  etag: string;
}

export interface PointTilesOptions {
  /** the process's change feed follower. */
  follower: ChangeFollower;
  log?: (message: string, details?: Record<string, unknown>) => void;
  now?: () => number;
  /** SQLite: ranges of the start-up scan read at once (scan-threads.ts); default: the cores, at most 4. */
  scanThreads?: number;
  /** SQLite: seq values per scan thread below which fewer threads are used; default 100,000. */
  scanMinRowsPerThread?: number;
}

export interface BuildStats {
  records: number;
  buildMs: number;
  startSeq: number;
}

/**
 * The point tiles of one server process: the index built from the store at start, kept current by the
 * store change feed, and an LRU of encoded tiles keyed by the content version of the groups asked for.
 */
export class PointTiles {
  /** ETags differ between processes: versions are per process (a sweep bumps them locally). */
  private readonly boot = randomBytes(4).toString('hex');
  private readonly cache = new ByteLru<EncodedTile | null>(CACHE_BYTES, (tile) =>
    tile ? tile.raw.length + (tile.gzip?.length ?? 0) : 0,
  );
  private sweepTimer: NodeJS.Timeout | undefined;
  /** fires when the next post expires (see expireDue). */
  private expiryTimer: NodeJS.Timeout | undefined;
  private expiryTimerAt = Infinity;
  private closed = false;
  /** when the last applied change was written, and when it became visible (for the freshness figure). */
  lastApplied: { changedAt: number; visibleAt: number } | undefined;

  private constructor(
    readonly index: PointTileIndex,
    readonly stats: BuildStats,
    private readonly subscription: Subscription,
    private readonly store: Store,
    private readonly now: () => number,
  ) {}

  /** Builds the index from the store and starts following the change feed. */
  static async open(store: Store, options: PointTilesOptions): Promise<PointTiles> {
    const now = options.now ?? Date.now;
    const started = performance.now();
    const tiles = await options.follower.followSnapshot(
      'point tiles',
      async (subscription) => {
        const startSeq = subscription.position;
        const index = new PointTileIndex(startSeq);
        // sized once, to the snapshot (plus 2 %): growing by doubling would leave up to half unused
        index.load(
          await readSnapshot(store, now(), {
            threads: options.scanThreads,
            minRowsPerThread: options.scanMinRowsPerThread,
            log: options.log,
          }),
        );
        index.buildAll();
        const stats = { records: index.count, buildMs: Math.round(performance.now() - started), startSeq };
        options.log?.('point tiles: index built', { ...stats });
        return new PointTiles(index, stats, subscription, store, now);
      },
      (built, kind, changes) => built.applyChanges(kind, changes),
    );
    const index = tiles.index;
    tiles.sweepTimer = setInterval(() => index.sweep(now()), SWEEP_EVERY_MS);
    tiles.sweepTimer.unref();
    tiles.armExpiryTimer();
    return tiles;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    if (this.expiryTimer) clearTimeout(this.expiryTimer);
    await this.subscription.close();
  }

  /**
   * Takes expired posts off the map. Nothing is written when a post expires, so this runs before every
   * read (one comparison when nothing is due: the answer is exact whatever the timer's lateness) and
   * from a timer set for the next expiry, so the index does not keep expired posts until someone looks.
   */
  private expireDue(): void {
    const now = this.now();
    if (this.index.nextExpiry() > now) return;
    const gone = this.index.expireDue(now);
    if (gone > 0) this.lastApplied = { changedAt: now, visibleAt: this.now() };
    this.armExpiryTimer();
  }

  private armExpiryTimer(): void {
    if (this.closed) return;
    const next = this.index.nextExpiry();
    if (next === this.expiryTimerAt) return;
    if (this.expiryTimer) clearTimeout(this.expiryTimer);
    this.expiryTimer = undefined;
    this.expiryTimerAt = next;
    if (!Number.isFinite(next)) return;
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, next - this.now()));
    this.expiryTimer = setTimeout(() => {
      this.expiryTimer = undefined;
      this.expiryTimerAt = Infinity;
      this.expireDue();
      this.armExpiryTimer();
    }, delay);
    this.expiryTimer.unref();
  }

  /** The tile for z/x/y and these groups, encoded (and gzipped when asked) once per content version. */
  /** The ETag of the tile's current content: known without encoding it, so a 304 costs nothing. */
  etag(z: number, x: number, y: number, groups: readonly LayerGroup[]): string {
    this.expireDue();
    const version = this.index.versionOf(groups);
    return `"${this.boot}-${version}-${groups.length === LAYER_GROUPS.length ? 'all' : groups.join('.')}-${z}-${x}-${y}"`;
  }

  tile(z: number, x: number, y: number, groups: readonly LayerGroup[], gzip: boolean): TileAnswer {
    const etag = this.etag(z, x, y, groups);
    let tile = this.cache.get(etag);
    if (tile === undefined) {
      const bytes = this.index.tile(z, x, y, groups);
      tile = bytes
        ? // a copy: the encoder's buffer is larger than the tile, and the cache keeps what it holds
          { raw: Buffer.from(bytes), gzip: undefined }
        : null;
      this.cache.set(etag, tile);
    }
    if (tile && gzip && !tile.gzip) {
      tile.gzip = gzipSync(tile.raw, { level: 6 });
      this.cache.set(etag, tile);
    }
    return { tile, etag };
  }

  leaves(group: LayerGroup, clusterId: number, offset: number, limit: number): ClusterLeavesPage | null {
    this.expireDue();
    return this.index.leaves(group, clusterId, offset, limit);
  }

  expansionZoom(group: LayerGroup, clusterId: number): number | null {
    this.expireDue();
    return this.index.expansionZoom(group, clusterId);
  }

  private async applyChanges(kind: ChangeKind, changes: readonly StoreChange[]): Promise<void> {
    const ids = [...new Set(changes.map((c) => c.objectId))];
    const rows = await readByIds(this.store, kind, ids);
    const seq = changes.reduce((max, c) => Math.max(max, c.seq), 0);
    this.index.apply(kind, ids, rows, seq, this.now());
    const changedAt = changes.reduce((max, c) => Math.max(max, c.changedAt), 0);
    this.lastApplied = { changedAt, visibleAt: this.now() };
    // a post written with an expiry (or renewed) may now be the next to expire
    if (kind === 'post') this.armExpiryTimer();
  }
}
