import { describe, expect, it } from 'vitest';
import { eventPermissions, pointPermissions, type PointSubject, type Viewer } from './index';

const owner: Viewer = { id: 'u1', username: 'olivia', isAdmin: false };
const consultant: Viewer = { id: 'u2', username: 'carlos', isAdmin: false };
const admin: Viewer = { id: 'u0', username: 'admin', isAdmin: true };
const plain: Viewer = { id: 'u3', username: 'uma', isAdmin: false };
const visitor: Viewer = null;

const point = (overrides: Partial<PointSubject> = {}): PointSubject => ({
  supertype: 'business',
  owner_username: 'olivia',
  consultant_username: 'carlos',
  allow_consulting: 1,
  ...overrides,
});

describe('point control (map-and-search §5, §6)', () => {
  it('owner, consultant and admin control a point; a plain user and a visitor do not', () => {
    const p = point();
    expect(pointPermissions(owner, p).controllable).toBe(true);
    expect(pointPermissions(consultant, p).controllable).toBe(true);
    expect(pointPermissions(admin, p).controllable).toBe(true);
    expect(pointPermissions(plain, p).controllable).toBe(false);
    expect(pointPermissions(visitor, p).controllable).toBe(false);
  });

  it('compares names case-insensitively', () => {
    expect(pointPermissions({ id: 'u1', username: 'OLIVIA', isAdmin: false }, point()).isOwner).toBe(true);
  });

  it('lets controllers edit, invite reviews and add child events; only the owner and admins delete', () => {
    for (const viewer of [owner, consultant, admin]) {
      expect(pointPermissions(viewer, point())).toMatchObject({
        canEdit: true,
        canDelete: viewer !== consultant,
        canInviteReview: true,
        canAddChildEvent: true,
      });
    }
    expect(pointPermissions(plain, point())).toMatchObject({ canEdit: false, canDelete: false });
  });

  it('gives a pending claimant or requester nothing to control, and says what they wait for', () => {
    const claimed = point({ owner_username: null, consultant_username: null, viewer_claim_pending: true });
    expect(pointPermissions(plain, claimed)).toMatchObject({
      canEdit: false,
      canDelete: false,
      claimPending: true,
      consultRequestPending: false,
    });
    const asked = point({ consultant_username: null, viewer_request_pending: true });
    expect(pointPermissions(plain, asked)).toMatchObject({
      canEdit: false,
      canDelete: false,
      claimPending: false,
      consultRequestPending: true,
    });
  });

  it('lets the owner and admins dismiss the consultant and answer requests', () => {
    expect(
      [owner, consultant, admin, plain].map((v) => pointPermissions(v, point()).canDismissConsultant),
    ).toEqual([true, false, true, false]);
    expect(
      [owner, consultant, admin, plain].map((v) => pointPermissions(v, point()).canAnswerConsultantRequests),
    ).toEqual([true, false, true, false]);
  });

  it('shows external sites only to owner, consultant and admin', () => {
    expect(
      [owner, consultant, admin, plain, visitor].map((v) => pointPermissions(v, point()).canSeeExternalSites),
    ).toEqual([true, true, true, false, false]);
  });

  it('lets only the consultant stop consulting', () => {
    expect(
      [owner, consultant, admin, plain].map((v) => pointPermissions(v, point()).canStopConsulting),
    ).toEqual([false, true, false, false]);
  });

  it('offers copy-to-new only on help requests, to their controllers', () => {
    expect(pointPermissions(owner, point({ supertype: 'helprequest' })).canCopyToNew).toBe(true);
    expect(pointPermissions(plain, point({ supertype: 'helprequest' })).canCopyToNew).toBe(false);
    expect(pointPermissions(owner, point({ supertype: 'business' })).canCopyToNew).toBe(false);
  });
});

describe('what a point shows', () => {
  it('help requests and incidents have no sites, no full-screen button and no consultant', () => {
    for (const supertype of ['helprequest', 'incident']) {
      expect(pointPermissions(admin, point({ supertype }))).toMatchObject({
        canHaveSites: false,
        showFullscreen: false,
        showConsultant: false,
      });
    }
    expect(pointPermissions(admin, point())).toMatchObject({ canHaveSites: true, showFullscreen: true });
  });

  it('hides the consultant when an owner exists without consultant and consulting is off', () => {
    const p = point({ consultant_username: null, allow_consulting: 0 });
    expect(pointPermissions(visitor, p).showConsultant).toBe(false);
    expect(pointPermissions(visitor, { ...p, allow_consulting: 1 }).showConsultant).toBe(true);
    expect(pointPermissions(visitor, { ...p, owner_username: null }).showConsultant).toBe(true);
    expect(pointPermissions(visitor, { ...p, consultant_username: 'carlos' }).showConsultant).toBe(true);
  });

  it('offers the claim link on unowned points, with claim text only for experiences and rentals', () => {
    for (const supertype of ['business', 'poi', 'virtualstore', 'service', 'experience', 'rental']) {
      const p = pointPermissions(visitor, point({ supertype, owner_username: null }));
      expect(p.showClaimLink, supertype).toBe(true);
      expect(p.claimText, supertype).toBe(supertype === 'experience' || supertype === 'rental');
    }
    expect(pointPermissions(visitor, point()).showClaimLink).toBe(false);
    expect(pointPermissions(visitor, point({ supertype: 'rental' })).claimText).toBe(false);
  });

  it('offers become-consultant when there is no consultant', () => {
    expect(pointPermissions(plain, point({ consultant_username: null })).showBecomeConsultant).toBe(true);
    expect(pointPermissions(plain, point()).showBecomeConsultant).toBe(false);
  });

  it('shows service details on service points only, and chat to signed-in viewers', () => {
    expect(pointPermissions(visitor, point({ supertype: 'service' })).showServiceDetails).toBe(true);
    expect(pointPermissions(visitor, point()).showServiceDetails).toBe(false);
    expect(pointPermissions(visitor, point()).canUseChat).toBe(false);
    expect(pointPermissions(plain, point()).canUseChat).toBe(true);
  });
});

describe('event control', () => {
  it('the event owner and admins copy, edit and delete; a point consultant or plain user do not', () => {
    const event = { owner_username: 'olivia' };
    expect(eventPermissions(owner, event)).toEqual({
      controllable: true,
      canEdit: true,
      canDelete: true,
      canCopy: true,
    });
    expect(eventPermissions(admin, event).controllable).toBe(true);
    expect(eventPermissions(consultant, event).controllable).toBe(false);
    expect(eventPermissions(plain, event).controllable).toBe(false);
    expect(eventPermissions(visitor, event).controllable).toBe(false);
    expect(eventPermissions(visitor, { owner_username: null }).controllable).toBe(false);
  });
});
