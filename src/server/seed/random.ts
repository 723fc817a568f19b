/**
 * A small seeded pseudo-random generator for the demo data: sfc32 (Chris Doty-Humphrey's Small Fast
 * Counting generator), seeded through splitmix32. Every choice the generator makes flows from one
 * integer seed, so the same seed gives the same data. Independent streams are forked by label, so
 * changing how one part of the data is drawn does not shift every other part.
 */

/** Mixes a 32-bit integer into a well-distributed 32-bit integer (splitmix32 / murmur3 finaliser). */
export function mix32(value: number): number {
  let z = (value + 0x9e3779b9) | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/** A 32-bit hash of a string label (FNV-1a, then mixed). */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return mix32(h);
}

/** A 32-bit hash of (seed, label, index): random-looking, but stable for each input. */
export function hash3(seed: number, label: number, index: number): number {
  return mix32(mix32(mix32(seed ^ label) ^ index) + index);
}

export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    const s = seed >>> 0;
    this.a = mix32(s);
    this.b = mix32(s ^ 0x5bd1e995);
    this.c = mix32(s + 0x27d4eb2f);
    this.d = 1;
    // warm up: the first outputs of a fresh sfc32 state are poorly mixed
    for (let i = 0; i < 15; i++) this.nextUint32();
  }

  /** A new, independent stream derived from this generator's seed material and a label. */
  static fork(seed: number, label: string): Random {
    return new Random(mix32((seed >>> 0) ^ hashString(label)));
  }

  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** A float in [min, max). */
  float(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** One item, with probability proportional to its weight. For repeated draws use `weightedPicker`. */
  weighted<T>(items: readonly T[], weights: readonly number[]): T {
    return weightedPicker(items, weights)(this);
  }

  /** Shuffles in place (Fisher-Yates) and returns the array. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const tmp = items[i] as T;
      items[i] = items[j] as T;
      items[j] = tmp;
    }
    return items;
  }

  /** k distinct integers from [0, n), in draw order (k is capped at n). */
  distinct(k: number, n: number): number[] {
    const count = Math.min(k, n);
    if (count * 3 > n) return this.shuffle(Array.from({ length: n }, (_, i) => i)).slice(0, count);
    const seen = new Set<number>();
    const out: number[] = [];
    while (out.length < count) {
      const value = Math.floor(this.next() * n);
      if (!seen.has(value)) {
        seen.add(value);
        out.push(value);
      }
    }
    return out;
  }

  /** A value from a roughly normal distribution (sum of three uniforms), clamped to [min, max]. */
  bell(mean: number, spread: number, min = -Infinity, max = Infinity): number {
    const u = (this.next() + this.next() + this.next() - 1.5) / 1.5;
    return Math.min(max, Math.max(min, mean + u * spread));
  }
}

/** A picker over fixed weights: O(log n) per draw after an O(n) setup. */
export function weightedPicker<T>(items: readonly T[], weights: readonly number[]): (rng: Random) => T {
  if (items.length === 0 || items.length !== weights.length) throw new RangeError('weights must match items');
  const cumulative = new Float64Array(items.length);
  let total = 0;
  for (let i = 0; i < items.length; i++) {
    const w = weights[i] ?? 0;
    if (!(w >= 0)) throw new RangeError('weights must be non-negative numbers');
    total += w;
    cumulative[i] = total;
  }
  if (total <= 0) throw new RangeError('weights must not all be zero');
  return (rng) => {
    const target = rng.next() * total;
    let lo = 0;
    let hi = items.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((cumulative[mid] as number) > target) hi = mid;
      else lo = mid + 1;
    }
    return items[lo] as T;
  };
}

const ID_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * A deterministic, URL-safe id: four random-looking base-36 characters drawn from (seed, kind, n),
 * then n in base 36. Unique per (kind, n) because the random part has a fixed length; stable for a
 * seed; and it says nothing about the supertype (addresses carry that in their prefix).
 */
export function makeId(seed: number, kind: string, n: number): string {
  let h = hash3(seed, hashString(kind), n);
  let head = '';
  for (let i = 0; i < 4; i++) {
    head += ID_ALPHABET[h % 36];
    h = Math.floor(h / 36);
  }
  return head + n.toString(36);
}

/** A deterministic id in GUID form (posts carry GUIDs, social §3). */
export function makeGuid(rng: Random): string {
  const hex = (n: number) => n.toString(16).padStart(8, '0');
  const a = hex(rng.nextUint32());
  const b = hex(rng.nextUint32());
  const c = hex(rng.nextUint32());
  const d = hex(rng.nextUint32());
  const variant = ((parseInt(c[0] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${a}-${b.slice(0, 4)}-4${b.slice(5, 8)}-${variant}${c.slice(1, 4)}-${c.slice(4)}${d}`;
}
