import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('gives the documented defaults for an empty environment', () => {
    const config = loadConfig({}, '/srv/xpoint');
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: path.resolve('/srv/xpoint', 'data'),
      databaseUrl: undefined,
      redisUrl: undefined,
      seedPoints: 20_000,
      logLevel: 'info',
    });
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '' }).port).toBe(8080);
  });

  it('rejects a port that is not a number, naming the variable and what it expects', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(
      /^PORT must be an integer port between 0 and 65535 \(got "abc"\)$/,
    );
  });

  it('rejects a port out of range', () => {
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/^PORT must be/);
  });

  it('accepts SEED=none and a number of points', () => {
    expect(loadConfig({ SEED: 'none' }).seedPoints).toBe(0);
    expect(loadConfig({ SEED: '500' }).seedPoints).toBe(500);
    expect(() => loadConfig({ SEED: 'lots' })).toThrow(/^SEED must be a number of demo points/);
  });

  it('accepts only PostgreSQL URLs in DATABASE_URL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h:5432/db' }).databaseUrl).toBe('postgres://u@h:5432/db');
    expect(() => loadConfig({ DATABASE_URL: 'mysql://u@h/db' })).toThrow(
      /^DATABASE_URL must be a postgres:\/\//,
    );
  });

  it('rejects an unknown log level', () => {
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/^LOG_LEVEL must be one of fatal, error/);
  });

  it('resolves DATA_DIR against the working directory', () => {
    expect(loadConfig({ DATA_DIR: 'var/x' }, '/srv').dataDir).toBe('/srv/var/x');
  });
});
