/**
 * Lighthouse benchmark of XPoint's pages:
 * `npm run bench:lighthouse -- [--runs 3] [--pages LIST] [--json DIR]`.
 *
 * Starts the real server (as the browser journeys do: the current build, 2,000 demo points) behind the
 * bare-MapLibre proxy (bench/bare-maplibre.ts; every page goes through the same hop) and audits, in
 * headless Debian Chromium with Lighthouse's default phone profile (a slow network and a 4x slower
 * CPU, simulated), in turn, each page of LIST (comma-separated keys):
 * - ours: the full-screen page /f/{id} of a business with a picture and a site its owner wrote
 *   (issue 20), rendered on the server and hydrated by its own small entry;
 * - peer (or point): the same point in the app, /b/{id}: the map and the side panel;
 * - home: the landing page /; maps: the map alone, /maps; search: a search page, /search/coffee
 *   (issue 23's pages);
 * - bare: a bare MapLibre page on the same style and tiles (issue 23's peer for the app's pages).
 * `both` (the default) is ours,peer; `all` is every page. Each is audited `--runs` times; the median
 * of every score and timing is printed, the app pages' LCP as a ratio of the bare page's when both
 * ran, and the JavaScript each page loaded (requests, KB transferred). `--json DIR` writes each run's
 * whole Lighthouse report there (DIR/ours-1.json...) to read what costs the time. The simulated
 * timings grow with other work on the machine: each run prints the load average; run it on a quiet
 * one.
 */
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { openStore } from '../src/server/store/store';
import { startServer } from '../test/e2e/support/server';
import { lighthouseAudit } from '../test/support/lighthouse';
import { BARE_PAGE_PATH, startBareMaplibreProxy } from './bare-maplibre';

function arg(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? (process.argv[at + 1] as string) : fallback;
}
const RUNS = Math.max(1, Number(arg('runs', '3')));
const PAGE_KEYS = ['ours', 'peer', 'home', 'maps', 'search', 'bare'] as const;
type PageKey = (typeof PAGE_KEYS)[number];
const PAGES: PageKey[] = (() => {
  const given = arg('pages', 'both');
  if (given === 'both') return ['ours', 'peer'];
  if (given === 'all') return [...PAGE_KEYS];
  const keys = given.split(',').map((key) => (key === 'point' ? 'peer' : key));
  const unknown = keys.filter((key) => !(PAGE_KEYS as readonly string[]).includes(key));
  if (unknown.length > 0 || keys.length === 0)
    throw new Error(`--pages takes both, all or a list of ${PAGE_KEYS.join(', ')} (point for peer)`);
  return keys as PageKey[];
})();
/** The app's pages, compared with the bare MapLibre page's LCP (issue 23: at most 0.6x). */
const APP_PAGES: readonly PageKey[] = ['peer', 'home', 'maps', 'search'];
const JSON_DIR = arg('json', '');

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

async function main(): Promise<void> {
  const load = os.loadavg();
  const server = await startServer({ seed: 2000 });
  const proxy = await startBareMaplibreProxy(server.url);
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
    const all: Record<PageKey, { label: string; url: string }> = {
      ours: { label: `ours: /f/${point.id} (rendered on the server)`, url: `${proxy.url}/f/${point.id}` },
      peer: { label: `point: /b/${point.id} (the app)`, url: `${proxy.url}/b/${point.id}` },
      home: { label: 'home: / (the app)', url: `${proxy.url}/` },
      maps: { label: 'maps: /maps (the app)', url: `${proxy.url}/maps` },
      search: { label: 'search: /search/coffee (the app)', url: `${proxy.url}/search/coffee` },
      bare: { label: 'bare MapLibre page, same style and tiles', url: `${proxy.url}${BARE_PAGE_PATH}` },
    };
    const pages = PAGES.map((key) => ({ key, ...all[key] }));
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
          `run ${run + 1} ${page.label} (load ${loadBefore.toFixed(1)}, CPU benchmark index ${audit.benchmarkIndex}): ` +
            `${JSON.stringify(audit.scores)}, ` +
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
    const row = (key: PageKey) => rows[pages.findIndex((page) => page.key === key)];
    const [ours, peer, bare] = [row('ours'), row('peer'), row('bare')];
    if (ours && peer)
      process.stdout.write(
        `\nthe app's LCP for the point is ${(peer.lcp / ours.lcp).toFixed(2)}x the full-screen page's, its TBT ${(peer.tbt / Math.max(1, ours.tbt)).toFixed(2)}x; budget: every score of ours >= 90\n`,
      );
    if (bare)
      for (const key of APP_PAGES) {
        const app = row(key);
        if (app)
          process.stdout.write(
            `${app.label}: LCP ${(app.lcp / bare.lcp).toFixed(2)}x the bare MapLibre page's (budget <= 0.6x, performance >= ${key === 'maps' ? 80 : 90})\n`,
          );
      }
  } finally {
    await proxy.close();
    await server.stop();
  }
}

await main();
