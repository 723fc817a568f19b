import { ChangeReader, type ChangeKind, type ChangeReaderOptions, type StoreChange } from './changes';
import type { Store } from './store';

/**
 * The one follower of the store change feed (changes.ts) in a server process: it reads the feed once
 * per interval, and at once when woken (`wake`: on PostgreSQL, by the notification of a commit), and
 * hands each batch to every subscriber (the search index, the point tiles, the report beams; the
 * social features' caches next). Before it, each of them polled point_changes on
 * its own timer, so a process read the same rows three times per interval.
 *
 * Each subscriber drains its own queue of batches, one at a time and in feed order, so a slow one
 * neither delays the others nor makes the follower read rows again; the follower only waits for a
 * subscriber that is more than a batch behind, so a stuck one cannot pile up the whole feed in memory.
 */

export interface ChangeSubscriber {
  /** names the subscriber in the log. */
  readonly name: string;
  /**
   * The changes of one kind after the subscription's position, in feed order; the next batch waits
   * for this call to end. The array is shared with the other subscribers: read it, never change it.
   */
  onChanges(kind: ChangeKind, changes: readonly StoreChange[]): void | Promise<void>;
}

export interface Subscription {
  /**
   * The feed position read when subscribing. A snapshot read after `subscribe` answered includes
   * every change up to it; the subscriber gets exactly the changes after it.
   */
  readonly position: number;
  /** Hands out the changes queued since `subscribe` (when held), then each batch as it is read. */
  start(): void;
  /** Hands out nothing more, and waits for the batch in hand. */
  close(): Promise<void>;
}

/**
 * What a follower tells of each change's way through the process, with the time (ms since the epoch)
 * of each step: how long a write takes to be read and applied (bench:cluster times it per stage).
 */
export interface ChangeFeedTrace {
  /** `wake()` was called: on PostgreSQL, a commit's notification arrived. */
  woken?(at: number): void;
  /** a read of the feed answered these changes, before they are handed out. */
  read?(changes: readonly StoreChange[], at: number): void;
  /** `subscriber` has applied these changes (its `onChanges` ended). */
  handled?(subscriber: string, changes: readonly StoreChange[], at: number): void;
}

export interface ChangeFollowerOptions extends ChangeReaderOptions {
  /** told of each wake, read and applied batch (see ChangeFeedTrace). */
  trace?: ChangeFeedTrace;
  /** between the end of one read and the start of the next; default 500 ms. */
  intervalMs?: number;
  /** change rows older than this are deleted; default one hour. */
  retentionMs?: number;
  /** how often to prune; default one minute. */
  pruneEveryMs?: number;
  /** a failed read (no subscriber), or a subscriber that threw. */
  onError?: (error: unknown, subscriber?: string) => void;
}

/** The changes of one batch, grouped by kind once for all subscribers. */
type Groups = ReadonlyArray<readonly [ChangeKind, StoreChange[]]>;

class FeedSubscription implements Subscription {
  position = 0;
  private readonly queue: Groups[] = [];
  private draining: Promise<void> | undefined;
  private started = false;
  private closed = false;

  constructor(
    private readonly subscriber: ChangeSubscriber,
    private readonly onError: (error: unknown, subscriber?: string) => void,
    private readonly forget: (subscription: FeedSubscription) => void,
    private readonly trace: ChangeFeedTrace | undefined,
    private readonly now: () => number,
  ) {}

  /** batches waiting to be handed out; a held subscription's do not count (they wait for its build). */
  get backlog(): number {
    return this.started ? this.queue.length : 0;
  }

  push(groups: Groups): void {
    if (this.closed) return;
    this.queue.push(groups);
    if (this.started) this.drain();
  }

  start(): void {
    if (this.started || this.closed) return;
    this.started = true;
    if (this.queue.length > 0) this.drain();
  }

  /** Resolves once the queue is empty (at once when nothing is being handed out). */
  idle(): Promise<void> {
    return this.draining ?? Promise.resolve();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.queue.length = 0;
    this.forget(this);
    await this.draining;
  }

  private drain(): void {
    this.draining ??= this.run().finally(() => {
      this.draining = undefined;
    });
  }

  private async run(): Promise<void> {
    for (let groups = this.queue.shift(); groups && !this.closed; groups = this.queue.shift()) {
      for (const [kind, all] of groups) {
        // only the first batches after subscribing, or a late commit, can reach back to the position
        const changes = (all[0]?.seq ?? 0) > this.position ? all : all.filter((c) => c.seq > this.position);
        if (changes.length === 0) continue;
        try {
          await this.subscriber.onChanges(kind, changes);
        } catch (error) {
          this.onError(error, this.subscriber.name);
        }
        this.trace?.handled?.(this.subscriber.name, changes, this.now());
      }
    }
  }
}

export class ChangeFollower {
  readonly reader: ChangeReader;
  private readonly subscriptions = new Set<FeedSubscription>();
  private readonly intervalMs: number;
  private readonly retentionMs: number;
  private readonly pruneEveryMs: number;
  private readonly onError: (error: unknown, subscriber?: string) => void;
  private readonly now: () => number;
  private readonly trace: ChangeFeedTrace | undefined;
  private starting: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private began = false;
  private polling = false;
  private wakeQueued = false;
  private stopped = false;
  private lastPrune = 0;

