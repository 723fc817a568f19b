import { get, type FieldErrors } from 'react-hook-form';

/**
 * The message react-hook-form holds for a field path (`title`, `contacts.1.roleoverride`), also for
 * a whole list (its message, or its `root` when a resolver put it there); undefined when none.
 */
export function errorAt(errors: FieldErrors, path: string): string | undefined {
  const found = get(errors, path) as { message?: string; root?: { message?: string } } | undefined;
  return found?.message ?? found?.root?.message;
}
