import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdTable } from './id-table';
import { PackedStringsBuilder, TextColumn, hashBytes, hashPacked, hashText } from './packed-text';

function packed(values: string[]) {
  const builder = new PackedStringsBuilder();
  for (const value of values) builder.push(value);
  return builder.finish();
}

describe('TextColumn', () => {
  it('reads bulk-loaded strings from several parts, and strings set later over them', () => {
    const column = new TextColumn();
    column.load([packed(['a1', 'Café Ümlaut', '']), packed(['🍕 slice', 'x'])]);
    expect([0, 1, 2, 3, 4, 5].map((s) => column.get(s))).toEqual([
      'a1',
      'Café Ümlaut',
      '',
      '🍕 slice',
      'x',
      '',
    ]);
    column.set(1, 'renamed');
    column.set(7, 'new slot');
    expect(column.get(1)).toBe('renamed');
    expect(column.get(7)).toBe('new slot');
    expect(column.get(0)).toBe('a1');
    for (const [slot, value] of [
      [0, 'a1'],
      [1, 'renamed'],
      [3, '🍕 slice'],
      [7, 'new slot'],
    ] as const) {
      expect(column.equals(slot, value)).toBe(true);
    }
    expect(column.equals(0, 'a2')).toBe(false);
    expect(column.equals(3, '🍕 slicf')).toBe(false);
  });

  it('hashes a string as the bytes of its UTF-8 encoding', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme' }), { maxLength: 5 }), (values) => {
        const hashes = hashPacked(packed(values));
        values.forEach((value, i) => {
          const bytes = Buffer.from(value, 'utf8');
          expect(hashText(value)).toBe(hashBytes(bytes, 0, bytes.length));
          expect(hashes[i]).toBe(hashText(value));
        });
      }),
    );
  });
});

describe('IdTable', () => {
  it('finds, adds and removes ids like a Map, across bulk and later slots and colliding buckets', () => {
    const id = fc.oneof(
      fc.string({ minLength: 1, maxLength: 3, unit: fc.constantFrom('a', 'b', 'é', '7') }),
      fc.constantFrom('x', 'y', 'z', '日本'),
    );
    fc.assert(
      fc.property(
        fc.uniqueArray(id, { maxLength: 40 }),
        fc.array(fc.tuple(fc.boolean(), id), { maxLength: 80 }),
        (initial, operations) => {
          const ids = new TextColumn();
          const bulk = packed(initial);
          ids.load([bulk]);
          const bulkHashes = hashPacked(bulk);
          // a tiny table, so that it resizes and probe runs wrap around
          const table = new IdTable(ids, 1);
          const model = new Map<string, number>();
          initial.forEach((value, slot) => {
            table.insert(slot, bulkHashes[slot] as number);
            model.set(value, slot);
          });
          let next = initial.length;
          const free: number[] = [];
          for (const [add, value] of operations) {
            const slot = model.get(value);
            expect(table.get(value)).toBe(slot);
            if (add && slot === undefined) {
              const s = free.pop() ?? next++;
              ids.set(s, value);
              table.insert(s, hashText(value));
              model.set(value, s);
            } else if (!add && slot !== undefined) {
              table.delete(slot, hashText(value));
              ids.set(slot, '');
              model.delete(value);
              free.push(slot);
            }
            expect(table.size).toBe(model.size);
          }
          for (const [value, slot] of model) expect(table.get(value)).toBe(slot);
          expect(table.get('absent')).toBeUndefined();
        },
      ),
    );
  });
});
