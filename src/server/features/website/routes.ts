import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import { bodyContract, multipartContract } from '../../../shared/api/contract';
import { AppError, type ErrorName } from '../../../shared/errors';
import { WEBSITE_CALLS, WEBSITE_PIC_FILE_FIELD } from '../../../shared/website';
import {
  deletePicRequestSchema,
  partsRequestSchema,
  reorderPicsRequestSchema,
  sectionRequestSchema,
  uploadPicFormSchema,
  websiteViewSchema,
  websiteWriteResponseSchema,
} from '../../../shared/website/api';
import { requireViewer } from '../../auth/hook';
import type { Limits } from '../../http/rate-limits';
import { receiveFile, readMultipartUpload, refuseUnreadBody } from '../../media/upload';
import type { MediaPlace } from '../../media/store';
import { errorResponses } from '../../openapi/errors';
import type { Store } from '../../store/store';
import { MAX_IMAGE_BYTES, MAX_IMAGE_LABEL, MEDIA_JSON_BODY_LIMIT_BYTES } from '../points/media';
import { staticSiteHtml, siteZip, type SiteFile } from './render';
import { WebsiteService } from './service';

/**
 * The owner's website (issue 20; social §2-§9). Thin: each route hands the body and the viewer to
 * the service (features/website/service.ts), which checks who may and what is valid.
 *
 *   POST /v1/xpoint/updatewebsitesection     controllers   {xpointid, part_idx, enabled, version?}
 *   POST /v1/xpoint/updatewebsiteparts       controllers   {xpointid, part_idx, fields: [{fieldname, fieldval}], version?}
 *   POST /v1/xpoint/deletewebsitepartpic     controllers   {xpointid, part_idx, pic_idx, version?}
 *   POST /v1/xpoint/updatewebsitepartpic     controllers   multipart: xpointid, partidx, picidx, version?, imgFile
 *   POST /v1/xpoint/reorderwebsitepartpics   controllers   {xpointid, part_idx, order: [pic_idx...], version?}
 *   GET  /v1/xpoint/{id}/website             anyone        the site: parts, what fills the empty ones, version
 *   GET  /v1/xpoint/{id}/website.zip         controllers   the site as a static folder (index.html, site.css, images/)
 * Every write answers {status: 'success', xpointid, version, part}. Controllers are the point's owner,
 * consultant and admins, by their session (the Authorization header's appnettoken, or the page's cookie
 * with its anti-forgery token); help requests and incidents have no site.
 */

/** Each signed-in person's website writes per window: an editor saves a part at a time, not thousands. */
export const WEBSITE_WRITE_LIMIT = { max: 300, timeWindow: 10 * 60_000 };

/** Fields of the picture form: xpointid, partidx, picidx, version. */
const UPLOAD_FIELDS = 6;
const UPLOAD_FIELD_BYTES = 256;

