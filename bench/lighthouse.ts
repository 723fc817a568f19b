/**
 * Lighthouse benchmark of the full-screen point page:
 * `npm run bench:lighthouse -- [--runs 3] [--pages ours|peer|both] [--json DIR]`.
 * The point audited has a picture and a site its owner wrote, with pictures (issue 20).
 *
 * Starts the real server (as the browser journeys do: the current build, 2,000 demo points) and
 * audits, in headless Debian Chromium with Lighthouse's default phone profile (a slow network and a
 * 4x slower CPU, simulated), alternately:
 * - ours: the full-screen page /f/{id}, rendered on the server and hydrated by its own small entry;
 * - peer: the same point in the app, /b/{id}: the map and the side panel, rendered in the browser.
 * Each is audited `--runs` times; the median of every score and timing is printed with ratios, and the
 * JavaScript the page loaded (requests, KB transferred). `--pages ours` audits only the full-screen
 * page; `--json DIR` writes each run's whole Lighthouse report there (DIR/ours-1.json...) to read
 * what costs the time (main-thread work, unused JavaScript, the LCP element). The simulated timings
 * grow with other work on the machine: each run prints the load average; run it on a quiet one.
 */
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { openStore } from '../src/server/store/store';
import { startServer } from '../test/e2e/support/server';
import { lighthouseAudit } from '../test/support/lighthouse';

function arg(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? (process.argv[at + 1] as string) : fallback;
}
const RUNS = Math.max(1, Number(arg('runs', '3')));
const PAGES = arg('pages', 'both');
if (!['ours', 'peer', 'both'].includes(PAGES)) throw new Error('--pages is ours, peer or both');
const JSON_DIR = arg('json', '');

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

async function main(): Promise<void> {
  const load = os.loadavg();
  const server = await startServer({ seed: 2000 });
  try {
    const store = await openStore({ dataDir: server.dataDir });
    // a business with a picture and a site its owner wrote with pictures (issue 20): the page with
    // the most to show (the seeded sites' businesses hold no events)
    const point = await store.db
      .selectFrom('points')
      .innerJoin('websites', 'websites.point_id', 'points.id')
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('website_part_pictures')
            .select('website_part_pictures.point_id')
            .whereRef('website_part_pictures.point_id', '=', 'points.id'),
        ),
      )
      .select(['points.id', 'points.supertype'])
      .where('points.supertype', '=', 'business')
      .where('points.url_cover_image', 'is not', null)
      .limit(1)
      .executeTakeFirstOrThrow();
    await store.close();
    const pages = [
      {
        key: 'ours',
        label: `ours: /f/${point.id} (rendered on the server)`,
        url: `${server.url}/f/${point.id}`,
      },
      {
        key: 'peer',
        label: `peer: /b/${point.id} (the app, rendered in the browser)`,
        url: `${server.url}/b/${point.id}`,
      },
    ].filter((page) => PAGES === 'both' || page.key === PAGES);
    if (JSON_DIR) fs.mkdirSync(JSON_DIR, { recursive: true });
    const audits = pages.map(() => [] as Awaited<ReturnType<typeof lighthouseAudit>>[]);
    for (let run = 0; run < RUNS; run++)
      for (const [i, page] of pages.entries()) {
        const loadBefore = os.loadavg()[0] ?? NaN;
        const audit = await lighthouseAudit(page.url, ['performance', 'accessibility', 'seo']);
        audits[i]?.push(audit);
        if (JSON_DIR)
          fs.writeFileSync(path.join(JSON_DIR, `${page.key}-${run + 1}.json`), JSON.stringify(audit.report));
        process.stdout.write(
          `run ${run + 1} ${page.label} (load ${loadBefore.toFixed(1)}): ${JSON.stringify(audit.scores)}, ` +
            `LCP ${audit.timings.lcp?.toFixed(0)} ms, TBT ${audit.timings.tbt?.toFixed(0)} ms, ` +
            `JS ${audit.scripts.requests} requests ${(audit.scripts.transferBytes / 1024).toFixed(1)} KB; ` +
            `not passed: ${audit.failing.join(', ') || 'none'}\n`,
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
        jsKb: pick((a) => a.scripts.transferBytes) / 1024,
      };
    });
    const [ours, peer] = rows;
    process.stdout.write(
      `\nLighthouse (phone profile, simulated), median of ${RUNS} runs, ${os.cpus().length} cores, ` +
        `load average ${load.map((l) => l.toFixed(1)).join(' ')} at start, ` +
        `${os
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')} at the end\n`,
    );
    process.stdout.write(
      '| page | performance | accessibility | SEO | FCP ms | LCP ms | TBT ms | JS KB sent |\n|---|---:|---:|---:|---:|---:|---:|---:|\n',
    );
    for (const r of rows)
      process.stdout.write(
        `| ${r.label} | ${r.performance} | ${r.accessibility} | ${r.seo} | ${r.fcp.toFixed(0)} | ${r.lcp.toFixed(0)} | ${r.tbt.toFixed(0)} | ${r.jsKb.toFixed(1)} |\n`,
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
