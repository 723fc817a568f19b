import { randomBytes } from 'node:crypto';
import {
  CALLBACK_LIMITS,
  type CallbackRequestBody,
  type InboxQuery,
  type CallbackResponse,
  type InboxResponse,
} from '../../../shared/api/details';
import { isValidId } from '../../../shared/domain/ids';
import { AppError } from '../../../shared/errors';
import type { Viewer } from '../../../shared/permissions';
import type { Store } from '../../store/store';
import * as q from './queries';

/** A second identical callback request within this window is the same request (a double click, a retry). */
const CALLBACK_DUPLICATE_WINDOW_MS = 60_000;

/**
 * Callback requests (map-and-search §5, §6) and the inbox they are delivered to: the one write of the
 * details feature, apart from its reads.
 */
export class CallbackService {
  constructor(private readonly store: Store) {}

  /**
   * Stores a callback request and delivers it to the provider's inbox. §5: a target user id, a
   * service name and a point id are required (with the spec's messages); the point must be one of
   * the provider's; a visitor leaves a phone or an email. The same request again within a minute
   * answers with the first one and stores nothing.
   */
  async requestCallback(
    viewer: Viewer,
    input: CallbackRequestBody,
    ip: string | null,
    now: number,
  ): Promise<CallbackResponse> {
    // the ids are read as text only from text or a number: String() of a list would take ['id'] for
    // 'id', and of a list nested thousands deep overflows the stack
    const scalar = (value: unknown) => typeof value === 'string' || typeof value === 'number';
    const present = (value: unknown) =>
      value !== undefined && value !== null && (!scalar(value) || String(value).trim() !== '');
    if (!present(input.to_userid)) throw new AppError('callbackUserIdMissing');
    if (!present(input.service_name)) throw new AppError('serviceNameMissing');
    if (!present(input.xpointid)) throw new AppError('serviceXpointIdMissing');
    if (typeof input.service_name !== 'string')
      throw new AppError('invalidCallbackField', { field: 'service_name', reason: 'must be text.' });
    const serviceName = input.service_name.trim();
    if (serviceName.length > CALLBACK_LIMITS.service_name)
      throw new AppError('invalidCallbackField', {
        field: 'service_name',
        reason: `must be at most ${CALLBACK_LIMITS.service_name} characters long.`,
      });
    if (!scalar(input.to_userid))
      throw new AppError('invalidCallbackField', { field: 'to_userid', reason: 'must be text.' });
    if (!scalar(input.xpointid)) throw new AppError('invalidParam');
    const toUserId = String(input.to_userid).trim();
    if (!isValidId(toUserId))
      throw new AppError('invalidCallbackField', {
        field: 'to_userid',
        reason: 'may contain only letters, digits, underscore (_) and hyphen (-).',
      });
    const xpointId = String(input.xpointid).trim();
    if (!isValidId(xpointId)) throw new AppError('invalidParam');

    const [provider, point] = await Promise.all([
      q.findUserById(this.store, toUserId),
      q.findServicePoint(this.store, xpointId),
    ]);
    if (!provider) throw new AppError('callbackUserNotFound', { id: toUserId });
    if (!point) throw new AppError('pointNotFound', { id: xpointId });
    if (point.owner_userid !== provider.id || point.supertype !== 'service')
      throw new AppError('callbackPointMismatch', { id: xpointId });
    if (viewer && viewer.id === provider.id) throw new AppError('callbackToSelf');
    if (!viewer && !input.phone && !input.email) throw new AppError('callbackContactMissing');

    const request = {
      to_userid: provider.id,
      xpoint_id: point.id,
      from_userid: viewer?.id ?? null,
      phone: input.phone ?? null,
      email: input.email ?? null,
      ip,
    };
    const earlier = await q.recentSameRequest(this.store, request, now - CALLBACK_DUPLICATE_WINDOW_MS);
    if (earlier) return { ok: true, requestid: earlier.id, duplicate: true };

    const id = `cb_${randomBytes(12).toString('base64url')}`;
    const who = input.name ?? viewer?.username ?? input.phone ?? input.email ?? 'Someone';
    await q.insertCallbackWithInbox(
      this.store,
      {
        ...request,
        id,
        service_name: serviceName,
        name: input.name ?? null,
        message: input.message ?? null,
        created_at: now,
      },
      `${who} asks you to call back about ${serviceName}`.slice(0, 300),
    );
    return { ok: true, requestid: id, duplicate: false };
  }

  /** The signed-in user's inbox, newest first. */
  async inbox(viewer: Viewer, { limit, before }: InboxQuery): Promise<InboxResponse> {
    if (!viewer) throw new AppError('unauthorized');
    const rows = await q.inboxPage(this.store, viewer.id, limit + 1, before);
    const page = rows.slice(0, limit);
    return {
      messages: page.map((m) => ({
        id: Number(m.id),
        kind: 'callback_request',
        title: m.title,
        created_at: Number(m.created_at),
        read_at: m.read_at == null ? null : Number(m.read_at),
        callback: m.callback_id
          ? {
              id: m.callback_id,
              xpoint_id: m.xpoint_id ?? null,
              xpoint_title: m.xpoint_title ?? null,
              service_name: m.service_name ?? '',
              from_userid: m.from_userid ?? null,
              from_username: m.from_username ?? null,
              name: m.name ?? null,
              phone: m.phone ?? null,
              email: m.email ?? null,
              message: m.message ?? null,
            }
          : null,
      })),
      next_before: rows.length > limit && page.length > 0 ? Number(page[page.length - 1]?.id) : null,
    };
  }
}