export const websiteRoutes: FastifyPluginAsyncZod<{
  store: Store;
  media: MediaPlace;
  limits: Limits;
}> = async (app, { store, media, limits }) => {
  const website = new WebsiteService(store, media);

  await app.register(
    rateLimit,
    limits.plugin({
      hook: 'preValidation',
      keyGenerator: (request) => (request.viewer ? `user:${request.viewer.id}` : `ip:${request.ip}`),
    }),
  );

  const writeErrors: ErrorName[] = [
    'unauthorized',
    'sessionInvalid',
    'antiforgeryMissing',
    'forbidden',
    'pointNotFound',
    'websiteNotForReports',
    'websitePartIndexInvalid',
    'conflict',
    'invalidField',
    'badRequest',
    'rateLimited',
  ];
  const write = (summary: string, body: z.ZodType, ...errors: ErrorName[]) => ({
    config: { rateLimit: WEBSITE_WRITE_LIMIT },
    schema: {
      summary,
      tags: ['website'],
      body: bodyContract(body),
      response: { 200: websiteWriteResponseSchema, ...errorResponses(...writeErrors, ...errors) },
    },
  });
  const bodyOf = (request: FastifyRequest) => (request.body ?? {}) as Record<string, unknown>;

  app.post(
    WEBSITE_CALLS.section,
    write('Switch a part (section) of the site on or off', sectionRequestSchema),
    (request) => website.setSection(request.viewer, bodyOf(request)),
  );
  app.post(
    WEBSITE_CALLS.parts,
    write(
      "Change a part's text fields (only the changed ones)",
      partsRequestSchema,
      'websiteFieldUnknown',
      'websiteFieldTwice',
      'websiteFieldTooLong',
      'websiteFieldsEmpty',
    ),
    (request) => website.setFields(request.viewer, bodyOf(request)),
  );
  app.post(
    WEBSITE_CALLS.deletePic,
    write(
      'Delete a picture of a part',
      deletePicRequestSchema,
      'websitePictureIndexInvalid',
      'websitePictureNotFound',
    ),
    (request) => website.deletePicture(request.viewer, bodyOf(request)),
  );
  app.post(
    WEBSITE_CALLS.reorderPics,
    write("Put a part's pictures in a new order", reorderPicsRequestSchema, 'websiteReorderInvalid'),
    (request) => website.reorderPictures(request.viewer, bodyOf(request)),
  );

  // the picture upload is multipart (social §7): understood in this route's scope only
  await app.register(async (scope) => {
    await scope.register(multipart);
    scope.post(
      WEBSITE_CALLS.uploadPic,
      {
        bodyLimit: MEDIA_JSON_BODY_LIMIT_BYTES,
        // a visitor is refused before a byte of the body is read; an answer given before the body's
        // end stops its reading (media/upload.ts)
        onRequest: async (request) => {
          requireViewer(request.viewer);
        },
        onSend: refuseUnreadBody,
        config: { rateLimit: WEBSITE_WRITE_LIMIT },
        schema: {
          summary: 'Put a picture in a slot of a part (multipart; the file last, in imgFile)',
          description:
            'multipart/form-data: xpointid, partidx, picidx (1-10) and optionally version first, then the picture in a part named imgFile (at most 10 MB). ' +
            'Who may is checked before the file is read; the picture is checked by its bytes, turned upright, stripped of EXIF and stored in sized WebP variants and a JPEG.',
          tags: ['website'],
          body: { content: { 'multipart/form-data': { schema: multipartContract(uploadPicFormSchema) } } },
          response: {
            200: websiteWriteResponseSchema,
            ...errorResponses(
              ...writeErrors,
              'websitePictureIndexInvalid',
              'websitePictureMissing',
              'invalidImage',
              'invalidImageSize',
              'coverTooManyPixels',
              'unsupportedMediaType',
            ),
          },
        },
      },
      async (request) => {
        if (!request.isMultipart())
          throw new AppError('unsupportedMediaType', {
            type: String(request.headers['content-type'] ?? 'none').slice(0, 60),
          });
        const upload = await readMultipartUpload(request, MAX_IMAGE_BYTES, {
          fileField: WEBSITE_PIC_FILE_FIELD,
          fields: UPLOAD_FIELDS,
          fieldBytes: UPLOAD_FIELD_BYTES,
        });
        // who may, and which slot, before a byte of the picture is read
        await website.checkUpload(request.viewer, upload.fields);
        if (!upload.file) throw new AppError('websitePictureMissing');
        const received = await receiveFile(upload.file.stream, {
          dir: media.uploadDir,
          maxBytes: MAX_IMAGE_BYTES,
          tooLarge: () => new AppError('invalidImageSize', { size: MAX_IMAGE_LABEL }),
        });
        try {
          await upload.finish();
          return await website.putPicture(request.viewer, upload.fields, received.file);
        } finally {
          await website.removeTemporary(received.file);
        }
      },
    );
  });

  app.get(
    '/v1/xpoint/:id/website',
    {
      schema: {
        summary: "A point's site: its parts as written, what fills the empty ones, its version",
        tags: ['website'],
        params: z.object({ id: z.string() }),
        response: {
          200: websiteViewSchema,
          ...errorResponses('invalidParam', 'pointNotFound', 'websiteNotForReports'),
        },
      },
    },
    async (request, reply) => {
      const view = await website.view(request.viewer, request.params.id, request.log);
      // `editable` is this viewer's: never shared
      return reply.header('Cache-Control', 'private, no-store').send(view);
    },
  );

  app.get(
    '/v1/xpoint/:id/website.zip',
    {
      schema: {
        summary: 'The site as a static folder to host anywhere (index.html, site.css, images/), zipped',
        tags: ['website'],
        params: z.object({ id: z.string() }),
        response: {
          200: { description: 'a zip file', content: { 'application/zip': { schema: z.unknown() } } },
          ...errorResponses(
            'unauthorized',
            'forbidden',
            'invalidParam',
            'pointNotFound',
            'websiteNotForReports',
          ),
        },
      },
    },
    async (request, reply) => {
      const point = await website.controlled(request.viewer, request.params.id);
      const view = await website.view(request.viewer, point.id, request.log);
      const files: SiteFile[] = [];
      const names = new Map<string, string>();
      for (const part of view.parts) {
        if (!part.enabled) continue;
        for (const pic of part.pictures) {
          const url = pic.small ?? pic.url;
          const data = await website.mediaBytes(url);
          if (!data) continue;
          const name = `part${part.part_idx}-${pic.pic_idx}${path.extname(url)}`;
          files.push({ name, data });
          names.set(`${part.part_idx}/${pic.pic_idx}`, name);
        }
      }
      const zone = view.time_zone_name ?? 'UTC';
      const when = (ms: number) =>
        new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short', timeZone: zone }).format(ms);
      const html = staticSiteHtml(view, (part, pic) => names.get(`${part}/${pic}`) ?? null, when);
      const folder = `site-${point.id}`;
      return reply
        .header('Cache-Control', 'private, no-store')
        .header('Content-Disposition', `attachment; filename="${folder}.zip"`)
        .type('application/zip')
        .send(Buffer.from(siteZip(folder, html, files)));
    },
  );
};
