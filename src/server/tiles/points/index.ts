import { prefixFor } from '../../../shared/domain/supertypes';
import {
  LAYER_GROUPS,
  type ClusterLeaf,
  type ClusterLeavesPage,
  type LayerGroup,
} from '../../../shared/map/contract';
import { postPath } from '../../../shared/map/links';
import { FREE, PointColumns, groupNumber, type PointRecord, type RecordKind } from './columns';
import { Expiries } from './expiries';
import type { RecordChunk } from './scan';
import { CELL_LEVELS, CLUSTER_MAX_ZOOM, GroupIndex, clusterIdOf, codeOf, type Entry } from './group-index';
import { LiveGroup, type Removal } from './live-group';
import { nodeRange } from './morton';
import { EXTENT, PointLayer, encodeTile, type TileValue } from './mvt';

/**
 * The point tile index: every visible point, event and post in columns (columns.ts), one Morton-sorted
 * cluster index per layer group with an overlay of recent changes (group-index.ts, live-group.ts), and
 * the tile, leaves and expansion-zoom queries the routes answer. Changes from the store change feed are
 * applied in place to the columns; each group whose membership or positions changed gets a new
 * LiveGroup (the changed entries in its overlay, or, for a flood of changes, re-sorted from the
 * columns) swapped in within one synchronous step, so no request ever sees a half-applied change.
 */

/** A record with the time it stops being shown (events, and posts that expire). */
export interface LoadedRecord extends PointRecord {
  /** epoch ms after which the record is hidden; null for points and posts that never expire. */
  hideAfter: number | null;
}

const POINT_KEYS = [
  'appnetid',
  'lat',
  'lon',
  'supertype',
  'businesstype',
  'subtype',
  'name',
  'title',
  'clickurl',
  'beamtype',
  'promo',
] as const;
/** Point values never shared between features: appnetid, lat, lon and clickurl. */
const POINT_UNIQUE = POINT_KEYS.map(
  (key) => key === 'appnetid' || key === 'lat' || key === 'lon' || key === 'clickurl',
);
const CLUSTER_KEYS = [
  'cluster',
  'cluster_id',
  'point_count',
  'point_count_abbreviated',
  'expansion_zoom',
  'supertype',
] as const;

/** "12k", "3.4k", "950": supercluster's abbreviation. */
export function abbreviate(count: number): string {
  if (count >= 10000) return `${Math.round(count / 1000)}k`;
  if (count >= 1000) return `${Math.round(count / 100) / 10}k`;
  return String(count);
}

/** Changes to one group in one step up to which they go to its overlay rather than re-sorting it. */
const MERGE_LIMIT = 4096;

function push<T>(map: Map<number, T[]>, group: number, item: T): void {
  const list = map.get(group);
  if (list) list.push(item);
  else map.set(group, [item]);
}

/** Map coordinates are shown to 6 decimals (§9). */
const round6 = (value: number) => Math.round(value * 1e6) / 1e6;

export class PointTileIndex {
  private readonly columns: PointColumns;
  private readonly groups: LiveGroup[] = LAYER_GROUPS.map(() => LiveGroup.of(GroupIndex.empty()));
  /** per group: the change feed position its content reflects (bumped on every change it sees). */
  private readonly versions: number[];
  /** events' hide times, for the periodic sweep. */
  private readonly hideAfter = new Map<string, number>();
  /** posts' expiry times: an expired post leaves at once (expireDue), not at the next sweep. */
  private readonly expiries = new Expiries();

  /** `capacity`: the expected number of records, so the columns are allocated once at the right size. */
  constructor(startSeq: number, capacity = 1024) {
    this.versions = LAYER_GROUPS.map(() => startSeq);
    this.columns = new PointColumns(capacity);
  }

  /** Loads the initial snapshot in bulk (into an empty index); call buildAll() next. */
  load(chunks: readonly RecordChunk[]): void {
    const starts = this.columns.load(chunks);
    chunks.forEach((chunk, k) => {
      const hideAfter = chunk.hideAfter;
      if (!hideAfter) return;
      const at = starts[k] as number;
      if (chunk.kind === 'post') {
        for (let i = 0; i < chunk.count; i++) {
          const time = hideAfter[i] as number;
          if (Number.isFinite(time)) this.expiries.set(this.columns.ids.get(at + i), time);
        }
        return;
      }
      for (let i = 0; i < chunk.count; i++)
        this.hideAfter.set(this.columns.ids.get(at + i), hideAfter[i] as number);
    });
  }

  /** Adds one record of the initial snapshot; call buildAll() once they are all in. */
  add(kind: RecordKind, record: LoadedRecord): void {
    this.putRecord(kind, record);
  }

