import {
  CLAIM_QUEUE_MAX,
  type ClaimDecisionRequest,
  type ClaimDecisionResponse,
  type ClaimQueueResponse,
  type ClaimRequest,
  type ConsultantRequestAnswer,
  type ConsultantRequestsResponse,
  type PointIdRequest,
  type PointPeopleResponse,
} from '../../../shared/api/points';
import { pointLink } from '../../../shared/address';
import { isValidId } from '../../../shared/domain/ids';
import { AppError } from '../../../shared/errors';
import {
  canAnswerConsultantRequests,
  decide,
  isAdmin,
  isAllowed,
  pointRole,
  pointState,
  showClaimText,
  type Viewer,
} from '../../../shared/permissions';
import { requireViewer } from '../../auth/hook';
import type { Store } from '../../store/store';
import { authorize, pointOr404, subjectOf } from './access';
import * as q from './queries';
import * as r from './requests';

/**
 * Who owns and who consults a point (spec §5, §6; issue 16, finding 1): claims, which an admin decides
 * from a queue; becoming a consultant, which on an owned point is a request its owner answers; ending
 * consulting. Every access question is the authorisation table's (src/shared/permissions/matrix.ts).
 */
export class PeopleService {
  constructor(private readonly store: Store) {}

  /**
   * Spec §6: an unowned point can be claimed by a signed-in user (claim text only for experiences and
   * rentals). The claim waits for an admin and the point shows "verification pending"; a second claim
   * by the same user answers the first.
   */
  async claim(viewer: Viewer, input: ClaimRequest): Promise<PointPeopleResponse> {
    const user = requireViewer(viewer);
    const point = await pointOr404(this.store, input.id);
    const subject = subjectOf(point);
    authorize(viewer, 'claim', subject);
    if (input.text && !showClaimText(subject)) throw new AppError('claimTextNotAllowed');
    await r.requestClaim(this.store, point.id, user.id, input.text ?? null, Date.now());
    return this.people(point.id, 'pending');
  }

  /**
   * Spec §5, §6: points with no consultant offer 'become consultant', unless they are reports or the
   * owner does not allow consulting. On an owned point it is a request the owner answers (202 pending,
   * asked again: the same request); on an unowned one it takes effect at once; asked again as the
   * consultant it changes nothing.
   */
  async becomeConsultant(viewer: Viewer, { id }: PointIdRequest): Promise<PointPeopleResponse> {
    const user = requireViewer(viewer);
    const point = await pointOr404(this.store, id);
    const subject = subjectOf(point);
    const outcome = authorize(viewer, 'becomeConsultant', subject);
    if (outcome === 'pending') {
      await r.requestConsulting(this.store, id, user.id, Date.now());
      return this.people(id, 'pending');
    }
    if (point.consultant_userid === user.id) return this.people(id, 'done');
    if (!(await q.setConsultant(this.store, id, user.id, Date.now())))
      throw new AppError('pointHasConsultant');
    return this.people(id, 'done');
  }

  /** The consultant stops (spec §6); the owner or an admin removes them at any time. */
  async clearConsultant(viewer: Viewer, { id }: PointIdRequest): Promise<PointPeopleResponse> {
    requireViewer(viewer);
    const point = await pointOr404(this.store, id);
    authorize(viewer, 'clearConsultant', subjectOf(point));
    if (point.consultant_userid) await q.clearConsultant(this.store, id, point.consultant_userid, Date.now());
    return this.people(id, 'done');
  }

  /** GET /v1/xpoint/consultantrequests?id=: the owner's (or an admin's) list of pending requests. */
  async consultantRequests(viewer: Viewer, id: string): Promise<ConsultantRequestsResponse> {
    requireViewer(viewer);
    if (!isValidId(id)) throw new AppError('invalidParam');
    const point = await pointOr404(this.store, id);
    if (!canAnswerConsultantRequests(viewer, subjectOf(point))) throw new AppError('forbidden');
    const rows = await r.pendingRequests(this.store, id);
    return {
      id,
      items: rows.map(({ username, fullname, avatar_url, created_at }) => ({
        username,
        fullname,
        avatar_url,
        created_at,
      })),
    };
  }

