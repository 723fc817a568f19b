import path from 'node:path';
import type { Config } from '../config';
import { diskMedia, type MediaPlace } from './store';

/**
 * The process's media place from its configuration: the bucket MEDIA_URL names (s3.ts, loaded only
 * then), or the disk under DATA_DIR/media. Uploads in progress are local files either way (under
 * DATA_DIR), since a file is hashed before it has a key.
 */
export async function openMedia(config: Pick<Config, 'dataDir' | 'media'>): Promise<MediaPlace> {
  const mediaDir = path.join(config.dataDir, 'media');
  if (config.media === undefined) return diskMedia(mediaDir);
  const notice = quietSdkNodeWarning();
  const { S3MediaStore } = await import('./s3');
  return {
    store: new S3MediaStore(config.media),
    uploadDir: path.join(config.dataDir, 'uploads'),
    ...(notice ? { notice } : {}),
  };
}

/**
 * On Node 20 the AWS SDK writes eight lines to stderr saying that its releases after the first week
 * of January 2027 will need Node 22; the same said once as a line of the log (main.ts), so that what
 * the server prints at start stays one line per thing.
 */
function quietSdkNodeWarning(): string | undefined {
  if (Number(process.versions.node.split('.')[0]) >= 22) return undefined;
  process.env['AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'] = 'true';
  return `MEDIA_URL: the AWS SDK's releases after the first week of January 2027 need Node 22 (this is ${process.version})`;
}
