import { describe, expect, test } from 'vitest';
import { DESKTOP } from './support/browser';
import { startJourney } from './support/journey';

/**
 * The API reference (issue 15): /docs renders the OpenAPI document with swagger-ui served from the
 * server itself. Every request the page makes goes to the server and succeeds, and it logs no error.
 */
describe('the API reference at /docs', () => {
  const journey = startJourney({ seed: 0 });

  test('shows the calls, search first among its tags, with nothing fetched from elsewhere', async () => {
    const origin = new URL(journey.url('/')).origin;
    const requests: string[] = [];
    const failed: string[] = [];
    journey.browser.context.on('request', (request) => {
      if (!request.url().startsWith('data:')) requests.push(request.url());
    });
    journey.browser.context.on('requestfailed', (request) =>
      failed.push(`${request.url()} ${request.failure()?.errorText}`),
    );
    journey.browser.context.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.url()} ${response.status()}`);
    });

    const { page, errors } = await journey.browser.open(journey.url('/docs'), DESKTOP);
    const suggestions = page.locator('.opblock-summary-path', { hasText: '/v1/app/searchsuggestions' });
    await suggestions.waitFor({ state: 'visible', timeout: 30_000 });
    expect(await page.locator('.opblock-tag').first().textContent()).toMatch(/^search/);

    // opening the call shows its request body and its catalogue errors
    await suggestions.click();
    const operation = page.locator('#operations-search-post_v1_app_searchsuggestions');
    await operation
      .getByText('5001 searchQueryInvalid', { exact: false })
      .first()
      .waitFor({ state: 'visible' });
    await page.screenshot({ path: '/tmp/docs.png', animations: 'disabled' });

    expect(await page.title()).toBe('Swagger UI');
    expect(await page.locator('.info .title').textContent()).toContain('XPoint API');
    expect(failed).toEqual([]);
    expect(requests.filter((url) => !url.startsWith(origin))).toEqual([]);
    expect(errors).toEqual([]);
  });
});
