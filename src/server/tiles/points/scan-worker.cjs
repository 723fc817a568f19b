// A scan worker of the point index (scan.ts runScanWorker, started by scan-threads.ts). Plain
// JavaScript, so it starts the same way under `npm start`, `tsx` and vitest: it loads the TypeScript
// sources through tsx's CommonJS hook, which runs on this thread (measured: ~0.13 s of CPU to start,
// against ~0.3-0.4 s for tsx's ESM loader, which starts a loader thread of its own).
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS entry point, on purpose */
const { register } = require('tsx/cjs/api');

register();
require('./scan.ts').runScanWorker();
