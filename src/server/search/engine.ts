import { ChangeFeed, type StoreChange } from '../store/changes';
import type { Store } from '../store/store';
import { MemorySearchIndex } from './index';
import { countDocs, readAllDocs, readDocsByIds } from './queries';

export interface SearchEngineOptions {
  /** change feed poll interval; default 500 ms (a write shows in search within about that). */
  pollMs?: number;
  log?: (message: string, details?: Record<string, unknown>) => void;
  onError?: (error: unknown) => void;
  now?: () => number;
}

export interface SearchBuildStats {
  documents: number;
  buildMs: number;
  startSeq: number;
}

/**
 * The search engine of one server process: the in-memory index built from the store at start, kept
 * current by the store change feed (store/changes.ts). Every process polls the same point_changes
 * rows, which triggers write in the same transaction as the change, so every process sees every
 * write — whichever process, script or psql session made it — within one poll interval.
 */
export class SearchEngine {
  /** when the last applied change was written, and when it became searchable. */
  lastApplied: { changedAt: number; visibleAt: number } | undefined;

  private constructor(
    readonly index: MemorySearchIndex,
    readonly feed: ChangeFeed,
    readonly stats: SearchBuildStats,
    private readonly store: Store,
    private readonly now: () => number,
  ) {}

  static async open(store: Store, options: SearchEngineOptions = {}): Promise<SearchEngine> {
    const now = options.now ?? Date.now;
    const started = performance.now();
    const feed = new ChangeFeed(store, {
      intervalMs: options.pollMs ?? 500,
      ...(options.onError ? { onError: options.onError } : {}),
      now,
    });
    // the feed position first: a change made during the build is applied again afterwards (re-reading
    // a row is idempotent), never lost
    const startSeq = await feed.latestSeq();
    const index = await MemorySearchIndex.build(
      (add) => readAllDocs(store, now(), add),
      () => new Promise<void>((resolve) => setImmediate(resolve)),
      Math.ceil((await countDocs(store)) * 1.02) + 64,
    );
    const stats = { documents: index.size, buildMs: Math.round(performance.now() - started), startSeq };
    options.log?.('search: index built', { ...stats });
    const engine = new SearchEngine(index, feed, stats, store, now);
    feed.subscribe('point', (changes) => engine.applyChanges('point', changes));
    feed.subscribe('event', (changes) => engine.applyChanges('event', changes));
    await feed.start(startSeq);
    return engine;
  }

  async close(): Promise<void> {
    await this.feed.stop();
    await this.index.settled();
  }

  private async applyChanges(kind: 'point' | 'event', changes: StoreChange[]): Promise<void> {
    const ids = [...new Set(changes.map((c) => c.objectId))];
    const docs = await readDocsByIds(this.store, kind, ids, this.now());
    this.index.apply(kind, ids, docs);
    const changedAt = changes.reduce((max, c) => Math.max(max, c.changedAt), 0);
    this.lastApplied = { changedAt, visibleAt: this.now() };
  }
}
