/**
 * The columns the seed writes, per table, with their PostgreSQL types (migrations/0001_initial.ts:
 * times bigint, reals double precision, flags smallint). Auto-generated keys (points.seq, contacts.id,
 * event_intervals.id, event_tickets.id) and defaults (points.version) are left to the database.
 */
import type { Insertable } from 'kysely';
import type {
  CommentsTable,
  ContactsTable,
  EventIntervalsTable,
  EventsTable,
  EventTicketsTable,
  FollowsTable,
  LikesTable,
  MediaAssetsTable,
  NotificationsTable,
  ConsultantRequestsTable,
  PointClaimsTable,
  PointScreenshotsTable,
  PointsTable,
  PostsTable,
  ReviewsTable,
  UsersTable,
} from '../store/schema';
import type { TableSpec } from './sink';

export type UserRow = Insertable<UsersTable>;
export type PointRow = Omit<Insertable<PointsTable>, 'seq' | 'version'>;
export type ScreenshotRow = Insertable<PointScreenshotsTable>;
export type ContactRow = Omit<Insertable<ContactsTable>, 'id'>;
export type EventRow = Insertable<EventsTable>;
export type IntervalRow = Omit<Insertable<EventIntervalsTable>, 'id'>;
export type TicketRow = Omit<Insertable<EventTicketsTable>, 'id'>;
export type PostRow = Insertable<PostsTable>;
export type ReviewRow = Insertable<ReviewsTable>;
export type CommentRow = Insertable<CommentsTable>;
export type LikeRow = Insertable<LikesTable>;
export type FollowRow = Insertable<FollowsTable>;
export type NotificationRow = Omit<Insertable<NotificationsTable>, 'id'>;
export type MediaRow = Insertable<MediaAssetsTable>;
export type ClaimRow = Omit<Insertable<PointClaimsTable>, 'id' | 'decided_at' | 'decided_by'>;
export type ConsultRequestRow = Omit<Insertable<ConsultantRequestsTable>, 'id' | 'decided_at'>;

export const MEDIA_ASSETS: TableSpec<MediaRow> = {
  name: 'media_assets',
  ignoreConflicts: true,
  columns: [
    ['id', 'text'],
    ['mime', 'text'],
    ['bytes', 'integer'],
    ['width', 'integer'],
    ['height', 'integer'],
    ['owner_userid', 'text'],
    ['created_at', 'bigint'],
  ],
};

export const USERS: TableSpec<UserRow> = {
  name: 'users',
  columns: [
    ['id', 'text'],
    ['username', 'text'],
    ['username_lower', 'text'],
    ['email', 'text'],
    ['email_lower', 'text'],
    ['fullname', 'text'],
    ['avatar_url', 'text'],
    ['status', 'text'],
    ['is_admin', 'smallint'],
    ['password_hash', 'text'],
    ['created_at', 'bigint'],
    ['updated_at', 'bigint'],
  ],
};

