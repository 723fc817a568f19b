import { z } from 'zod';
import { VIDEO_MAX_LABEL } from '../../../shared/api/videos';
import { errorResponses } from '../../openapi/errors';
import type { RouteDocs } from '../../openapi/external';

/**
 * The document of the tus routes (features/videos/routes.ts), which speak the tus 1.0.0 protocol
 * (headers, empty bodies) and have no zod contract: read only by the OpenAPI document, as
 * openapi/external.ts does for /media/{key}.
 */

const tusHeaders = 'Send `Tus-Resumable: 1.0.0` on every request (tus-js-client does).';
const params = z.object({ id: z.string().meta({ description: 'the upload id (32 hex characters)' }) });
/** An answer with no body: what it says is in its headers. */
const empty = (description: string) => z.null().meta({ description });
const who =
  'Signed in only (the session cookie with the `RequestVerificationToken` header, or `Authorization: appnettoken`); a visitor is answered 401 before any of the body is read, and an upload of someone else 404.';

export const UPLOAD_ROUTE_DOCS: Record<'POST' | 'HEAD' | 'PATCH' | 'DELETE', RouteDocs> = {
  POST: {
    summary: 'Start a resumable video upload (tus creation)',
    description: `${tusHeaders} \`Upload-Length\` is the file's size, 1 byte to ${VIDEO_MAX_LABEL} (0 answers 7033, more 7031 'Invalid video file size. Max allowed ${VIDEO_MAX_LABEL}'); \`Upload-Metadata\` is optional. Answers 201 with \`Location: /v1/uploads/video/{id}\`; the id is the video's. At most 30 uploads per person in 30 minutes. ${who}`,
    tags: ['media'],
    response: {
      201: empty('created: `Location` names the upload'),
      ...errorResponses(
        'videoUploadLength',
        'videoEmpty',
        'invalidVideoSize',
        'unauthorized',
        'antiforgeryMissing',
        'rateLimited',
      ),
    },
  },
  HEAD: {
    summary: 'How much of a video upload the server has (tus)',
    description: `${tusHeaders} Answers 200 with \`Upload-Offset\` (resume from there) and \`Upload-Length\`. ${who}`,
    tags: ['media'],
    params,
    response: {
      200: empty('`Upload-Offset` and `Upload-Length`'),
      ...errorResponses('videoNotFound', 'unauthorized'),
    },
  },
  PATCH: {
    summary: 'Send the next bytes of a video upload (tus)',
    description: `${tusHeaders} \`Content-Type: application/offset+octet-stream\`, \`Upload-Offset\` = the server's offset. Answers 204 with the new offset. The request that completes the file probes it (ffprobe): its answer carries \`X-Video-State: ready\` (an H.264/AAC MP4, kept as it is) or \`queued\` (transcoded in the background; poll GET /v1/videos/{id}), or 422 (7050) when the file is not a video one can post (no picture, unreadable), with the reason. ${who}`,
    tags: ['media'],
    params,
    consumes: ['application/offset+octet-stream'],
    response: {
      204: empty('the bytes were written: `Upload-Offset`'),
      ...errorResponses('videoNotFound', 'videoNotPlayable', 'unauthorized', 'antiforgeryMissing'),
    },
  },
  DELETE: {
    summary: 'Cancel a video upload (tus termination)',
    description: `${tusHeaders} The bytes received so far and the upload are forgotten. ${who}`,
    tags: ['media'],
    params,
    response: {
      204: empty('cancelled'),
      ...errorResponses('videoNotFound', 'unauthorized', 'antiforgeryMissing'),
    },
  },
};
