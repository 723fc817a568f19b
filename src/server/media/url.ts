/**
 * MEDIA_URL: where media is stored when not on the local disk. An S3-compatible bucket, with an
 * optional key prefix and the client's settings in the query:
 *
 *   s3://BUCKET[/PREFIX][?endpoint=URL&region=REGION&forcePathStyle=true|false]
 *
 * `endpoint` is the service's http(s) URL for anything but AWS S3 (MinIO, Ceph, R2); `region`
 * defaults to the SDK's own (AWS_REGION, the profile's); `forcePathStyle` (bucket in the path, not the
 * host name) defaults to true when an endpoint is given, as MinIO and Ceph need. Credentials are
 * never in the URL: the AWS SDK's chain reads them (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a
 * profile, an instance role).
 */
export interface S3Location {
  bucket: string;
  /** '' or a prefix ending in '/' */
  prefix: string;
  endpoint: string | undefined;
  region: string | undefined;
  forcePathStyle: boolean;
}

const QUERY_KEYS = new Set(['endpoint', 'region', 'forcePathStyle']);

/** The expectation config.ts prints when MEDIA_URL is refused. */
export const MEDIA_URL_FORMAT =
  'an s3://bucket[/prefix] URL, with optional ?endpoint=http(s)://host:port&region=name&forcePathStyle=true|false';

/** The location MEDIA_URL names, or null when it is not a valid one. */
export function parseMediaUrl(value: string): S3Location | null {
  const match = /^s3:\/\/([^/?#]+)(\/[^?#]*)?(?:\?([^#]*))?$/.exec(value);
  if (!match) return null;
  const [, bucket = '', rawPrefix = '', query = ''] = match;
  // S3's bucket naming rules: 3 to 63 lowercase letters, digits, dots and hyphens
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) return null;
  const prefix = rawPrefix.replace(/^\/+|\/+$/g, '');
  if (prefix && !/^[A-Za-z0-9._\-/]+$/.test(prefix)) return null;
  const params = new URLSearchParams(query);
  for (const key of params.keys()) if (!QUERY_KEYS.has(key)) return null;
  const endpoint = params.get('endpoint') ?? undefined;
  if (endpoint !== undefined) {
    try {
      const url = new URL(endpoint);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    } catch {
      return null;
    }
  }
  const region = params.get('region') ?? undefined;
  if (region !== undefined && !/^[a-z0-9-]{1,64}$/.test(region)) return null;
  const style = params.get('forcePathStyle');
  if (style !== null && style !== 'true' && style !== 'false') return null;
  return {
    bucket,
    prefix: prefix ? `${prefix}/` : '',
    endpoint,
    region,
    forcePathStyle: style === null ? endpoint !== undefined : style === 'true',
  };
}

/** `s3://bucket/prefix` (no query): how the log and error lines name the place. */
export function describeLocation(location: S3Location): string {
  return `s3://${location.bucket}/${location.prefix}`;
}
