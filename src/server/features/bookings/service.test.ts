import { describe, expect, it } from 'vitest';
import { daysOf } from './service';

describe('daysOf', () => {
  const range = (seq: number, start: string, end: string, open: number, price: number) => ({
    seq,
    start_date: start,
    end_date: end,
    is_open: open,
    nightly_price: price,
    hourly_price: null,
    currency: 'EUR',
  });

  it('lets the newest range say, marks held nights taken and days before today past', () => {
    const days = daysOf(
      [range(1, '2027-03-01', '2027-03-10', 1, 100), range(2, '2027-03-03', '2027-03-05', 0, 0)],
      ['2027-03-06'],
      '2027-02-28',
      '2027-03-11',
      '2027-03-02',
    );
    expect(days.map((d) => `${d.date.slice(8)}:${d.state}:${d.price ?? '-'}`)).toEqual([
      '28:past:-',
      '01:past:100',
      '02:free:100',
      '03:closed:-',
      '04:closed:-',
      '05:free:100',
      '06:taken:100',
      '07:free:100',
      '08:free:100',
      '09:free:100',
      '10:closed:-',
    ]);
  });
});
