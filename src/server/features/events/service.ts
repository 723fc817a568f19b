import {
  eventDatesIssue,
  eventTypeIssue,
  type CreateEventRequest,
  type EditableEvent,
  type EventIdRequest,
  eventMediaFormFieldsSchema,
  type EventMediaFormFields,
  type EventMediaRequest,
  type EventMediaResponse,
  type EventWriteResponse,
  type UpdateEventRequest,
} from '../../../shared/api/events';
import { parseContract } from '../../../shared/api/contract';
import { throwIssue } from '../../../shared/api/writes';
import { eventLink } from '../../../shared/address';
import { isValidId } from '../../../shared/domain/ids';
import { AppError } from '../../../shared/errors';
import { canControlEvent, type Viewer } from '../../../shared/permissions';
import { requireViewer } from '../../auth/hook';
import type { MediaPlace } from '../../media/store';
import { FILE_FIELD, type MultipartUpload } from '../../media/upload';
import type { Store } from '../../store/store';
import { controlledPoint } from '../points/access';
import { assetOf, storeImage, type MediaSource } from '../points/media';
import { coordinatesText, placeOf } from '../points/place';
import { newId } from '../points/rows';
import * as q from './queries';

/**
 * Create, edit, delete and cover image of events (issue 8; spec §3, §5, §6; social §5: no dates
 * before 1901). Each public method parses its input with the shared contract, then asks one access
 * question (who may do this), then does the work.
 */
export class EventService {
  constructor(
    private readonly store: Store,
    private readonly options: { media: MediaPlace },
  ) {}

  /**
   * Adds an event, owned by its signed-in creator (spec §6: its owner or an admin controls it, so an
   * event needs an owner). With `xpoint_id` it is a child of that point, which the creator must
   * control (spec §6: the add-as-child link is the owner's); its place defaults to the point's.
   */
  async create(viewer: Viewer, input: CreateEventRequest): Promise<EventWriteResponse> {
    const user = requireViewer(viewer);
    const parent = input.xpoint_id ? await controlledPoint(this.store, user, input.xpoint_id) : null;

    let lat = input.lat;
    let lon = input.lon;
    let address = input.address ?? null;
    let cityId: number | null = null;
    if (parent && (lat === undefined || lon === undefined)) {
      lat = parent.lat;
      lon = parent.lon;
      address ??= parent.full_address;
      cityId = parent.city_id;
    }
    if (lat === undefined || lon === undefined) throw new AppError('eventNeedsLocation');
    if (cityId === null) cityId = (await placeOf(this.store, lat, lon, null)).city_id;
    const now = Date.now();
    const id = newId();
    const xpointId = input.xpoint_id ?? null;
    await q.insertEvent(
      this.store,
      {
        id,
        xpoint_id: xpointId,
        parent_id: null,
        owner_userid: user.id,
        title: input.title,
        cover_url: null,
        type: input.type,
        subtype: input.subtype ?? null,
        start_date: input.start_date,
        end_date: input.end_date,
        lat,
        lon,
        full_address: address ?? coordinatesText(lat, lon),
        city_id: cityId,
        admission: input.admission ?? 'free',
        admissionprice: input.admissionprice ?? null,
        website: input.website ?? null,
        description: input.description ?? null,
        marker: null,
        created_at: now,
        updated_at: now,
      },
      {
        intervals: input.event_opening_intervals_utc?.length
          ? input.event_opening_intervals_utc
          : [{ start: input.start_date, end: input.end_date }],
        tickets: input.tickets ?? [],
      },
    );
    return { id, url: eventLink(id), version: 1, xpoint_id: xpointId };
  }

  /** GET /v1/event/{id}/edit: the event's editable fields, for the edit and copy-to-new forms. */
  async editable(viewer: Viewer, id: string): Promise<EditableEvent> {
    if (!isValidId(id)) throw new AppError('invalidEventId');
    const event = await this.controlledEvent(viewer, id);
    const [intervals, tickets] = await Promise.all([
      q.eventIntervals(this.store, id),
      q.eventTickets(this.store, id),
    ]);
    return {
      id: event.id,
      title: event.title,
      type: event.type,
      subtype: event.subtype,
      start_date: Number(event.start_date),
      end_date: Number(event.end_date),
      event_opening_intervals_utc: intervals,
      admission: event.admission,
      admissionprice: event.admissionprice,
      tickets,
      website: event.website,
      description: event.description,
      lat: event.lat,
      lon: event.lon,
      address: event.full_address,
      xpoint_id: event.xpoint_id,
      cover_url: event.cover_url,
      owner_username: event.owner_username ?? null,
      version: event.version,
      url: eventLink(event.id),
    };
  }

  /** Edits an event: its owner or an admin (spec §5), at the version they loaded. */
  async update(viewer: Viewer, input: UpdateEventRequest): Promise<EventWriteResponse> {
    const event = await this.controlledEvent(viewer, input.id);
    if (input.type !== undefined) throwIssue(eventTypeIssue(input.type));
    if (input.version !== event.version) throw new AppError('conflict');
    return this.write(event, input);
  }

