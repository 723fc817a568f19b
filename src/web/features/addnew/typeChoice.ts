import type { Category } from '../../../shared/domain/categories';

/**
 * Step 2 of add-new (map-and-search §4): the type is picked from a filterable list with a 'show
 * all' toggle; typing filters, and an exact match selects. Pure, so the list's rules are tested
 * without a browser.
 */

/** How many types the list shows before 'show all' (the catch-all "other" type is always among them). */
export const COMMON_TYPE_COUNT = 12;

/** The catch-all types (custom, custom_vs, ...): always offered, so nobody is stuck without a fit. */
export function isCatchAll(category: Category): boolean {
  return category.key === 'custom' || category.key.startsWith('custom_');
}

/** Lower case, accents and punctuation gone, spaces squeezed: 'Café-Tour' and 'cafe tour' compare equal. */
export function foldText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The types offered by default: the first ones in the taxonomy's order, plus the catch-all. */
export function commonTypes(categories: readonly Category[]): Category[] {
  const catchAll = categories.filter(isCatchAll);
  const rest = categories.filter((category) => !isCatchAll(category));
  return [...rest.slice(0, Math.max(0, COMMON_TYPE_COUNT - catchAll.length)), ...catchAll];
}

/**
 * The types the list shows. Typed text searches every type (the name or the key contains it, then
 * the types one of whose terms starts with it), whatever the toggle says, so typing always finds a type; with
 * nothing typed the toggle chooses between the common types and all of them. A selected type stays
 * listed, so the choice is always visible.
 */
export function visibleTypes(
  categories: readonly Category[],
  query: string,
  showAll: boolean,
  selected: string | null = null,
): Category[] {
  const folded = foldText(query);
  let shown: Category[];
  if (folded === '') shown = showAll ? [...categories] : commonTypes(categories);
  else {
    shown = categories.filter((category) => {
      const name = foldText(category.name);
      const key = foldText(category.key);
      return name.includes(folded) || key.includes(folded);
    });
    // then the types whose other words match ('bicycle' offers the rental type 'Bike', 'coffee shop'
    // the café): after those whose name matches, so a type's own name still comes first
    const byName = new Set(shown);
    shown = [
      ...shown,
      ...categories.filter((category) => !byName.has(category) && termsMatch(category, folded)),
    ];
  }
  const chosen = categories.find((category) => category.key === selected);
  if (chosen !== undefined && !shown.includes(chosen)) shown = [...shown, chosen];
  return shown;
}

/** The type the typed text names exactly (its name or its key, case and punctuation aside), if any. */
export function exactType(categories: readonly Category[], query: string): Category | undefined {
  const folded = foldText(query);
  if (folded === '') return undefined;
  return categories.find(
    (category) => foldText(category.name) === folded || foldText(category.key) === folded,
  );
}

/** Whether one of the type's terms (its other words: 'bicycle' for a rented bike) starts with the folded text. */
function termsMatch(category: Category, folded: string): boolean {
  return (category.terms ?? []).some((term) => {
    const word = foldText(term);
    return word.startsWith(folded) || word.includes(` ${folded}`);
  });
}
