/**
 * The request-callback modal's rules (map-and-search §5, §8): what it needs before it can open, and
 * the texts of its outcomes.
 */

/** §8: the modal's alerts when the service is not fully described. */
export const SERVICE_NAME_MISSING = 'Service Name is not defined';
export const SERVICE_POINT_MISSING = 'Service xpointId is not defined';
/** §8: the prefix of a network failure; the cause follows it. */
export const CALLBACK_NETWORK_FAILURE = 'Could not send email.';
/** §8: the prefix of a health-photo failure; the cause follows it. */
export const HEALTH_PHOTOS_FAILURE = 'Could not receive images.';

export interface CallbackTarget {
  /** the provider to call back (the service point's owner): §5 requires it, else the error panel. */
  toUserId: string | null | undefined;
  serviceName: string | null | undefined;
  xpointId: string | null | undefined;
}

const blank = (value: string | null | undefined) =>
  value === null || value === undefined || value.trim() === '';

/** §5, §8: the alert the modal shows instead of its form, or null when it may open. */
export function callbackAlert(target: CallbackTarget): string | null {
  if (blank(target.serviceName)) return SERVICE_NAME_MISSING;
  if (blank(target.xpointId)) return SERVICE_POINT_MISSING;
  return null;
}

/** §5: without a target user id the error panel shows instead of the form. */
export const hasCallbackUser = (target: CallbackTarget): boolean => !blank(target.toUserId);

/** §8: a failure that never reached the server reads 'Could not send email.' and its cause. */
export function networkFailureText(cause: string): string {
  const reason = cause.trim();
  return reason === '' ? CALLBACK_NETWORK_FAILURE : `${CALLBACK_NETWORK_FAILURE} ${reason}`;
}
