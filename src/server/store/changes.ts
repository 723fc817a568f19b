import { sql } from 'kysely';
import type { Store } from './store';

/**
 * The store change feed reader. Triggers (migration 0003) append one point_changes row per insert,
 * update or delete of a point, an event or a post; each server process reads the rows after the last one it
 * saw, once per interval, through its one follower (follower.ts), which hands them to its subscribers
 * (search, point tiles, report beams), so each process sees every write whichever process — or
 * script — made it. No bus needed, nothing lost across a restart: an index rebuilt at start begins at
 * the feed position it read first.
 *
 * Subscribers get batches of changes and must re-read the current rows by id: a change row only says
 * "look again", so applying the same change twice, or out of order, is harmless.
 */

export type ChangeKind = 'point' | 'event' | 'post';

export interface StoreChange {
  seq: number;
  kind: ChangeKind;
  objectId: string;
  op: 'upsert' | 'delete';
  changedAt: number;
}

export interface ChangeReaderOptions {
  /** rows per read; default 10,000 (a larger backlog is read over several reads). */
  batchSize?: number;
  /** how long a gap in seq is watched for a late commit (PostgreSQL); default 30 s. */
  gapWatchMs?: number;
  now?: () => number;
}

/** One read of the feed: the changes to hand out, in feed order, and how many rows came back. */
export interface ChangeBatch {
  changes: StoreChange[];
  rows: number;
}

/** At most this many missing seqs are watched at once; a larger hole is a rolled-back bulk write. */
const MAX_GAPS = 1000;
/** Change rows deleted per statement when pruning. */
const PRUNE_BATCH = 20_000;

/** Reads the feed from a position on; it keeps no subscribers and no timer (the follower does). */
export class ChangeReader {
  readonly batchSize: number;
  private readonly gapWatchMs: number;
  private readonly now: () => number;
  private last = 0;
  /**
   * PostgreSQL hands out identity values at insert time but transactions commit in any order: a row
   * with a lower seq may appear after a higher one was read. Missing seqs are watched for a while.
   */
  private readonly gaps = new Map<number, number>();

  constructor(
    private readonly store: Store,
    options: ChangeReaderOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 10_000;
    this.gapWatchMs = options.gapWatchMs ?? 30_000;
    this.now = options.now ?? Date.now;
  }

  /** The newest feed position: read it before a full index build, then follow from it. */
  async latestSeq(): Promise<number> {
    const row = await this.store.db
      .selectFrom('point_changes')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .executeTakeFirst();
    return Number(row?.seq ?? 0);
  }

  /** The position of the last change read. */
  get position(): number {
    return this.last;
  }

  /** Continues after `seq`, forgetting the gaps watched so far. */
  seek(seq: number): void {
    this.last = seq;
    this.gaps.clear();
  }

  /** Reads the change rows after the position (and late commits into watched gaps), and moves on. */
  async read(): Promise<ChangeBatch> {
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
    const changes: StoreChange[] = [];
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
      changes.push({
        seq,
        kind: row.kind as ChangeKind,
        objectId: row.object_id,
        op: row.op === 'delete' ? 'delete' : 'upsert',
        changedAt: Number(row.changed_at),
      });
    }
    for (const [seq, since] of this.gaps) if (now - since > this.gapWatchMs) this.gaps.delete(seq);
    return { changes, rows: rows.length };
  }

  /**
   * Deletes change rows older than `before` (epoch ms), a batch at a time so that a million rows left
   * by a seed never hold the write lock for long. `stop` ends it between batches.
   */
  async prune(before: number, stop: () => boolean = () => false): Promise<void> {
    for (let round = 0; round < 1000; round++) {
      const result = await sql`delete from point_changes where seq in (
        select seq from point_changes where changed_at < ${before} limit ${PRUNE_BATCH})`.execute(
        this.store.db,
      );
      if (Number(result.numAffectedRows ?? 0) < PRUNE_BATCH || stop()) break;
    }
  }
}
