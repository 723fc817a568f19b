import type { PostCategory } from '../../../shared/domain/enums';

/** How each category of social §1 reads in the form and on a post. */
export const CATEGORY_NAMES: Readonly<Record<PostCategory, string>> = {
  gig: 'Gig',
  petition: 'Petition',
  general: 'General',
  recommendation: 'Recommendation',
  classified: 'Classified',
  promotion: 'Promotion',
  deal: 'Deal',
};
