/**
 * When each shown post expires, and which expires next: a binary min-heap of (time, id) over a map of
 * each id's current time. A post whose expiry changes or goes is not looked for in the heap; its old
 * entry is skipped when it comes up (its time no longer matches the map's). Nothing writes when a post
 * expires, so the tile index asks this at every read and by a timer (service.ts), and an expired post
 * leaves the map at that moment.
 */
export class Expiries {
  private readonly at = new Map<string, number>();
  private times: number[] = [];
  private ids: string[] = [];

  get size(): number {
    return this.at.size;
  }

  /** Sets (or, with null or Infinity, clears) when `id` expires. */
  set(id: string, time: number | null): void {
    if (time === null || !Number.isFinite(time)) {
      this.at.delete(id);
      return;
    }
    if (this.at.get(id) === time) return;
    this.at.set(id, time);
    this.push(time, id);
    // stale entries are dropped as they surface; a heap twice the live size is compacted at once
    if (this.times.length > 2 * this.at.size + 1024) this.compact();
  }

  delete(id: string): void {
    this.at.delete(id);
  }

  /** The earliest expiry, or Infinity. */
  next(): number {
    this.dropStale();
    return this.times.length > 0 ? (this.times[0] as number) : Infinity;
  }

  /** Removes and answers the ids that expire at or before `now`. */
  takeDue(now: number): string[] {
    const due: string[] = [];
    for (;;) {
      this.dropStale();
      if (this.times.length === 0 || (this.times[0] as number) > now) return due;
      const id = this.ids[0] as string;
      this.pop();
      this.at.delete(id);
      due.push(id);
    }
  }

  private dropStale(): void {
    while (this.times.length > 0 && this.at.get(this.ids[0] as string) !== this.times[0]) this.pop();
  }

  private compact(): void {
    const entries = [...this.at];
    this.times = [];
    this.ids = [];
    for (const [id, time] of entries) this.push(time, id);
  }

  private push(time: number, id: string): void {
    const times = this.times;
    const ids = this.ids;
    let i = times.length;
    times.push(time);
    ids.push(id);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((times[parent] as number) <= time) break;
      times[i] = times[parent] as number;
      ids[i] = ids[parent] as string;
      i = parent;
    }
    times[i] = time;
    ids[i] = id;
  }

  private pop(): void {
    const times = this.times;
    const ids = this.ids;
    const lastTime = times.pop() as number;
    const lastId = ids.pop() as string;
    const n = times.length;
    if (n === 0) return;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      const child = right < n && (times[right] as number) < (times[left] as number) ? right : left;
      if ((times[child] as number) >= lastTime) break;
      times[i] = times[child] as number;
      ids[i] = ids[child] as string;
      i = child;
    }
    times[i] = lastTime;
    ids[i] = lastId;
  }
}
