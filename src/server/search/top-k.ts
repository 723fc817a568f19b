/**
 * The best `k` of a stream of scored items, smallest key first: a bounded binary max-heap, so a page
 * deep in the results costs O(n log k) over the n matches, never a sort of all of them.
 * Ties are broken by `order` (smaller first), so the same query always pages the same way.
 */
export class TopK {
  private readonly keys: Float64Array;
  private readonly orders: Float64Array;
  private readonly items: Int32Array;
  size = 0;

  constructor(readonly capacity: number) {
    const room = Math.max(1, capacity);
    this.keys = new Float64Array(room);
    this.orders = new Float64Array(room);
    this.items = new Int32Array(room);
  }

  get full(): boolean {
    return this.size >= this.capacity;
  }

  /** True when an item with this key and order would enter (the heap is not full, or it beats the worst). */
  accepts(key: number, order: number): boolean {
    if (this.capacity === 0) return false;
    if (this.size < this.capacity) return true;
    return this.before(key, order, this.keys[0] as number, this.orders[0] as number);
  }

  push(key: number, order: number, item: number): void {
    if (this.capacity === 0) return;
    if (this.size < this.capacity) {
      let i = this.size++;
      // sift up: the root holds the worst item
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.before(this.keys[parent] as number, this.orders[parent] as number, key, order)) break;
        this.move(parent, i);
        i = parent;
      }
      this.set(i, key, order, item);
      return;
    }
    if (!this.before(key, order, this.keys[0] as number, this.orders[0] as number)) return;
    // replace the root and sift down
    let i = 0;
    const n = this.size;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      let worst = left;
      if (
        right < n &&
        this.before(
          this.keys[left] as number,
          this.orders[left] as number,
          this.keys[right] as number,
          this.orders[right] as number,
        )
      )
        worst = right;
      if (!this.before(key, order, this.keys[worst] as number, this.orders[worst] as number)) break;
      this.move(worst, i);
      i = worst;
    }
    this.set(i, key, order, item);
  }

  /** The items, best first. */
  sorted(): { key: number; order: number; item: number }[] {
    const out: { key: number; order: number; item: number }[] = [];
    for (let i = 0; i < this.size; i++)
      out.push({
        key: this.keys[i] as number,
        order: this.orders[i] as number,
        item: this.items[i] as number,
      });
    out.sort((a, b) => a.key - b.key || a.order - b.order);
    return out;
  }

  /** a ranks before b */
  private before(keyA: number, orderA: number, keyB: number, orderB: number): boolean {
    return keyA < keyB || (keyA === keyB && orderA < orderB);
  }

  private move(from: number, to: number): void {
    this.keys[to] = this.keys[from] as number;
    this.orders[to] = this.orders[from] as number;
    this.items[to] = this.items[from] as number;
  }

  private set(i: number, key: number, order: number, item: number): void {
    this.keys[i] = key;
    this.orders[i] = order;
    this.items[i] = item;
  }
}
