import { describe, expect, it } from 'vitest';
import { hotList, hotRank, scaledRank, type Rankable } from './rank';

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 27, 12);

const post = (id: string, author: string, score: number, hoursOld: number): Rankable => ({
  id,
  author,
  score,
  listed_at: NOW - hoursOld * HOUR,
});

describe('hotRank (Lemmy)', () => {
  it('is log(max(1, 3 + score)) / (hours + 2)^1.8', () => {
    expect(hotRank(7, 3)).toBeCloseTo(Math.log(10) / Math.pow(5, 1.8), 12);
    // a heavily disliked post is floored at log(1) = 0, never negative
    expect(hotRank(-50, 1)).toBe(0);
  });

  it('falls with age and rises with score', () => {
    expect(hotRank(5, 1)).toBeGreaterThan(hotRank(5, 10));
    expect(hotRank(20, 5)).toBeGreaterThan(hotRank(2, 5));
  });

  it('is scaled down by a city’s activity, so a small city’s post can outrank a big one’s', () => {
    expect(scaledRank(10, 4, 5)).toBeGreaterThan(scaledRank(10, 4, 5000));
    expect(scaledRank(3, 4, 3)).toBeGreaterThan(scaledRank(6, 4, 20_000));
  });
});

describe('hotList', () => {
  it('orders by rank and keeps at most two posts of one author', () => {
    const busy = Array.from({ length: 30 }, (_, i) => post(`b${i}`, 'busy', 50, 1));
    const others = [post('o1', 'ana', 2, 3), post('o2', 'ben', 0, 5), post('o3', 'cy', 1, 30)];
    const list = hotList([...busy, ...others], NOW, 40, 10);
    expect(list.filter((item) => item.author === 'busy')).toHaveLength(2);
    expect(list.map((item) => item.id)).toEqual(['b0', 'b1', 'o1', 'o2', 'o3']);
  });

  it('takes a fresh post with no likes over a day-old one with a few', () => {
    const list = hotList([post('old', 'a', 5, 26), post('new', 'b', 0, 0.5)], NOW, 10, 5);
    expect(list.map((item) => item.id)).toEqual(['new', 'old']);
  });

  it('stops at the limit', () => {
    const many = Array.from({ length: 20 }, (_, i) => post(`p${i}`, `u${i}`, i, 2));
    expect(hotList(many, NOW, 20, 6)).toHaveLength(6);
  });
});
