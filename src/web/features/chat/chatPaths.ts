/**
 * The chat calls the top bar's badge and the inbox read (and their query keys), apart from the
 * conversation's live code (useConversation.ts, with the phoenix client), so the badge on every
 * page does not bring the live client into the first screen (issue 23).
 */
export const CHAT_UNREAD_PATH = '/v1/chat/unread';
export const CHAT_INBOX_PATH = '/v1/chat/conversations';
