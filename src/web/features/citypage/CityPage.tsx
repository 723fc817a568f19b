import { useState, type MouseEvent } from 'react';
import {
  CATEGORY_TITLES,
  cityLabel,
  type CityPageData,
  type CityPagePost,
} from '../../../shared/citypages/page';
import type { PostCategory } from '../../../shared/domain/enums';
import { formatDate } from '../../../shared/format';
import { PageFrame } from './PageFrame';

/** Cards whose pictures load at once; the rest wait until they are scrolled near. */
const EAGER_PICTURES = 2;

/**
 * The city deals page (/cads/{city_forurl}; social §2): the hot list of every category, each
 * category's own list, the events on now and soon, and the most visited places. Every post opens
 * in the app (/post/{id}); with JavaScript the category links also filter the lists in place.
 */
export function CityPage({ data }: { data: CityPageData }) {
  const { city } = data;
  const zone = city.time_zone ?? 'UTC';
  const [only, setOnly] = useState<PostCategory | null>(null);
  const choose = (type: PostCategory | null) => (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    setOnly(type);
  };
  const shown = data.categories.filter((category) => only === null || category.type === only);
  const total = data.categories.reduce((sum, category) => sum + category.posts.length, 0);
  return (
    <PageFrame link={{ href: data.map_url, text: 'Open the map' }}>
      <div className="citypage-head">
        <h1 className="citypage-head__title">Deals and posts in {city.name}</h1>
        <p className="citypage-head__where">{cityLabel(city)}</p>
      </div>

      <section className="citypage-section" aria-labelledby="citypage-hot">
        <h2 id="citypage-hot" className="citypage-section__title">
          Hot in {city.name}
        </h2>
        {data.hot.length > 0 ? (
          <ul className="citypage-posts">
            {data.hot.map((post, index) => (
              <PostCard key={post.id} post={post} zone={zone} level={3} eager={index < EAGER_PICTURES} />
            ))}
          </ul>
        ) : (
          <p className="citypage-empty">No posts in {city.name} yet: be the first to post a deal.</p>
        )}
      </section>

      {total > 0 && (
        <section className="citypage-section" aria-labelledby="citypage-categories">
          <h2 id="citypage-categories" className="citypage-section__title">
            By category
          </h2>
          <nav className="citypage-filter" aria-label="Categories">
            <a
              className="citypage-filter__item"
              href="#citypage-categories"
              aria-current={only === null ? 'true' : undefined}
              onClick={choose(null)}
            >
              All
            </a>
            {data.categories.map((category) => (
              <a
                key={category.type}
                className="citypage-filter__item"
                href={`#citypage-${category.type}`}
                aria-current={only === category.type ? 'true' : undefined}
                onClick={choose(category.type)}
              >
                {CATEGORY_TITLES[category.type]}{' '}
                <span className="citypage-filter__count">{category.posts.length}</span>
              </a>
            ))}
          </nav>
          {shown.map((category) => (
            <section
              key={category.type}
              className="citypage-category"
              id={`citypage-${category.type}`}
              aria-labelledby={`citypage-${category.type}-title`}
            >
              <h3 id={`citypage-${category.type}-title`} className="citypage-category__title">
                {CATEGORY_TITLES[category.type]}
              </h3>
              <ul className="citypage-posts">
                {category.posts.map((post) => (
                  <PostCard key={post.id} post={post} zone={zone} level={4} eager={false} />
                ))}
              </ul>
            </section>
          ))}
        </section>
      )}

      <section className="citypage-section" aria-labelledby="citypage-events">
        <h2 id="citypage-events" className="citypage-section__title">
          Events on now and soon
        </h2>
        {data.events.length > 0 ? (
          <ul className="citypage-events">
            {data.events.map((event) => (
              <li key={event.id} className="citypage-event">
                <a className="citypage-event__title" href={event.url}>
                  {event.title}
                </a>
                <span
                  className={
                    event.running ? 'citypage-event__when citypage-event__when--now' : 'citypage-event__when'
                  }
                >
                  {event.running
                    ? `On now, until ${formatDate(event.end_date, zone)}`
                    : `Starts ${formatDate(event.start_date, zone)}`}
                </span>
                <span className="citypage-event__type">{event.type.replaceAll('_', ' ')}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="citypage-empty">No events on in {city.name} now or in the next 7 days.</p>
        )}
      </section>

      <section className="citypage-section" aria-labelledby="citypage-places">
        <h2 id="citypage-places" className="citypage-section__title">
          Most visited places
        </h2>
        {data.points.length > 0 ? (
          <ol className="citypage-places">
            {data.points.map((point) => (
              <li key={point.id} className="citypage-place">
                <a className="citypage-place__title" href={point.url}>
                  {point.title}
                </a>
                <span className="citypage-place__meta">
                  {point.category} · {point.visits_month.toLocaleString('en-US')} visits this month
                </span>
              </li>
            ))}
          </ol>
        ) : (
          <p className="citypage-empty">No places in {city.name} on the map yet.</p>
        )}
      </section>
    </PageFrame>
  );
}

function PostCard({
  post,
  zone,
  level,
  eager,
}: {
  post: CityPagePost;
  zone: string;
  level: 3 | 4;
  eager: boolean;
}) {
  const Heading = level === 3 ? 'h3' : 'h4';
  return (
    <li className="citypage-post">
      <img
        className="citypage-post__picture"
        src={post.image}
        alt=""
        width={72}
        height={72}
        loading={eager ? 'eager' : 'lazy'}
        decoding="async"
      />
      <div className="citypage-post__body">
        <span className="citypage-post__type">{CATEGORY_TITLES[post.type].replace(/s$/, '')}</span>
        <Heading className="citypage-post__title">
          <a href={post.url}>{post.title}</a>
        </Heading>
        {post.excerpt && <p className="citypage-post__excerpt">{post.excerpt}</p>}
        <p className="citypage-post__meta">
          {post.author.name} ·{' '}
          <time dateTime={new Date(post.listed_at).toISOString()}>{formatDate(post.listed_at, zone)}</time>
          {post.score !== 0 && ` · ${post.score > 0 ? '+' : ''}${post.score} likes`}
          {post.comments > 0 && ` · ${post.comments} comment${post.comments === 1 ? '' : 's'}`}
        </p>
      </div>
    </li>
  );
}
