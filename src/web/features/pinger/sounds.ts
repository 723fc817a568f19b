/**
 * The pinger's two sounds (social §4), made in the browser with WebAudio: no audio files to fetch, and
 * nothing to load while the connection is the very thing that failed. Browsers let a page make sound
 * only after the person has interacted with it (autoplay rules), so the audio context is created on the
 * first pointer or key press; before that the sounds are skipped, and the banner still shows.
 */

export type PingerSound = 'error' | 'success';

/** A note: frequency (Hz), when it starts and how long it lasts (s, from the sound's start). */
interface Note {
  hz: number;
  startS: number;
  lengthS: number;
}

/** Loss: two falling square-wave notes; recovery: a rising major third and fifth in sine. */
export const SOUNDS: Readonly<Record<PingerSound, { wave: OscillatorType; notes: readonly Note[] }>> = {
  error: {
    wave: 'square',
    notes: [
      { hz: 440, startS: 0, lengthS: 0.16 },
      { hz: 311, startS: 0.2, lengthS: 0.3 },
    ],
  },
  success: {
    wave: 'sine',
    notes: [
      { hz: 523.25, startS: 0, lengthS: 0.12 },
      { hz: 659.25, startS: 0.12, lengthS: 0.12 },
      { hz: 783.99, startS: 0.24, lengthS: 0.24 },
    ],
  },
};

/** Quiet: a notice, not an alarm clock. */
const PEAK_GAIN = 0.08;
/** Attack and release (s), so a note starts and ends without a click. */
const RAMP_S = 0.015;

let context: AudioContext | null = null;

/**
 * Creates the audio context on the page's first pointer or key press (then stops listening). Returns
 * the function that stops waiting.
 */
export function armSounds(target: Window & typeof globalThis = window): () => void {
  if (context !== null || typeof target.AudioContext !== 'function') return () => {};
  const events = ['pointerdown', 'keydown'] as const;
  const arm = () => {
    stop();
    try {
      const created = context ?? new target.AudioContext();
      context = created;
      void created.resume();
    } catch (error) {
      console.warn('XPoint: no sound for the connection pinger', error);
    }
  };
  const stop = () => events.forEach((event) => target.removeEventListener(event, arm, true));
  events.forEach((event) => target.addEventListener(event, arm, { capture: true, passive: true }));
  return stop;
}

/** Plays `sound` if the page may make sound yet; true when it was played. */
export function playSound(sound: PingerSound): boolean {
  if (context === null || context.state !== 'running') return false;
  const { wave, notes } = SOUNDS[sound];
  const start = context.currentTime + 0.01;
  for (const note of notes) {
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.type = wave;
    oscillator.frequency.value = note.hz;
    const from = start + note.startS;
    const to = from + note.lengthS;
    gain.gain.setValueAtTime(0, from);
    gain.gain.linearRampToValueAtTime(PEAK_GAIN, from + RAMP_S);
    gain.gain.setValueAtTime(PEAK_GAIN, to - RAMP_S);
    gain.gain.linearRampToValueAtTime(0, to);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start(from);
    oscillator.stop(to);
  }
  return true;
}
