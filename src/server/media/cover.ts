import { createHash } from 'node:crypto';
import fs from 'node:fs';
import sharp, { type Metadata, type OutputInfo, type Sharp } from 'sharp';
import { AppError } from '../../shared/errors';
import { decodeHeic, type HeicDecoded } from './heic';
import type { MediaPlace } from './store';

/**
 * A post's cover (issue 17, "Photos"): checked by its bytes, never its name or declared type;
 * refused above 40 megapixels before a pixel is decoded; turned upright by its EXIF orientation;
 * stripped of every piece of metadata (EXIF, GPS, XMP; colour converted to sRGB), so the position a
 * phone wrote into a photo never reaches another user; re-encoded into the sizes the pages show, each
 * stored content-addressed (`<sha256>.<ext>`) in the media store.
 *
 * Speed (bench/media.ts, 2 cores shared with other work): the input is decoded once, with JPEG
 * shrink-on-load (libjpeg decodes a 4000x3000 photo at 2000x1500: 73 ms of CPU instead of 149, and
 * 40.8 dB from a full decode's result), straight to the detail size; every other variant is derived
 * from those already-small pixels, never from the 12 megapixels again, the five encodes in parallel.
 * A 12-megapixel JPEG: p50 165 ms, p99 381 ms, 142 ms of CPU; ImageMagick's convert doing the same
 * 735 / 1,567 ms, 410 ms of CPU. sharp.concurrency stays at its default (1 on glibc): 2 threads per
 * image measured no faster (p50 169 ms) for more CPU, the parallel encodes already use both cores.
 */

export interface PostCover {
  /** = variants.detail */
  url: string;
  variants: {
    /** WebP, MAP_SIZE square (cropped to fill): the map's and the lists' thumbnail */
    map: string;
    /** WebP, FEED_WIDTH wide at most: the feed's card */
    feed: string;
    /** WebP, DETAIL_SIZE on the long side at most: the post's modal and page */
    detail: string;
    /** JPEG at the detail size, for the browsers that cannot show WebP */
    fallback: string;
  };
  /** data:image/webp;base64,… of a few hundred bytes: a blurred PLACEHOLDER_WIDTH-pixel picture painted first */
  placeholder: string;
  /** the detail variant's size (upright), so a page can reserve the space and pick a layout */
  width: number;
  height: number;
}

/** A decoded image above this many pixels is refused (a decompression bomb must not take the server down). */
export const MAX_COVER_PIXELS = 40_000_000;
export const MAX_COVER_MEGAPIXELS = MAX_COVER_PIXELS / 1_000_000;
export const DETAIL_SIZE = 1280;
export const FEED_WIDTH = 640;
export const MAP_SIZE = 128;
export const PLACEHOLDER_WIDTH = 16;

/** What phones and browsers send: JPEG, PNG, GIF, WebP, and HEIC/HEIF (iPhones' default). */
type CoverFormat = 'jpeg' | 'png' | 'gif' | 'webp' | 'heif';

/**
 * The format a file's first bytes announce, or null. Checked before sharp sees the file, so an SVG
 * (which sharp would happily render: it is no photo and can carry scripts), a PDF or an executable
 * never reaches a decoder at all; sharp's own reading of the header must then agree.
 */
export function sniffImage(head: Buffer): CoverFormat | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.length >= 8 && head.readUInt32BE(0) === 0x89504e47 && head.readUInt32BE(4) === 0x0d0a1a0a)
    return 'png';
  if (head.length >= 6 && /^GIF8[79]a$/.test(head.toString('latin1', 0, 6))) return 'gif';
  if (
    head.length >= 12 &&
    head.toString('latin1', 0, 4) === 'RIFF' &&
    head.toString('latin1', 8, 12) === 'WEBP'
  )
    return 'webp';
  // ISO BMFF: a 'ftyp' box whose major brand is one of HEIF's (heic, heix, mif1, msf1, hevc, avif...)
  if (head.length >= 12 && head.toString('latin1', 4, 8) === 'ftyp') {
    const brand = head.toString('latin1', 8, 12);
    if (/^(heic|heix|heim|heis|hevc|hevx|mif1|msf1|avif|avis)$/.test(brand)) return 'heif';
  }
  return null;
}

