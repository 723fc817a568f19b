/** Demo points of every supertype, with their reviews, contacts and screenshots. */
import { BeamFlag } from '../../shared/domain/beams';
import type { Category } from '../../shared/domain/categories';
import { POINT_SUPERTYPES, type PointSupertype } from '../../shared/domain/supertypes';
import {
  CONTACT_ROLE_TEXTS,
  FIRST_NAMES,
  LAST_NAMES,
  OPENING_HOURS,
  UNPARSEABLE_OPENING_HOURS,
  XSITES,
  reviewReplyText,
  businessDescription,
  businessGroup,
  businessName,
  businessTagline,
  experienceText,
  helpRequestText,
  incidentText,
  kindName,
  makeCtx,
  poiText,
  poiName,
  rentalText,
  restaurantName,
  reviewText,
  serviceText,
  virtualStoreText,
  type BusinessGroup,
} from './content';
import { phoneNumber, slugOf, streetAddress, type SeedCity } from './places';
import type { ImageSet } from './images';
import { makeId, type Random } from './random';
import type { PointRow, ReviewRow } from './tables';
import { eventTypesFor } from './event-content';
import { hostedEvents, standaloneEvent } from './events';
import { pendingRequests } from './requests';
import {
  OLIVIA,
  CARLOS,
  UMA,
  FIRST_GENERATED_USER,
  OWNED,
  REVIEWED,
  HOSTS_EVENTS,
  HAS_OPENING_HOURS,
  MINUTE,
  HOUR,
  DAY,
  type SeedWorld,
  type Batch,
} from './world';

