import { useInfiniteQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState, type SyntheticEvent } from 'react';
import { useNavigate } from 'react-router';
import { FEED_POST_KIND, feedPostMessageSchema, type FeedItem } from '../../../shared/api/home';
import { socialTopic } from '../../../shared/api/social-live';
import { errorText } from '../../lib/query';
import { useSocialTopic } from '../../live/socialTopic';
import { useSession } from '../accounts/session';
import { PostCards } from '../posts/PostCards';
import { PostsModalHost } from '../posts/PostsModalHost';
import { cityFeedQuery } from './homeApi';
import { isNewerThanShown, mergeFeed, randomPlaceholder } from './feedItems';
import '../posts/posts.css';

/**
 * The horizontal city news feed (social §2): the city's posts as the posts' own cards (their menu
 * included: copy link, edit for the author), one row that slides with the previous and next buttons
 * (and by touch or the keyboard's scrolling), the next keyset page read when the row nears its end. Posts
 * new in the city slide in at the front as they are pushed on `social:T:{cityid}`; a broken image is
 * replaced by a random placeholder cover (§9).
 */
export function CityFeed({ cityId, cityName }: { cityId: number; cityName: string }) {
  const navigate = useNavigate();
  return (
    <PostsModalHost navigate={(path) => void navigate(path)}>
      <CityFeedRow cityId={cityId} cityName={cityName} />
    </PostsModalHost>
  );
}

function CityFeedRow({ cityId, cityName }: { cityId: number; cityName: string }) {
  const { user } = useSession();
  const feed = useInfiniteQuery(cityFeedQuery(cityId, user?.id ?? ''));
  const [live, setLive] = useState<{ city: number; items: FeedItem[] }>({ city: cityId, items: [] });
  const [announce, setAnnounce] = useState('');
  const track = useRef<HTMLDivElement>(null);
  const [edges, setEdges] = useState({ start: true, end: true, nearEnd: true });

  const liveItems = live.city === cityId ? live.items : [];
  const pages = feed.data?.pages ?? [];
  const items = mergeFeed(
    liveItems,
    pages.map((page) => page.items),
  );
  const placeholders = pages[0]?.placeholders ?? [];

  useSocialTopic(socialTopic('T', String(cityId)), (message) => {
    if (message.kind !== FEED_POST_KIND) return;
    const parsed = feedPostMessageSchema.safeParse(message.data);
    if (!parsed.success) return;
    const { item } = parsed.data;
    setLive((current) => {
      const shownNow = mergeFeed(
        current.city === cityId ? current.items : [],
        pages.map((page) => page.items),
      );
      if (!isNewerThanShown(item, shownNow)) return current;
      return { city: cityId, items: [item, ...(current.city === cityId ? current.items : [])] };
    });
    setAnnounce(`New post in ${cityName}: ${item.title}`);
  });

  const measure = useCallback(() => {
    const row = track.current;
    if (!row) return;
    setEdges({
      start: row.scrollLeft <= 2,
      end: row.scrollLeft + row.clientWidth >= row.scrollWidth - 2,
      // within one more row's width of the end: time to read the next page, before it is reached
      nearEnd: row.scrollLeft + 2 * row.clientWidth >= row.scrollWidth - 2,
    });
  }, []);
  useEffect(measure, [measure, items.length]);
  useEffect(() => {
    // the row nears its end: the next page
    if (edges.nearEnd && feed.hasNextPage && !feed.isFetchingNextPage) void feed.fetchNextPage();
  }, [edges.nearEnd, feed]);

  const slide = (direction: 1 | -1) => {
    const row = track.current;
    if (!row) return;
    const card = row.querySelector('li');
    const step = card ? card.getBoundingClientRect().width + 12 : row.clientWidth * 0.8;
    row.scrollBy({
      left: direction * Math.max(step, Math.floor(row.clientWidth / step) * step),
      behavior: 'smooth',
    });
  };

  // social §9: a broken feed image shows a random placeholder cover (once; the shell's fallback after)
  const onImageError = (event: SyntheticEvent<HTMLElement>) => {
    const image = event.target;
    if (!(image instanceof HTMLImageElement) || image.dataset.placeholder === 'true') return;
    const url = randomPlaceholder(placeholders, image.currentSrc || image.src);
    if (url === null) return;
    image.dataset.placeholder = 'true';
    for (const source of image.parentElement?.querySelectorAll('source') ?? []) source.srcset = url;
    image.removeAttribute('srcset');
    image.src = url;
  };

  const moreToCome = feed.hasNextPage || feed.isFetchingNextPage;
  return (
    <section className="home-feed" aria-labelledby="home-feed-title">
      <div className="home-feed__head">
        <h2 id="home-feed-title" className="home-feed__title">
          News in <a href={`/cads/${pages[0]?.city.city_forurl ?? ''}`}>{cityName}</a>
        </h2>
        <div className="home-feed__slides">
          <button
            type="button"
            className="home-feed__slide"
            aria-label="Previous posts"
            disabled={edges.start}
            onClick={() => slide(-1)}
          >
            ‹
          </button>
          <button
            type="button"
            className="home-feed__slide"
            aria-label="Next posts"
            disabled={edges.end && !moreToCome}
            onClick={() => slide(1)}
          >
            ›
          </button>
        </div>
      </div>
      <p className="visually-hidden" aria-live="polite">
        {announce}
      </p>
      {feed.status === 'pending' && (
        <p className="home-feed__note" role="status">
          Loading posts…
        </p>
      )}
      {feed.status === 'error' && (
        <p className="home-feed__note" role="alert">
          The posts could not be loaded: {errorText(feed.error)}
        </p>
      )}
      {feed.status === 'success' && items.length === 0 && (
        <p className="home-feed__note">
          No posts in {cityName} yet. Be the first to post a deal or a gig here.
        </p>
      )}
      {items.length > 0 && (
        <div className="home-feed__track" ref={track} onScroll={measure} onErrorCapture={onImageError}>
          <PostCards posts={items} />
        </div>
      )}
    </section>
  );
}
