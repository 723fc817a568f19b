import { sql } from 'kysely';
import type { Store } from './store';

/**
 * The store change feed reader. Triggers (migration 0003) append one point_changes row per insert,
 * update or delete of a point or an event; every server process polls the rows after the last one it
 * saw and hands them to its subscribers (the point tiles, later the search index), so each process
 * sees every write whichever process — or script — made it. No bus needed, nothing lost across a
 * restart of the reader: an index rebuilt at start begins at the feed position it read first.
 *
 * Subscribers get batches of changes and must re-read the current rows by id: a change row only says
 * "look again", so applying the same change twice, or out of order, is harmless.
 */

export type ChangeKind = 'point' | 'event';

export interface StoreChange {
  seq: number;
  kind: ChangeKind;
  objectId: string;
  op: 'upsert' | 'delete';
  changedAt: number;
}

export type ChangeHandler = (changes: StoreChange[]) => void | Promise<void>;

export interface ChangeFeedOptions {
  /** between the end of one poll and the start of the next; default 500 ms. */
  intervalMs?: number;
  /** rows per poll; default 10,000 (a larger backlog is read over several polls, back to back). */
  batchSize?: number;
  /** change rows older than this are deleted by the feed; default one hour. */
  retentionMs?: number;
  /** how often to prune; default one minute. */
  pruneEveryMs?: number;
  /** how long a gap in seq is watched for a late commit (PostgreSQL); default 30 s. */
  gapWatchMs?: number;
  onError?: (error: unknown) => void;
  now?: () => number;
}

/** At most this many missing seqs are watched at once; a larger hole is a rolled-back bulk write. */
const MAX_GAPS = 1000;
/** Change rows deleted per statement when pruning. */
const PRUNE_BATCH = 20_000;

export class ChangeFeed {
  private readonly handlers = new Map<ChangeKind, Set<ChangeHandler>>();
  private readonly intervalMs: number;
  private readonly batchSize: number;
  private readonly retentionMs: number;
  private readonly pruneEveryMs: number;
  private readonly gapWatchMs: number;
  private readonly onError: (error: unknown) => void;
  private readonly now: () => number;
  private last = 0;
  /**
   * PostgreSQL hands out identity values at insert time but transactions commit in any order: a row
   * with a lower seq may appear after a higher one was read. Missing seqs are watched for a while.
   */
  private readonly gaps = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  private lastPrune = 0;

  constructor(
    private readonly store: Store,
    options: ChangeFeedOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 500;
    this.batchSize = options.batchSize ?? 10_000;
    this.retentionMs = options.retentionMs ?? 60 * 60 * 1000;
    this.pruneEveryMs = options.pruneEveryMs ?? 60 * 1000;
    this.gapWatchMs = options.gapWatchMs ?? 30_000;
    this.onError = options.onError ?? (() => {});
    this.now = options.now ?? Date.now;
  }

  /** The newest feed position: read it before a full index build, then start from it. */
  async latestSeq(): Promise<number> {
    const row = await this.store.db
      .selectFrom('point_changes')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .executeTakeFirst();
    return Number(row?.seq ?? 0);
  }

  /** The position of the last change handed out. */
  get position(): number {
    return this.last;
  }

  subscribe(kind: ChangeKind, handler: ChangeHandler): () => void {
    let set = this.handlers.get(kind);
    if (!set) {
      set = new Set();
      this.handlers.set(kind, set);
    }
    set.add(handler);
    return () => set.delete(handler);
  }

  /** Starts polling after `fromSeq` (default: the newest position now). */
  async start(fromSeq?: number): Promise<void> {
    if (!this.stopped) return;
    this.last = fromSeq ?? (await this.latestSeq());
    this.stopped = false;
    this.schedule(this.intervalMs);
  }

  /** Stops polling and waits for a poll in flight, so the store can close right after. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One poll: reads new change rows and hands them out; answers how many were read. */
  async poll(): Promise<number> {
    const gapSeqs = [...this.gaps.keys()];
    const rows = await this.store.db
      .selectFrom('point_changes')
      .select(['seq', 'kind', 'object_id', 'op', 'changed_at'])
      .where((eb) =>
        gapSeqs.length > 0
          ? eb.or([eb('seq', '>', this.last), eb('seq', 'in', gapSeqs)])
          : eb('seq', '>', this.last),
      )
      .orderBy('seq')
      .limit(this.batchSize)
      .execute();
    const byKind = new Map<ChangeKind, StoreChange[]>();
    const watchGaps = this.store.dialect === 'postgres';
    const now = this.now();
    for (const row of rows) {
      const seq = Number(row.seq);
      if (this.gaps.delete(seq)) {
        // a late commit filling a hole: deliver it, the cursor stays where it is
      } else if (seq > this.last) {
        if (watchGaps && seq > this.last + 1 && seq - this.last - 1 + this.gaps.size <= MAX_GAPS) {
          for (let missing = this.last + 1; missing < seq; missing++) this.gaps.set(missing, now);
        }
        this.last = seq;
      } else continue;
      const kind = row.kind as ChangeKind;
      let list = byKind.get(kind);
      if (!list) byKind.set(kind, (list = []));
      list.push({
        seq,
        kind,
        objectId: row.object_id,
        op: row.op === 'delete' ? 'delete' : 'upsert',
        changedAt: Number(row.changed_at),
      });
    }
    for (const [seq, since] of this.gaps) if (now - since > this.gapWatchMs) this.gaps.delete(seq);
    for (const [kind, changes] of byKind) {
      for (const handler of this.handlers.get(kind) ?? []) {
        try {
          await handler(changes);
        } catch (error) {
          this.onError(error);
        }
      }
    }
    if (now - this.lastPrune >= this.pruneEveryMs) {
      this.lastPrune = now;
      await this.prune(now - this.retentionMs);
    }
    return rows.length;
  }

  /**
   * Deletes change rows older than `before` (epoch ms), a batch at a time so that a million rows left
   * by a seed never hold the write lock for long.
   */
  async prune(before: number): Promise<void> {
    for (let round = 0; round < 1000; round++) {
      const result = await sql`delete from point_changes where seq in (
        select seq from point_changes where changed_at < ${before} limit ${PRUNE_BATCH})`.execute(
        this.store.db,
      );
      if (Number(result.numAffectedRows ?? 0) < PRUNE_BATCH || this.stopped) break;
    }
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.poll()
        .then((read) => this.schedule(read >= this.batchSize ? 0 : this.intervalMs))
        .catch((error: unknown) => {
          this.onError(error);
          this.schedule(this.intervalMs);
        });
    }, delayMs);
    this.timer.unref();
  }
}
