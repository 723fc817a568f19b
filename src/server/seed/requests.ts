/**
 * Demo requests someone has to decide (issue 16): a few pending claims on unowned points, which the
 * admin's queue (/admin/claims) lists, and requests to consult one of Olivia's points, which she
 * answers from its panel. Drawn from their own random stream, so the rest of the demo data is the
 * same with or without them; the claimed points show "verification pending" as a pending claim does.
 */
import type { Random } from './random';
import type { PointRow } from './tables';
import { CARLOS, DAY, HOUR, OLIVIA, UMA, type Batch, type SeedWorld } from './world';

/** Pending claims in the demo data: enough to show a queue, few enough to read at a glance. */
export const DEMO_CLAIMS = 3;
/** Who asks to consult Olivia's point: Carlos, then a generated user. */
export const DEMO_CONSULT_REQUESTS = 2;

/** Claim text is taken for experiences and rentals only (§6); these read like a real owner's. */
const CLAIM_TEXTS = [
  'I have run this tour since 2019 and my guide licence number is on our website. Happy to send a copy of the business registration.',
  'This is our family’s rental. I can confirm with the booking email on the listing or a utility bill for the address.',
  'I am the operator: the phone number on this page rings at our front desk, call it any weekday between 9 and 5.',
] as const;

const CLAIMABLE = new Set(['business', 'poi', 'experience', 'rental']);
const WITH_TEXT = new Set(['experience', 'rental']);

/**
 * Called for every generated point, after its row is made: the first unowned places get a pending
 * claim (by Uma, Carlos, then active generated users) and the first of Olivia's points open to
 * consulting gets requests. Mutates the row's health status to verification pending (1).
 */
export function pendingRequests(w: SeedWorld, row: PointRow, batch: Batch): void {
  const rng = w.requestRng;
  if (row.owner_userid === null && CLAIMABLE.has(row.supertype) && w.claimCount < DEMO_CLAIMS) {
    const claimant = claimantFor(w, rng, w.claimCount, row.consultant_userid ?? null);
    if (claimant === null) return;
    const text = WITH_TEXT.has(row.supertype) ? rng.pick(CLAIM_TEXTS) : null;
    batch.claims.push({
      point_id: row.id,
      user_id: claimant,
      text,
      // the oldest first in the queue: a few days to a few hours ago
      created_at: w.now - (DEMO_CLAIMS - w.claimCount) * DAY - rng.int(0, 20) * HOUR,
      status: 'pending',
      previous_health_status: row.health_status ?? 0,
    });
    row.health_status = 1;
    w.claimCount++;
    return;
  }
  if (
    !w.consultRequested &&
    row.owner_userid === w.userInfo[OLIVIA]?.id &&
    row.allow_consulting === 1 &&
    (row.consultant_userid ?? null) === null &&
    row.supertype !== 'helprequest' &&
    row.supertype !== 'incident'
  ) {
    const asking = [w.userInfo[CARLOS]?.id, activeGeneratedUser(w, rng, new Set())].filter(
      (id): id is string => id !== undefined && id !== null,
    );
    asking.slice(0, DEMO_CONSULT_REQUESTS).forEach((user, n) =>
      batch.consultRequests.push({
        point_id: row.id,
        user_id: user,
        status: 'pending',
        created_at: w.now - (n === 0 ? 2 * DAY : 5 * HOUR),
      }),
    );
    w.consultRequested = true;
  }
}

/** Uma, then Carlos, then an active generated user; never the point's consultant. */
function claimantFor(w: SeedWorld, rng: Random, n: number, consultant: string | null): string | null {
  const fixed = [UMA, CARLOS][n];
  const id = fixed === undefined ? undefined : w.userInfo[fixed]?.id;
  if (id !== undefined && id !== consultant) return id;
  return activeGeneratedUser(w, rng, new Set(consultant === null ? [] : [consultant]));
}

/** An active generated user (a banned or deleted one would not be asking), or null after a few tries. */
function activeGeneratedUser(w: SeedWorld, rng: Random, not: Set<string>): string | null {
  for (let tries = 0; tries < 50; tries++) {
    const user = w.userInfo[w.someUser(rng)];
    if (user?.active && !not.has(user.id)) return user.id;
  }
  return null;
}
