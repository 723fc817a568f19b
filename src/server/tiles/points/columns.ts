import { LAYER_GROUPS, type LayerGroup } from '../../../shared/map/contract';
import { worldX, worldY } from './morton';

/** One point or event as the tiles need it (the columns the loader reads). */
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

export type RecordKind = 'point' | 'event';

/** Group number stored for a free slot. */
export const FREE = 255;
const GROUP_NUMBER = new Map<LayerGroup, number>(LAYER_GROUPS.map((g, i) => [g, i]));

export function groupNumber(group: LayerGroup): number {
  return GROUP_NUMBER.get(group) as number;
}

/**
 * Every visible point and event in column arrays indexed by slot: numbers in typed arrays, strings in
 * two plain arrays, repeated category names interned once. A deleted slot is marked FREE and reused.
 * Slots are stable: the per-group cluster indexes refer to them.
 */
export class PointColumns {
  capacity: number;
  /** one past the highest slot ever used. */
  size = 0;
  lon: Float64Array;
  lat: Float64Array;
  /** Web Mercator world position in [0, 1). */
  wx: Float64Array;
  wy: Float64Array;
  group: Uint8Array;
  type: Uint32Array;
  subtype: Uint32Array;
  beam: Int32Array;
  promo: Uint8Array;
  ids: string[] = [];
  titles: string[] = [];
  /** interned category names, by number. */
  readonly words: string[] = [''];
  private readonly wordNumbers = new Map<string, number>([['', 0]]);
  private readonly slots: Record<RecordKind, Map<string, number>> = { point: new Map(), event: new Map() };
  private readonly free: number[] = [];

  constructor(capacity = 1024) {
    this.capacity = Math.max(16, capacity);
    this.lon = new Float64Array(this.capacity);
    this.lat = new Float64Array(this.capacity);
    this.wx = new Float64Array(this.capacity);
    this.wy = new Float64Array(this.capacity);
    this.group = new Uint8Array(this.capacity).fill(FREE);
    this.type = new Uint32Array(this.capacity);
    this.subtype = new Uint32Array(this.capacity);
    this.beam = new Int32Array(this.capacity);
    this.promo = new Uint8Array(this.capacity);
  }

  get count(): number {
    return this.slots.point.size + this.slots.event.size;
  }

  slotOf(kind: RecordKind, id: string): number | undefined {
    return this.slots[kind].get(id);
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
      this.slots[kind].set(record.id, slot);
      this.ids[slot] = record.id;
    }
    this.lon[slot] = record.lon;
    this.lat[slot] = record.lat;
    this.wx[slot] = wx;
    this.wy[slot] = wy;
    this.group[slot] = groupNo;
    this.type[slot] = this.intern(record.type);
    this.subtype[slot] = this.intern(record.subtype);
    this.beam[slot] = record.beamtype | 0;
    this.promo[slot] = record.promo ? 1 : 0;
    this.titles[slot] = record.title;
    return { slot, moved, oldGroup };
  }

  /** Removes a record; answers the group it was in, or FREE when there was none. */
  remove(kind: RecordKind, id: string): number {
    const slot = this.slots[kind].get(id);
    if (slot === undefined) return FREE;
    const groupNo = this.group[slot] as number;
    this.slots[kind].delete(id);
    this.group[slot] = FREE;
    this.ids[slot] = '';
    this.titles[slot] = '';
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

  private intern(word: string): number {
    let n = this.wordNumbers.get(word);
    if (n === undefined) {
      n = this.words.length;
      this.words.push(word);
      this.wordNumbers.set(word, n);
    }
    return n;
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
