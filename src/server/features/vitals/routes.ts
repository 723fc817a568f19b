import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import rateLimit from '@fastify/rate-limit';
import {
  DEFAULT_VITALS_DAYS,
  MAX_VITALS_DAYS,
  VITALS_PATH,
  vitalsQuerySchema,
  vitalsRecordedSchema,
  vitalsReportSchema,
  vitalsSummarySchema,
} from '../../../shared/api/vitals';
import type { Limits } from '../../http/rate-limits';
import { errorResponses } from '../../openapi/errors';
import type { Store } from '../../store/store';
import { VitalsService } from './service';

/**
 * One page view sends one report when it is hidden (and again if it comes back from the back-forward
 * cache and is hidden again): 30 a minute from one address is far above a person browsing, and stops
 * a script from skewing the figures.
 */
export const VITALS_REPORT_LIMIT = { max: 30, timeWindow: 60_000 };

/**
 * Real-user timings (issue 23): the pages' Core Web Vitals, counted (service.ts) and logged, and the
 * sums read back, so a deployment's own visitors check the README's laboratory figures.
 */
export const vitalsRoutes: FastifyPluginAsyncZod<{ store: Store; limits: Limits }> = async (
  app,
  { store, limits },
) => {
  const vitals = new VitalsService(store);
  await app.register(rateLimit, limits.plugin());

  app.post(
    VITALS_PATH,
    {
      // sent by navigator.sendBeacon as the page is hidden: no custom header can ride on it, and it
      // writes only anonymous counts
      config: { antiforgery: false, rateLimit: VITALS_REPORT_LIMIT },
      schema: {
        summary: "Report a page view's Core Web Vitals",
        description:
          'Sent by every page as it is hidden, with the metrics `web-vitals` measured (LCP, FCP, CLS, INP, TTFB; milliseconds but CLS). The page path is reduced to its screen; nothing else of it is kept. At most 30 a minute from one address.',
        tags: ['vitals'],
        body: vitalsReportSchema,
        response: {
          202: vitalsRecordedSchema,
          ...errorResponses(
            'badRequest',
            'invalidField',
            'vitalOutOfRange',
            'unsupportedMediaType',
            'rateLimited',
          ),
        },
      },
    },
    async (request, reply) => {
      const recorded = await vitals.record(request.body);
      request.log.info(
        {
          vitals: {
            screen: recorded.screen,
            ...Object.fromEntries(request.body.metrics.map((metric) => [metric.name, metric.value])),
          },
        },
        'web vitals',
      );
      reply.header('Cache-Control', 'no-store');
      return reply.code(202).send(recorded);
    },
  );

  app.get(
    VITALS_PATH,
    {
      schema: {
        summary: 'Core Web Vitals of real page views, per screen',
        description: `Over the last \`days\` days (${DEFAULT_VITALS_DAYS} unless said, at most ${MAX_VITALS_DAYS}; today, UTC, included): per screen and metric, the number of page views, the 50th, 75th and 95th percentiles (within 2.5%) and the shares rated good, needs improvement and poor. Screens with the most page views first.`,
        tags: ['vitals'],
        querystring: vitalsQuerySchema,
        response: {
          200: vitalsSummarySchema,
          ...errorResponses('invalidField'),
        },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return vitals.summary(request.query.days);
    },
  );
};