/** Generates point `i` and everything hanging off it into the batch; returns its supertype. */
export function point(w: SeedWorld, i: number, batch: Batch): PointSupertype {
  const rng = w.pointRng;
  // the first points are one of each supertype in New York, so even a tiny seed has them all on the default view
  const supertype: PointSupertype =
    i < POINT_SUPERTYPES.length ? (POINT_SUPERTYPES[i] as PointSupertype) : w.pickSupertype(rng);
  const cityIndex = i < POINT_SUPERTYPES.length && w.newYork >= 0 ? w.newYork : w.pickCity(rng);
  w.pointCity[i] = cityIndex;
  const city = w.cities[cityIndex] as SeedCity;
  const category = (w.typePickers.get(supertype) as (r: Random) => Category)(rng);
  const id = w.pointId(i);
  const kind = kindName(category);
  const c = makeCtx(rng, city.city, kind);
  const long = rng.chance(0.3);
  const position = w.place(rng, city, supertype === 'virtualstore' ? 0.5 : 1);

  let title: string;
  let tagline: string | null;
  let description: string | null;
  let subtype: string | null = null;
  let group: BusinessGroup | null = null;
  let serviceOffer: string | null = null;
  switch (supertype) {
    case 'business': {
      group = businessGroup(category);
      if (category.key === 'restaurant') {
        const named = restaurantName(rng, c);
        title = named.title;
        subtype = named.cuisine;
      } else {
        title = businessName(rng, category, c);
      }
      tagline = businessTagline(rng, category, c);
      description = businessDescription(rng, title, group, c, long);
      break;
    }
    case 'poi':
      title = poiName(rng, category, c);
      ({ tagline, description } = poiText(rng, title, c, long));
      break;
    case 'virtualstore':
      ({ title, tagline, description } = virtualStoreText(rng, category.key, c, long));
      break;
    case 'service': {
      const text = serviceText(rng, category, c, long);
      ({ title, tagline, description } = text);
      serviceOffer = text.offer;
      break;
    }
    case 'experience':
      ({ title, tagline, description } = experienceText(rng, category, c, long));
      break;
    case 'rental':
      ({ title, tagline, description } = rentalText(rng, category, c, long));
      break;
    case 'helprequest':
      ({ title, tagline, description } = helpRequestText(rng, category.key, c));
      break;
    case 'incident':
      ({ title, tagline, description } = incidentText(rng, category.key, c));
      break;
  }
  if (rng.chance(0.04)) tagline = null;

  // ownership
  let owner = -1;
  if (rng.chance(OWNED[supertype])) {
    const oliviaChance = city.isNewYork ? w.oliviaChance.newYork : w.oliviaChance.elsewhere;
    const ownsOlivia = supertype !== 'helprequest' && supertype !== 'incident' && rng.chance(oliviaChance);
    owner = ownsOlivia ? OLIVIA : w.someUser(rng);
  }
  let consultant = -1;
  const consultable = supertype !== 'helprequest' && supertype !== 'incident';
  if (consultable && rng.chance(0.17)) {
    consultant = rng.chance(w.carlosChance) ? CARLOS : w.someUser(rng, 1.2);
    if (consultant === owner) consultant = -1;
  }

  // address
  const address = streetAddress(rng, city);
  const asCoordinates = rng.chance(0.03);
  const slug = slugOf(title, `xpoint-${id}`);

  // links
  const personal = supertype === 'service' || supertype === 'helprequest';
  const linkChance = supertype === 'incident' || supertype === 'helprequest' ? 0 : 1;
  const email =
    rng.chance((supertype === 'poi' ? 0.1 : 0.7) * linkChance) || (personal && rng.chance(0.5))
      ? personal
        ? `${slugOf(c.first, 'me')}.${slugOf(c.last, 'x')}@example.com`
        : `${rng.pick(['hello', 'info', 'contact', 'bookings'])}@${slug}.example.com`
      : null;
  const phone = rng.chance(supertype === 'poi' ? 0.1 : supertype === 'incident' ? 0 : 0.8)
    ? phoneNumber(rng, city)
    : null;
  const websiteChance = supertype === 'virtualstore' ? 1 : supertype === 'poi' ? 0.15 : 0.6 * linkChance;
  const website = rng.chance(websiteChance)
    ? rng.chance(0.1)
      ? `www.${slug}.example.com`
      : `https://${slug}.example.com`
    : null;
  const facebook = rng.chance(0.35 * linkChance) ? `https://facebook.com/${slug.replace(/-/g, '')}` : null;
  const xsites =
    consultable && rng.chance(0.2)
      ? JSON.stringify(
          rng
            .distinct(rng.int(1, 3), XSITES.length)
            .map((k) => XSITES[k] as (typeof XSITES)[number])
            .map((s) => ({
              icon: s.icon,
              title: s.title,
              url: `https://${s.host}${s.host.endsWith('@') ? '' : '/'}${slug.replace(/-/g, '')}`,
            })),
        )
      : null;

  // stats: total >= this month >= today, total >= previous month; some all zero
  const statsTotal = rng.chance(0.06) ? 0 : Math.floor(Math.exp(rng.float(0, 9.5))) - 1;
  const prevMonth = Math.floor(statsTotal * rng.float(0, 0.25));
  const thisMonth = Math.floor(statsTotal * rng.float(0, 0.15));
  const today = rng.chance(0.4) ? 0 : Math.floor(thisMonth * rng.float(0, 0.2));

  // opening hours
  let openingHours: string | null = null;
  if (rng.chance(HAS_OPENING_HOURS[supertype])) {
    openingHours = rng.chance(0.012)
      ? rng.pick(UNPARSEABLE_OPENING_HOURS)
      : rng.pick(OPENING_HOURS[group ?? supertype] ?? OPENING_HOURS['shop'] ?? ['24/7']);
  }

  // flags
  let beamtype = 0;
  if ((supertype === 'business' || supertype === 'experience' || supertype === 'poi') && rng.chance(0.02))
    beamtype |= BeamFlag.hot;
  if (supertype === 'helprequest')
    beamtype |= BeamFlag.helpRequest | (rng.chance(0.25) ? BeamFlag.urgentHelpRequest : 0);
  if (supertype === 'incident') beamtype |= BeamFlag.incident;
  if (supertype === 'service' && rng.chance(0.1)) beamtype |= BeamFlag.chat;

  // media
  const cover = rng.chance(supertype === 'incident' ? 0.3 : 0.85) ? coverFor(w, supertype, category) : null;
  const logo =
    supertype !== 'incident' && supertype !== 'helprequest' && rng.chance(0.3)
      ? rng.pick(w.images.logos)
      : null;

  // times
  const created =
    supertype === 'incident'
      ? w.now - rng.int(10, 7 * 24 * 60) * MINUTE
      : supertype === 'helprequest'
        ? w.now - rng.int(1, 20 * 24) * HOUR
        : w.now - rng.int(1, 4 * 365) * DAY - rng.int(0, DAY - 1);
  const updated = Math.min(w.now, created + Math.floor((w.now - created) * rng.next()));

  const row: PointRow = {
    id,
    supertype,
    type: category.key,
    subtype,
    title,
    tagline,
    description,
    has_app:
      (supertype === 'virtualstore' && category.key === 'application') ||
      (supertype === 'business' && rng.chance(0.03))
        ? 1
        : 0,
    owner_userid: owner >= 0 ? (w.userInfo[owner]?.id ?? null) : null,
    consultant_userid: consultant >= 0 ? (w.userInfo[consultant]?.id ?? null) : null,
    allow_consulting: rng.chance(0.85) ? 1 : 0,
    city_id: city.id,
    full_address: asCoordinates ? `${position.lat.toFixed(6)},${position.lon.toFixed(6)}` : address.full,
    street: asCoordinates ? null : address.street,
    postalcode: asCoordinates ? null : address.postalcode,
    region: city.state,
    country: city.country,
    lat: position.lat,
    lon: position.lon,
    link_email: email,
    link_phone: phone,
    link_website: website,
    link_facebook: facebook,
    rating: null,
    rating_count: 0,
    health_status: rng.chance(supertype === 'business' ? 0.6 : 0.85) ? 0 : rng.chance(0.55) ? 1 : 2,
    xsites_json: xsites,
    stats_total: statsTotal,
    stats_prev_month: prevMonth,
    stats_this_month: thisMonth,
    stats_today: today,
    opening_hours: openingHours,
    time_zone_name: city.timeZone,
    resellerid: null,
    beamtype,
    marker: null,
    is_promo: supertype === 'business' && rng.chance(0.005) ? 1 : 0,
    url_icon_or_logo: logo,
    url_cover_video: null,
    url_cover_image: cover,
    pickup_destination: null,
    pickup_date_time: null,
    delivery_lat: null,
    delivery_lng: null,
    help_taskduration_minutes: null,
    help_taskbudget: null,
    help_taskstart: null,
    help_canacceptjob: null,
    help_canquote: null,
    meonmap_enabled: 0,
    meonmap_xpointid: null,
    xpoint_service: null,
    owner_dynamic_last_update: null,
    owner_callchat_priceperminute: null,
    created_at: created,
    updated_at: updated,
  };

  if (supertype === 'helprequest') {
    row.help_taskduration_minutes = rng.pick([15, 30, 45, 60, 90, 120, 180, 240, 360, 480]);
    row.help_taskbudget = rng.chance(0.5) ? rng.int(2, 60) * 5 : Math.round(rng.float(10, 400) * 100) / 100;
    row.help_taskstart = Math.ceil((w.now + rng.int(-24, 14 * 24) * HOUR) / (15 * MINUTE)) * 15 * MINUTE;
    row.help_canacceptjob = rng.chance(0.7) ? 1 : 0;
    row.help_canquote = rng.chance(0.5) ? 1 : 0;
    if (rng.chance(0.3)) {
      const destination = w.place(rng, city, 0.6);
      row.pickup_destination = streetAddress(rng, city).full;
      row.pickup_date_time = row.help_taskstart;
      row.delivery_lat = destination.lat;
      row.delivery_lng = destination.lon;
    }
  } else if (supertype === 'service') {
    row.meonmap_enabled = rng.chance(0.85) ? 1 : 0;
    row.xpoint_service = serviceOffer;
    row.owner_dynamic_last_update = w.now - Math.floor(Math.pow(rng.next(), 3) * 3 * DAY);
    row.owner_callchat_priceperminute = rng.int(50, 499) / 100;
  }

  // reviews make the rating: rating = average stars x 20, rating_count = reviews
  if (rng.chance(REVIEWED[supertype] * w.smallSeedBoost)) reviews(w, id, owner, row, batch);
  if (rng.chance(HOSTS_EVENTS[supertype] * w.smallSeedBoost))
    hostedEvents(w, row, owner, city, title, batch, eventTypesFor(supertype, category));
  if (supertype === 'business' && rng.chance(0.3)) contacts(w, id, owner, batch);
  if (rng.chance(0.05) && supertype !== 'incident') screenshots(w, id, supertype, category, batch);
  // a few standalone events, not tied to any point
  if (rng.chance(0.005)) standaloneEvent(w, batch);

  // a few pending claims and requests to consult, for the admin's queue and Olivia's panel
  pendingRequests(w, row, batch);
  batch.points.push(row);
  return supertype;
}

