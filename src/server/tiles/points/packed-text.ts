/**
 * Strings kept as UTF-8 bytes rather than a million JS strings: the ids and titles of the point
 * index. The bulk load hands over a few parts (one per scan range), each one buffer with its records'
 * bytes end to end and each record's end offset (read that way from the store, see scan.ts); the
 * column keeps those parts as they are (no copy) and decodes a string only when a tile or a leaves
 * page shows it. Later changes replace single slots: those strings are kept as they are.
 */

export interface PackedStrings {
  /** every string's UTF-8 bytes, end to end. */
  bytes: Uint8Array;
  /** ends[i]: where string i's bytes end (string i starts at ends[i - 1], or 0). */
  ends: Uint32Array;
}

interface Part {
  bytes: Buffer;
  ends: Uint32Array;
  /** the slot of the part's first string. */
  base: number;
}

export class TextColumn {
  /** the bulk-loaded parts, in slot order. */
  private parts: Part[] = [];
  private bulk = 0;
  /** strings set after the bulk load, by slot. */
  private readonly later = new Map<number, string>();

  /** Takes `parts` as the strings of slots 0, 1, 2, ... (in order). Call once, on an empty column. */
  load(parts: readonly PackedStrings[]): void {
    let base = 0;
    this.parts = parts.map(({ bytes, ends }) => {
      const part = { bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length), ends, base };
      base += ends.length;
      return part;
    });
    this.bulk = base;
  }

  get(slot: number): string {
    const later = this.later.size === 0 ? undefined : this.later.get(slot);
    if (later !== undefined) return later;
    if (slot >= this.bulk) return '';
    const part = this.partOf(slot);
    const i = slot - part.base;
    return part.bytes.toString('utf8', i === 0 ? 0 : (part.ends[i - 1] as number), part.ends[i] as number);
  }

  set(slot: number, value: string): void {
    this.later.set(slot, value);
  }

  /** Whether slot holds `value`, without decoding it when it can. */
  equals(slot: number, value: string): boolean {
    const later = this.later.get(slot);
    if (later !== undefined || slot >= this.bulk) return (later ?? '') === value;
    const part = this.partOf(slot);
    const i = slot - part.base;
    const start = i === 0 ? 0 : (part.ends[i - 1] as number);
    const end = part.ends[i] as number;
    if (end - start === value.length) {
      // ASCII (every id the store makes): compare byte by byte
      let k = 0;
      while (k < value.length && value.charCodeAt(k) === part.bytes[start + k]) k++;
      if (k === value.length) return true;
      if (value.charCodeAt(k) < 0x80) return false;
    }
    return this.get(slot) === value;
  }

  /** The bulk part holding slot (< bulk): a few parts, searched from the last. */
  private partOf(slot: number): Part {
    const parts = this.parts;
    let p = parts.length - 1;
    while ((parts[p] as Part).base > slot) p--;
    return parts[p] as Part;
  }
}

/** FNV-1a over bytes [start, end), its bits mixed (murmur3's finaliser) for tables that mask them. */
export function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ (bytes[i] as number), 0x01000193);
  return mix(h);
}

/** hashBytes of the UTF-8 encoding of `value`. */
export function hashText(value: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 0x80) {
      const bytes = Buffer.from(value, 'utf8');
      return hashBytes(bytes, 0, bytes.length);
    }
    h = Math.imul(h ^ c, 0x01000193);
  }
  return mix(h);
}

function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** hashBytes of each string of `packed`. */
export function hashPacked(packed: PackedStrings): Uint32Array {
  const { bytes, ends } = packed;
  const hashes = new Uint32Array(ends.length);
  let start = 0;
  for (let i = 0; i < ends.length; i++) {
    const end = ends[i] as number;
    hashes[i] = hashBytes(bytes, start, end);
    start = end;
  }
  return hashes;
}

/** Builds PackedStrings one string at a time (for rows that arrive as JS strings). */
export class PackedStringsBuilder {
  private bytes = Buffer.allocUnsafeSlow(4096);
  private ends = new Uint32Array(256);
  private used = 0;
  count = 0;

  push(value: string): void {
    // at most 3 bytes per UTF-16 unit
    const room = this.used + value.length * 3;
    if (room > this.bytes.length) {
      const next = Buffer.allocUnsafeSlow(Math.max(room, this.bytes.length * 2));
      next.set(this.bytes.subarray(0, this.used));
      this.bytes = next;
    }
    this.used += this.bytes.write(value, this.used, 'utf8');
    if (this.count === this.ends.length) {
      const next = new Uint32Array(this.ends.length * 2);
      next.set(this.ends);
      this.ends = next;
    }
    this.ends[this.count++] = this.used;
  }

  finish(): PackedStrings {
    return { bytes: this.bytes.subarray(0, this.used), ends: this.ends.slice(0, this.count) };
  }
}
