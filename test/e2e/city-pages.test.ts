import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { newPoint } from '../support/factories';
import {
  calibratedCpuSlowdown,
  DEFAULT_CPU_SLOWDOWN,
  lighthouseAudit,
  type LighthouseAudit,
} from '../support/lighthouse';
import { jsonLdOf, schemaOrgProblems } from '../support/schemaOrg';
import { DESKTOP, MOBILE, type Viewport } from './support/browser';
import type { PageDocument } from './support/globals';
import { startJourney } from './support/journey';
import { userId } from './support/store';

/**
 * The city deals page and the event page (issue 19), as a person meets them: /cads/lisbon-pt comes
 * rendered from the server with Lisbon's posts hot first, its events and its most visited place; the
 * browser takes it over (the category links filter in place) and a post opens in the app; the event
 * page shows its tickets and their totals and leads to the event on the app's map; with JavaScript
 * off both still say everything and their JSON-LD is schema.org's; an unknown city offers a search;
 * Lighthouse's phone profile scores both. Screenshots at 375 and 1280 px go to .tmp/ (or SHOTS_DIR).
 */
const CITY = 'lisbon-pt';
const EVENT = 'lisbon_fado_night';
const EVENT_TITLE = 'Fado Night at the Quay';
const PLACE = 'lisbon_tram_museum';
const PLACE_TITLE = 'Carris Tram Museum';
const GIG = 'c1d2e3f4-0000-4000-8000-00000000a001';
const GIG_TITLE = 'Guitarist wanted for Friday fado';
const DEAL = 'c1d2e3f4-0000-4000-8000-00000000a002';
const DEAL_TITLE = 'Pastéis de nata, two for one';
const MIN = 60_000;
const SHOTS = process.env['SHOTS_DIR'] ?? path.resolve('.tmp');

/** The page's global the width check reads (the node typecheck has no DOM library). */
declare const document: PageDocument;

async function shot(page: Page, name: string): Promise<void> {
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, animations: 'disabled', fullPage: true });
}

const mainText = (page: Page) => page.locator('main').innerText();

