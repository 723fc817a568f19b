import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('./s3rver-process.mjs', import.meta.url));

/** s3rver's fixed credentials: what the AWS SDK's chain reads from the environment in the tests. */
export const S3RVER_CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };

export interface S3rver {
  port: number;
  bucket: string;
  /** the MEDIA_URL of the bucket, under `prefix` */
  mediaUrl(prefix?: string): string;
  stop(): Promise<void>;
}

/**
 * An S3-protocol server on a free 127.0.0.1 port, with one bucket, its files in a temporary
 * directory (removed on stop); run in a child process. Sets the SDK's credentials in this
 * process's environment, as an operator would.
 */
export async function startS3rver(bucket = 'xpoint-media'): Promise<S3rver> {
  Object.assign(process.env, S3RVER_CREDENTIALS);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xpoint-s3rver-'));
  const child: ChildProcess = spawn(process.execPath, [SCRIPT, dir, bucket], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) resolve((JSON.parse(line) as { port: number }).port);
    });
    child.on('exit', (code) => reject(new Error(`s3rver exited with ${code}`)));
    child.on('error', reject);
  });
  return {
    port,
    bucket,
    mediaUrl: (prefix = '') =>
      `s3://${bucket}/${prefix}?endpoint=http://127.0.0.1:${port}&region=us-east-1&forcePathStyle=true`,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.on('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
