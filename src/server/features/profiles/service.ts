import type { ProfileQuery, ProfileResponse } from '../../../shared/api/profiles';
import { followedAmong } from '../follows/queries';
import { PROFILE_POSTS_LIMIT } from '../../../shared/api/profiles';
import { pointLink } from '../../../shared/address/links';
import { AppError } from '../../../shared/errors';
import { USERNAME_MAX_LENGTH, USERNAME_PATTERN } from '../../../shared/validation/accounts';
import type { Viewer } from '../../../shared/permissions';
import type { Store } from '../../store/store';
import { postsOfUser } from '../posts/service';
import * as q from './queries';

const USERNAME_RULE = `must be at most ${USERNAME_MAX_LENGTH} letters, digits, underscores (_) or hyphens (-).`;

/** Public profiles: anyone may read one; nothing private (email, password hash, sessions) leaves here. */
export class ProfileService {
  constructor(private readonly store: Store) {}

  /**
   * 400 for a name that cannot be a username, 404 for one nobody has. The posts are page 1 of the
   * posts list as `viewer` sees it (features/posts: expired ones marked, hidden ones for their author).
   */
  async profile(viewer: Viewer, username: string, query: ProfileQuery): Promise<ProfileResponse> {
    if (username.length > USERNAME_MAX_LENGTH || !USERNAME_PATTERN.test(username)) {
      throw new AppError('invalidField', { field: 'username', reason: USERNAME_RULE });
    }
    const user = await q.findUserByUsername(this.store, username);
    if (!user) throw new AppError('notFound');

    const { pagenumber, pagesize, supertype } = query;
    const [points, total, posts, counts] = await Promise.all([
      q.ownedPoints(this.store, user.id, { offset: (pagenumber - 1) * pagesize, limit: pagesize, supertype }),
      q.countOwnedPoints(this.store, user.id, supertype),
      postsOfUser(this.store, viewer, user.id, { pagenumber: 1, pagesize: PROFILE_POSTS_LIMIT }),
      q.profileCounts(this.store, user.id),
    ]);
    return {
      user: {
        id: user.id,
        username: user.username,
        fullname: user.fullname,
        avatar: user.avatar_url,
        status: user.status,
        createdAt: user.created_at,
      },
      points: {
        items: points.map((point) => ({
          id: point.id,
          supertype: point.supertype,
          type: point.type,
          title: point.title,
          tagline: point.tagline,
          url: pointLink(point.id, point.supertype),
          cover: point.url_cover_image,
          city: point.city,
        })),
        total,
        pagenumber,
        pagesize,
      },
      posts,
      counts: { followers: counts.followers, following: counts.following, reviews: counts.reviews },
      isfollowed: viewer ? ((await followedAmong(this.store, viewer.id, [user.id])).has(user.id) ? 1 : 0) : 0,
    };
  }
}