  /** Builds every group's cluster index from the columns; call after the initial load. */
  buildAll(): void {
    const slots = this.columns.slotsByGroup(LAYER_GROUPS.length);
    slots.forEach((groupSlots, g) => {
      this.groups[g] = LiveGroup.of(GroupIndex.build(this.columns, groupSlots));
    });
  }

  get count(): number {
    return this.columns.count;
  }

  groupSize(group: LayerGroup): number {
    return this.groups[groupNumber(group)]?.size ?? 0;
  }

  /**
   * Applies the current state of changed records: `rows` holds the re-read rows of `ids` (missing or
   * hidden ones are deletions). `seq` is the feed position the change came from.
   */
  apply(
    kind: RecordKind,
    ids: readonly string[],
    rows: readonly LoadedRecord[],
    seq: number,
    now: number,
  ): void {
    const byId = new Map(rows.map((row) => [row.id, row]));
    const c = this.columns;
    /** per group: entries that leave it (by their code before the change), and entries that come. */
    const removed = new Map<number, Removal[]>();
    const added = new Map<number, Entry[]>();
    const touched = new Set<number>();
    for (const id of ids) {
      const row = byId.get(id);
      const slotBefore = c.slotOf(kind, id);
      const codeBefore = slotBefore === undefined ? 0 : this.codeAt(slotBefore);
      if (row && (row.hideAfter === null || row.hideAfter > now)) {
        const { moved, oldGroup, slot } = this.putRecord(kind, row);
        const group = c.group[slot] as number;
        touched.add(group);
        if (moved) {
          if (oldGroup !== FREE) push(removed, oldGroup, { slot, code: codeBefore });
          const x = c.wx[slot] as number;
          const y = c.wy[slot] as number;
          push(added, group, { slot, code: codeOf(x, y), x, y });
        }
      } else if (slotBefore !== undefined) {
        const oldGroup = this.removeRecord(kind, id);
        if (oldGroup !== FREE) push(removed, oldGroup, { slot: slotBefore, code: codeBefore });
      }
    }
    for (const g of new Set([...removed.keys(), ...added.keys()])) {
      this.change(g, removed.get(g) ?? [], added.get(g) ?? []);
      touched.add(g);
    }
    for (const g of touched) this.versions[g] = Math.max((this.versions[g] as number) + 1, seq);
  }

  /** Hides events that ended; answers how many. Runs every minute or so. */
  sweep(now: number): number {
    const gone: string[] = [];
    for (const [id, hideAfter] of this.hideAfter) if (hideAfter <= now) gone.push(id);
    if (gone.length === 0) return 0;
    for (const id of gone) this.removeRecord('event', id);
    const g = groupNumber('event');
    this.rebuild(g);
    this.versions[g] = (this.versions[g] as number) + 1;
    return gone.length;
  }

  /** When the next shown post expires (epoch ms), or Infinity. */
  nextExpiry(): number {
    return this.expiries.next();
  }

  /**
   * Takes the posts that expired at or before `now` off the map: their group's index loses them in one
   * synchronous step and its version moves on. Answers how many left.
   */
  expireDue(now: number): number {
    const due = this.expiries.takeDue(now);
    if (due.length === 0) return 0;
    const g = groupNumber('post');
    const c = this.columns;
    const out: Removal[] = [];
    for (const id of due) {
      const slot = c.slotOf('post', id);
      if (slot === undefined) continue;
      const code = this.codeAt(slot);
      if (c.remove('post', id) !== FREE) out.push({ slot, code });
    }
    if (out.length === 0) return 0;
    this.change(g, out, []);
    this.versions[g] = (this.versions[g] as number) + 1;
    return out.length;
  }

  /** A short text that changes whenever the content of any of these groups changes (for ETags). */
  versionOf(groups: readonly LayerGroup[]): string {
    return groups.map((g) => this.versions[groupNumber(g)]).join('.');
  }

