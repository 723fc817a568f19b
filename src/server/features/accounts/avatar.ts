import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { AppError } from '../../../shared/errors';

/** Social §5 and §9: images up to 10485760 bytes, size estimated from base64 length / 1.3333. */
export const MAX_IMAGE_BYTES = 10_485_760;
const MAX_IMAGE_LABEL = '10 MB';
export const AVATAR_SIZE_PX = 256;
/** A 10 MB image is ~14 MB of base64; the route accepts a body this large. */
export const AVATAR_BODY_LIMIT_BYTES = 15 * 1024 * 1024;
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'gif', 'webp']);

export interface StoredImage {
  id: string;
  mime: string;
  bytes: number;
  width: number;
  height: number;
  /** the public path: /media/<sha256>.webp */
  url: string;
}

/**
 * Decodes a base64 image (a data URL, or bare base64 as the crop tool produces), checks its size and
 * its real format by content, and stores a 256×256 WebP under DATA_DIR/media, named by its sha256.
 */
export async function storeAvatar(image: string, mediaDir: string): Promise<StoredImage> {
  const base64 = stripDataUrl(image);
  if (base64.length / 1.3333 > MAX_IMAGE_BYTES)
    throw new AppError('invalidImageSize', { size: MAX_IMAGE_LABEL });
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) throw new AppError('invalidImage');
  const input = Buffer.from(base64, 'base64');
  if (input.length > MAX_IMAGE_BYTES) throw new AppError('invalidImageSize', { size: MAX_IMAGE_LABEL });

  let format: string | undefined;
  try {
    format = (await sharp(input).metadata()).format;
  } catch {
    throw new AppError('invalidImage');
  }
  if (!format || !ACCEPTED_FORMATS.has(format)) throw new AppError('invalidImage');

  let output: Buffer;
  try {
    output = await sharp(input)
      .rotate()
      .resize(AVATAR_SIZE_PX, AVATAR_SIZE_PX, { fit: 'cover' })
      .webp({ quality: 82 })
      .toBuffer();
  } catch {
    throw new AppError('invalidImage');
  }
  const id = createHash('sha256').update(output).digest('hex');
  const file = path.join(mediaDir, `${id}.webp`);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(mediaDir, { recursive: true });
    // write then rename: a reader never sees half a file, and two writers of the same bytes agree
    const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
    await fs.promises.writeFile(temp, output);
    await fs.promises.rename(temp, file);
  }
  return {
    id,
    mime: 'image/webp',
    bytes: output.length,
    width: AVATAR_SIZE_PX,
    height: AVATAR_SIZE_PX,
    url: `/media/${id}.webp`,
  };
}

function stripDataUrl(image: string): string {
  const match = /^data:[\w.+/-]*(?:;[\w=.+-]+)*;base64,/i.exec(image);
  return (match ? image.slice(match[0].length) : image).replace(/\s+/g, '');
}
