import { PbfWriter } from 'pbf';

/**
 * A small Mapbox Vector Tile 2.1 writer for point layers, straight into pbf: no intermediate GeoJSON
 * or geojson-vt tile objects (measured: bench/tiles.ts). Keys and values are shared within a layer as
 * the specification asks.
 */

/** Tile coordinates span 0..EXTENT; 4096 keeps points exact to a sixteenth of a pixel at 256 px. */
export const EXTENT = 4096;

export type TileValue = string | number | boolean;

interface PendingFeature {
  id: number | undefined;
  tags: number[];
  x: number;
  y: number;
}

export class PointLayer {
  private readonly keyIndex = new Map<string, number>();
  private readonly keys: string[] = [];
  private readonly keyLists = new Map<readonly string[], number[]>();
  private readonly valueIndex = new Map<TileValue, number>();
  private readonly values: TileValue[] = [];
  readonly features: PendingFeature[] = [];

  constructor(readonly name: string) {}

  /**
   * Adds a point at tile coordinates (x, y) with properties given as parallel key and value lists.
   * `unique[i]` marks values that are never shared (ids, urls, coordinates): they skip the lookup
   * that shares repeated values, which is most of the cost of a large tile.
   */
  add(
    x: number,
    y: number,
    keys: readonly string[],
    values: readonly TileValue[],
    id?: number,
    unique?: readonly boolean[],
  ): void {
    const keyTags = this.keyTags(keys);
    const tags: number[] = new Array(keys.length * 2);
    for (let i = 0; i < keys.length; i++) {
      const value = values[i] as TileValue;
      let v: number | undefined;
      if (unique?.[i]) {
        v = this.values.length;
        this.values.push(value);
      } else {
        v = this.valueIndex.get(value);
        if (v === undefined) {
          v = this.values.length;
          this.values.push(value);
          this.valueIndex.set(value, v);
        }
      }
      tags[2 * i] = keyTags[i] as number;
      tags[2 * i + 1] = v;
    }
    this.features.push({ id, tags, x: Math.round(x), y: Math.round(y) });
  }

  /** The key numbers of a key list, looked up once per list and layer. */
  private keyTags(keys: readonly string[]): number[] {
    let tags = this.keyLists.get(keys);
    if (!tags) {
      tags = keys.map((key) => {
        let k = this.keyIndex.get(key);
        if (k === undefined) {
          k = this.keys.length;
          this.keys.push(key);
          this.keyIndex.set(key, k);
        }
        return k;
      });
      this.keyLists.set(keys, tags);
    }
    return tags;
  }

  write(pbf: PbfWriter): void {
    pbf.writeVarintField(15, 2);
    pbf.writeStringField(1, this.name);
    for (const feature of this.features) pbf.writeMessage(2, writeFeature, feature);
    for (const key of this.keys) pbf.writeStringField(3, key);
    for (const value of this.values) pbf.writeMessage(4, writeValue, value);
    pbf.writeVarintField(5, EXTENT);
  }
}

const zigzag = (n: number) => (n << 1) ^ (n >> 31);

function writeFeature(feature: PendingFeature, pbf: PbfWriter): void {
  if (feature.id !== undefined) pbf.writeVarintField(1, feature.id);
  pbf.writePackedVarint(2, feature.tags);
  pbf.writeVarintField(3, 1); // POINT
  pbf.writePackedVarint(4, [9, zigzag(feature.x), zigzag(feature.y)]); // MoveTo(1), x, y
}

function writeValue(value: TileValue, pbf: PbfWriter): void {
  if (typeof value === 'string') pbf.writeStringField(1, value);
  else if (typeof value === 'boolean') pbf.writeBooleanField(7, value);
  else if (!Number.isInteger(value)) pbf.writeDoubleField(3, value);
  else if (value >= 0) pbf.writeVarintField(5, value);
  else pbf.writeSVarintField(6, value);
}

/** Encodes the non-empty layers; null when every layer is empty. */
export function encodeTile(layers: readonly PointLayer[]): Uint8Array | null {
  const nonEmpty = layers.filter((layer) => layer.features.length > 0);
  if (nonEmpty.length === 0) return null;
  const pbf = new PbfWriter(new Uint8Array(4096));
  for (const layer of nonEmpty) pbf.writeMessage(3, (l: PointLayer, p: PbfWriter) => l.write(p), layer);
  return pbf.finish();
}
