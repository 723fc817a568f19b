/**
 * The API schemas the app's first screen reads its answers with (issue 23), in a chunk of their own with
 * zod: src/web/lib/schemas.ts loads it at the first answer, so neither is in the first screen's
 * JavaScript.
 */
export {
  antiforgeryResponseSchema,
  loginResponseSchema,
  meResponseSchema,
  okResponseSchema,
  registerResponseSchema,
} from '../../shared/api/accounts';
export { chatUnreadSchema } from '../../shared/api/chat';
export {
  notificationPageSchema,
  notificationPushSchema,
  notificationWithdrawnPushSchema,
  notificationsReadPushSchema,
  unreadSchema,
} from '../../shared/api/notifications';
export { pingAnswerSchema } from '../../shared/api/ping';
export { pagedSearchResponseSchema, suggestionsResponseSchema } from '../../shared/api/search';
