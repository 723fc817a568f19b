#!/usr/bin/env node
// Makes sure Debian's Chromium is installed at /usr/bin/chromium for the browser journeys
// (test/e2e). Installs it with apt-get when missing; exits non-zero with a clear message when it
// cannot. Usage: node scripts/ensure-chromium.mjs
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = '/usr/bin/chromium';

function log(message) {
  console.log(`[ensure-chromium] ${message}`);
}

function fail(message) {
  console.error(`[ensure-chromium] ${message}`);
  process.exit(1);
}

function chromiumVersion() {
  const result = spawnSync(CHROMIUM, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  if (result.status !== 0) return undefined;
  return result.stdout.trim();
}

/** The command prefix to run apt-get as root: none when root, `sudo -n` otherwise (if it works). */
function rootPrefix() {
  if (typeof process.getuid === 'function' && process.getuid() === 0) return [];
  const sudo = spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' });
  if (sudo.status === 0) return ['sudo', '-n'];
  return undefined;
}

function run(prefix, args) {
  const [command, ...rest] = [...prefix, ...args];
  log(`running: ${[command, ...rest].join(' ')}`);
  const result = spawnSync(command, rest, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (result.error) fail(`could not run ${command}: ${result.error.message}`);
  if (result.status !== 0) fail(`${[command, ...rest].join(' ')} exited with status ${result.status}`);
}

if (existsSync(CHROMIUM)) {
  const version = chromiumVersion();
  if (version === undefined) fail(`${CHROMIUM} exists but "${CHROMIUM} --version" failed.`);
  log(`found ${version} at ${CHROMIUM}`);
  process.exit(0);
}

log(`${CHROMIUM} is missing: installing Debian's chromium package.`);
const prefix = rootPrefix();
if (prefix === undefined) {
  fail(
    'not running as root and "sudo -n" is not available: install Chromium yourself ' +
      '(apt-get install -y chromium) so that /usr/bin/chromium exists.',
  );
}
if (spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status !== 0) {
  fail('apt-get is not available: install Chromium yourself so that /usr/bin/chromium exists.');
}
run(prefix, ['apt-get', 'update']);
run(prefix, ['apt-get', 'install', '-y', '--no-install-recommends', 'chromium']);

if (!existsSync(CHROMIUM)) fail(`apt-get finished but ${CHROMIUM} is still missing.`);
const version = chromiumVersion();
if (version === undefined) fail(`installed ${CHROMIUM} but "${CHROMIUM} --version" failed.`);
log(`installed ${version} at ${CHROMIUM}`);
