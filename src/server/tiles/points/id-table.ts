import { hashText, type TextColumn } from './packed-text';

/**
 * Slot by id for one record kind: an open-addressing hash table (linear probing) of slot numbers
 * whose keys live in the ids column, so a million ids cost two typed arrays rather than a Map of a
 * million strings (and building it hashes bytes, not strings).
 */
export class IdTable {
  /** slot + 1 per bucket; 0 = empty. */
  private buckets: Int32Array;
  private hashes: Uint32Array;
  private mask: number;
  size = 0;

  constructor(
    private readonly ids: TextColumn,
    expected = 16,
  ) {
    const capacity = tableCapacity(expected);
    this.buckets = new Int32Array(capacity);
    this.hashes = new Uint32Array(capacity);
    this.mask = capacity - 1;
  }

  get(id: string): number | undefined {
    const hash = hashText(id);
    for (let b = hash & this.mask; ; b = (b + 1) & this.mask) {
      const entry = this.buckets[b] as number;
      if (entry === 0) return undefined;
      if (this.hashes[b] === hash && this.ids.equals(entry - 1, id)) return entry - 1;
    }
  }

  /** Room for `count` entries without resizing. */
  reserve(count: number): void {
    const capacity = tableCapacity(count);
    if (capacity > this.buckets.length) this.resize(capacity);
  }

  /** Adds `slot`, whose id (with this hash: TextColumn.hash) is not in the table yet. */
  insert(slot: number, hash: number): void {
    if ((this.size + 1) * 2 > this.buckets.length) this.resize(this.buckets.length * 2);
    let b = hash & this.mask;
    while (this.buckets[b] !== 0) b = (b + 1) & this.mask;
    this.buckets[b] = slot + 1;
    this.hashes[b] = hash;
    this.size++;
  }

  /** Removes `slot`, found under the hash of its id. */
  delete(slot: number, hash: number): void {
    let b = hash & this.mask;
    for (; ; b = (b + 1) & this.mask) {
      const entry = this.buckets[b] as number;
      if (entry === 0) return;
      if (entry === slot + 1) break;
    }
    this.size--;
    // backward-shift deletion: move later entries of the probe run into the hole when they may
    for (let next = (b + 1) & this.mask; ; next = (next + 1) & this.mask) {
      const entry = this.buckets[next] as number;
      if (entry === 0) break;
      const home = (this.hashes[next] as number) & this.mask;
      // the entry may move to b when b lies cyclically in [home, next)
      const fits = b <= next ? home <= b || home > next : home <= b && home > next;
      if (fits) {
        this.buckets[b] = entry;
        this.hashes[b] = this.hashes[next] as number;
        b = next;
      }
    }
    this.buckets[b] = 0;
    this.hashes[b] = 0;
  }

  private resize(capacity: number): void {
    const { buckets, hashes } = this;
    this.buckets = new Int32Array(capacity);
    this.hashes = new Uint32Array(capacity);
    this.mask = capacity - 1;
    for (let i = 0; i < buckets.length; i++) {
      const entry = buckets[i] as number;
      if (entry === 0) continue;
      const hash = hashes[i] as number;
      let b = hash & this.mask;
      while (this.buckets[b] !== 0) b = (b + 1) & this.mask;
      this.buckets[b] = entry;
      this.hashes[b] = hash;
    }
  }
}

function tableCapacity(expected: number): number {
  let capacity = 16;
  while (capacity < expected * 2) capacity *= 2;
  return capacity;
}
