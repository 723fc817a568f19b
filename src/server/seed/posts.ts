/** Demo posts of every category, with their comments and likes. */
import { POST_CATEGORIES, POST_PLACEHOLDERS } from '../../shared/domain/enums';
import { COMMENTS as COMMENT_TEXTS, makeCtx, postText, type Ctx } from './content';
import type { SeedCity } from './places';
import { commentTimePrefix } from '../features/comments/ids';
import { makeGuid, makeId } from './random';
import { OLIVIA, UMA, FIRST_GENERATED_USER, HOUR, DAY, type SeedWorld, type Batch } from './world';

export function postCount(w: SeedWorld): number {
  return Math.max(30, Math.round(w.total / 20));
}

export function post(w: SeedWorld, i: number, batch: Batch): void {
  const rng = w.postRng;
  const category = i < POST_CATEGORIES.length ? (POST_CATEGORIES[i] as string) : w.pickPostCategory(rng);
  const author = rng.chance(0.04) ? OLIVIA : rng.chance(0.03) ? UMA : w.someUser(rng, 1.3);
  let cityIndex: number;
  let xpointId: string | null = null;
  if (w.total > 0 && rng.chance(0.3)) {
    const pointIndex = rng.int(0, w.total - 1);
    cityIndex = w.pointCity[pointIndex] ?? 0;
    xpointId = w.pointId(pointIndex);
  } else {
    cityIndex = i < POST_CATEGORIES.length && w.newYork >= 0 ? w.newYork : w.pickCity(rng);
  }
  const city = w.cities[cityIndex] as SeedCity;
  const c: Ctx = makeCtx(rng, city.city, category);
  const text = postText(rng, category, c);
  // expiry: not set, already expired, or in the future
  const expiry =
    i < 3
      ? (['none', 'past', 'future'] as const)[i]
      : rng.weighted(['none', 'past', 'future'] as const, [40, 20, 40]);
  let created = w.now - Math.floor(Math.pow(rng.next(), 1.5) * 45 * DAY);
  let expires: number | null = null;
  if (expiry === 'past') {
    expires = w.now - rng.int(1, 20 * 24) * HOUR;
    created = expires - rng.int(1, 30) * DAY;
  } else if (expiry === 'future') {
    expires = w.now + rng.int(1, 60) * DAY;
  }
  const withImage = rng.chance(0.55);
  const id = makeGuid(rng);
  // the picture through the posts' cover pipeline: sized variants and a placeholder, as the form makes
  const cover = withImage ? w.images.postCovers.get(rng.pick(w.images.allCovers)) : undefined;
  batch.posts.push({
    id,
    user_id: w.userInfo[author]?.id ?? '',
    title: text.title,
    description: text.description,
    type: category,
    city_id: city.id,
    xpoint_id: xpointId,
    parent_type: xpointId ? 'X' : null,
    image_url: cover?.image_url ?? null,
    image_variants: cover?.image_variants ?? null,
    image_placeholder: cover
      ? null
      : (POST_PLACEHOLDERS as readonly string[]).includes(text.placeholder)
        ? text.placeholder
        : rng.pick(POST_PLACEHOLDERS),
    video_url: null,
    file_resource_bitmask: cover ? 1 : 0,
    expires_at: expires,
    created_at: created,
    updated_at: created + (rng.chance(0.2) ? rng.int(1, 48) * HOUR : 0),
    // the lists order by when a post last went to the top (features/posts): created, for the seed's
    listed_at: created,
  });

  // about two comments and four likes per post
  const commentCount = rng.int(0, 4);
  const authorId = w.userInfo[author]?.id ?? '';
  for (let k = 0; k < commentCount; k++) {
    const at = created + Math.floor((w.now - created) * rng.next());
    const commenter = w.userInfo[rng.chance(0.05) ? UMA : w.someUser(rng, 1.3)]?.id ?? '';
    batch.comments.push({
      // time-ordered, as the comments feature writes them (features/comments/ids.ts)
      id: commentTimePrefix(at) + makeId(w.seed, 'comment', w.commentCount++),
      object_id: id,
      object_type: 'P',
      user_id: commenter,
      text: rng.pick(COMMENT_TEXTS),
      created_at: at,
      updated_at: at,
    });
    w.inbox.add({
      recipientId: authorId,
      actorId: commenter,
      action: 'comment',
      objectType: 'P',
      objectId: id,
      at,
    });
  }
  const postRow = batch.posts[batch.posts.length - 1];
  if (postRow) postRow.comments_count = commentCount;
  const likers = rng.distinct(rng.int(0, 8), w.generatedUsers).map((u) => FIRST_GENERATED_USER + u);
  if (rng.chance(0.05) && author !== UMA) likers.push(UMA);
  for (const user of likers) {
    const like = {
      id: makeId(w.seed, 'like', w.likeCount++),
      user_id: w.userInfo[user]?.id ?? '',
      object_id: id,
      object_type: 'P',
      like_type: rng.chance(0.85) ? 0 : 1,
      created_at: created + Math.floor((w.now - created) * rng.next()),
    };
    batch.likes.push(like);
    // the likes feature tells the author of every like made, up or down
    w.inbox.add({
      recipientId: authorId,
      actorId: like.user_id,
      action: 'like',
      objectType: 'P',
      objectId: id,
      at: like.created_at,
    });
  }
}
