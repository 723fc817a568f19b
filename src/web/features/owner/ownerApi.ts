import {
  editableEventSchema,
  eventMediaResponseSchema,
  eventWriteResponseSchema,
  type EditableEvent,
  type EventMediaResponse,
  type EventWriteResponse,
} from '../../../shared/api/events';
import {
  myPointsResponseSchema,
  pointPeopleResponseSchema,
  type PointPeopleResponse,
} from '../../../shared/api/points';
import { deleteResponseSchema } from '../../../shared/api/writes';
import { apiGet, apiPost, apiUpload, fileForm } from '../../lib/api';
import type { EventBody } from './eventForm';

/**
 * The owner's calls (docs/api/points-write.md): delete, claim and consult a point; create, edit,
 * delete an event and its cover; list one's own points and events. Every answer is parsed with its
 * contract; a refusal is the ApiError carrying the server's message.
 */

export type PointAction = 'delete' | 'claim' | 'becomeconsultant' | 'clearconsultant';

export function deletePoint(id: string) {
  return apiPost('/v1/xpoint/delete', deleteResponseSchema, { id });
}

/** Claim (with the claim text of an experience or a rental), become consultant, or stop consulting. */
export function changePointPeople(
  action: Exclude<PointAction, 'delete'>,
  id: string,
  text?: string,
): Promise<PointPeopleResponse> {
  const body = action === 'claim' && text !== undefined && text.trim() !== '' ? { id, text } : { id };
  return apiPost(`/v1/xpoint/${action}`, pointPeopleResponseSchema, body);
}

export function editableEventPath(id: string): string {
  return `/v1/event/${encodeURIComponent(id)}/edit`;
}

export function loadEditableEvent(id: string, signal?: AbortSignal): Promise<EditableEvent> {
  return apiGet(editableEventPath(id), editableEventSchema, { signal });
}

export function createEvent(body: EventBody & { xpoint_id?: string }): Promise<EventWriteResponse> {
  return apiPost('/v1/event/create', eventWriteResponseSchema, body);
}

export function updateEvent(body: EventBody & { id: string; version: number }): Promise<EventWriteResponse> {
  return apiPost('/v1/event/update', eventWriteResponseSchema, body);
}

export function deleteEvent(id: string) {
  return apiPost('/v1/event/delete', deleteResponseSchema, { id });
}

/** The cover image as multipart/form-data; the event's current version, as for every write. */
export function uploadEventCover(id: string, version: number, file: File): Promise<EventMediaResponse> {
  return apiUpload('/v1/event/media', eventMediaResponseSchema, fileForm({ id, version }, file));
}

/** `supertype`: a point supertype, 'event', or 'all'. */
export function myPointsPath(supertype: string, pagesize: number): string {
  const query = new URLSearchParams({ supertype, pagenumber: '1', pagesize: String(pagesize) });
  return `/v1/account/mypoints?${query.toString()}`;
}

export { myPointsResponseSchema };
