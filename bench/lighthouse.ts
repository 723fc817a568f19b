/**
 * Lighthouse benchmark of the full-screen point page: `npm run bench:lighthouse -- [--runs 3]`.
 *
 * Starts the real server (as the browser journeys do: the current build, 2,000 demo points) and
 * audits, in headless Debian Chromium with Lighthouse's default phone profile (a slow network and a
 * 4x slower CPU, simulated), alternately:
 * - ours: the full-screen page /f/{id}, rendered on the server and hydrated by its own small entry;
 * - peer: the same point in the app, /b/{id}: the map and the side panel, rendered in the browser.
 * Each is audited `--runs` times; the median of every score and timing is printed with ratios. The
 * simulated timings grow with other work on the machine: run it on a quiet one.
 */
import os from 'node:os';
import { openStore } from '../src/server/store/store';
import { startServer } from '../test/e2e/support/server';
import { lighthouseAudit } from '../test/support/lighthouse';

function arg(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? (process.argv[at + 1] as string) : fallback;
}
const RUNS = Math.max(1, Number(arg('runs', '3')));

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

async function main(): Promise<void> {
  const load = os.loadavg();
  const server = await startServer({ seed: 2000 });
  try {
    const store = await openStore({ dataDir: server.dataDir });
    // a business with a picture and events: the page with the most to show
    const point = await store.db
      .selectFrom('points')
      .innerJoin('events', 'events.xpoint_id', 'points.id')
      .select(['points.id', 'points.supertype'])
      .where('points.supertype', '=', 'business')
      .where('points.url_cover_image', 'is not', null)
      .limit(1)
      .executeTakeFirstOrThrow();
    await store.close();
    const pages = [
      { label: `ours: /f/${point.id} (rendered on the server)`, url: `${server.url}/f/${point.id}` },
      {
        label: `peer: /b/${point.id} (the app, rendered in the browser)`,
        url: `${server.url}/b/${point.id}`,
      },
    ];
    const audits = pages.map(() => [] as Awaited<ReturnType<typeof lighthouseAudit>>[]);
    for (let run = 0; run < RUNS; run++)
      for (const [i, page] of pages.entries()) {
        const audit = await lighthouseAudit(page.url, ['performance', 'accessibility', 'seo']);
        audits[i]?.push(audit);
        process.stdout.write(
          `run ${run + 1} ${page.label}: ${JSON.stringify(audit.scores)}; not passed: ${audit.failing.join(', ') || 'none'}\n`,
        );
      }
    const rows = pages.map((page, i) => {
      const runs = audits[i] ?? [];
      const pick = (f: (a: (typeof runs)[number]) => number | undefined) =>
        median(runs.map((a) => f(a) ?? NaN));
      return {
        label: page.label,
        performance: pick((a) => a.scores.performance),
        accessibility: pick((a) => a.scores.accessibility),
        seo: pick((a) => a.scores.seo),
        fcp: pick((a) => a.timings.fcp),
        lcp: pick((a) => a.timings.lcp),
        tbt: pick((a) => a.timings.tbt),
      };
    });
    const [ours, peer] = rows;
    process.stdout.write(
      `\nLighthouse (phone profile, simulated), median of ${RUNS} runs, ${os.cpus().length} cores, ` +
        `load average ${load.map((l) => l.toFixed(1)).join(' ')} at start\n`,
    );
    process.stdout.write(
      '| page | performance | accessibility | SEO | FCP ms | LCP ms | TBT ms |\n|---|---:|---:|---:|---:|---:|---:|\n',
    );
    for (const r of rows)
      process.stdout.write(
        `| ${r.label} | ${r.performance} | ${r.accessibility} | ${r.seo} | ${r.fcp.toFixed(0)} | ${r.lcp.toFixed(0)} | ${r.tbt.toFixed(0)} |\n`,
      );
    if (ours && peer)
      process.stdout.write(
        `\nthe peer's LCP is ${(peer.lcp / ours.lcp).toFixed(2)}x ours, its TBT ${(peer.tbt / Math.max(1, ours.tbt)).toFixed(2)}x; budget: every score of ours >= 90\n`,
      );
  } finally {
    await server.stop();
  }
}

await main();
