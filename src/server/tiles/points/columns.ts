import { LAYER_GROUPS, type LayerGroup } from '../../../shared/map/contract';
import { IdTable } from './id-table';
import { worldX, worldY } from './morton';
import { WordTable } from './words';
import { TextColumn, hashText } from './packed-text';
import type { RecordChunk, RecordKind } from './scan';

/** One point, event or post as the tiles need it (the columns the loader reads). */
export interface PointRecord {
  id: string;
  group: LayerGroup;
  type: string;
  subtype: string;
  title: string;
  lat: number;
  lon: number;
  beamtype: number;
  promo: number;
}

export type { RecordKind };

/** Group number stored for a free slot. */
export const FREE = 255;
const GROUP_NUMBER = new Map<LayerGroup, number>(LAYER_GROUPS.map((g, i) => [g, i]));

export function groupNumber(group: LayerGroup): number {
  return GROUP_NUMBER.get(group) as number;
}

/**
 * Every visible point, event and post in column arrays indexed by slot: numbers in typed arrays, ids and
 * titles as packed UTF-8 (packed-text.ts: decoded when a tile shows them), repeated category names
 * interned once, slots found by id through a hash table over the ids column (id-table.ts). A deleted
 * slot is marked FREE and reused. Slots are stable: the per-group cluster indexes refer to them.
 */
export class PointColumns {
  capacity: number;
  /** one past the highest slot ever used. */
  size = 0;
  lon = new Float64Array(0);
  lat = new Float64Array(0);
  /** Web Mercator world position in [0, 1). */
  wx = new Float64Array(0);
  wy = new Float64Array(0);
  group = new Uint8Array(0);
  type = new Uint32Array(0);
  subtype = new Uint32Array(0);
  beam = new Int32Array(0);
  promo = new Uint8Array(0);
  readonly ids = new TextColumn();
  readonly titles = new TextColumn();
  /** interned category names, by number. */
  private readonly wordTable = new WordTable();
  readonly words = this.wordTable.words;
  private readonly slots: Record<RecordKind, IdTable> = {
    point: new IdTable(this.ids),
    event: new IdTable(this.ids),
    post: new IdTable(this.ids),
  };
  private readonly free: number[] = [];

  constructor(capacity = 1024) {
    this.capacity = 0;
    this.allocate(Math.max(16, capacity));
  }

  /** Fresh, empty columns of this capacity. */
  private allocate(capacity: number): void {
    this.capacity = capacity;
    this.lon = new Float64Array(capacity);
    this.lat = new Float64Array(capacity);
    this.wx = new Float64Array(capacity);
    this.wy = new Float64Array(capacity);
    this.group = new Uint8Array(capacity).fill(FREE);
    this.type = new Uint32Array(capacity);
    this.subtype = new Uint32Array(capacity);
    this.beam = new Int32Array(capacity);
    this.promo = new Uint8Array(capacity);
  }

  get count(): number {
    return this.slots.point.size + this.slots.event.size + this.slots.post.size;
  }

  slotOf(kind: RecordKind, id: string): number | undefined {
    return this.slots[kind].get(id);
  }

  /**
   * Fills the empty columns with the chunks' records, in order from slot 0, and answers the slot of
   * each chunk's first record. Ids must be unique per kind (the store's keys are).
   */
  load(chunks: readonly RecordChunk[], headroom = 1.02): number[] {
    if (this.size !== 0) throw new Error('PointColumns.load fills empty columns only');
    const total = chunks.reduce((n, chunk) => n + chunk.count, 0);
    if (total > this.capacity) this.allocate(Math.ceil(total * headroom) + 1024);
    this.ids.load(chunks.map((chunk) => chunk.ids));
    this.titles.load(chunks.map((chunk) => chunk.titles));
    const starts: number[] = [];
    let at = 0;
    for (const chunk of chunks) {
      starts.push(at);
      const n = chunk.count;
      this.lon.set(chunk.lon, at);
      this.lat.set(chunk.lat, at);
      this.wx.set(chunk.wx, at);
      this.wy.set(chunk.wy, at);
      this.group.set(chunk.group, at);
      this.beam.set(chunk.beam, at);
      this.promo.set(chunk.promo, at);
      // the chunk's own word numbers, renumbered into ours
      const words = chunk.words.map((word) => this.wordTable.numberOf(word));
      for (let i = 0; i < n; i++) {
        this.type[at + i] = words[chunk.type[i] as number] as number;
        this.subtype[at + i] = words[chunk.subtype[i] as number] as number;
      }
      const table = this.slots[chunk.kind];
      table.reserve(table.size + n);
      const hashes = chunk.idHashes;
      for (let i = 0; i < n; i++) table.insert(at + i, hashes[i] as number);
      at += n;
    }
    this.size = at;
    return starts;
  }

