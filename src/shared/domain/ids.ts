/** Ids in addresses consist of letters, digits, underscore and hyphen only (map-and-search §2, §5). */
export const ID_PATTERN = /^[A-Za-z0-9_-]+$/;
export const MAX_ID_LENGTH = 64;

export function isValidId(value: unknown): value is string {
  return (
    typeof value === 'string' && value.length > 0 && value.length <= MAX_ID_LENGTH && ID_PATTERN.test(value)
  );
}
