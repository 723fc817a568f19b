import type { ChangeKind, StoreChange } from '../store/changes';
import type { ChangeFollower, Subscription } from '../store/follower';
import type { Store } from '../store/store';
import { MemorySearchIndex } from './index';
import { countDocs, readAllDocs, readDocsByIds } from './queries';

export interface SearchEngineOptions {
  /** the process's change feed follower (a write shows in search within about its interval). */
  follower: ChangeFollower;
  log?: (message: string, details?: Record<string, unknown>) => void;
  now?: () => number;
}

export interface SearchBuildStats {
  documents: number;
  buildMs: number;
  startSeq: number;
}

/**
 * The search engine of one server process: the in-memory index built from the store at start, kept
 * current by the store change feed (store/changes.ts) through the process's follower. Every process
 * reads the same point_changes rows, which triggers write in the same transaction as the change, so
 * every process sees every write — whichever process, script or psql session made it — within one
 * poll interval.
 */
export class SearchEngine {
  /** when the last applied change was written, and when it became searchable. */
  lastApplied: { changedAt: number; visibleAt: number } | undefined;

  private constructor(
    readonly index: MemorySearchIndex,
    readonly stats: SearchBuildStats,
    private readonly subscription: Subscription,
    private readonly store: Store,
    private readonly now: () => number,
  ) {}

  static async open(store: Store, options: SearchEngineOptions): Promise<SearchEngine> {
    const now = options.now ?? Date.now;
    const started = performance.now();
    return options.follower.followSnapshot(
      'search',
      async (subscription) => {
        const index = await MemorySearchIndex.build(
          (add) => readAllDocs(store, now(), add),
          () => new Promise<void>((resolve) => setImmediate(resolve)),
          Math.ceil((await countDocs(store)) * 1.02) + 64,
        );
        const stats = {
          documents: index.size,
          buildMs: Math.round(performance.now() - started),
          startSeq: subscription.position,
        };
        options.log?.('search: index built', { ...stats });
        return new SearchEngine(index, stats, subscription, store, now);
      },
      (engine, kind, changes) => engine.applyChanges(kind, changes),
    );
  }

  async close(): Promise<void> {
    await this.subscription.close();
    await this.index.settled();
  }

  private async applyChanges(kind: ChangeKind, changes: readonly StoreChange[]): Promise<void> {
    const ids = [...new Set(changes.map((c) => c.objectId))];
    const docs = await readDocsByIds(this.store, kind, ids, this.now());
    this.index.apply(kind, ids, docs);
    const changedAt = changes.reduce((max, c) => Math.max(max, c.changedAt), 0);
    this.lastApplied = { changedAt, visibleAt: this.now() };
  }
}