/** Which kind's cover a business group borrows when its own kind has none (others go without). */
const GROUP_COVER_KIND: Partial<Record<BusinessGroup, string>> = {
  food: 'restaurant',
  cafe: 'cafe',
  drink: 'bar',
  lodging: 'hotel',
  beauty: 'hairdresser',
  shop: 'general',
  auto: 'car_repair',
};

/** Covers with a neutral subject, for kinds of these supertypes with no picture of their own. */
const NEUTRAL_COVER_KIND: Partial<Record<PointSupertype, string>> = {
  poi: 'attraction',
  experience: 'custom',
  service: 'custom',
};

/**
 * The pictures that show what this point is: its own kind's cover (or one with its icon), else its
 * group's (a café's cup for a coffee house); never another kind's (no T-shirt for a coffee house).
 */
export function fittingCovers(images: ImageSet, supertype: PointSupertype, category: Category): string[] {
  const out: string[] = [];
  const own = images.coverByKind.get(`${supertype}/${category.key}`) ?? images.coverByIcon.get(category.icon);
  if (own) out.push(own);
  const groupKind = supertype === 'business' ? GROUP_COVER_KIND[businessGroup(category)] : undefined;
  const borrowed = groupKind ? images.coverByKind.get(`business/${groupKind}`) : undefined;
  if (borrowed && !out.includes(borrowed)) out.push(borrowed);
  // a plain star (or a briefcase for a service) says nothing wrong about any poi, experience or service
  const neutral = NEUTRAL_COVER_KIND[supertype];
  const fallback =
    out.length === 0 && neutral ? images.coverByKind.get(`${supertype}/${neutral}`) : undefined;
  if (fallback) out.push(fallback);
  return out;
}

