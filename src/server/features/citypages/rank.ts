/**
 * The city page's "hot" order (issue 19), after Lemmy's ranks: a post's rank is
 * `log(max(1, 3 + score)) / (hours + 2)^1.8`, its score likes up minus down and its age the hours since
 * it went to the top of its lists (created or renewed), computed when the page is made (Lemmy's users
 * complained of ranks frozen by a periodic job and of old posts stuck at the top). The scaled rank
 * divides by `log(2 + active authors)` of the city over the last month, Lemmy's answer to big
 * communities drowning small ones in a mixed list: on one city's page it does not change the order,
 * it makes two cities' ranks comparable. And no busy author fills a list: at most AUTHOR_CAP posts of
 * one author in each list, the rest of theirs waits behind everyone else's.
 */

/** Lemmy's gravity: how fast age pulls a post down. */
const GRAVITY = 1.8;
/** How many posts of one author a list shows. */
export const AUTHOR_CAP = 2;

/** Lemmy's hot rank of a post with `score` that is `hours` old. */
export function hotRank(score: number, hours: number): number {
  return Math.log(Math.max(1, 3 + score)) / Math.pow(Math.max(0, hours) + 2, GRAVITY);
}

/** The hot rank scaled by the city's activity (Lemmy's scaled rank): `rank / log(2 + active)`. */
export function scaledRank(score: number, hours: number, activeAuthors: number): number {
  return hotRank(score, hours) / Math.log(2 + Math.max(0, activeAuthors));
}

export interface Rankable {
  id: string;
  author: string;
  score: number;
  /** when its age counts from, epoch ms. */
  listed_at: number;
}

/**
 * The items by scaled rank at `now`, best first (ties: newer, then id), at most `limit`, at most
 * `cap` per author.
 */
export function hotList<T extends Rankable>(
  items: readonly T[],
  now: number,
  activeAuthors: number,
  limit: number,
  cap = AUTHOR_CAP,
): T[] {
  const ranked = items
    .map((item) => ({
      item,
      rank: scaledRank(item.score, (now - item.listed_at) / 3_600_000, activeAuthors),
    }))
    .sort(
      (a, b) =>
        b.rank - a.rank ||
        b.item.listed_at - a.item.listed_at ||
        (a.item.id < b.item.id ? -1 : a.item.id > b.item.id ? 1 : 0),
    );
  const perAuthor = new Map<string, number>();
  const out: T[] = [];
  for (const { item } of ranked) {
    if (out.length >= limit) break;
    const seen = perAuthor.get(item.author) ?? 0;
    if (seen >= cap) continue;
    perAuthor.set(item.author, seen + 1);
    out.push(item);
  }
  return out;
}