describe('the city page and the event page', () => {
  const journey = startJourney({
    seed: 60,
    prepare: async (store) => {
      const olivia = await userId(store, 'olivia');
      const carlos = await userId(store, 'carlos');
      const now = Date.now();
      const lisbon = await store.db
        .selectFrom('cities')
        .select(['id', 'lat', 'lon'])
        .where('city_forurl', '=', CITY)
        .executeTakeFirstOrThrow();
      const post = (id: string, user: string, title: string, type: string, hoursOld: number) => ({
        id,
        user_id: user,
        title,
        description: `${title}: ask at the counter, Rua Augusta.`,
        type,
        city_id: lisbon.id,
        xpoint_id: null,
        parent_type: null,
        image_url: null,
        image_variants: null,
        image_placeholder: null,
        video_url: null,
        file_resource_bitmask: 0,
        expires_at: null,
        created_at: now - hoursOld * 3_600_000,
        updated_at: now - hoursOld * 3_600_000,
        listed_at: now - hoursOld * 3_600_000,
        hidden_at: null,
      });
      await store.db
        .insertInto('posts')
        .values([post(GIG, carlos, GIG_TITLE, 'gig', 1), post(DEAL, olivia, DEAL_TITLE, 'deal', 2)])
        .execute();
      await store.db
        .insertInto('points')
        .values(
          newPoint({
            id: PLACE,
            title: PLACE_TITLE,
            supertype: 'business',
            type: 'museum',
            city_id: lisbon.id,
            lat: Number(lisbon.lat),
            lon: Number(lisbon.lon),
            stats_this_month: 99_000,
            stats_total: 400_000,
          }),
        )
        .execute();
      await store.db
        .insertInto('events')
        .values({
          id: EVENT,
          xpoint_id: PLACE,
          owner_userid: olivia,
          title: EVENT_TITLE,
          type: 'music',
          start_date: now + 90 * MIN,
          end_date: now + 240 * MIN,
          lat: Number(lisbon.lat),
          lon: Number(lisbon.lon),
          city_id: lisbon.id,
          full_address: 'Cais do Sodré 12',
          admission: 'paid',
          admissionprice: 12.5,
          description: 'Three fadistas and a guitarra portuguesa by the river.',
          created_at: now,
          updated_at: now,
        })
        .execute();
      await store.db
        .insertInto('event_intervals')
        .values({ event_id: EVENT, start_at: now + 90 * MIN, end_at: now + 240 * MIN })
        .execute();
      await store.db
        .insertInto('event_tickets')
        .values({ event_id: EVENT, name: 'Standard', unit_price: 12.5, max_quantity: 4 })
        .execute();
    },
  });

  for (const [label, viewport] of [
    ['1280', DESKTOP],
    ['375', MOBILE],
  ] as [string, Viewport][])
    test(`given /cads/${CITY} (${label} px), when the page is taken over, then the category links filter in place and a post opens in the app`, async () => {
      const { server, browser } = journey;
      const { page, errors } = await browser.open(`${server.url}/cads/${CITY}`, viewport);
      await page.getByRole('heading', { level: 1, name: 'Deals and posts in Lisbon' }).waitFor();
      expect(await page.title()).toBe('Deals and posts in Lisbon — XPoint');
      const hot = page.getByRole('region', { name: 'Hot in Lisbon' });
      await hot.getByRole('link', { name: GIG_TITLE }).waitFor();
      const text = await mainText(page);
      for (const expected of [DEAL_TITLE, EVENT_TITLE, PLACE_TITLE, '99,000 visits this month'])
        expect(text).toContain(expected);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
      await shot(page, `city-page-${label}`);

      // taken over by the browser: a category link shows that category alone
      const categories = page.getByRole('region', { name: 'By category' });
      const gigs = categories.getByRole('link', { name: /^Gigs/ });
      await expect
        .poll(async () => {
          await gigs.click();
          return gigs.getAttribute('aria-current');
        })
        .toBe('true');
      expect(await categories.getByRole('heading', { level: 3 }).allInnerTexts()).toEqual(['Gigs']);
      await categories.getByRole('link', { name: 'All', exact: true }).click();
      expect((await categories.getByRole('heading', { level: 3 }).allInnerTexts()).length).toBeGreaterThan(1);

      // a post opens in the app: the map with the post in its modal
      await hot.getByRole('link', { name: GIG_TITLE }).click();
      await page.waitForURL(`${server.url}/post/${GIG}`);
      await page.locator('dialog.posts-modal').getByRole('heading', { name: GIG_TITLE }).waitFor();
      expect(errors).toEqual([]);
      await page.close();
    });

  test('given the city page’s event, when it opens, then /e/{id} shows its tickets with totals and leads to the event on the map', async () => {
    const { server, browser } = journey;
    const { page, errors } = await browser.open(`${server.url}/cads/${CITY}`, MOBILE);
    await page
      .getByRole('region', { name: 'Events on now and soon' })
      .getByRole('link', { name: EVENT_TITLE })
      .click();
    await page.waitForURL(`${server.url}/e/${EVENT}`);
    await page.getByRole('heading', { level: 1, name: EVENT_TITLE }).waitFor();
    expect(await page.title()).toBe(`${EVENT_TITLE} — XPoint`);
    const text = await mainText(page);
    for (const expected of [
      'Starts in 1 h 30 min',
      'Cais do Sodré 12',
      PLACE_TITLE,
      'Paid: 12.50',
      'Europe/Lisbon',
    ])
      expect(text.replace(/Starts in 1 h (29|30) min/, 'Starts in 1 h 30 min')).toContain(expected);
    // taken over: the ticket's total follows the quantity
    const tickets = page.getByRole('region', { name: 'Tickets' });
    await expect
      .poll(async () => {
        await tickets.getByLabel('Quantity').selectOption('3');
        return tickets.locator('output').innerText();
      })
      .toBe('3 × 12.50 = 37.50');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
    await shot(page, 'event-page-375');
    await page.setViewportSize(DESKTOP);
    await shot(page, 'event-page-1280');

    // the app's own way to an event stays its side panel on the map
    await page.getByRole('link', { name: 'Show on the map' }).click();
    await page.waitForURL(/\/maps\/data=/);
    await page
      .locator('aside.event-panel')
      .getByRole('heading', { name: EVENT_TITLE })
      .waitFor({ timeout: 60_000 });
    expect(errors).toEqual([]);
    await page.close();
  });

  test('given JavaScript is off, when /cads/{city} and /e/{id} open, then they say everything and their JSON-LD is schema.org', async () => {
    const { server, browser } = journey;
    const page = await browser.context.newPage();
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('Emulation.setScriptExecutionDisabled', { value: true });
    await page.setViewportSize(DESKTOP);

    await page.goto(`${server.url}/cads/${CITY}`);
    await page.getByRole('heading', { level: 1, name: 'Deals and posts in Lisbon' }).waitFor();
    const city = await mainText(page);
    for (const expected of [GIG_TITLE, DEAL_TITLE, EVENT_TITLE, PLACE_TITLE])
      expect(city).toContain(expected);
    const cityLd = jsonLdOf(await page.content());
    expect(cityLd[0]).toMatchObject({ '@type': 'ItemList' });
    expect(cityLd.slice(1).some((doc) => (doc as { name?: string }).name === EVENT_TITLE)).toBe(true);

    await page.getByRole('link', { name: EVENT_TITLE }).click();
    await page.getByRole('heading', { level: 1, name: EVENT_TITLE }).waitFor();
    const event = await mainText(page);
    for (const expected of ['Standard', '1 × 12.50 = 12.50', 'Three fadistas'])
      expect(event).toContain(expected);
    const eventLd = jsonLdOf(await page.content());
    expect(eventLd[0]).toMatchObject({
      '@type': 'Event',
      name: EVENT_TITLE,
      location: { '@type': 'Place', name: PLACE_TITLE, address: { streetAddress: 'Cais do Sodré 12' } },
      offers: [{ '@type': 'Offer', name: 'Standard', price: 12.5 }],
      organizer: { '@type': 'Organization', name: PLACE_TITLE },
    });
    expect(schemaOrgProblems([...cityLd, ...eventLd]).flat()).toEqual([]);
    await page.close();
  }, 120_000);

  test('given an unknown city, when /cads/{city} opens, then it answers 404 with a city search that finds the city', async () => {
    const { server, browser } = journey;
    const { page } = await browser.open(`${server.url}/cads/lisbn-pt`, MOBILE);
    await page.getByRole('heading', { level: 1, name: 'We do not know this city' }).waitFor();
    const response = await page.request.get(`${server.url}/cads/lisbn-pt`);
    expect(response.status()).toBe(404);
    await page.getByRole('searchbox', { name: 'City' }).fill('Lisb');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('heading', { level: 1, name: 'Cities starting with “Lisb”' }).waitFor();
    await shot(page, 'city-search-375');
    await page.getByRole('link', { name: 'Lisbon', exact: true }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Deals and posts in Lisbon' }).waitFor();
    expect((await page.request.get(`${server.url}/e/no_such_event`)).status()).toBe(404);
    await page.close();
  });

  for (const [name, address] of [
    ['the city page', `/cads/${CITY}`],
    ['the event page', `/e/${EVENT}`],
  ] as const)
    test(`given Lighthouse’s phone profile, when it audits ${name}, then performance is at least 90 (median of 3 runs) and accessibility, SEO and best practices at least 95`, async () => {
      // Performance is a timing, and a CI machine running other journeys moves it by 10 points from
      // one run to the next (81 and 95 for the same page): Lighthouse's own advice is the median of
      // several runs. Two runs on the same side of 90 settle the median of three.
      const audits: LighthouseAudit[] = [];
      const above = () => audits.filter((a) => (a.scores.performance ?? 0) >= 90).length;
      // Lighthouse's 4× is calibrated for a desktop CPU; on a host it calls slow the first audit finds
      // out, and the audits that count emulate the same phone on it (calibratedCpuSlowdown).
      let cpuSlowdown = DEFAULT_CPU_SLOWDOWN;
      while (audits.length < 3 && above() < 2 && audits.length - above() < 2) {
        const audit = await lighthouseAudit(
          journey.url(address),
          ['performance', 'accessibility', 'seo', 'best-practices'],
          2,
          cpuSlowdown,
        );
        console.log(
          `[e2e] Lighthouse of ${name} (CPU benchmark index ${audit.benchmarkIndex}, slowdown ${audit.cpuSlowdown}×):`,
          audit.scores,
          audit.timings,
          audit.failing,
        );
        const calibrated = calibratedCpuSlowdown(audit.benchmarkIndex);
        if (cpuSlowdown === DEFAULT_CPU_SLOWDOWN && calibrated < cpuSlowdown) {
          cpuSlowdown = calibrated;
          continue;
        }
        audits.push(audit);
      }
      const performance = audits.map((a) => a.scores.performance ?? 0).sort((a, b) => a - b);
      expect(
        performance[1],
        `performance over ${audits.length} runs: ${performance.join(', ')}; ${audits
          .map(
            (a) =>
              `index ${a.benchmarkIndex} at ${a.cpuSlowdown.toFixed(1)}×: ${JSON.stringify(a.timings)} ${a.failing.join(' ')}`,
          )
          .join('; ')}`,
      ).toBeGreaterThanOrEqual(90);
      for (const category of ['accessibility', 'seo', 'best-practices'] as const)
        expect(audits[0]?.scores[category], category).toBeGreaterThanOrEqual(95);
    }, 360_000);
});