function coverFor(w: SeedWorld, supertype: PointSupertype, category: Category): string | null {
  return fittingCovers(w.images, supertype, category)[0] ?? null;
}

function reviews(w: SeedWorld, pointId: string, owner: number, row: PointRow, batch: Batch): void {
  const rng = w.relatedRng;
  const quality = rng.bell(3.9, 1.3, 1, 5);
  const count = Math.min(w.generatedUsers, 1 + Math.floor(-Math.log(1 - rng.next() * 0.999) * 0.9));
  const reviewers = rng.distinct(count, w.generatedUsers).map((u) => FIRST_GENERATED_USER + u);
  if (rng.chance(0.03)) reviewers[0] = UMA;
  let sum = 0;
  let written = 0;
  for (const user of reviewers) {
    if (user === owner) continue;
    const stars = Math.round(rng.bell(quality, 1.2, 1, 5));
    const created = row.created_at + Math.floor((w.now - row.created_at) * rng.next());
    const reviewId = makeId(w.seed, 'review', w.reviewCount++);
    const reviewer = w.userInfo[user];
    const review: ReviewRow = {
      id: reviewId,
      point_id: pointId,
      user_id: reviewer?.id ?? '',
      stars,
      text: reviewText(rng, stars),
      created_at: created,
      updated_at: created,
    };
    batch.reviews.push(review);
    sum += stars;
    written++;
    // the point's owner and consultant are told of it; then the owner may answer in public
    for (const recipientId of [row.owner_userid, row.consultant_userid])
      if (recipientId)
        w.inbox.add({
          recipientId,
          actorId: review.user_id,
          action: 'review',
          objectType: 'X',
          objectId: pointId,
          at: created,
        });
    ownerReply(w, row, review, reviewer?.first ?? '');
  }
  if (written > 0) {
    row.rating = Math.round((sum / written) * 20);
    row.rating_count = written;
  }
}

