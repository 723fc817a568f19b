import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors';
import { DiskMediaStore } from './store';
import { receiveFile } from './upload';

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xpoint-upload-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** `count` chunks of `size` bytes, made as they are read (never all at once). */
function chunks(count: number, size: number, read: { chunks: number }): Readable {
  return Readable.from(
    (function* () {
      for (let i = 0; i < count; i++) {
        read.chunks += 1;
        yield Buffer.alloc(size, i % 256);
      }
    })(),
  );
}

describe('receiveFile', () => {
  it('writes the stream to a temporary file with its sha256, size and first bytes', async () => {
    const dir = tempDir();
    const bytes = Buffer.concat([Buffer.from('\0\0\0\x18ftypisom'), Buffer.alloc(100_000, 3)]);
    const received = await receiveFile(Readable.from([bytes.subarray(0, 5), bytes.subarray(5)]), {
      dir,
      maxBytes: 200_000,
      tooLarge: () => new AppError('invalidVideoSize', { size: '100 MB' }),
    });
    expect(received.bytes).toBe(bytes.length);
    expect(received.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(received.head.equals(bytes.subarray(0, 64))).toBe(true);
    expect(fs.readFileSync(received.file).equals(bytes)).toBe(true);
  });

  it('refuses the moment the stream passes its limit, reads no further and leaves no file', async () => {
    const dir = tempDir();
    const read = { chunks: 0 };
    await expect(
      receiveFile(chunks(1000, 64 * 1024, read), {
        dir,
        maxBytes: 10 * 64 * 1024,
        tooLarge: () => new AppError('invalidVideoSize', { size: '100 MB' }),
      }),
    ).rejects.toMatchObject({ code: 7031, message: 'Invalid video file size. Max allowed 100 MB' });
    // the eleventh chunk passed the limit; a few more may sit in the pipeline's buffers, not 1000
    expect(read.chunks).toBeLessThan(20);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe('DiskMediaStore', () => {
  it('moves a received file into place once, by its key, and serves its url', async () => {
    const dir = tempDir();
    const store = new DiskMediaStore(path.join(dir, 'media'));
    const key = `${'a'.repeat(64)}.mp4`;
    for (const content of ['first', 'second']) {
      const file = path.join(dir, `${content}.part`);
      fs.writeFileSync(file, content);
      await store.put(key, { file });
      // the temporary file is gone either way; the same key keeps its first bytes
      expect(fs.existsSync(file)).toBe(false);
    }
    expect(fs.readFileSync(path.join(dir, 'media', key), 'utf8')).toBe('first');
    expect(store.url(key)).toBe(`/media/${key}`);
    await store.delete(key);
    expect(fs.existsSync(path.join(dir, 'media', key))).toBe(false);
    await expect(store.put('../escape.webp', Buffer.from('x'))).rejects.toThrow(/not a media key/);
  });
});