async function headOf(input: Buffer | string): Promise<Buffer> {
  if (Buffer.isBuffer(input)) return input.subarray(0, 32);
  const file = await fs.promises.open(input, 'r');
  try {
    const head = Buffer.alloc(32);
    const { bytesRead } = await file.read(head, 0, 32, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

const SHARP_OPTIONS = {
  // the header check below refuses bigger images first; this is sharp's own guard behind it
  limitInputPixels: MAX_COVER_PIXELS,
  // one pass from top to bottom: no random access, so libvips never holds the whole decoded input
  sequentialRead: true,
  // a photo with a recoverable flaw (extraneous bytes in a JPEG) is still a photo; one cut off is
  // refused (with failOn 'none', libvips would paint the missing rows black)
  failOn: 'truncated',
} as const;

/** One encoded variant, before it is stored. */
export interface CoverFile {
  data: Buffer;
  ext: 'webp' | 'jpg';
  mime: 'image/webp' | 'image/jpeg';
  width: number;
  height: number;
}

/** A cover's files, encoded but not stored (the seed stores them itself, with their media_assets rows). */
export interface EncodedCover {
  files: { map: CoverFile; feed: CoverFile; detail: CoverFile; fallback: CoverFile };
  placeholder: string;
  width: number;
  height: number;
}

/**
 * Checks, cleans, resizes and stores a post's cover; `input` is the bytes, or the path of a received
 * temporary file (the caller removes it). Throws invalidImage (not one of the accepted formats, or not
 * decodable) or coverTooManyPixels; nothing is stored then.
 */
export async function storePostCover(input: Buffer | string, media: MediaPlace): Promise<PostCover> {
  const cover = await encodePostCover(input);
  const { map, feed, detail, fallback } = cover.files;
  const [mapUrl, feedUrl, detailUrl, fallbackUrl] = await Promise.all(
    [map, feed, detail, fallback].map((file) => put(media, file)),
  );
  return {
    url: detailUrl as string,
    variants: {
      map: mapUrl as string,
      feed: feedUrl as string,
      detail: detailUrl as string,
      fallback: fallbackUrl as string,
    },
    placeholder: cover.placeholder,
    width: cover.width,
    height: cover.height,
  };
}

/** storePostCover's work up to the files: checks, decodes once, encodes every variant. */
export async function encodePostCover(input: Buffer | string): Promise<EncodedCover> {
  const format = sniffImage(await headOf(input));
  if (!format) throw new AppError('invalidImage');
  let meta: Metadata;
  try {
    // the header only (no pixel is decoded), read without sharp's pixel limit so that a picture
    // above it is answered as too large rather than as not a picture
    meta = await sharp(input, { ...SHARP_OPTIONS, limitInputPixels: false }).metadata();
  } catch {
    throw new AppError('invalidImage');
  }
  if (meta.format !== format || !meta.width || !meta.height) throw new AppError('invalidImage');
  // an animated GIF or WebP: the first frame is the cover; its size is one page's
  const pageHeight = meta.pageHeight ?? meta.height;
  if (meta.width * pageHeight > MAX_COVER_PIXELS)
    throw new AppError('coverTooManyPixels', { megapixels: MAX_COVER_MEGAPIXELS });

  const detail = await decodeToDetail(input, meta);
  return encodeVariants(detail);
}

interface Pixels {
  data: Buffer;
  width: number;
  height: number;
  channels: 3 | 4;
}

/**
 * The one decode: upright, in sRGB, scaled into DETAIL_SIZE (never enlarged), as raw pixels the other
 * variants start from. A JPEG is shrunk while it is read (libjpeg's DCT scaling), so a 12-megapixel
 * photo is never whole in memory.
 */
async function decodeToDetail(input: Buffer | string, meta: Metadata): Promise<Pixels> {
  let pipeline: Sharp;
  if (meta.format === 'heif' && meta.compression === 'hevc') {
    pipeline = await decodeHevc(input);
  } else {
    pipeline = sharp(input, SHARP_OPTIONS).autoOrient();
  }
  try {
    const { data, info } = await pipeline
      .resize(DETAIL_SIZE, DETAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height, channels: info.channels === 4 ? 4 : 3 };
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof Error && /pixel limit/i.test(error.message))
      throw new AppError('coverTooManyPixels', { megapixels: MAX_COVER_MEGAPIXELS });
    throw new AppError('invalidImage');
  }
}

/**
 * HEIC as phones write it is HEVC inside HEIF; sharp's prebuilt libvips reads HEIF but carries no HEVC
 * decoder (a patent matter), so the picture is decoded by libheif compiled to WebAssembly
 * (heic-decode, in a worker thread: heic.ts), which applies the container's rotation and mirroring,
 * and its RGBA pixels go on to sharp. The size is checked from the container before any pixel is
 * decoded.
 */
async function decodeHevc(input: Buffer | string): Promise<Sharp> {
  const bytes = Buffer.isBuffer(input) ? input : await fs.promises.readFile(input);
  let decoded: HeicDecoded;
  try {
    decoded = await decodeHeic(bytes, MAX_COVER_PIXELS);
  } catch {
    throw new AppError('invalidImage');
  }
  if (decoded.tooLarge) throw new AppError('coverTooManyPixels', { megapixels: MAX_COVER_MEGAPIXELS });
  const { width, height, data } = decoded;
  return sharp(Buffer.from(data.buffer, data.byteOffset, data.byteLength), {
    raw: { width, height, channels: 4 },
  });
}

/** The variants, each from the detail pixels; encoded in parallel (each on its own libuv thread). */
async function encodeVariants(detail: Pixels): Promise<EncodedCover> {
  const from = () =>
    sharp(detail.data, { raw: { width: detail.width, height: detail.height, channels: detail.channels } });
  // libwebp's fastest method: on a 12-megapixel photo's detail, as small (177 KB against 175 KB at
  // method 1, 179 KB at 2) and as close to the pixels (PSNR 33.9 dB at 0 and 1, 33.4 at 2) for
  // 8-12 ms of CPU less
  const webp = { quality: 80, effort: 0 } as const;
  const asWebp = ({ data, info }: { data: Buffer; info: OutputInfo }): CoverFile => ({
    data,
    ext: 'webp',
    mime: 'image/webp',
    width: info.width,
    height: info.height,
  });
  const [map, feed, detailWebp, fallback, placeholder] = await Promise.all([
    from()
      // the middle, as every thumbnail grid crops (sharp's 'attention' cost 6 ms of CPU more per photo)
      .resize(MAP_SIZE, MAP_SIZE, { fit: 'cover', position: 'centre' })
      .webp(webp)
      .toBuffer({ resolveWithObject: true }),
    from()
      .resize(FEED_WIDTH, null, { withoutEnlargement: true })
      .webp(webp)
      .toBuffer({ resolveWithObject: true }),
    from().webp(webp).toBuffer({ resolveWithObject: true }),
    // a JPEG has no transparency: a transparent PNG's holes turn white, not black; baseline, since
    // the browsers that need the fallback gain little from progressive (which costs twice the CPU)
    from().flatten({ background: '#ffffff' }).jpeg({ quality: 80 }).toBuffer({ resolveWithObject: true }),
    from()
      .resize(PLACEHOLDER_WIDTH, null)
      .blur(1)
      .webp({ quality: 40, effort: 4, alphaQuality: 40 })
      .toBuffer(),
  ]);
  return {
    files: {
      map: asWebp(map),
      feed: asWebp(feed),
      detail: asWebp(detailWebp),
      fallback: {
        data: fallback.data,
        ext: 'jpg',
        mime: 'image/jpeg',
        width: fallback.info.width,
        height: fallback.info.height,
      },
    },
    placeholder: `data:image/webp;base64,${placeholder.toString('base64')}`,
    width: detail.width,
    height: detail.height,
  };
}

/** A file's media key: the hash of its bytes and its extension. */
export function coverKeyOf(file: CoverFile): string {
  return `${createHash('sha256').update(file.data).digest('hex')}.${file.ext}`;
}

/** Stores a file under its content hash and answers its URL. */
async function put(media: MediaPlace, file: CoverFile): Promise<string> {
  const key = coverKeyOf(file);
  await media.store.put(key, file.data);
  return media.store.url(key);
}
