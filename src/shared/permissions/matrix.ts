import type { ErrorName } from '../errors';

/**
 * THE authorisation table (issue 16, finding 1): who may do which write on a point or an event, in
 * which state of the point, and what they are answered when they may not. The permission module's
 * functions (index.ts), the server's access checks and the server test that calls every route
 * (test/server/authorisation-matrix.test.ts) all read this one table.
 *
 * The rule in words (docs/api/points-write.md says the same):
 * - A visitor may only add a point (not a help request); every other write needs an account.
 * - The owner and admins control a point; a consultant edits it (details, media, events under it,
 *   copy-to-new, review invitations) but never deletes it and never changes who owns or consults it
 *   (no claim transfer, no allow_consulting, no answering other people's requests).
 * - Becoming the consultant of an OWNED point is a request its owner accepts or declines; until then the
 *   requester controls nothing. On an UNOWNED point it takes effect at once. The owner, an admin and the
 *   consultant end consulting.
 * - A claim is a request an admin approves or declines; until then the claimant controls nothing.
 * - An event is controlled by its owner and admins only.
 *
 * Rows are ordered rules per action: the first rule whose roles and state match decides.
 */

/** Who asks, relative to the point (or, for event actions, to the event under it). */
export const ROLES = [
  'visitor',
  /** signed in, nothing to do with the point */
  'stranger',
  /** signed in, with a claim on this (unowned) point that an admin has not decided yet */
  'claimant',
  /** signed in, asked to consult this owned point; its owner has not answered yet */
  'requester',
  'consultant',
  'owner',
  'admin',
] as const;
export type Role = (typeof ROLES)[number];

/** What about the point changes the answer. */
export interface ResourceState {
  /** the point has an owner */
  owned: boolean;
  /** the owner allows consulting (da_xpoint_settings.allow_consulting) */
  consulting: boolean;
  /** a help request or an incident: a report, not a place; it never has a consultant */
  report: boolean;
  /** the point has a consultant now */
  consultant: boolean;
}

/** Every write of the API on points and events (and the reads that open a write, like copy-to-new). */
export const ACTIONS = [
  'create',
  'update',
  'delete',
  'media',
  'claim',
  'becomeConsultant',
  'acceptRequest',
  'declineRequest',
  'clearConsultant',
  'setAllowConsulting',
  'addChildEvent',
  'copyToNew',
  'inviteReview',
  'eventUpdate',
  'eventDelete',
  'eventMedia',
  'approveClaim',
  'declineClaim',
] as const;
export type Action = (typeof ACTIONS)[number];

/** 'ok' done at once; 'pending' recorded as a request that someone else decides (202). */
export type Outcome = 'ok' | 'pending' | ErrorName;

export interface Rule {
  /** who the rule is about; every role when absent */
  roles?: readonly Role[];
  /** the state it applies in; every state when absent */
  when?: Partial<ResourceState>;
  outcome: Outcome;
}

const SIGN_IN: Rule = { roles: ['visitor'], outcome: 'unauthorized' };
const FORBIDDEN: Rule = { outcome: 'forbidden' };
const CONTROLLERS = ['consultant', 'owner', 'admin'] as const;
const OWNER_OR_ADMIN = ['owner', 'admin'] as const;
/** the only state in which a point can have a pending consultant request (see `possible`). */
const REQUESTABLE = { owned: true, consulting: true, report: false, consultant: false } as const;

/** Edits that a consultant may make like the owner. */
const EDIT: readonly Rule[] = [SIGN_IN, { roles: CONTROLLERS, outcome: 'ok' }, FORBIDDEN];
/** What only the owner and admins may do. */
const OWNER_ONLY: readonly Rule[] = [SIGN_IN, { roles: OWNER_OR_ADMIN, outcome: 'ok' }, FORBIDDEN];
/** Answering a consultant request: the owner (and admins); there must be one pending. */
const ANSWER_REQUEST: readonly Rule[] = [
  SIGN_IN,
  { roles: OWNER_OR_ADMIN, when: REQUESTABLE, outcome: 'ok' },
  { roles: OWNER_OR_ADMIN, outcome: 'consultantRequestNotFound' },
  FORBIDDEN,
];
/** Deciding a claim: admins only; an owned point has no pending claim. */
const DECIDE_CLAIM: readonly Rule[] = [
  SIGN_IN,
  { roles: ['admin'], when: { owned: false }, outcome: 'ok' },
  { roles: ['admin'], outcome: 'claimNotFound' },
  FORBIDDEN,
];