  /** The MVT bytes of tile z/x/y for the given groups, or null when it has no features. */
  tile(z: number, x: number, y: number, groups: readonly LayerGroup[]): Uint8Array | null {
    const [from, to] = nodeRange(z, x, y);
    const scale = 2 ** z;
    const layers: PointLayer[] = [];
    for (const group of groups) {
      const live = this.groups[groupNumber(group)] as LiveGroup;
      if (live.count(from, to) === 0) continue;
      const layer = new PointLayer(group);
      const toTileX = (wx: number) => (wx * scale - x) * EXTENT;
      const toTileY = (wy: number) => (wy * scale - y) * EXTENT;
      if (z <= CLUSTER_MAX_ZOOM) {
        const level = z + CELL_LEVELS;
        live.cells(level, from, to, (cell, n, cx, cy, expansion, slot) => {
          if (n === 1) {
            this.addPoint(layer, slot, group, toTileX, toTileY);
            return;
          }
          const id = clusterIdOf(level, cell);
          const values: TileValue[] = [true, id, n, abbreviate(n), expansion, group];
          layer.add(toTileX(cx), toTileY(cy), CLUSTER_KEYS, values, id);
        });
      } else {
        live.slots(from, to, 0, Infinity, (slot) => this.addPoint(layer, slot, group, toTileX, toTileY));
      }
      layers.push(layer);
    }
    return encodeTile(layers);
  }

  /** A page of a cluster's points, in map order; null when the cluster no longer exists. */
  leaves(group: LayerGroup, clusterId: number, offset: number, limit: number): ClusterLeavesPage | null {
    const live = this.groups[groupNumber(group)] as LiveGroup;
    const cluster = live.cluster(clusterId);
    if (!cluster) return null;
    const leaves: ClusterLeaf[] = [];
    const c = this.columns;
    live.slots(cluster.from, cluster.to, offset, limit, (s) => {
      const id = c.ids.get(s);
      leaves.push({
        appnetid: id,
        title: c.titles.get(s),
        businesstype: c.words[c.type[s] as number] as string,
        subtype: c.words[c.subtype[s] as number] as string,
        clickurl: clickUrl(group, id),
        lat: round6(c.lat[s] as number),
        lon: round6(c.lon[s] as number),
      });
    });
    return { total: cluster.count, leaves };
  }

  /** The zoom at which a cluster splits; null when the cluster no longer exists. */
  expansionZoom(group: LayerGroup, clusterId: number): number | null {
    const live = this.groups[groupNumber(group)] as LiveGroup;
    const cluster = live.cluster(clusterId);
    if (!cluster) return null;
    return Math.max(cluster.level - CELL_LEVELS + 1, live.expansionZoom(cluster.from, cluster.to));
  }

  private addPoint(
    layer: PointLayer,
    slot: number,
    group: LayerGroup,
    toTileX: (wx: number) => number,
    toTileY: (wy: number) => number,
  ): void {
    const c = this.columns;
    const id = c.ids.get(slot);
    const title = c.titles.get(slot);
    const values: TileValue[] = [
      id,
      round6(c.lat[slot] as number),
      round6(c.lon[slot] as number),
      group,
      c.words[c.type[slot] as number] as string,
      c.words[c.subtype[slot] as number] as string,
      title,
      title,
      clickUrl(group, id),
      c.beam[slot] as number,
      c.promo[slot] as number,
    ];
    layer.add(
      toTileX(c.wx[slot] as number),
      toTileY(c.wy[slot] as number),
      POINT_KEYS,
      values,
      undefined,
      POINT_UNIQUE,
    );
  }

  private putRecord(kind: RecordKind, record: LoadedRecord) {
    if (kind === 'event' && record.hideAfter !== null) this.hideAfter.set(record.id, record.hideAfter);
    if (kind === 'post') this.expiries.set(record.id, record.hideAfter);
    return this.columns.put(kind, record);
  }

  private removeRecord(kind: RecordKind, id: string): number {
    if (kind === 'event') this.hideAfter.delete(id);
    if (kind === 'post') this.expiries.delete(id);
    return this.columns.remove(kind, id);
  }

  /** The Morton code of the position a slot holds now (before a change: the code its entry is at). */
  private codeAt(slot: number): number {
    return codeOf(this.columns.wx[slot] as number, this.columns.wy[slot] as number);
  }

  /** Puts one step's changes to group `g` in its overlay, or re-sorts the group for a flood of them. */
  private change(g: number, removals: readonly Removal[], adds: readonly Entry[]): void {
    const live = this.groups[g] as LiveGroup;
    if (removals.length + adds.length > Math.max(MERGE_LIMIT, live.size / 8)) this.rebuild(g);
    else this.groups[g] = live.change(removals, adds);
  }

  private rebuild(g: number): void {
    this.groups[g] = LiveGroup.of(GroupIndex.build(this.columns, this.columns.slotsOf(g)));
  }
}

/** A point's detail route (§2): /{prefix}/{id}; events open at /e/{id}, posts at /post/{id}. */
export function clickUrl(group: LayerGroup, id: string): string {
  if (group === 'event') return `/e/${id}`;
  if (group === 'post') return postPath(id);
  return `/${prefixFor(group)}/${id}`;
}
