import {
  editablePointSchema,
  pointMediaResponseSchema,
  pointWriteResponseSchema,
  type EditablePoint,
  type MediaSlot,
  type PointMediaResponse,
  type PointWriteResponse,
} from '../../../shared/api/points';
import { ERRORS } from '../../../shared/errors';
import { ApiError, apiGet, apiPost, apiUpload, fileForm } from '../../lib/api';

/** The calls of the edit and copy-to-new forms (docs/api/points-write.md). */

/** The answer codes the forms react to by number. */
export const EDIT_ERROR_CODES = {
  /** 409: someone saved the point after it was loaded; nothing was written. */
  conflict: ERRORS.conflict.code,
  /** 401: the viewer is not signed in (or the session ended). */
  signIn: ERRORS.unauthorized.code,
  /** 403: the viewer is not the owner, the consultant or an admin. */
  forbidden: ERRORS.forbidden.code,
  notFound: ERRORS.pointNotFound.code,
} as const;

export function isConflict(error: unknown): boolean {
  return error instanceof ApiError && error.code === EDIT_ERROR_CODES.conflict;
}

/** GET /v1/xpoint/{id}/edit: every editable field and the version to save against. */
export function loadEditablePoint(id: string, signal?: AbortSignal): Promise<EditablePoint> {
  return apiGet(`/v1/xpoint/${encodeURIComponent(id)}/edit`, editablePointSchema, { signal });
}

/** POST /v1/xpoint/update `{id, version, ...changed}`: 409 (1012) when the version is stale. */
export function updatePoint(body: Record<string, unknown>): Promise<PointWriteResponse> {
  return apiPost('/v1/xpoint/update', pointWriteResponseSchema, body);
}

/** POST /v1/xpoint/create (copy-to-new sends every field and confirmNotDuplicate). */
export function createPointCopy(body: Record<string, unknown>): Promise<PointWriteResponse> {
  return apiPost('/v1/xpoint/create', pointWriteResponseSchema, body);
}

export interface MediaUpload {
  id: string;
  version: number;
  slot: MediaSlot;
  /** the picked file, or null to remove the slot's file. */
  file: File | null;
  /** screenshots only: 1..14 (a new one without it takes the first free place). */
  position?: number;
}

/**
 * POST /v1/xpoint/media: one file as multipart/form-data (the fields first: the server checks them
 * before it reads the file), or a removal as JSON; answers the url and the point's next version.
 */
export function uploadMedia(
  { file, ...fields }: MediaUpload,
  onProgress?: (sent: number) => void,
): Promise<PointMediaResponse> {
  if (file === null) return apiPost('/v1/xpoint/media', pointMediaResponseSchema, { ...fields, data: null });
  return apiUpload('/v1/xpoint/media', pointMediaResponseSchema, fileForm(fields, file), {
    ...(onProgress ? { onProgress } : {}),
  });
}
