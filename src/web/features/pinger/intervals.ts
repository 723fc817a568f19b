import {
  PING_ERROR_INTERVAL_MS,
  PING_INTERVAL_MS,
  PING_MIN_CUSTOM_INTERVAL_MS,
} from '../../../shared/api/wire';

/** How often the pinger asks: while the connection is OK, and after a failure (social §9). */
export interface PingIntervals {
  okMs: number;
  errorMs: number;
}

export const DEFAULT_PING_INTERVALS: PingIntervals = {
  okMs: PING_INTERVAL_MS,
  errorMs: PING_ERROR_INTERVAL_MS,
};

/**
 * The browser setting that overrides the intervals for this browser (support staff, journeys):
 * localStorage `xpoint.pingIntervals` = `"<ok seconds>"` or `"<ok seconds>,<error seconds>"`, each
 * above 10 (§9). A refused value leaves the defaults and says why in the console.
 */
export const PING_INTERVALS_KEY = 'xpoint.pingIntervals';

/** §9: a custom interval must exceed 10 s. Throws a RangeError naming the value otherwise. */
export function checkedInterval(ms: number, name = 'interval'): number {
  if (!Number.isFinite(ms) || ms <= PING_MIN_CUSTOM_INTERVAL_MS)
    throw new RangeError(
      `The ping ${name} must exceed ${PING_MIN_CUSTOM_INTERVAL_MS / 1000} s (got ${Number.isFinite(ms) ? `${ms / 1000} s` : String(ms)}).`,
    );
  return ms;
}

/** Both intervals checked (§9); the error interval defaults to the OK one's when only that is given. */
export function customIntervals(okMs: number, errorMs: number = Math.min(okMs, PING_ERROR_INTERVAL_MS)) {
  return { okMs: checkedInterval(okMs, 'interval'), errorMs: checkedInterval(errorMs, 'error interval') };
}

/**
 * The intervals a stored setting asks for (PING_INTERVALS_KEY's format), or the defaults with the
 * reason when the setting is absent or refused.
 */
export function intervalsFromSetting(setting: string | null): { intervals: PingIntervals; refused?: string } {
  if (setting === null || setting.trim() === '') return { intervals: DEFAULT_PING_INTERVALS };
  const parts = setting.split(',').map((part) => part.trim());
  const seconds = parts.map((part) => (/^\d+(\.\d+)?$/.test(part) ? Number(part) : Number.NaN));
  try {
    if (seconds.length > 2 || seconds.some(Number.isNaN))
      throw new RangeError(`"${setting}" is not "<seconds>" or "<seconds>,<seconds>".`);
    const [ok, error] = seconds as [number, number | undefined];
    return { intervals: customIntervals(ok * 1000, error === undefined ? undefined : error * 1000) };
  } catch (refusal) {
    return { intervals: DEFAULT_PING_INTERVALS, refused: (refusal as Error).message };
  }
}