export const MATRIX: Readonly<Record<Action, readonly Rule[]>> = {
  // anyone may add a point (spec §1, §6); a help request needs someone to answer to
  create: [
    { roles: ['visitor'], when: { report: true }, outcome: 'helpRequestNeedsAccount' },
    { outcome: 'ok' },
  ],
  update: EDIT,
  media: EDIT,
  addChildEvent: EDIT,
  copyToNew: EDIT,
  inviteReview: EDIT,
  delete: OWNER_ONLY,
  setAllowConsulting: [
    SIGN_IN,
    { roles: OWNER_OR_ADMIN, outcome: 'ok' },
    { roles: ['consultant'], outcome: 'ownerOnlySetting' },
    FORBIDDEN,
  ],
  claim: [SIGN_IN, { when: { owned: true }, outcome: 'pointAlreadyOwned' }, { outcome: 'pending' }],
  becomeConsultant: [
    SIGN_IN,
    { when: { report: true }, outcome: 'reportHasNoConsultant' },
    // asking again as the consultant changes nothing
    { roles: ['consultant'], outcome: 'ok' },
    { roles: ['owner'], outcome: 'ownerCannotConsult' },
    { when: { consultant: true }, outcome: 'pointHasConsultant' },
    { when: { owned: false }, outcome: 'ok' },
    { when: { consulting: false }, outcome: 'consultingNotAllowed' },
    { outcome: 'pending' },
  ],
  acceptRequest: ANSWER_REQUEST,
  declineRequest: ANSWER_REQUEST,
  clearConsultant: [
    SIGN_IN,
    { roles: CONTROLLERS, when: { consultant: true }, outcome: 'ok' },
    { roles: OWNER_OR_ADMIN, outcome: 'pointHasNoConsultant' },
    { outcome: 'notConsultant' },
  ],
  // an event is its owner's (the point's owner in the table's fixtures) and admins'
  eventUpdate: OWNER_ONLY,
  eventDelete: OWNER_ONLY,
  eventMedia: OWNER_ONLY,
  approveClaim: DECIDE_CLAIM,
  declineClaim: DECIDE_CLAIM,
};

/** The states the table covers: reports never have a consultant. */
export const STATES: readonly ResourceState[] = [false, true].flatMap((owned) =>
  [true, false].flatMap((consulting) =>
    [false, true].flatMap((report) =>
      [false, true]
        .filter((consultant) => !(report && consultant))
        .map((consultant) => ({ owned, consulting, report, consultant })),
    ),
  ),
);

/** Whether someone in `role` can exist on a point in `state` (the table skips the rest). */
export function possible(role: Role, state: ResourceState): boolean {
  switch (role) {
    case 'owner':
      return state.owned;
    case 'consultant':
      return state.consultant;
    // a claim is only made on an unowned point, and approving one declines the others
    case 'claimant':
      return !state.owned;
    // only asked of an owned place without a consultant whose owner allows consulting; turning it off
    // or accepting someone declines the pending ones
    case 'requester':
      return (Object.keys(REQUESTABLE) as (keyof ResourceState)[]).every((k) => state[k] === REQUESTABLE[k]);
    default:
      return true;
  }
}

function matches(rule: Rule, role: Role, state: ResourceState): boolean {
  if (rule.roles && !rule.roles.includes(role)) return false;
  if (rule.when)
    for (const [key, value] of Object.entries(rule.when) as [keyof ResourceState, boolean][])
      if (state[key] !== value) return false;
  return true;
}

/** The table's answer for one cell. */
export function decide(action: Action, role: Role, state: ResourceState): Outcome {
  for (const rule of MATRIX[action]) if (matches(rule, role, state)) return rule.outcome;
  throw new Error(`the authorisation table has no rule for ${action} by ${role}`);
}

export function isAllowed(outcome: Outcome): outcome is 'ok' | 'pending' {
  return outcome === 'ok' || outcome === 'pending';
}
