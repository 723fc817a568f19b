import { CATEGORIES, type Category } from '../domain/categories';
import type { PostCategory } from '../domain/enums';
import type { LayerGroup } from './contract';

/**
 * The categories of each layer group, as the sprite draws them and search names them. Points and
 * events take theirs from the generated taxonomy; posts have the seven of map-and-search §3, each with
 * a maki/temaki glyph like every other category (the sprite draws one badge per category).
 */
export const POST_MAP_CATEGORIES = [
  { key: 'gig', name: 'Gig', icon: 'temaki-briefcase' },
  { key: 'petition', name: 'Petition', icon: 'maki-town-hall' },
  { key: 'general', name: 'General', icon: 'maki-information' },
  { key: 'recommendation', name: 'Recommendation', icon: 'maki-star' },
  { key: 'classified', name: 'Classified', icon: 'temaki-bulletin_board' },
  { key: 'promotion', name: 'Promotion', icon: 'temaki-billboard' },
  { key: 'deal', name: 'Deal', icon: 'temaki-money_hand' },
] as const satisfies readonly (Category & { key: PostCategory })[];

// every post category has its badge: a category added to the enum without one fails to compile
type Missing = Exclude<PostCategory, (typeof POST_MAP_CATEGORIES)[number]['key']>;
export const POST_CATEGORIES_COMPLETE: [Missing] extends [never] ? true : Missing = true;

export function layerCategories(group: LayerGroup): readonly Category[] {
  return group === 'post' ? POST_MAP_CATEGORIES : CATEGORIES[group];
}

const POST_NAMES = new Map<string, string>(POST_MAP_CATEGORIES.map((c) => [c.key, c.name]));

/** A post category's name ('deal' -> 'Deal'), or undefined when it is not one. */
export function postCategoryName(key: string): string | undefined {
  return POST_NAMES.get(key);
}
