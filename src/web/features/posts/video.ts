/**
 * Social §4 "only one video plays at a time": any video starting to play pauses every other one on
 * the page. One capturing listener for the whole document (media events do not bubble), installed
 * once, whichever component shows a video first.
 */
let installed = false;

export function installOneVideoAtATime(): void {
  if (installed || typeof document === 'undefined') return;
  installed = true;
  document.addEventListener(
    'play',
    (event) => {
      const started = event.target;
      if (!(started instanceof HTMLVideoElement)) return;
      for (const video of document.querySelectorAll('video'))
        if (video !== started && !video.paused) video.pause();
    },
    true,
  );
}
