import { describe, expect, it } from 'vitest';
import { bodyLimitOf, DEFAULT_BODY_LIMIT_BYTES, formatBytes, jsonDeeperThan } from './limits';

describe('jsonDeeperThan', () => {
  it('counts arrays and objects inside each other', () => {
    expect(jsonDeeperThan('{"a":[{"b":1}]}', 3)).toBe(false);
    expect(jsonDeeperThan('{"a":[{"b":[1]}]}', 3)).toBe(true);
    expect(jsonDeeperThan('[]', 0)).toBe(true);
    expect(jsonDeeperThan('1', 0)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonDeeperThan('{"a":"[[[[{{{{"}', 1)).toBe(false);
    expect(jsonDeeperThan('{"a":"\\"[[[[","b":"\\\\"}', 1)).toBe(false);
    expect(jsonDeeperThan('{"a":"\\\\","b":[[1]]}', 2)).toBe(true);
  });

  it('finds a 5,000-level body in one pass without recursion', () => {
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    expect(jsonDeeperThan(deep, 32)).toBe(true);
    expect(jsonDeeperThan('{"a":'.repeat(100_000), 32)).toBe(true);
  });

  it('siblings do not add up', () => {
    expect(jsonDeeperThan(JSON.stringify(Array.from({ length: 1000 }, () => [[1]])), 3)).toBe(false);
  });
});

describe('body limits', () => {
  it('gives the form routes more than the default and everything else the default', () => {
    expect(bodyLimitOf('POST', '/v1/xpoint/update')).toBeGreaterThan(DEFAULT_BODY_LIMIT_BYTES);
    expect(bodyLimitOf('POST', '/v1/account/login')).toBe(DEFAULT_BODY_LIMIT_BYTES);
  });

  it('says a limit in the unit a person reads', () => {
    expect(formatBytes(16 * 1024)).toBe('16 KiB');
    expect(formatBytes(140 * 1024 * 1024)).toBe('140 MiB');
    expect(formatBytes(500)).toBe('500 bytes');
  });
});