  /**
   * The owner (or an admin) accepts or declines one pending request. Accepting makes its user the
   * consultant and declines the others; a point that got a consultant meanwhile is a 409.
   */
  async answerRequest(
    viewer: Viewer,
    { id, username }: ConsultantRequestAnswer,
    accept: boolean,
  ): Promise<PointPeopleResponse> {
    requireViewer(viewer);
    const point = await pointOr404(this.store, id);
    const outcome = decide(
      accept ? 'acceptRequest' : 'declineRequest',
      pointRole(viewer, subjectOf(point)),
      pointState(subjectOf(point)),
    );
    // the table knows who may answer; whether this person asked is the store's
    if (!isAllowed(outcome) && outcome !== 'consultantRequestNotFound') throw new AppError(outcome);
    const request = await r.pendingRequestBy(this.store, id, username);
    if (!request) throw new AppError('consultantRequestNotFound', { username });
    if (!accept) {
      await r.declineRequests(this.store, id, Date.now(), request.id);
      return this.people(id, 'done');
    }
    if (!(await r.acceptRequest(this.store, request, id, Date.now())))
      throw new AppError(point.allow_consulting ? 'pointHasConsultant' : 'consultingNotAllowed');
    return this.people(id, 'done');
  }

  /** GET /v1/admin/claims: the admins' queue. */
  async claimQueue(viewer: Viewer): Promise<ClaimQueueResponse> {
    requireViewer(viewer);
    if (!isAdmin(viewer)) throw new AppError('forbidden');
    const rows = await r.pendingClaims(this.store, CLAIM_QUEUE_MAX);
    return {
      items: rows.map((row) => ({
        id: row.id,
        point_id: row.point_id,
        point_title: row.point_title,
        supertype: row.point_supertype,
        url: pointLink(row.point_id, row.point_supertype),
        username: row.username,
        fullname: row.fullname,
        text: row.text,
        created_at: row.created_at,
      })),
    };
  }

  /**
   * An admin approves a claim (the claimant owns the point, verified; the other claims on it are
   * declined) or declines it (the point's earlier health status returns when no claim is left).
   */
  async decideClaim(
    viewer: Viewer,
    { id }: ClaimDecisionRequest,
    approve: boolean,
  ): Promise<ClaimDecisionResponse> {
    const user = requireViewer(viewer);
    const claim = await r.findPendingClaim(this.store, id);
    const point = claim ? await q.findPointForWrite(this.store, claim.point_id) : undefined;
    const outcome = decide(
      approve ? 'approveClaim' : 'declineClaim',
      isAdmin(viewer) ? 'admin' : 'stranger',
      point
        ? pointState(subjectOf(point))
        : { owned: true, consulting: true, report: false, consultant: false },
    );
    if (!isAllowed(outcome)) throw new AppError(outcome, { id });
    if (!claim || !point) throw new AppError('claimNotFound', { id });
    const now = Date.now();
    if (approve) {
      if (!(await r.approveClaim(this.store, claim, user.id, now))) throw new AppError('pointAlreadyOwned');
    } else await r.declineClaim(this.store, claim, user.id, now);
    const after = await this.people(point.id, 'done');
    return {
      id,
      status: approve ? 'approved' : 'declined',
      point_id: point.id,
      url: after.url,
      owner_username: after.owner_username,
    };
  }

  private async people(id: string, status: 'done' | 'pending'): Promise<PointPeopleResponse> {
    const point = await pointOr404(this.store, id);
    return {
      id,
      url: pointLink(id, point.supertype),
      owner_username: point.owner_username ?? null,
      consultant_username: point.consultant_username ?? null,
      version: point.version,
      status,
    };
  }
}
