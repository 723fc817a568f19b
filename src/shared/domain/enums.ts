/** Contact role codes (map-and-search §3). `CUST` carries its own text in `roleoverride`. */
export const CONTACT_ROLES = {
  ADMN: 'Administrator',
  _CEO: 'CEO',
  OWNR: 'Business owner',
  CUST: 'Custom role',
} as const;
export type ContactRole = keyof typeof CONTACT_ROLES;

/** Health status of a point (map-and-search §3). */
export const HealthStatus = { undefined: 0, verificationpending: 1, verified: 2 } as const;
export type HealthStatusValue = (typeof HealthStatus)[keyof typeof HealthStatus];

/** Like types (social §3): 0 = up, 1 = down. */
export const LikeType = { up: 0, down: 1 } as const;
export type LikeTypeValue = (typeof LikeType)[keyof typeof LikeType];

/** Object types that can be liked or commented; P (post) is the default (social §3). */
export const OBJECT_TYPES = { P: 'post', X: 'point', E: 'event', R: 'review', C: 'comment' } as const;
export type ObjectType = keyof typeof OBJECT_TYPES;

/** Post categories (map-and-search §3, social §1). */
export const POST_CATEGORIES = [
  'gig',
  'petition',
  'general',
  'recommendation',
  'classified',
  'promotion',
  'deal',
] as const;
export type PostCategory = (typeof POST_CATEGORIES)[number];

/** Placeholder cover images exist for these post types (social §1). */
export const POST_PLACEHOLDERS = [
  'general',
  'services',
  'financial',
  'real-estate',
  'announcement',
  'creative',
  'deal',
  'gig',
  'legal',
] as const;

/** User account status (`owner_status` in point details). */
export const USER_STATUSES = ['active', 'away', 'busy', 'offline', 'suspended'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** Event admission. */
export const ADMISSIONS = ['free', 'paid', 'donation'] as const;
export type Admission = (typeof ADMISSIONS)[number];
