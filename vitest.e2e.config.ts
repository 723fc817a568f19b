import { defineConfig } from 'vitest/config';

/** Browser journeys: the real server and Debian Chromium, one file at a time. */
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts'],
    fileParallelism: false,
    // a journey is a whole user task; CI machines have run them 1.7× slower than a quiet one
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // `expect.poll` waits for what a user waits for; its default second is too short on a busy machine
    expect: { poll: { timeout: 10_000 } },
  },
});
