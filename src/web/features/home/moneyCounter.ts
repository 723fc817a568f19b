/**
 * The home page's decorative money counter (social §4, §9): it starts at 1, adds 7 every second and
 * starts again at 1 once it reaches 100 dollars, shown as dollars with thousands separators.
 */
export const MONEY_START = 1;
export const MONEY_STEP = 7;
export const MONEY_RESET_AT = 100;

/** The counter's value after `seconds` whole seconds. */
export function moneyAfter(seconds: number): number {
  const steps = Math.max(0, Math.floor(seconds));
  // values run 1, 8, ..., the last below 100, then 1 again
  const perCycle = Math.ceil((MONEY_RESET_AT - MONEY_START) / MONEY_STEP);
  return MONEY_START + (steps % perCycle) * MONEY_STEP;
}

/** The next value after `value`: plus 7, or 1 when that reaches 100. */
export function nextMoney(value: number): number {
  const next = value + MONEY_STEP;
  return next >= MONEY_RESET_AT ? MONEY_START : next;
}

const DOLLARS = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  maximumFractionDigits: 0,
  useGrouping: true,
});

/** '$1', '$99', '$12,345'. */
export function formatMoney(value: number): string {
  return DOLLARS.format(value);
}
