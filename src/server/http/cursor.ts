/**
 * A keyset page cursor, opaque to clients: the last item's sort key (a time) and its tie-breaker (an
 * id), as base64url JSON. Used by the calls that page by keyset (the chat inbox, the notifications).
 */
export function encodeKeyCursor(key: number, tieBreaker: number | string): string {
  return Buffer.from(JSON.stringify([key, tieBreaker]), 'utf8').toString('base64url');
}

/**
 * The key and tie-breaker of a cursor written by encodeKeyCursor, the tie-breaker of the kind given;
 * null for anything else (the caller answers its own error).
 */
export function decodeKeyCursor(cursor: string, tieBreaker: 'number'): [number, number] | null;
export function decodeKeyCursor(cursor: string, tieBreaker: 'string'): [number, string] | null;
export function decodeKeyCursor(
  cursor: string,
  tieBreaker: 'number' | 'string',
): [number, number | string] | null {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(value) || value.length !== 2 || !Number.isSafeInteger(value[0])) return null;
  const [key, second] = value as [number, unknown];
  if (tieBreaker === 'number' ? Number.isSafeInteger(second) : typeof second === 'string')
    return [key, second as number | string];
  return null;
}
