import { describe, expect, test } from 'vitest';
import type { MyPoint } from '../../../shared/api/points';
import { itemControls } from './itemControls';

const BACK = '/MeOnMap/Index';
const item = (overrides: Partial<MyPoint>): MyPoint => ({
  kind: 'point',
  id: 'p_1',
  supertype: 'business',
  type: 'bakery',
  title: 'Corner Bakery',
  url: '/b/p_1',
  role: 'owner',
  cover: null,
  version: 1,
  updated_at: 0,
  start_date: null,
  ...overrides,
});
const links = (point: MyPoint) => itemControls(point, BACK).map((c) => `${c.label} ${c.href}`);
const back = encodeURIComponent(BACK);

describe('controls of my points and events (§2 links, §6 roles)', () => {
  test('a business is edited under its prefix and deleted through /MyXPoints/Delete', () => {
    expect(links(item({}))).toEqual([
      `Edit /b/p_1/Edit?successUrl=${back}`,
      `Delete /MyXPoints/Delete/p_1?successUrl=${back}`,
    ]);
  });

  test('services, experiences and rentals use their own routes', () => {
    expect(links(item({ supertype: 'service' }))[0]).toBe(`Edit /MeOnMap/Edit?id=p_1&successUrl=${back}`);
    expect(links(item({ supertype: 'experience' }))).toEqual([
      `Edit /MyExperience/Edit?id=p_1&successUrl=${back}`,
      `Delete /MyExperience/Delete?id=p_1&successUrl=${back}`,
    ]);
    expect(links(item({ supertype: 'rental' }))[1]).toBe(`Delete /MyRental/Delete?id=p_1&successUrl=${back}`);
  });

  test('help requests can be copied to a new one; a consultant may stop consulting', () => {
    expect(links(item({ supertype: 'helprequest' }))).toContain(
      `Copy to new /h/p_1/CopyToNew?successUrl=${back}`,
    );
    const consulted = itemControls(item({ role: 'consultant' }), BACK);
    expect(consulted.at(-1)).toEqual({
      label: 'Stop consulting',
      href: `/business/ClearConsultant/p_1?successUrl=${back}`,
      danger: true,
    });
  });

  test('events are edited, copied and deleted from the map', () => {
    expect(links(item({ kind: 'event', id: 'ev_1', supertype: 'event', url: '/e/ev_1' }))).toEqual([
      `Edit /e/ev_1/Edit?successUrl=${back}`,
      `Copy to new /e/ev_1/CopyToNew?successUrl=${back}`,
      `Delete /MyEvents/DeleteFromMap/ev_1?successUrl=${back}`,
    ]);
  });

  test('a consultant gets no Delete; a pending claim or request to consult gives no control', () => {
    expect(links(item({ role: 'consultant' })).map((l) => l.split(' ')[0])).toEqual(['Edit', 'Stop']);
    expect(links(item({ role: 'claimant' }))).toEqual([]);
    expect(links(item({ role: 'requester' }))).toEqual([]);
  });
});