export const POINTS: TableSpec<PointRow> = {
  name: 'points',
  columns: [
    ['id', 'text'],
    ['supertype', 'text'],
    ['type', 'text'],
    ['subtype', 'text'],
    ['title', 'text'],
    ['tagline', 'text'],
    ['description', 'text'],
    ['has_app', 'smallint'],
    ['owner_userid', 'text'],
    ['consultant_userid', 'text'],
    ['allow_consulting', 'smallint'],
    ['city_id', 'integer'],
    ['full_address', 'text'],
    ['street', 'text'],
    ['postalcode', 'text'],
    ['region', 'text'],
    ['country', 'text'],
    ['lat', 'double precision'],
    ['lon', 'double precision'],
    ['link_email', 'text'],
    ['link_phone', 'text'],
    ['link_website', 'text'],
    ['link_facebook', 'text'],
    ['rating', 'double precision'],
    ['rating_count', 'integer'],
    ['health_status', 'smallint'],
    ['xsites_json', 'text'],
    ['stats_total', 'integer'],
    ['stats_prev_month', 'integer'],
    ['stats_this_month', 'integer'],
    ['stats_today', 'integer'],
    ['opening_hours', 'text'],
    ['time_zone_name', 'text'],
    ['resellerid', 'text'],
    ['beamtype', 'integer'],
    ['marker', 'text'],
    ['is_promo', 'smallint'],
    ['url_icon_or_logo', 'text'],
    ['url_cover_video', 'text'],
    ['url_cover_image', 'text'],
    ['pickup_destination', 'text'],
    ['pickup_date_time', 'bigint'],
    ['delivery_lat', 'double precision'],
    ['delivery_lng', 'double precision'],
    ['help_taskduration_minutes', 'integer'],
    ['help_taskbudget', 'double precision'],
    ['help_taskstart', 'bigint'],
    ['help_canacceptjob', 'smallint'],
    ['help_canquote', 'smallint'],
    ['meonmap_enabled', 'smallint'],
    ['meonmap_xpointid', 'text'],
    ['xpoint_service', 'text'],
    ['owner_dynamic_last_update', 'bigint'],
    ['owner_callchat_priceperminute', 'double precision'],
    ['created_at', 'bigint'],
    ['updated_at', 'bigint'],
  ],
};

export const SCREENSHOTS: TableSpec<ScreenshotRow> = {
  name: 'point_screenshots',
  columns: [
    ['point_id', 'text'],
    ['position', 'integer'],
    ['url', 'text'],
  ],
};

export const CONTACTS: TableSpec<ContactRow> = {
  name: 'contacts',
  columns: [
    ['point_id', 'text'],
    ['roleid', 'text'],
    ['roleoverride', 'text'],
    ['contact_firstname', 'text'],
    ['contact_lastname', 'text'],
    ['contact_username', 'text'],
    ['avatar_url', 'text'],
    ['position', 'integer'],
  ],
};

export const EVENTS: TableSpec<EventRow> = {
  name: 'events',
  columns: [
    ['id', 'text'],
    ['xpoint_id', 'text'],
    ['parent_id', 'text'],
    ['owner_userid', 'text'],
    ['title', 'text'],
    ['cover_url', 'text'],
    ['type', 'text'],
    ['subtype', 'text'],
    ['start_date', 'bigint'],
    ['end_date', 'bigint'],
    ['lat', 'double precision'],
    ['lon', 'double precision'],
    ['full_address', 'text'],
    ['city_id', 'integer'],
    ['admission', 'text'],
    ['admissionprice', 'double precision'],
    ['website', 'text'],
    ['description', 'text'],
    ['marker', 'text'],
    ['created_at', 'bigint'],
    ['updated_at', 'bigint'],
  ],
};

export const EVENT_INTERVALS: TableSpec<IntervalRow> = {
  name: 'event_intervals',
  columns: [
    ['event_id', 'text'],
    ['start_at', 'bigint'],
    ['end_at', 'bigint'],
  ],
};

export const EVENT_TICKETS: TableSpec<TicketRow> = {
  name: 'event_tickets',
  columns: [
    ['event_id', 'text'],
    ['name', 'text'],
    ['unit_price', 'double precision'],
    ['max_quantity', 'integer'],
  ],
};

export const REVIEWS: TableSpec<ReviewRow> = {
  name: 'reviews',
  columns: [
    ['id', 'text'],
    ['point_id', 'text'],
    ['user_id', 'text'],
    ['stars', 'integer'],
    ['text', 'text'],
    ['created_at', 'bigint'],
    ['updated_at', 'bigint'],
    // the owner's public answer (migration 0013), on some reviews of owned points (points.ts)
    ['reply_text', 'text'],
    ['reply_user_id', 'text'],
    ['reply_at', 'bigint'],
    ['reply_updated_at', 'bigint'],
  ],
};

