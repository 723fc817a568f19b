import type { Store } from '../../store/store';

/** How long one answer of the store counts for every ping (and how often the store is asked at most). */
export const STORE_PROBE_FRESH_MS = 1_000;

/**
 * Whether the store answers, asked at most once per STORE_PROBE_FRESH_MS however many pings arrive:
 * every open tab pings every 27 s, so 100,000 tabs are ~3,700 pings a second, and each asking the
 * store would put that load on it for a yes it gave a moment ago. Pings that arrive while the store is
 * being asked wait for that one answer (one query in flight, never a queue of them). A failed answer
 * is kept as long as a good one, so a dead store is not hammered either.
 */
export class StoreProbe {
  private answer: { at: number; ok: boolean } | null = null;
  private asking: Promise<boolean> | null = null;

  constructor(
    private readonly store: Pick<Store, 'ping'>,
    private readonly freshMs = STORE_PROBE_FRESH_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  ok(): Promise<boolean> {
    const { answer } = this;
    if (answer !== null && this.now() - answer.at < this.freshMs) return Promise.resolve(answer.ok);
    if (this.asking !== null) return this.asking;
    const asking = this.store
      .ping()
      .catch(() => false)
      .then((ok) => {
        this.answer = { at: this.now(), ok };
        return ok;
      })
      .finally(() => {
        this.asking = null;
      });
    this.asking = asking;
    return asking;
  }
}
