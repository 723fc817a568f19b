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

  it('trusts no proxy unless TRUST_PROXY names them, by hop count or by address', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1, loopback' }).trustProxy).toBe(
      '10.0.0.0/8, 127.0.0.1, loopback',
    );
    for (const bad of ['everyone', '10.0.0.0/40', '0', '11', '10.0.0.1/8/8'])
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(
        /^TRUST_PROXY must be a number of proxy hops/,
      );
  });

  it('takes public URLs from PUBLIC_URL, by default the address the server listens on', () => {
    expect(loadConfig({}).publicUrl).toBe('http://127.0.0.1:8080');
    expect(loadConfig({ HOST: '0.0.0.0', PORT: '3000' }).publicUrl).toBe('http://localhost:3000');
    expect(loadConfig({ HOST: '::' }).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ HOST: '::1' }).publicUrl).toBe('http://[::1]:8080');
    expect(loadConfig({ HOST: '10.1.2.3', PORT: '80' }).publicUrl).toBe('http://10.1.2.3:80');
    expect(loadConfig({ PUBLIC_URL: 'https://xpoint.example' }).publicUrl).toBe('https://xpoint.example');
    expect(loadConfig({ PUBLIC_URL: 'https://XPoint.Example:443/' }).publicUrl).toBe(
      'https://xpoint.example',
    );
    expect(loadConfig({ PUBLIC_URL: 'http://maps.example:8443' }).publicUrl).toBe('http://maps.example:8443');
    for (const bad of [
      'xpoint.example',
      'ftp://xpoint.example',
      'https://xpoint.example/app',
      'https://xpoint.example/?a=1',
      'https://user:pw@xpoint.example',
      'javascript:alert(1)',
    ])
      expect(() => loadConfig({ PUBLIC_URL: bad }), bad).toThrow(
        /^PUBLIC_URL must be the http:\/\/ or https:\/\//,
      );
  });

  it('stores media on the disk unless MEDIA_URL names an S3-compatible bucket, refusing any other value', () => {
    expect(loadConfig({}).media).toBeUndefined();
    expect(loadConfig({ MEDIA_URL: 's3://xpoint-media' }).media).toEqual({
      bucket: 'xpoint-media',
      prefix: '',
      endpoint: undefined,
      region: undefined,
      forcePathStyle: false,
    });
    expect(
      loadConfig({
        MEDIA_URL: 's3://media/prod/xpoint/?endpoint=http://127.0.0.1:9000&region=us-east-1',
      }).media,
    ).toEqual({
      bucket: 'media',
      prefix: 'prod/xpoint/',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      forcePathStyle: true,
    });
    expect(
      loadConfig({
        MEDIA_URL: 's3://media?endpoint=https://acct.r2.cloudflarestorage.com&forcePathStyle=false',
      }).media?.forcePathStyle,
    ).toBe(false);
    for (const bad of [
      'media',
      '/var/media',
      'https://bucket.s3.amazonaws.com',
      's3://',
      's3://Upper_Case',
      's3://ab',
      's3://media?endpoint=ftp://host',
      's3://media?endpoint=not a url',
      's3://media?secret=x',
      's3://media?forcePathStyle=yes',
      's3://media/a b',
    ])
      expect(() => loadConfig({ MEDIA_URL: bad }), bad).toThrow(/^MEDIA_URL must be an s3:\/\/bucket/);
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
  it('gives the account defaults: 30-day sessions, passwords of at least 8 characters', () => {
    const config = loadConfig({});
    expect(config.sessionSecret).toBeUndefined();
    expect(config.sessionTtlDays).toBe(30);
    expect(config.passwordRule).toEqual({ minLength: 8, minNonAlphanumeric: 0, pattern: null });
  });

  it('reads the password rule and session settings', () => {
    const config = loadConfig({
      SESSION_SECRET: 's'.repeat(32),
      SESSION_TTL_DAYS: '7',
      PASSWORD_MIN_LENGTH: '12',
      PASSWORD_MIN_NONALNUM: '1',
      PASSWORD_PATTERN: '(?=.*\\d).*',
    });
    expect(config.sessionSecret).toBe('s'.repeat(32));
    expect(config.sessionTtlDays).toBe(7);
    expect(config.passwordRule).toEqual({ minLength: 12, minNonAlphanumeric: 1, pattern: '(?=.*\\d).*' });
  });

  it('rejects a short SESSION_SECRET, a bad TTL, a bad length and a broken pattern', () => {
    expect(() => loadConfig({ SESSION_SECRET: 'short' })).toThrow(
      /^SESSION_SECRET must be at least 32 characters of random text \(got "short"\)$/,
    );
    expect(() => loadConfig({ SESSION_TTL_DAYS: '0' })).toThrow(/^SESSION_TTL_DAYS must be a number of days/);
    expect(() => loadConfig({ PASSWORD_MIN_LENGTH: 'eight' })).toThrow(
      /^PASSWORD_MIN_LENGTH must be an integer/,
    );
    expect(() => loadConfig({ PASSWORD_MIN_NONALNUM: '-1' })).toThrow(
      /^PASSWORD_MIN_NONALNUM must be an integer/,
    );
    expect(() => loadConfig({ PASSWORD_PATTERN: '([' })).toThrow(
      /^PASSWORD_PATTERN must be a valid regular expression/,
    );
  });
});
