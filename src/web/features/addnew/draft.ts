import type { FormState } from './addNewForm';

/**
 * What the visitor chose and typed, kept while they move between the steps (§4: back from step 3
 * goes to step 2 and forward again): each step's component is new on every address, so the draft
 * lives here, for this page only, and is forgotten once the point is added.
 */
const chosenTypes = new Map<string, string>();
let form: { key: string; state: FormState } | null = null;

export function rememberType(supertype: string, type: string): void {
  chosenTypes.set(supertype, type);
}

export function rememberedType(supertype: string): string | null {
  return chosenTypes.get(supertype) ?? null;
}

/** The form as it was left for this supertype and type, if the visitor comes back to it. */
export function rememberedForm(supertype: string, type: string): FormState | null {
  return form !== null && form.key === `${supertype}/${type}` ? form.state : null;
}

export function rememberForm(supertype: string, type: string, state: FormState): void {
  form = { key: `${supertype}/${type}`, state };
}

/** The point was added: the next one starts afresh. */
export function forgetDraft(): void {
  chosenTypes.clear();
  form = null;
}
