// `npm start`: build what is missing, then run the server in this process (so signals reach it directly).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * A hash of the files a build reads (paths and contents; directories walked, sorted), so that a build
 * left from an earlier checkout is made again after `git pull` instead of serving yesterday's code.
 * Hashing the web inputs (about 230 files) takes about 15 ms.
 */
function inputsHash(inputs) {
  const hash = createHash('sha256');
  const visit = (relative) => {
    const full = path.join(root, relative);
    if (!fs.existsSync(full)) return;
    if (fs.statSync(full).isDirectory()) {
      for (const name of fs.readdirSync(full).sort()) visit(path.join(relative, name));
      return;
    }
    hash.update(relative).update('\0').update(fs.readFileSync(full)).update('\0');
  };
  for (const input of inputs) visit(input);
  return hash.digest('hex');
}

/** Builds `output` when it is missing or its inputs changed since it was built (dist/.inputs/ keeps the hashes). */
function buildIfStale(label, output, inputs, command, args) {
  const stamp = path.join(root, 'dist/.inputs', label.replaceAll(' ', '-'));
  const hash = inputsHash(inputs);
  const present = fs.existsSync(path.join(root, output));
  if (present && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === hash) return;
  const why = present ? 'its sources changed' : `${output} is missing`;
  process.stdout.write(`xpoint: building ${label} (${why})\n`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write(`xpoint: building ${label} failed (exit ${result.status ?? result.signal})\n`);
    process.exit(1);
  }
  fs.mkdirSync(path.dirname(stamp), { recursive: true });
  fs.writeFileSync(stamp, hash);
}

/** What the web app and the page renderer are built from. */
const WEB_INPUTS = ['src/web', 'src/shared', 'vite.config.ts', 'tsconfig.web.json', 'package-lock.json'];

buildIfStale('the web app', 'dist/web/index.html', WEB_INPUTS, process.execPath, [
  path.join(root, 'node_modules/vite/bin/vite.js'),
  'build',
  '--logLevel',
  'warn',
]);

buildIfStale('the page renderer', 'dist/ssr/render.js', WEB_INPUTS, process.execPath, [
  path.join(root, 'node_modules/vite/bin/vite.js'),
  'build',
  '--ssr',
  'ssr/render.tsx',
  '--logLevel',
  'warn',
]);

buildIfStale(
  'the map assets',
  'dist/map/basemap.pmtiles',
  ['scripts/build-map-assets.ts', 'scripts/map', 'src/server/tiles', 'src/shared', 'package-lock.json'],
  process.execPath,
  ['--import', 'tsx', path.join(root, 'scripts/build-map-assets.ts')],
);

register();
await import('../src/server/main.ts');
