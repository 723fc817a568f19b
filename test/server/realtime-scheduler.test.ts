import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPoint } from '../support/factories';
import { rawSocket, startLiveApp, waitFor, type LiveApp } from './live-support';

/** Beams from the clock: soon and open events, hot points, each once per state and again after repeatMs. */
const MIN = 60_000;
let t: LiveApp;

beforeAll(async () => {
  t = await startLiveApp({
    live: { scheduler: { intervalMs: 60_000, repeatMs: 30 * MIN, hotCount: 3, deliveriesPerTurn: 10 } },
  });
});
afterAll(async () => {
  await t.close();
});

describe('the beam scheduler', () => {
  it('beams soon and open events and hot points to the devices that see them', async () => {
    const now = Date.now();
    await t.store.db
      .insertInto('points')
      .values([
        newPoint({ id: 'venue', type: 'theatre', lat: 35.68, lon: 139.76 }),
        newPoint({ id: 'busy', type: 'cafe', lat: 35.69, lon: 139.7 }),
      ])
      .execute();
    const event = (id: string, start: number, end: number) => ({
      id,
      xpoint_id: 'venue',
      title: id,
      type: 'concert',
      start_date: start,
      end_date: end,
      lat: 35.68,
      lon: 139.76,
      admission: 'free',
      created_at: now,
      updated_at: now,
    });
    await t.store.db
      .insertInto('events')
      .values([
        event('running', now - 10 * MIN, now + 50 * MIN),
        event('starting', now + 30 * MIN, now + 90 * MIN),
        event('tomorrow', now + 24 * 60 * MIN, now + 25 * 60 * MIN),
      ])
      .execute();
    // a chat line an hour ago or less makes a point hot
    await t.store.db
      .insertInto('live_activity' as never)
      .values({
        point_id: 'busy',
        device_id: 'u:1',
        kind: 'chat',
        hour: now - (now % 3_600_000),
        created_at: now,
      } as never)
      .execute();

    const { ws, frames } = await rawSocket(t.port, 'deviceId=tokyo&vsn=2.0.0');
    ws.send(
      JSON.stringify([
        '1',
        '1',
        'device:tokyo',
        'phx_join',
        { map_state: { visible_bounds: { sw: { lat: 35.6, lon: 139.6 }, ne: { lat: 35.8, lon: 139.9 } } } },
      ]),
    );
    await waitFor(() => frames.length === 1, 2000, 'the join reply');
    const beams = () =>
      frames
        .slice(1)
        .map((f) => f[4] as Record<string, { beam: { kind: string; properties: { id: string } } }>);

    await t.live.scheduler.tick(now);
    await waitFor(() => frames.length === 4, 2000, 'three beams');
    const summary = beams().map((p) => {
      const activity = p['event_activity'] ?? p['xpoint_activity'];
      return `${p['event_activity'] ? 'event' : 'point'}:${activity?.beam.properties.id}:${activity?.beam.kind}`;
    });
    expect(summary.sort()).toEqual(['event:running:open', 'event:starting:soon', 'point:busy:hot']);
    expect(
      beams().find((p) => p['event_activity']?.beam.properties.id === 'running')?.['event_activity']?.beam
        .properties,
    ).toMatchObject({
      parentid: 'venue',
      businesstype: 'concert',
    });

    // nothing new a minute later
    await t.live.scheduler.tick(now + MIN);
    await new Promise((r) => setTimeout(r, 100));
    expect(frames.length).toBe(4);
    // 31 minutes on, the starting event has started: it beams as open at once; the others repeat
    await t.live.scheduler.tick(now + 31 * MIN);
    await waitFor(() => frames.length === 7, 2000, 'the newly open event and the repeats');
    const later = beams()
      .slice(3)
      .map((p) => {
        const activity = p['event_activity'] ?? p['xpoint_activity'];
        return `${activity?.beam.properties.id}:${activity?.beam.kind}`;
      });
    expect(later.sort()).toEqual(['busy:hot', 'running:open', 'starting:open']);
    ws.close();
  });

  it('lets the event loop turn while a tick sends many beams', async () => {
    const now = Date.now();
    await t.store.db
      .insertInto('points')
      .values(newPoint({ id: 'harpa', type: 'theatre', lat: 64.15, lon: -21.93 }))
      .execute();
    await t.store.db
      .insertInto('events')
      .values(
        Array.from({ length: 45 }, (_, n) => ({
          id: `reykjavik-${n}`,
          xpoint_id: 'harpa',
          title: `Reykjavik evening ${n}`,
          type: 'concert',
          start_date: now - 10 * MIN,
          end_date: now + 50 * MIN,
          lat: 64.15,
          lon: -21.93,
          admission: 'free',
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    // every delivery looks for its devices once: the hub's selection count says how many were sent
    const delivered = t.live.hub.selectionTimes;
    const before = delivered.length;
    const seenBetweenTurns: number[] = [];
    let ticking = true;
    const watch = () => {
      seenBetweenTurns.push(delivered.length - before);
      if (ticking) setImmediate(watch);
    };
    setImmediate(watch);
    await t.live.scheduler.tick(now);
    ticking = false;
    const sent = delivered.length - before;
    expect(sent).toBeGreaterThanOrEqual(45);
    // other work ran after some of the beams and before the rest
    expect(seenBetweenTurns.some((n) => n > 0 && n < sent)).toBe(true);
  });

  it('beams a new incident or help request once, the moment it appears in the store', async () => {
    const { ws, frames } = await rawSocket(t.port, 'deviceId=oslo&vsn=2.0.0');
    ws.send(
      JSON.stringify([
        '1',
        '1',
        'device:oslo',
        'phx_join',
        { map_state: { visible_bounds: { sw: { lat: 59.8, lon: 10.6 }, ne: { lat: 60.0, lon: 10.9 } } } },
      ]),
    );
    await waitFor(() => frames.length === 1, 2000, 'the join reply');
    await t.store.db
      .insertInto('points')
      .values([
        newPoint({ id: 'crash1', supertype: 'incident', type: 'accident', lat: 59.91, lon: 10.75 }),
        newPoint({
          id: 'help2',
          supertype: 'helprequest',
          type: 'tasks',
          lat: 59.92,
          lon: 10.76,
          beamtype: 32,
        }),
        newPoint({ id: 'shop9', type: 'bakery', lat: 59.93, lon: 10.77 }),
        // an old report edited now is not new
        newPoint({
          id: 'old1',
          supertype: 'incident',
          type: 'crime',
          lat: 59.9,
          lon: 10.7,
          created_at: Date.now() - 3_600_000,
        }),
      ])
      .execute();
    await waitFor(() => frames.length === 3, 3000, 'two report beams');
    const beams = frames
      .slice(1)
      .map(
        (f) =>
          (f[4] as { xpoint_activity: { beam: { properties: { id: string; beam: string[] } } } })
            .xpoint_activity.beam.properties,
      );
    expect(beams.map((b) => [b.id, b.beam]).sort()).toEqual([
      ['crash1', ['incident']],
      ['help2', ['helprequest_urgent']],
    ]);
    await t.store.db.updateTable('points').set({ title: 'edited' }).where('id', '=', 'crash1').execute();
    await new Promise((r) => setTimeout(r, 300));
    expect(frames.length).toBe(3);
    ws.close();
  });
});
