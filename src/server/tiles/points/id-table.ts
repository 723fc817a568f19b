import { hashText, type TextColumn } from './packed-text';

/**
 * Slot by id for one record kind: an open-addressing hash table (linear probing) of slot numbers
 * whose keys live in the ids column, so a million ids cost one typed array rather than a Map of a
 * million strings (and the bulk load hashes bytes, in the scan threads, not strings).
 */
export class IdTable {
  /** two numbers per bucket: slot + 1 (0 = empty) and the id's hash, side by side (one cache line). */
  private entries: Uint32Array;
  private mask: number;
  size = 0;

  constructor(
    private readonly ids: TextColumn,
    expected = 16,
  ) {
    const capacity = tableCapacity(expected);
    this.entries = new Uint32Array(capacity * 2);
    this.mask = capacity - 1;
  }

  get(id: string): number | undefined {
    const hash = hashText(id);
    const entries = this.entries;
    for (let b = hash & this.mask; ; b = (b + 1) & this.mask) {
      const entry = entries[2 * b] as number;
      if (entry === 0) return undefined;
      if (entries[2 * b + 1] === hash && this.ids.equals(entry - 1, id)) return entry - 1;
    }
  }

  /** Room for `count` entries without resizing. */
  reserve(count: number): void {
    const capacity = tableCapacity(count);
    if (capacity > this.mask + 1) this.resize(capacity);
  }

  /** Adds `slot`, whose id (with this hash: hashText of it) is not in the table yet. */
  insert(slot: number, hash: number): void {
    if ((this.size + 1) * 2 > this.mask + 1) this.resize((this.mask + 1) * 2);
    const entries = this.entries;
    let b = hash & this.mask;
    while (entries[2 * b] !== 0) b = (b + 1) & this.mask;
    entries[2 * b] = slot + 1;
    entries[2 * b + 1] = hash;
    this.size++;
  }

  /** Removes `slot`, found under the hash of its id. */
  delete(slot: number, hash: number): void {
    const entries = this.entries;
    const mask = this.mask;
    let b = hash & mask;
    for (; ; b = (b + 1) & mask) {
      const entry = entries[2 * b] as number;
      if (entry === 0) return;
      if (entry === slot + 1) break;
    }
    this.size--;
    // backward-shift deletion: move later entries of the probe run into the hole when they may
    for (let next = (b + 1) & mask; ; next = (next + 1) & mask) {
      const entry = entries[2 * next] as number;
      if (entry === 0) break;
      const home = (entries[2 * next + 1] as number) & mask;
      // the entry may move to b unless its home lies cyclically in (b, next]
      const fits = b <= next ? home <= b || home > next : home <= b && home > next;
      if (fits) {
        entries[2 * b] = entry;
        entries[2 * b + 1] = entries[2 * next + 1] as number;
        b = next;
      }
    }
    entries[2 * b] = 0;
    entries[2 * b + 1] = 0;
  }

  private resize(capacity: number): void {
    const old = this.entries;
    const entries = new Uint32Array(capacity * 2);
    const mask = capacity - 1;
    for (let i = 0; i < old.length; i += 2) {
      const entry = old[i] as number;
      if (entry === 0) continue;
      const hash = old[i + 1] as number;
      let b = hash & mask;
      while (entries[2 * b] !== 0) b = (b + 1) & mask;
      entries[2 * b] = entry;
      entries[2 * b + 1] = hash;
    }
    this.entries = entries;
    this.mask = mask;
  }
}

function tableCapacity(expected: number): number {
  let capacity = 16;
  while (capacity < expected * 2) capacity *= 2;
  return capacity;
}
