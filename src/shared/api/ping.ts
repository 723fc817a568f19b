import { z } from 'zod';
import { domainIssue } from './contract';

/**
 * The connection pinger's call (social §4, §7, §9):
 *
 *   POST /v1/webonly/ping   {}   → 200 {status: 'ok', time}   the server and its store answer
 *
 * The spec sends an empty JSON body and shows nothing of the answer; ours is the server's time (so a
 * client could see its clock skew) and the word ok. A store that does not answer is 503 1503, whose
 * text the banner shows as its detail. No anti-forgery token: it reads nothing and writes nothing.
 */
export { PING_ERROR_INTERVAL_MS, PING_INTERVAL_MS, PING_MIN_CUSTOM_INTERVAL_MS, PING_PATH } from './wire';

/**
 * `{}` or no body at all. Any field is refused (19401) naming the first one: the call takes none, and
 * a client sending some is not the pinger it thinks it is talking to.
 */
export const pingRequestSchema = z
  .record(z.string(), z.unknown())
  .superRefine((body, context) => {
    const [first] = Object.keys(body);
    if (first !== undefined) context.addIssue(domainIssue('pingBodyNotEmpty', { field: first }, [first]));
  })
  .nullish()
  .meta({ description: 'an empty JSON object (or no body)' });

export const pingAnswerSchema = z.object({
  status: z.literal('ok'),
  time: z.iso.datetime().meta({ description: "the server's clock (UTC, ISO 8601) when it answered" }),
});
export type PingAnswer = z.infer<typeof pingAnswerSchema>;
