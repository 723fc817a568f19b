import { describe, expect, it } from 'vitest';
import { calibratedCpuSlowdown, DEFAULT_CPU_SLOWDOWN } from './lighthouse';

describe('calibratedCpuSlowdown', () => {
  it('keeps Lighthouse’s 4× on a host it does not call slow', () => {
    expect(calibratedCpuSlowdown(1000)).toBe(DEFAULT_CPU_SLOWDOWN);
    expect(calibratedCpuSlowdown(2400)).toBe(DEFAULT_CPU_SLOWDOWN);
  });

  it('shrinks in proportion on a slow host, so the phone it emulates stays the same', () => {
    expect(calibratedCpuSlowdown(750)).toBe(3);
    expect(calibratedCpuSlowdown(500)).toBe(2);
  });

  it('never speeds the host up, and keeps 4× when the index is missing', () => {
    expect(calibratedCpuSlowdown(100)).toBe(1);
    expect(calibratedCpuSlowdown(0)).toBe(DEFAULT_CPU_SLOWDOWN);
    expect(calibratedCpuSlowdown(Number.NaN)).toBe(DEFAULT_CPU_SLOWDOWN);
  });
});