/**
 * An owner's public answer to some reviews of an owned point (Yelp's), more often to the unhappy
 * ones, and to most of Olivia's and of Uma's (the demo accounts): written by the owner, or
 * now and then by the point's consultant, a few hours to three days after the review. From its own
 * stream (`replyRng`), so every other seeded row stays as it was.
 */
function ownerReply(w: SeedWorld, row: PointRow, review: ReviewRow, reviewerFirstName: string): void {
  const rng = w.replyRng;
  const ownerId = row.owner_userid;
  // Olivia answers her reviews, and a demo account's review is answered, so both demos show one
  const demo = ownerId === w.userId(OLIVIA) || review.user_id === w.userId(UMA);
  const answers = rng.chance(demo ? 0.8 : Number(review.stars) <= 2 ? 0.45 : 0.2);
  const byConsultant = rng.chance(0.25);
  const after = rng.int(2, 72) * HOUR + rng.int(0, HOUR - 1);
  if (!ownerId || !answers) return;
  const replierId = byConsultant && row.consultant_userid ? row.consultant_userid : ownerId;
  if (replierId === review.user_id) return;
  const at = Math.min(w.now - MINUTE, Number(review.created_at) + after);
  if (at <= Number(review.created_at)) return;
  review.reply_text = reviewReplyText(rng, Number(review.stars), reviewerFirstName || 'there');
  review.reply_user_id = replierId;
  review.reply_at = at;
  review.reply_updated_at = at;
  w.inbox.add({
    recipientId: review.user_id,
    actorId: replierId,
    action: 'review_reply',
    objectType: 'R',
    objectId: review.id,
    at,
  });
}

function contacts(w: SeedWorld, pointId: string, owner: number, batch: Batch): void {
  const rng = w.relatedRng;
  const count = rng.int(1, 3);
  const roles = [rng.chance(0.6) ? 'OWNR' : '_CEO', 'ADMN', 'CUST'];
  for (let position = 0; position < count; position++) {
    const roleid = roles[position] as string;
    const isOwner = roleid === 'OWNR' && owner >= 0;
    const user = isOwner ? w.userInfo[owner] : rng.chance(0.3) ? w.userInfo[w.someUser(rng)] : undefined;
    batch.contacts.push({
      point_id: pointId,
      roleid,
      roleoverride: roleid === 'CUST' ? rng.pick(CONTACT_ROLE_TEXTS) : null,
      contact_firstname: user?.first ?? rng.pick(FIRST_NAMES),
      contact_lastname: user?.last ?? rng.pick(LAST_NAMES),
      contact_username: user?.username ?? null,
      avatar_url: rng.chance(0.5) ? rng.pick(w.images.avatars) : null,
      position,
    });
  }
}

/** A gallery of the pictures that fit the point (none when nothing fits: no dumbbell for a café). */
function screenshots(
  w: SeedWorld,
  pointId: string,
  supertype: PointSupertype,
  category: Category,
  batch: Batch,
): void {
  fittingCovers(w.images, supertype, category).forEach((url, i) => {
    batch.screenshots.push({ point_id: pointId, position: i + 1, url });
  });
}