  /** The event's cover image (spec §3 cover_url) as JSON, by its owner or an admin, at the version they loaded. */
  async cover(viewer: Viewer, input: EventMediaRequest): Promise<EventMediaResponse> {
    return this.setCover(requireViewer(viewer), input, input.data);
  }

  /** The same as multipart/form-data: the fields and who controls the event are checked before the file is read. */
  async coverUpload(viewer: Viewer, upload: MultipartUpload): Promise<EventMediaResponse> {
    const user = requireViewer(viewer);
    const input = parseContract(eventMediaFormFieldsSchema, upload.fields);
    if (upload.file === null)
      throw new AppError('invalidField', { field: FILE_FIELD, reason: 'is required.' });
    return this.setCover(user, input, upload.file, upload.finish);
  }

  private async setCover(
    user: NonNullable<Viewer>,
    input: EventMediaFormFields,
    source: MediaSource | null,
    bodyRead: () => Promise<void> = async () => {},
  ): Promise<EventMediaResponse> {
    const event = await this.controlledEvent(user, input.id);
    if (input.version !== event.version) throw new AppError('conflict');
    const stored = source === null ? null : await storeImage(source, 'cover_image', this.options.media);
    await bodyRead();
    const version = await q.setEventCover(this.store, {
      id: event.id,
      version: input.version,
      url: stored?.url ?? null,
      asset: assetOf(stored),
      ownerUserId: user.id,
      now: Date.now(),
    });
    if (version === null) throw new AppError('conflict');
    return { id: event.id, cover_url: stored?.url ?? null, version };
  }

  async remove(viewer: Viewer, { id }: EventIdRequest): Promise<{ ok: true; id: string }> {
    await this.controlledEvent(viewer, id);
    if (!(await q.deleteEvent(this.store, id))) throw new AppError('eventNotFound', { id });
    return { ok: true, id };
  }

  /** The event for its owner or an admin (spec §5), or 401, 404, 403 in this order. */
  private async controlledEvent(viewer: Viewer, id: string): Promise<q.EventForWrite> {
    requireViewer(viewer);
    const event = await q.findEventForWrite(this.store, id);
    if (!event) throw new AppError('eventNotFound', { id });
    if (!canControlEvent(viewer, { owner_username: event.owner_username ?? null }))
      throw new AppError('forbidden');
    return event;
  }

  /**
   * The update's writes. The dates and openings must still fit each other: openings the owner never
   * set follow the event's new dates; ones they set must be sent again when they no longer fit.
   */
  private async write(event: q.EventForWrite, input: UpdateEventRequest): Promise<EventWriteResponse> {
    const oldStart = Number(event.start_date);
    const oldEnd = Number(event.end_date);
    const start = input.start_date ?? oldStart;
    const end = input.end_date ?? oldEnd;
    let intervals = input.event_opening_intervals_utc;
    if (!intervals && (start !== oldStart || end !== oldEnd)) {
      const current = await q.eventIntervals(this.store, event.id);
      // the default single opening follows the event's dates; openings the owner set must still fit
      const isDefault = current.length === 1 && current[0]?.start === oldStart && current[0]?.end === oldEnd;
      intervals = isDefault || current.length === 0 ? [{ start, end }] : current;
      if (!isDefault) {
        const issue = eventDatesIssue(start, end, intervals);
        if (issue && issue.field.startsWith('event_opening_intervals_utc'))
          throw new AppError('invalidField', {
            field: 'event_opening_intervals_utc',
            reason: 'the event’s openings no longer fit its new dates; send the openings too.',
          });
      }
    }
    if (intervals?.length === 0) intervals = [{ start, end }];
    throwIssue(eventDatesIssue(start, end, intervals ?? []));
    const admission = input.admission ?? event.admission;
    const price = input.admissionprice !== undefined ? input.admissionprice : event.admissionprice;
    if (admission === 'paid' && price == null) throw new AppError('paidNeedsPrice', {});

    const set: Parameters<typeof q.updateEventIfVersion>[3] = {
      title: input.title,
      type: input.type,
      subtype: input.subtype,
      start_date: input.start_date,
      end_date: input.end_date,
      admission: input.admission,
      admissionprice: input.admissionprice,
      website: input.website,
      description: input.description,
      lat: input.lat,
      lon: input.lon,
      full_address: input.address,
      updated_at: Date.now(),
    };
    const lat = input.lat ?? event.lat;
    const lon = input.lon ?? event.lon;
    if (lat !== event.lat || lon !== event.lon) {
      set.city_id = (await placeOf(this.store, lat, lon, null)).city_id;
      if (input.address === undefined && event.full_address === coordinatesText(event.lat, event.lon))
        set.full_address = coordinatesText(lat, lon);
    }
    if (input.address === null) set.full_address = coordinatesText(lat, lon);
    for (const key of Object.keys(set) as (keyof typeof set)[]) if (set[key] === undefined) delete set[key];
    const version = await q.updateEventIfVersion(this.store, event.id, input.version, set, {
      ...(intervals ? { intervals } : {}),
      ...(input.tickets ? { tickets: input.tickets } : {}),
    });
    if (version === null) throw new AppError('conflict');
    return { id: event.id, url: eventLink(event.id), version, xpoint_id: event.xpoint_id };
  }
}
