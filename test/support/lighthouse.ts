import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Result } from 'lighthouse';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/browser';

export type LighthouseCategory = 'performance' | 'accessibility' | 'seo' | 'best-practices';

export interface LighthouseAudit {
  /** the asked categories' scores, 0 to 100. */
  scores: Partial<Record<LighthouseCategory, number>>;
  /** first and largest contentful paint and total blocking time, ms (simulated), when measured. */
  timings: { fcp?: number; lcp?: number; tbt?: number };
  /** the weighted audits of those categories that did not pass, with their score. */
  failing: string[];
  /** the JavaScript the page loaded (Lighthouse's resource summary): requests and bytes transferred. */
  scripts: { requests: number; transferBytes: number };
  /** Lighthouse's measure of this machine's CPU (`environment.benchmarkIndex`; a high-end desktop is 1500-2000). */
  benchmarkIndex: number;
  /** the CPU slowdown the audit simulated. */
  cpuSlowdown: number;
  /** Lighthouse's whole report, for a closer look (bench:lighthouse --json writes it). */
  report: Result;
}

/** A row of Lighthouse's resource-summary audit. */
interface ResourceRow {
  resourceType: string;
  requestCount: number;
  transferSize: number;
}

/** The asked categories' scores of `url`, 0 to 100 (see lighthouseAudit). */
export async function lighthouseScores(
  url: string,
  categories: LighthouseCategory[],
): Promise<Partial<Record<LighthouseCategory, number>>> {
  return (await lighthouseAudit(url, categories)).scores;
}

/** Lighthouse's CPU slowdown for a phone: 4×, as it is calibrated for a desktop CPU. */
export const DEFAULT_CPU_SLOWDOWN = 4;

/**
 * Below this benchmark index Lighthouse warns that "the tested device appears to have a slower CPU than
 * Lighthouse expects" (its SLOW_CPU_BENCHMARK_INDEX_THRESHOLD).
 */
const SLOW_HOST_BENCHMARK_INDEX = 1000;

/**
 * The CPU slowdown that emulates Lighthouse's mid-tier phone on a host of `benchmarkIndex`.
 *
 * Lighthouse's slowdown multiplies what the host measured, so the same 4× makes a slower phone of a
 * slower host: its throttling documentation asks to calibrate the multiplier to the host's benchmark
 * index. On a host Lighthouse itself calls slow (index under 1000: CI machines have been), the
 * multiplier shrinks in proportion, never under 1; on any other host it stays the default 4×, so the
 * phone emulated is never faster than Lighthouse's own on its slowest expected host.
 */
export function calibratedCpuSlowdown(benchmarkIndex: number): number {
  if (!(benchmarkIndex > 0) || benchmarkIndex >= SLOW_HOST_BENCHMARK_INDEX) return DEFAULT_CPU_SLOWDOWN;
  return Math.max(1, (DEFAULT_CPU_SLOWDOWN * benchmarkIndex) / SLOW_HOST_BENCHMARK_INDEX);
}

/**
 * Audits `url` with Lighthouse (its default: a phone on a slow network, simulated) in a headless
 * Debian Chromium of its own; `cpuSlowdown` replaces Lighthouse's 4× (see calibratedCpuSlowdown).
 */
export async function lighthouseAudit(
  url: string,
  categories: LighthouseCategory[],
  attempts = 2,
  cpuSlowdown = DEFAULT_CPU_SLOWDOWN,
): Promise<LighthouseAudit> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ['--headless=new', ...CHROMIUM_ARGS],
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: categories,
      throttling: { cpuSlowdownMultiplier: cpuSlowdown },
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    if (result.lhr.runtimeError) {
      // a trace Chromium failed to record (NO_NAVSTART and the like) says nothing of the page: once more
      if (attempts > 1) return await lighthouseAudit(url, categories, attempts - 1, cpuSlowdown);
      throw new Error(`Lighthouse: ${result.lhr.runtimeError.message}`);
    }
    const audits = result.lhr.audits;
    const failing = Object.values(result.lhr.categories).flatMap((category) =>
      category.auditRefs
        .filter((ref) => ref.weight > 0 && (audits[ref.id]?.score ?? 1) < 1)
        .map((ref) => `${category.id}/${ref.id} ${audits[ref.id]?.score ?? ''}`),
    );
    const summary = (audits['resource-summary']?.details as { items?: ResourceRow[] } | undefined)?.items;
    const script = summary?.find((row) => row.resourceType === 'script');
    return {
      benchmarkIndex: Math.round(result.lhr.environment.benchmarkIndex),
      cpuSlowdown,
      failing,
      scripts: { requests: script?.requestCount ?? 0, transferBytes: script?.transferSize ?? 0 },
      report: result.lhr,
      scores: Object.fromEntries(
        Object.entries(result.lhr.categories).map(([name, category]) => [
          name,
          Math.round((category.score ?? 0) * 100),
        ]),
      ),
      timings: {
        fcp: audits['first-contentful-paint']?.numericValue,
        lcp: audits['largest-contentful-paint']?.numericValue,
        tbt: audits['total-blocking-time']?.numericValue,
      },
    };
  } finally {
    chrome.kill();
  }
}
