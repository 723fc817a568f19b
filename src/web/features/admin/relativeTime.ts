/** How long ago an instant was, in words ('5 minutes ago', 'yesterday', '3 weeks ago'). */

const STEPS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
  ['week', 4.35],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

const words = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/**
 * `then` (epoch ms) as seen from `now`, in the largest unit that keeps a whole number: under a
 * minute is 'just now' (a clock a little ahead of the server's makes no 'in 3 seconds').
 */
export function timeAgo(then: number, now: number, format: Intl.RelativeTimeFormat = words): string {
  let amount = (now - then) / 1000;
  if (amount < 60) return 'just now';
  for (const [unit, size] of STEPS) {
    if (amount < size) return format.format(-Math.floor(amount), unit);
    amount /= size;
  }
  return format.format(-Math.floor(amount), 'year');
}