  constructor(store: Store, options: ChangeFollowerOptions = {}) {
    this.reader = new ChangeReader(store, options);
    this.intervalMs = options.intervalMs ?? 500;
    this.retentionMs = options.retentionMs ?? 60 * 60 * 1000;
    this.pruneEveryMs = options.pruneEveryMs ?? 60 * 1000;
    this.onError = options.onError ?? (() => {});
    this.now = options.now ?? Date.now;
    this.trace = options.trace;
  }

  /**
   * Registers a subscriber and answers its position (see Subscription). The first subscriber starts
   * the follower at the feed position of that moment. With `hold`, the changes wait for `start()`:
   * an index built from a snapshot subscribes, reads the snapshot, then starts, and so loses no change
   * made during the build and applies none twice.
   */
  async subscribe(subscriber: ChangeSubscriber, { hold = false } = {}): Promise<Subscription> {
    if (this.stopped) throw new Error('the change feed follower is stopped');
    // registered before the position is read: a batch read meanwhile is queued, and cut at the position
    const subscription = new FeedSubscription(
      subscriber,
      this.onError,
      (s) => this.subscriptions.delete(s),
      this.trace,
      this.now,
    );
    this.subscriptions.add(subscription);
    try {
      await (this.starting ??= this.begin().catch((error: unknown) => {
        this.starting = undefined;
        throw error;
      }));
      subscription.position = await this.reader.latestSeq();
    } catch (error) {
      await subscription.close();
      throw error;
    }
    if (!hold) subscription.start();
    return subscription;
  }

  /**
   * Follows the feed from a snapshot: subscribes held, lets `build` read the snapshot (it gets the
   * subscription, whose position the snapshot stands for), then hands `apply` what came after. A
   * failed build ends the subscription.
   */
  async followSnapshot<T>(
    name: string,
    build: (subscription: Subscription) => Promise<T>,
    apply: (built: T, kind: ChangeKind, changes: readonly StoreChange[]) => void | Promise<void>,
  ): Promise<T> {
    let built: { value: T } | undefined;
    const subscription = await this.subscribe(
      { name, onChanges: (kind, changes) => (built ? apply(built.value, kind, changes) : undefined) },
      { hold: true },
    );
    try {
      built = { value: await build(subscription) };
    } catch (error) {
      await subscription.close();
      throw error;
    }
    subscription.start();
    return built.value;
  }

  /**
   * One read of the feed, handed to every subscriber's queue; answers how many rows were read. Waits
   * first for any subscriber more than a batch behind.
   */
  async poll(): Promise<number> {
    for (const subscription of this.subscriptions) {
      if (subscription.backlog > 1) await subscription.idle();
    }
    const { changes, rows } = await this.reader.read();
    if (changes.length > 0) {
      this.trace?.read?.(changes, this.now());
      const byKind = new Map<ChangeKind, StoreChange[]>();
      for (const change of changes) {
        const list = byKind.get(change.kind);
        if (list) list.push(change);
        else byKind.set(change.kind, [change]);
      }
      const groups: Groups = [...byKind];
      for (const subscription of this.subscriptions) subscription.push(groups);
    }
    const now = this.now();
    if (now - this.lastPrune >= this.pruneEveryMs) {
      this.lastPrune = now;
      await this.reader.prune(now - this.retentionMs, () => this.stopped);
    }
    return rows;
  }

  /** Resolves once every subscriber has handled every batch read so far. */
  async settled(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.idle()));
  }

  /**
   * Stops reading, and waits for the read in flight and for the subscribers to handle what was read,
   * so the store can close right after. `poll()` still works by hand (tests, benchmarks).
   */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.starting?.catch(() => {});
    await this.running;
    await this.settled();
  }

  /**
   * Reads the feed now rather than at the next interval: a write was committed (on PostgreSQL the
   * change listener calls this on each notification, store/notify.ts). Bursts fold together: with a
   * read in flight, one more is queued for right after it, however many wakes come meanwhile. Before
   * the first subscriber, and after stop, it does nothing.
   */
  wake(): void {
    if (this.stopped || !this.began) return;
    this.trace?.woken?.(this.now());
    if (this.polling) this.wakeQueued = true;
    else this.schedule(0);
  }

  private async begin(): Promise<void> {
    this.reader.seek(await this.reader.latestSeq());
    this.began = true;
    this.schedule(this.intervalMs);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.polling = true;
      this.running = this.poll()
        .then((read) => {
          this.polling = false;
          const again = this.wakeQueued || read >= this.reader.batchSize;
          this.wakeQueued = false;
          this.schedule(again ? 0 : this.intervalMs);
        })
        .catch((error: unknown) => {
          this.polling = false;
          this.wakeQueued = false;
          this.onError(error);
          this.schedule(this.intervalMs);
        });
    }, delayMs);
    this.timer.unref();
  }
}
