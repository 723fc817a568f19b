/**
 * Number display rules (map-and-search §5, §9): rating as average/20 with one decimal, stats that
 * show '0' for anything not positive, prices with two decimals, task durations in hours, ticket
 * totals as quantity times unit price.
 */

/** Ratings are stored on a 0-100 scale and shown out of 5. */
export const RATING_DIVISOR = 20;

/** §9: 86 -> '4.3'; null when there is no rating. Values outside 0-100 are clamped. */
export function formatRating(average: number | null | undefined): string | null {
  if (average == null || !Number.isFinite(average)) return null;
  return (Math.min(100, Math.max(0, average)) / RATING_DIVISOR).toFixed(1);
}

/** §5: a stat shows '0' when its value is not a positive number; otherwise the whole number. */
export function formatStat(value: unknown): string {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? String(Math.floor(n)) : '0';
}

/** §9: prices with two decimals (1.5 -> '1.50'); null when there is no price. */
export function formatPrice(value: number | null | undefined): string | null {
  if (value == null || !Number.isFinite(value)) return null;
  return (Math.round(value * 100) / 100).toFixed(2);
}

/** §9: task duration in hours, minutes/60 (90 -> 1.5); null when not set. */
export function durationHours(minutes: number | null | undefined): number | null {
  if (minutes == null || !Number.isFinite(minutes)) return null;
  return minutes / 60;
}

/** The hours for display: at most two decimals, no trailing zeros (90 -> '1.5', 20 -> '0.33'). */
export function formatDurationHours(minutes: number | null | undefined): string | null {
  const hours = durationHours(minutes);
  return hours === null ? null : String(Math.round(hours * 100) / 100);
}

/** §9: a ticket price is quantity times unit price, in cents-exact arithmetic (3 x 0.1 = 0.30, not 0.30000000000000004). */
export function ticketTotal(quantity: number, unitPrice: number): number {
  return Math.round(quantity * Math.round(unitPrice * 100)) / 100;
}

export interface TicketOption {
  quantity: number;
  total: number;
  /** the total with two decimals. */
  display: string;
}

/** The quantity choices of a ticket (1 to max_quantity) with their totals. */
export function ticketOptions(unitPrice: number, maxQuantity: number): TicketOption[] {
  const max = Math.max(0, Math.floor(maxQuantity));
  return Array.from({ length: max }, (_, i) => {
    const total = ticketTotal(i + 1, unitPrice);
    return { quantity: i + 1, total, display: total.toFixed(2) };
  });
}
