import { defineConfig } from 'vitest/config';

/** Browser journeys: the real server and Debian Chromium, one file at a time. */
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
