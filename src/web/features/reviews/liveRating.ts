import { useEffect, useRef, useState } from 'react';
import { socialTopic } from '../../../shared/api/social-live';
import { whenIdle } from '../../lib/idle';
import { retryImport } from '../../lib/retryImport';

/** What a rating line shows: map-and-search §3's average/20 with one decimal, and the count. */
export interface RatingLine {
  rating_display?: string | null | undefined;
  rating_count: number;
}

/**
 * The change event's reader (./ratingChange, with the reviews contract and its zod schemas) loads with
 * the live client, after hydration once the browser is idle: the full-screen page's first script and
 * its hydration do without both. If the device is offline by then, the load waits for it to be back.
 */
const loadListener = () =>
  whenIdle().then(() =>
    retryImport(() => Promise.all([import('../../live/socialTopic'), import('./ratingChange')])),
  );

/**
 * The point's rating as it stands now: what the page was given, then each reviews change heard on
 * `social:X:{id}` (the change event carries the new average and count, so nothing is fetched). When
 * the page is given newer values (the panel fetches the details again) those show. Listens only in the
 * browser, after hydration (an effect), so the server's markup and the first render agree; the live
 * client (phoenix) is imported then, which keeps it out of the full-screen page's first script.
 */
export function useLiveRating<P extends RatingLine & { id: string }>(point: P): P {
  const given = `${point.id}|${point.rating_display ?? ''}|${point.rating_count}`;
  const latestGiven = useRef(given);
  const [heard, setHeard] = useState<{ given: string; line: Required<RatingLine> } | null>(null);
  useEffect(() => {
    latestGiven.current = given;
  }, [given]);
  useEffect(() => {
    let leave: (() => void) | undefined;
    let left = false;
    loadListener().then(
      ([{ subscribeSocialTopic }, { REVIEWS_LIVE_KIND, ratingOfChange }]) => {
        if (left) return;
        leave = subscribeSocialTopic(socialTopic('X', point.id), (message) => {
          if (message.kind !== REVIEWS_LIVE_KIND) return;
          const line = ratingOfChange(message.data);
          if (line) setHeard({ given: latestGiven.current, line });
        });
      },
      // never loaded (offline through every retry): the rating stays as the page was served
      () => undefined,
    );
    return () => {
      left = true;
      leave?.();
    };
  }, [point.id]);
  return heard !== null && heard.given === given ? { ...point, ...heard.line } : point;
}
