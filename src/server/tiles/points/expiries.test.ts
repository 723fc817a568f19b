import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Expiries } from './expiries';

describe('Expiries', () => {
  it('answers the next expiry and takes what is due, skipping changed and cleared times', () => {
    const e = new Expiries();
    expect(e.next()).toBe(Infinity);
    e.set('a', 30);
    e.set('b', 10);
    e.set('c', 20);
    e.set('d', null);
    expect(e.size).toBe(3);
    expect(e.next()).toBe(10);
    e.set('b', 40); // renewed: its old time no longer counts
    e.delete('c'); // deleted
    expect(e.next()).toBe(30);
    expect(e.takeDue(29)).toEqual([]);
    expect(e.takeDue(30)).toEqual(['a']);
    expect(e.next()).toBe(40);
    e.set('b', Infinity); // no longer expires
    expect(e.next()).toBe(Infinity);
    expect(e.size).toBe(0);
  });

  it('takes exactly the ids whose current time is due, in time order, whatever the history', () => {
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('set' as const),
        id: fc.integer({ min: 0, max: 30 }),
        time: fc.option(fc.integer({ min: 0, max: 100 })),
      }),
      fc.record({ kind: fc.constant('delete' as const), id: fc.integer({ min: 0, max: 30 }) }),
      fc.record({ kind: fc.constant('take' as const), now: fc.integer({ min: 0, max: 100 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const e = new Expiries();
        const model = new Map<string, number>();
        for (const o of ops) {
          if (o.kind === 'set') {
            e.set(`p${o.id}`, o.time);
            if (o.time === null) model.delete(`p${o.id}`);
            else model.set(`p${o.id}`, o.time);
          } else if (o.kind === 'delete') {
            e.delete(`p${o.id}`);
            model.delete(`p${o.id}`);
          } else {
            const due = [...model].filter(([, t]) => t <= o.now);
            const taken = e.takeDue(o.now);
            const times = taken.map((id) => model.get(id) as number);
            expect(times).toEqual([...times].sort((x, y) => x - y));
            expect([...taken].sort()).toEqual(due.map(([id]) => id).sort());
            for (const [id] of due) model.delete(id);
          }
          expect(e.next()).toBe(model.size === 0 ? Infinity : Math.min(...model.values()));
        }
      }),
      { numRuns: 200 },
    );
  });
});
