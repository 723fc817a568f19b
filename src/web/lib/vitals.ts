import type { Metric } from 'web-vitals';
import { onCLS, onFCP, onINP, onLCP, onTTFB } from 'web-vitals';
import { MAX_METRICS_PER_REPORT, VITALS_PATH } from '../../shared/vitals';

/**
 * Reports this page view's Core Web Vitals to the server (issue 23; src/server/features/vitals): the
 * metrics `web-vitals` measures, sent in one beacon each time the page is hidden (a tab switched, the
 * page left or closed), as web.dev advises, since a page may never be unloaded on a phone. Loaded once
 * the browser is idle (startWebVitals): web-vitals reads the buffered performance entries, so a late
 * start misses nothing. `page` is the path the visit landed on, which LCP, FCP and TTFB belong to; the
 * server keeps only its screen.
 */
export function listenForWebVitals(page: string): void {
  const queue = new Map<string, { name: Metric['name']; value: number }>();
  // each metric's latest value, by its id: CLS and INP report again after a back-forward-cache return
  const add = (metric: Metric) => queue.set(metric.id, { name: metric.name, value: metric.value });
  onTTFB(add);
  onFCP(add);
  onLCP(add);
  onCLS(add);
  onINP(add);
  // registered after web-vitals' own listeners, so the metrics they report on hiding are queued first
  const flush = () => {
    if (queue.size === 0) return;
    const metrics = [...queue.values()].slice(0, MAX_METRICS_PER_REPORT);
    queue.clear();
    const body = new Blob([JSON.stringify({ page, metrics })], { type: 'application/json' });
    navigator.sendBeacon(VITALS_PATH, body);
  };
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flush();
  });
  window.addEventListener('pagehide', flush);
  // <html data-vitals="listening"> once web-vitals has read the LCP entries buffered before it loaded:
  // its observer's callback runs before this one's, in the same task. Until then a page left at once
  // would report no LCP (the journeys wait for it; a person never leaves that fast).
  const supported = PerformanceObserver.supportedEntryTypes.includes('largest-contentful-paint');
  if (!supported) document.documentElement.dataset['vitals'] = 'listening';
  else {
    const read = new PerformanceObserver(() => {
      read.disconnect();
      document.documentElement.dataset['vitals'] = 'listening';
    });
    read.observe({ type: 'largest-contentful-paint', buffered: true });
  }
}
