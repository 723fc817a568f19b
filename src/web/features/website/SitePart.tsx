import {
  WEBSITE_DEFAULT_TITLES,
  hasOwnText,
  orderedPictures,
  partLines,
  type WebsiteAutoContent,
  type WebsitePartData,
  type WebsitePicture,
} from '../../../shared/website';
import { useTimeFormat } from '../details/timeFormat';

/** The heading a part shows: the owner's title, else its role's. */
export function partTitle(part: WebsitePartData): string {
  return part.fields.title?.trim() || WEBSITE_DEFAULT_TITLES[part.role];
}

/**
 * A picture as the site shows it: the phone-sized WebP, the detail WebP for wide screens, the JPEG
 * for browsers without WebP; its size reserved so the page does not jump as it loads.
 */
export function SitePicture({ picture, alt }: { picture: WebsitePicture; alt: string }) {
  const size = picture.width && picture.height ? { width: picture.width, height: picture.height } : {};
  return (
    <picture>
      {picture.small && (
        <source
          type="image/webp"
          srcSet={`${picture.small} 640w, ${picture.url} 1280w`}
          sizes="(min-width: 900px) 300px, 50vw"
        />
      )}
      <img src={picture.fallback ?? picture.url} alt={alt} loading="lazy" decoding="async" {...size} />
    </picture>
  );
}

/** What a part with no text of the owner's shows: the point's own data for its role. */
function AutoBody({ part, auto }: { part: WebsitePartData; auto: WebsiteAutoContent }) {
  const time = useTimeFormat();
  switch (part.role) {
    case 'welcome':
      return auto.description ? <p className="website-part__text">{auto.description}</p> : null;
    case 'hours':
      return auto.hours ? <p className="website-part__text">{auto.hours}</p> : null;
    case 'events':
      return auto.events.length ? (
        <ul className="website-part__list">
          {auto.events.map((event) => (
            <li key={`${event.start_date}-${event.title}`}>
              <span className="website-part__when">{time.dateTime(event.start_date)}</span>{' '}
              {event.url ? <a href={event.url}>{event.title}</a> : event.title}
            </li>
          ))}
        </ul>
      ) : null;
    case 'posts':
      return auto.posts.length ? (
        <ul className="website-part__list">
          {auto.posts.map((post) => (
            <li key={post.url}>
              <a href={post.url}>{post.title}</a>{' '}
              <span className="website-part__muted">{post.description}</span>
            </li>
          ))}
        </ul>
      ) : null;
    case 'reviews':
      return auto.reviews.length ? (
        <ul className="website-part__list">
          {auto.reviews.map((review, i) => (
            <li key={i}>
              <span className="website-part__stars" aria-label={`${review.stars} of 5 stars`}>
                {'★'.repeat(review.stars)}
              </span>{' '}
              “{review.text}” — {review.author}
            </li>
          ))}
        </ul>
      ) : null;
    default:
      return null;
  }
}

/** Whether a part shows anything to a visitor (else it is left out of the site). */
export function partHasContent(part: WebsitePartData, auto: WebsiteAutoContent): boolean {
  if (hasOwnText(part) || part.pictures.length > 0) return true;
  switch (part.role) {
    case 'welcome':
      return !!auto.description;
    case 'hours':
      return !!auto.hours;
    case 'events':
      return auto.events.length > 0;
    case 'posts':
      return auto.posts.length > 0;
    case 'reviews':
      return auto.reviews.length > 0;
    default:
      return false;
  }
}

/** One part as a visitor sees it: the owner's text (or what fills it), then its pictures. */
export function SitePartBody({ part, auto }: { part: WebsitePartData; auto: WebsiteAutoContent }) {
  const title = partTitle(part);
  const lines = partLines(part);
  const pictures = orderedPictures(part.pictures);
  return (
    <>
      {hasOwnText(part) ? (
        <>
          {part.fields.description && <p className="website-part__text">{part.fields.description}</p>}
          {lines.length > 0 && (
            <ul className="website-part__list">
              {lines.map((line, i) => (
                <li key={i}>{line}</li>
              ))}
            </ul>
          )}
        </>
      ) : (
        <AutoBody part={part} auto={auto} />
      )}
      {pictures.length > 0 && (
        <ul className="website-part__pictures" aria-label={`Pictures of ${title}`}>
          {pictures.map((picture) => (
            <li key={picture.pic_idx}>
              <SitePicture picture={picture} alt={`${title}, picture ${picture.pic_idx}`} />
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