export const POSTS: TableSpec<PostRow> = {
  name: 'posts',
  columns: [
    ['id', 'text'],
    ['user_id', 'text'],
    ['title', 'text'],
    ['description', 'text'],
    ['type', 'text'],
    ['city_id', 'integer'],
    ['xpoint_id', 'text'],
    ['parent_type', 'text'],
    ['image_url', 'text'],
    ['image_variants', 'text'],
    ['image_placeholder', 'text'],
    ['video_url', 'text'],
    ['file_resource_bitmask', 'integer'],
    ['expires_at', 'bigint'],
    ['created_at', 'bigint'],
    ['updated_at', 'bigint'],
    // written only when the row sets it (posts.ts: when the post went to the top of its lists)
    ['listed_at', 'bigint'],
    // the post's comments, as features/comments keeps the counter (posts.ts counts them)
    ['comments_count', 'integer'],
  ],
};

export const COMMENTS: TableSpec<CommentRow> = {
  name: 'comments',
  columns: [
    ['id', 'text'],
    ['object_id', 'text'],
    ['object_type', 'text'],
    ['user_id', 'text'],
    ['text', 'text'],
    ['created_at', 'bigint'],
    ['updated_at', 'bigint'],
  ],
};

export const LIKES: TableSpec<LikeRow> = {
  name: 'likes',
  columns: [
    ['id', 'text'],
    ['user_id', 'text'],
    ['object_id', 'text'],
    ['object_type', 'text'],
    ['like_type', 'smallint'],
    ['created_at', 'bigint'],
  ],
};

export const FOLLOWS: TableSpec<FollowRow> = {
  name: 'follows',
  columns: [
    ['follower_id', 'text'],
    ['followee_id', 'text'],
    ['created_at', 'bigint'],
  ],
};

/** The demo accounts' notifications (migration 0016; seed/notifications.ts); the id is the store's. */
export const NOTIFICATIONS: TableSpec<NotificationRow> = {
  name: 'notifications',
  columns: [
    ['recipient_id', 'text'],
    ['actor_id', 'text'],
    ['action', 'text'],
    ['object_type', 'text'],
    ['object_id', 'text'],
    ['group_key', 'text'],
    ['created_at', 'bigint'],
    ['read_at', 'bigint'],
  ],
};

/** Pending claims (migration 0007): the admin's queue in the demo data. */
export const CLAIMS: TableSpec<ClaimRow> = {
  name: 'point_claims',
  columns: [
    ['point_id', 'text'],
    ['user_id', 'text'],
    ['text', 'text'],
    ['created_at', 'bigint'],
    ['status', 'text'],
    ['previous_health_status', 'integer'],
  ],
};

/** Pending requests to consult an owned point (migration 0007). */
export const CONSULT_REQUESTS: TableSpec<ConsultRequestRow> = {
  name: 'consultant_requests',
  columns: [
    ['point_id', 'text'],
    ['user_id', 'text'],
    ['status', 'text'],
    ['created_at', 'bigint'],
  ],
};

/**
 * Every table the seed fills, children before parents: deleting in this order never breaks a
 * foreign key. (Also cleared: promo events and website parts, which hang off points.)
 */
export const WIPE_ORDER = [
  // rows that hang off points and users: callbacks and their inbox rows, claims, live activity
  'notifications',
  'like_counts',
  // rental bookings (issue 22): nights hang off bookings, both off points and users
  'booking_nights',
  'bookings',
  'rental_availability',
  // chat (issue 22): lines hang off conversations, both off points and users
  'chat_messages',
  'chat_conversations',
  'inbox_messages',
  'callback_requests',
  'point_health_photos',
  'point_claims',
  'consultant_requests',
  'live_activity',
  'promo_events',
  'website_part_pictures',
  'website_parts',
  'websites',
  'likes',
  'comments',
  'reviews',
  'follows',
  'posts',
  // posts name their video, videos their author
  'videos',
  'event_tickets',
  'event_intervals',
  'events',
  'contacts',
  'point_screenshots',
  'points',
  'media_assets',
  // sessions and sign-in failures belong to the users being replaced
  'sessions',
  'login_throttle',
  'users',
] as const;
