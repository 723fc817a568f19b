import type { MyPoint } from '../../../shared/api/points';
import {
  clearConsultantLink,
  eventCopyLink,
  eventDeleteLink,
  eventEditLink,
  experienceDeleteLink,
  experienceEditLink,
  helpRequestCopyLink,
  pointDeleteLink,
  pointEditLink,
  rentalDeleteLink,
  rentalEditLink,
  serviceEditLink,
  type PointRouteSupertype,
} from '../../../shared/address';
import { POINT_SUPERTYPES } from '../../../shared/domain/supertypes';

/** One control of a listed point or event: a link to its route (map-and-search §2, §6). */
export interface ItemControl {
  label: string;
  href: string;
  /** deleting and stopping are set apart, as on the point's own panel. */
  danger: boolean;
}

const routeSupertype = (supertype: string): PointRouteSupertype =>
  (POINT_SUPERTYPES as readonly string[]).includes(supertype) ? (supertype as PointRouteSupertype) : 'none';

/**
 * What the signed-in user can do with one of their own points or events, as links carrying
 * `successUrl` (the list they are on) to come back to: points are edited and deleted under their
 * supertype's route (§2: /MeOnMap/Edit, /MyExperience/..., /MyRental/...), help requests copied to a
 * new one (§6), a consultant may stop consulting; events are edited, copied and deleted.
 */
export function itemControls(item: MyPoint, successUrl: string): ItemControl[] {
  const id = item.id;
  if (item.kind === 'event')
    return [
      { label: 'Edit', href: eventEditLink(id, successUrl), danger: false },
      { label: 'Copy to new', href: eventCopyLink(id, successUrl), danger: false },
      { label: 'Delete', href: eventDeleteLink(id, successUrl), danger: true },
    ];
  const edit =
    item.supertype === 'service'
      ? serviceEditLink(id, successUrl)
      : item.supertype === 'experience'
        ? experienceEditLink(id, successUrl)
        : item.supertype === 'rental'
          ? rentalEditLink(id, successUrl)
          : pointEditLink(id, routeSupertype(item.supertype), successUrl);
  const remove =
    item.supertype === 'experience'
      ? experienceDeleteLink(id, successUrl)
      : item.supertype === 'rental'
        ? rentalDeleteLink(id, successUrl)
        : pointDeleteLink(id, successUrl);
  // a pending claim or request to consult gives no control until it is approved (issue 16)
  if (item.role === 'claimant' || item.role === 'requester') return [];
  const controls: ItemControl[] = [{ label: 'Edit', href: edit, danger: false }];
  if (item.supertype === 'helprequest')
    controls.push({ label: 'Copy to new', href: helpRequestCopyLink(id, successUrl), danger: false });
  // deleting is the owner's: a consultant never deletes
  if (item.role === 'owner') controls.push({ label: 'Delete', href: remove, danger: true });
  if (item.role === 'consultant')
    controls.push({ label: 'Stop consulting', href: clearConsultantLink(id, successUrl), danger: true });
  return controls;
}
