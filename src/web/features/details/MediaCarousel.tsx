import { useRef, useState, type TouchEvent } from 'react';
import {
  VIDEO_UNSUPPORTED_CODE,
  canGoNext,
  canGoPrevious,
  clampSlide,
  swipeTarget,
  visibleSlides,
  type Slide,
} from './carousel';

/**
 * The point's media (map-and-search §2, §4): the cover video or image, then the screenshots, one at
 * a time. Previous and next are disabled at the ends, a sideways swipe moves one slide, images load
 * lazily, and a video the browser cannot play (error code 4) is dropped (§8).
 */
export function MediaCarousel({ slides, title }: { slides: readonly Slide[]; title: string }) {
  const [videoUnsupported, setVideoUnsupported] = useState(false);
  const [asked, setIndex] = useState(0);
  const start = useRef<{ id: number; x: number; y: number } | null>(null);
  const shown = visibleSlides(slides, videoUnsupported);
  const count = shown.length;
  const index = clampSlide(asked, count);
  if (count === 0) return null;

  // one finger: where it went down, and where it lifted
  const onTouchStart = (event: TouchEvent<HTMLDivElement>) => {
    const touch = event.touches.length === 1 ? event.touches[0] : undefined;
    start.current = touch ? { id: touch.identifier, x: touch.clientX, y: touch.clientY } : null;
  };
  const onTouchEnd = (event: TouchEvent<HTMLDivElement>) => {
    const from = start.current;
    start.current = null;
    const touch = Array.from(event.changedTouches).find((t) => t.identifier === from?.id);
    if (from === null || touch === undefined) return;
    setIndex(swipeTarget(index, count, touch.clientX - from.x, touch.clientY - from.y));
  };

  return (
    <div
      className="media-carousel"
      role="region"
      aria-roledescription="carousel"
      aria-label={`Pictures of ${title}`}
    >
      <div
        className="media-carousel__viewport"
        onTouchStart={onTouchStart}
        onTouchEnd={onTouchEnd}
        onTouchCancel={() => {
          start.current = null;
        }}
      >
        <div className="media-carousel__track" style={{ transform: `translateX(${-index * 100}%)` }}>
          {shown.map((slide, position) => (
            <div
              key={`${position}:${slide.url}`}
              className="media-carousel__slide"
              role="group"
              aria-roledescription="slide"
              aria-label={`${position + 1} of ${count}`}
              inert={position !== index}
            >
              {slide.kind === 'video' ? (
                <video
                  src={slide.url}
                  poster={slide.poster ?? undefined}
                  controls
                  muted
                  playsInline
                  preload="metadata"
                  onError={(event) => {
                    if (event.currentTarget.error?.code === VIDEO_UNSUPPORTED_CODE) setVideoUnsupported(true);
                  }}
                />
              ) : (
                <img
                  src={slide.url}
                  alt=""
                  loading={position === 0 ? 'eager' : 'lazy'}
                  fetchPriority={position === 0 ? 'high' : 'auto'}
                  decoding="async"
                  draggable={false}
                />
              )}
            </div>
          ))}
        </div>
      </div>
      {count > 1 && (
        <div className="media-carousel__controls">
          <button
            type="button"
            className="media-carousel__button"
            aria-label="Previous picture"
            disabled={!canGoPrevious(index, count)}
            onClick={() => setIndex(index - 1)}
          >
            <span aria-hidden="true">‹</span>
          </button>
          <span className="media-carousel__position" aria-live="polite">
            {index + 1} / {count}
          </span>
          <button
            type="button"
            className="media-carousel__button"
            aria-label="Next picture"
            disabled={!canGoNext(index, count)}
            onClick={() => setIndex(index + 1)}
          >
            <span aria-hidden="true">›</span>
          </button>
        </div>
      )}
    </div>
  );
}
