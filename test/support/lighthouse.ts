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

/**
 * Audits `url` with Lighthouse (its default: a phone on a slow network, simulated) in a headless
 * Debian Chromium of its own.
 */
export async function lighthouseAudit(
  url: string,
  categories: LighthouseCategory[],
  attempts = 2,
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
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    if (result.lhr.runtimeError) {
      // a trace Chromium failed to record (NO_NAVSTART and the like) says nothing of the page: once more
      if (attempts > 1) return await lighthouseAudit(url, categories, attempts - 1);
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