  /** Adds or replaces a record; answers its slot and whether its group or position changed. */
  put(kind: RecordKind, record: PointRecord): { slot: number; moved: boolean; oldGroup: number } {
    const existing = this.slots[kind].get(record.id);
    const wx = worldX(record.lon);
    const wy = worldY(record.lat);
    const groupNo = groupNumber(record.group);
    let slot: number;
    let moved = true;
    let oldGroup = FREE;
    if (existing !== undefined) {
      slot = existing;
      oldGroup = this.group[slot] as number;
      moved = oldGroup !== groupNo || this.wx[slot] !== wx || this.wy[slot] !== wy;
    } else {
      slot = this.free.pop() ?? this.grow();
      this.ids.set(slot, record.id);
      this.slots[kind].insert(slot, hashText(record.id));
    }
    this.lon[slot] = record.lon;
    this.lat[slot] = record.lat;
    this.wx[slot] = wx;
    this.wy[slot] = wy;
    this.group[slot] = groupNo;
    this.type[slot] = this.wordTable.numberOf(record.type);
    this.subtype[slot] = this.wordTable.numberOf(record.subtype);
    this.beam[slot] = record.beamtype | 0;
    this.promo[slot] = record.promo ? 1 : 0;
    this.titles.set(slot, record.title);
    return { slot, moved, oldGroup };
  }

  /** Removes a record; answers the group it was in, or FREE when there was none. */
  remove(kind: RecordKind, id: string): number {
    const slot = this.slots[kind].get(id);
    if (slot === undefined) return FREE;
    const groupNo = this.group[slot] as number;
    this.slots[kind].delete(slot, hashText(id));
    this.group[slot] = FREE;
    this.ids.set(slot, '');
    this.titles.set(slot, '');
    this.free.push(slot);
    return groupNo;
  }

  /** The slots of one group, in slot order. */
  slotsOf(groupNo: number): Uint32Array {
    let n = 0;
    for (let s = 0; s < this.size; s++) if (this.group[s] === groupNo) n++;
    const out = new Uint32Array(n);
    let k = 0;
    for (let s = 0; s < this.size; s++) if (this.group[s] === groupNo) out[k++] = s;
    return out;
  }

  /** The slots of every group (by group number), in slot order: one pass over the columns. */
  slotsByGroup(groups: number): Uint32Array[] {
    const counts = new Uint32Array(groups);
    for (let s = 0; s < this.size; s++) {
      const g = this.group[s] as number;
      if (g < groups) counts[g] = (counts[g] as number) + 1;
    }
    const out = Array.from(counts, (n) => new Uint32Array(n));
    const fill = new Uint32Array(groups);
    for (let s = 0; s < this.size; s++) {
      const g = this.group[s] as number;
      if (g >= groups) continue;
      const at = fill[g] as number;
      (out[g] as Uint32Array)[at] = s;
      fill[g] = at + 1;
    }
    return out;
  }

  private grow(): number {
    if (this.size === this.capacity) {
      const capacity = this.capacity * 2;
      const resize = <T extends Float64Array | Uint8Array | Uint32Array | Int32Array>(
        old: T,
        make: (n: number) => T,
      ) => {
        const next = make(capacity);
        next.set(old);
        return next;
      };
      this.lon = resize(this.lon, (n) => new Float64Array(n));
      this.lat = resize(this.lat, (n) => new Float64Array(n));
      this.wx = resize(this.wx, (n) => new Float64Array(n));
      this.wy = resize(this.wy, (n) => new Float64Array(n));
      this.group = resize(this.group, (n) => new Uint8Array(n).fill(FREE));
      this.type = resize(this.type, (n) => new Uint32Array(n));
      this.subtype = resize(this.subtype, (n) => new Uint32Array(n));
      this.beam = resize(this.beam, (n) => new Int32Array(n));
      this.promo = resize(this.promo, (n) => new Uint8Array(n));
      this.capacity = capacity;
    }
    return this.size++;
  }
}
