// `npm start`: build what is missing, then run the server in this process (so signals reach it directly).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function buildIfMissing(label, output, command, args) {
  if (fs.existsSync(path.join(root, output))) return;
  process.stdout.write(`xpoint: building ${label} (${output} is missing)\n`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write(`xpoint: building ${label} failed (exit ${result.status ?? result.signal})\n`);
    process.exit(1);
  }
}

buildIfMissing('the web app', 'dist/web/index.html', process.execPath, [
  path.join(root, 'node_modules/vite/bin/vite.js'),
  'build',
  '--logLevel',
  'warn',
]);

buildIfMissing('the page renderer', 'dist/ssr/render.js', process.execPath, [
  path.join(root, 'node_modules/vite/bin/vite.js'),
  'build',
  '--ssr',
  'ssr/render.tsx',
  '--logLevel',
  'warn',
]);

buildIfMissing('the map assets', 'dist/map/basemap.pmtiles', process.execPath, [
  '--import',
  'tsx',
  path.join(root, 'scripts/build-map-assets.ts'),
]);

register();
await import('../src/server/main.ts');
