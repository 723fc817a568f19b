import type { z } from 'zod';
import {
  WEBSITE_CALLS,
  WEBSITE_PIC_FILE_FIELD,
  websiteViewPath,
  type WebsiteFieldChange,
} from '../../../shared/website';
import { websiteViewSchema, websiteWriteResponseSchema } from '../../../shared/website/api';
import { apiGet, apiPost, apiUpload } from '../../lib/api';

/**
 * The website calls as the editor makes them (social §7): the page's session cookie and anti-forgery
 * token (lib/api.ts), each carrying the site version the editor read, so a second tab's stale save is
 * refused rather than silently overwriting.
 */
export type WriteResult = z.output<typeof websiteWriteResponseSchema>;
export type SiteView = z.output<typeof websiteViewSchema>;

export function loadSite(id: string, signal?: AbortSignal): Promise<SiteView> {
  return apiGet(websiteViewPath(id), websiteViewSchema, signal ? { signal } : {});
}

export function setSection(xpointid: string, part_idx: number, enabled: boolean, version: number) {
  return apiPost(WEBSITE_CALLS.section, websiteWriteResponseSchema, { xpointid, part_idx, enabled, version });
}

export function setFields(xpointid: string, part_idx: number, fields: WebsiteFieldChange[], version: number) {
  return apiPost(WEBSITE_CALLS.parts, websiteWriteResponseSchema, { xpointid, part_idx, fields, version });
}

export function deletePicture(xpointid: string, part_idx: number, pic_idx: number, version: number) {
  return apiPost(WEBSITE_CALLS.deletePic, websiteWriteResponseSchema, {
    xpointid,
    part_idx,
    pic_idx,
    version,
  });
}

export function reorderPictures(xpointid: string, part_idx: number, order: number[], version: number) {
  return apiPost(WEBSITE_CALLS.reorderPics, websiteWriteResponseSchema, {
    xpointid,
    part_idx,
    order,
    version,
  });
}

/** The multipart upload of §7: the fields first, the picture last in imgFile; progress 0..1 as it goes. */
export function uploadPicture(
  xpointid: string,
  partidx: number,
  picidx: number,
  version: number,
  file: File,
  onProgress: (sent: number) => void,
) {
  const form = new FormData();
  form.append('xpointid', xpointid);
  form.append('partidx', String(partidx));
  form.append('picidx', String(picidx));
  form.append('version', String(version));
  form.append(WEBSITE_PIC_FILE_FIELD, file, file.name);
  return apiUpload(WEBSITE_CALLS.uploadPic, websiteWriteResponseSchema, form, { onProgress });
}
