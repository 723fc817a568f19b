import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef } from 'react';
import { useForm, type DefaultValues, type Path, type Resolver } from 'react-hook-form';
import type { z } from 'zod';
import type { PasswordStrength } from '../../../shared/validation/password-strength';
import { fieldError } from '../../lib/api';
import { loadPasswordStrength } from './passwordStrength';

/** 'is required.' reads as 'Username is required.'; a full sentence stays as it is. */
export function messageFor(label: string, reason: string): string {
  if (/^(is|must|may|does|should) /.test(reason)) return `${label} ${reason}`;
  return reason.charAt(0).toUpperCase() + reason.slice(1);
}

/**
 * An account form (sign in, create account, change password) on react-hook-form, validated by the
 * same zod contract the server applies (src/shared/api/accounts.ts). `refuse` places a server
 * refusal beside the field its body names (focused once the form is usable again), anything else
 * above the form as `errors.root.server`.
 */
export function useAccountForm<T extends Record<string, string>>(
  schema: z.ZodType<T, T>,
  fields: readonly (keyof T & string)[],
  /**
   * For a form that sets a password: the contract with the strength estimator, which is loaded when the
   * form opens and awaited by the first check that needs it (checks run on submit, then as one types).
   */
  withStrength?: (strength: PasswordStrength) => z.ZodType<T, T>,
) {
  useEffect(() => {
    if (withStrength) void loadPasswordStrength();
  }, [withStrength]);
  const resolver: Resolver<T, unknown, T> = async (values, context, options) => {
    const strength = withStrength ? await loadPasswordStrength() : null;
    const active = strength && withStrength ? withStrength(strength) : schema;
    return zodResolver(active)(values, context, options);
  };
  const form = useForm<T, unknown, T>({
    resolver,
    defaultValues: Object.fromEntries(fields.map((name) => [name, ''])) as DefaultValues<T>,
  });
  const { isSubmitting } = form.formState;
  const { setFocus, setError } = form;
  // the fieldset is disabled while the call is out: focus moves once it is enabled again
  const focusNext = useRef<Path<T> | null>(null);
  useEffect(() => {
    if (isSubmitting || focusNext.current === null) return;
    setFocus(focusNext.current);
    focusNext.current = null;
  }, [isSubmitting, setFocus]);

  const refuse = (error: unknown) => {
    const named = fieldError(error);
    const field = fields.find((name) => name === named?.field) as Path<T> | undefined;
    if (named !== null && field !== undefined) {
      setError(field, { message: named.reason });
      focusNext.current = field;
    } else setError('root.server', { message: error instanceof Error ? error.message : String(error) });
  };
  return { ...form, refuse };
}
