import type { SearchResult } from '../../../shared/api/search';
import { categoryName } from '../../../shared/domain/categories';

/** What a result is, as people say it: its type's name ('Café'), else its supertype in words. */
export function resultType(result: Pick<SearchResult, 'class' | 'subclass'>): string {
  return result.subclass ? categoryName(result.class, result.subclass) : result.class.replaceAll('_', ' ');
}
