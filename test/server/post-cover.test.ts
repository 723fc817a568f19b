import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import zlib from 'node:zlib';
import sharp, { type Sharp } from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DETAIL_SIZE,
  FEED_WIDTH,
  MAP_SIZE,
  MAX_COVER_PIXELS,
  storePostCover,
  type PostCover,
} from '../../src/server/media/cover';
import { decodeImage, MAX_IMAGE_BYTES, withImage } from '../../src/server/features/points/media';
import { diskMedia, type MediaPlace } from '../../src/server/media/store';
import { AppError } from '../../src/shared/errors';

/**
 * Issue 17, "Photos": a post's cover through the real pipeline (sharp, heic-decode) into a disk media
 * store in a temporary directory, every variant read back from the store as it will be served.
 */

let dir: string;
let media: MediaPlace;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xp-post-cover-'));
  media = diskMedia(path.join(dir, 'media'));
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The bytes the store serves for a /media/<key> URL. */
async function served(url: string): Promise<Buffer> {
  const key = url.slice(url.lastIndexOf('/') + 1);
  const object = await media.store.get(key);
  if (!object) throw new Error(`${url} is not in the store`);
  return buffer(object.body);
}

function storedFiles(): string[] {
  const mediaDir = path.join(dir, 'media');
  return fs.existsSync(mediaDir) ? fs.readdirSync(mediaDir).filter((name) => !name.startsWith('.')) : [];
}

/** A picture with some structure (a gradient and a disc), in the given size. */
function picture(width: number, height: number, channels: 3 | 4 = 3): Sharp {
  const pixels = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * channels;
      const inDisc = (x - width / 2) ** 2 + (y - height / 2) ** 2 < (height / 3) ** 2;
      pixels[i] = inDisc ? 230 : (x * 255) / width;
      pixels[i + 1] = inDisc ? 200 : (y * 255) / height;
      pixels[i + 2] = 90;
      if (channels === 4) pixels[i + 3] = x < width / 4 ? 0 : 255;
    }
  return sharp(pixels, { raw: { width, height, channels } });
}

/** A phone's EXIF: make, model and a GPS position (New York), and an XMP packet naming it too. */
const PHONE_EXIF = {
  IFD0: { Make: 'LeakyPhone', Model: 'Model GPS' },
  IFD3: {
    GPSLatitudeRef: 'N',
    GPSLatitude: '40/1 44/1 5442/100',
    GPSLongitudeRef: 'W',
    GPSLongitude: '73/1 59/1 1066/100',
  },
};
const PHONE_XMP =
  '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
  '<rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="40,44.907N" ' +
  'exif:GPSLongitude="73,59.178W"/></rdf:RDF></x:xmpmeta>';

function expectAppError(error: unknown, name: string): void {
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).errorName).toBe(name);
}

async function refusal(input: Buffer | string): Promise<unknown> {
  return storePostCover(input, media).then(
    () => new Error('accepted'),
    (error: unknown) => error,
  );
}

/** Every variant as served: its format and size; and the placeholder decoded from its data URL. */
async function describeCover(cover: PostCover) {
  const sizes = async (url: string) => {
    const meta = await sharp(await served(url)).metadata();
    return { format: meta.format, width: meta.width, height: meta.height };
  };
  const placeholder = Buffer.from(cover.placeholder.slice(cover.placeholder.indexOf(',') + 1), 'base64');
  return {
    map: await sizes(cover.variants.map),
    feed: await sizes(cover.variants.feed),
    detail: await sizes(cover.variants.detail),
    fallback: await sizes(cover.variants.fallback),
    placeholder: { ...(await sharp(placeholder).metadata()), bytes: placeholder.length },
  };
}

describe('storePostCover: accepted pictures', () => {
  const cases: [string, () => Promise<Buffer>][] = [
    ['JPEG', () => picture(1600, 1200).jpeg().toBuffer()],
    ['PNG with transparency', () => picture(1600, 1200, 4).png().toBuffer()],
    ['16-bit PNG', () => picture(1600, 1200).toColourspace('rgb16').png().toBuffer()],
    ['CMYK JPEG', () => picture(1600, 1200).toColourspace('cmyk').jpeg().toBuffer()],
    ['GIF', () => picture(1600, 1200).gif().toBuffer()],
    ['WebP', () => picture(1600, 1200).webp().toBuffer()],
    ['AVIF (HEIF with AV1)', () => picture(1600, 1200).avif({ effort: 0 }).toBuffer()],
  ];
  it.each(cases)('%s: every variant stored at its size, the fallback a JPEG', async (_name, make) => {
    const cover = await storePostCover(await make(), media);
    const seen = await describeCover(cover);
    expect(seen.map).toEqual({ format: 'webp', width: MAP_SIZE, height: MAP_SIZE });
    expect(seen.feed).toEqual({ format: 'webp', width: FEED_WIDTH, height: 480 });
    expect(seen.detail).toEqual({ format: 'webp', width: DETAIL_SIZE, height: 960 });
    expect(seen.fallback).toEqual({ format: 'jpeg', width: DETAIL_SIZE, height: 960 });
    expect(cover.url).toBe(cover.variants.detail);
    expect([cover.width, cover.height]).toEqual([DETAIL_SIZE, 960]);
    expect(cover.placeholder).toMatch(/^data:image\/webp;base64,[A-Za-z0-9+/]+=*$/);
    expect(seen.placeholder).toMatchObject({ format: 'webp', width: 16, height: 12 });
    expect(seen.placeholder.bytes).toBeLessThan(600);
    for (const url of Object.values(cover.variants))
      expect(url).toMatch(/^\/media\/[0-9a-f]{64}\.(webp|jpg)$/);
  });

  it('never enlarges a small picture, but fills the map square', async () => {
    const cover = await storePostCover(await picture(300, 200).png().toBuffer(), media);
    const seen = await describeCover(cover);
    expect(seen.detail).toMatchObject({ width: 300, height: 200 });
    expect(seen.feed).toMatchObject({ width: 300, height: 200 });
    expect(seen.map).toMatchObject({ width: MAP_SIZE, height: MAP_SIZE });
  });

  it('reads a received temporary file by its path as well as bytes', async () => {
    const file = path.join(dir, 'upload-1');
    fs.writeFileSync(file, await picture(640, 480).jpeg().toBuffer());
    const cover = await storePostCover(file, media);
    expect((await describeCover(cover)).detail).toMatchObject({ width: 640, height: 480 });
  });

  it('the first frame of an animated GIF', async () => {
    const frames = Buffer.concat([Buffer.alloc(200 * 100 * 3, 0xcc), Buffer.alloc(200 * 100 * 3, 0x22)]);
    const gif = await sharp(frames, { raw: { width: 200, height: 200, channels: 3, pageHeight: 100 } })
      .gif({ loop: 0, delay: [100, 100] })
      .toBuffer({ resolveWithObject: true });
    const cover = await storePostCover(gif.data, media);
    const { data, info } = await sharp(await served(cover.variants.detail))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([200, 100]);
    expect(data[0]).toBeGreaterThan(0xb0);
  });
});

describe('storePostCover: what a photo says about its taker never reaches another user', () => {
  it('no EXIF, GPS or XMP in any stored variant, nor in the placeholder', async () => {
    const photo = await picture(2000, 1500)
      .jpeg({ quality: 90 })
      .withExif(PHONE_EXIF)
      .withXmp(PHONE_XMP)
      .toBuffer();
    // the input does carry them, as a phone's photo does
    const before = await sharp(photo).metadata();
    expect(before.exif?.length).toBeGreaterThan(50);
    expect(photo.includes('GPSLatitude')).toBe(true);
    expect(photo.includes('LeakyPhone')).toBe(true);

    const cover = await storePostCover(photo, media);
    const placeholder = Buffer.from(cover.placeholder.slice(cover.placeholder.indexOf(',') + 1), 'base64');
    const outputs = [...(await Promise.all(Object.values(cover.variants).map(served))), placeholder];
    expect(outputs).toHaveLength(5);
    for (const bytes of outputs) {
      const meta = await sharp(bytes).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(meta.iptc).toBeUndefined();
      expect(bytes.includes('GPS')).toBe(false);
      expect(bytes.includes('Exif')).toBe(false);
      expect(bytes.includes('LeakyPhone')).toBe(false);
      expect(bytes.includes('xmpmeta')).toBe(false);
    }
  });

  it('a wide-gamut photo (Display P3, as iPhones tag theirs) is converted to sRGB, its profile dropped', async () => {
    const pixels = Buffer.alloc(64 * 64 * 3);
    for (let i = 0; i < pixels.length; i += 3) pixels.set([200, 100, 50], i);
    // the same colour, stored as P3 values with the P3 profile attached
    const photo = await sharp(pixels, { raw: { width: 64, height: 64, channels: 3 } })
      .withIccProfile('p3')
      .jpeg({ quality: 100 })
      .toBuffer();
    const [storedR = 0, , storedB = 0] = await sharp(photo, { ignoreIcc: true }).raw().toBuffer();
    expect(Math.abs(storedR - 200)).toBeGreaterThan(10);
    expect(Math.abs(storedB - 50)).toBeGreaterThan(10);
    const cover = await storePostCover(photo, media);
    for (const url of [cover.variants.detail, cover.variants.fallback]) {
      const bytes = await served(url);
      expect((await sharp(bytes).metadata()).icc).toBeUndefined();
      // lossy WebP moves a flat colour by a few levels; unconverted, red and blue would be 13 off
      const [r = 0, g = 0, b = 0] = await sharp(bytes).raw().toBuffer();
      expect(Math.abs(r - 200)).toBeLessThanOrEqual(6);
      expect(Math.abs(g - 100)).toBeLessThanOrEqual(6);
      expect(Math.abs(b - 50)).toBeLessThanOrEqual(6);
    }
  });

  it('turns the picture upright by its EXIF orientation before the metadata goes', async () => {
    // 300x200 stored sideways: red on the left, blue on the right; orientation 6 says "rotate 90°
    // clockwise to show", so the person looking sees a 200x300 picture, red at the top
    const pixels = Buffer.alloc(300 * 200 * 3);
    for (let y = 0; y < 200; y++)
      for (let x = 0; x < 300; x++) pixels.set(x < 150 ? [220, 20, 20] : [20, 20, 220], (y * 300 + x) * 3);
    const photo = await sharp(pixels, { raw: { width: 300, height: 200, channels: 3 } })
      .jpeg()
      .withExif(PHONE_EXIF)
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect((await sharp(photo).metadata()).orientation).toBe(6);
    const cover = await storePostCover(photo, media);
    expect([cover.width, cover.height]).toEqual([200, 300]);
    for (const url of [cover.variants.detail, cover.variants.fallback]) {
      const { data, info } = await sharp(await served(url))
        .raw()
        .toBuffer({ resolveWithObject: true });
      expect([info.width, info.height]).toEqual([200, 300]);
      const at = (x: number, y: number) => [...data.subarray((y * 200 + x) * 3, (y * 200 + x) * 3 + 3)];
      const [topR = 0, , topB = 0] = at(100, 40);
      const [bottomR = 0, , bottomB = 0] = at(100, 260);
      expect(topR).toBeGreaterThan(150);
      expect(topB).toBeLessThan(80);
      expect(bottomB).toBeGreaterThan(150);
      expect(bottomR).toBeLessThan(80);
      // and the served file does not ask the browser to turn it again
      expect((await sharp(await served(url)).metadata()).orientation).toBeUndefined();
    }
  });
});

describe('storePostCover: HEIC, as iPhones send it', () => {
  /**
   * A real HEIC (HEVC in HEIF), 96x64, red on the left and blue on the right: written on this
   * machine by ImageMagick 6.9.11 with libheif 1.15.1 and x265 (`convert -size 96x64 xc:'#d22' \(
   * -size 48x64 xc:'#22d' \) -geometry +48+0 -composite -quality 60 split.heic`). Sharp's prebuilt
   * libvips reads its header but cannot decode HEVC, so this exercises the heic-decode fallback.
   */
  const HEIC =
    'AAAAHGZ0eXBoZWljAAAAAG1pZjFoZWljbWlhZgAAAT9tZXRhAAAAAAAAACFoZGxyAAAAAAAAAABwaWN0AAAAAAAAAAAAAAAAAAAAAA5waXRtAAAAAAABAAAAImlsb2MAAAAAREAAAQABAAAAAAFjAAEAAAAAAAAAigAAACNpaW5mAAAAAAABAAAAFWluZmUCAAAAAAEAAGh2YzEAAAAAv2lwcnAAAAChaXBjbwAAAHVodmNDAQNwAAAAAAAAAAAAHvAA/P34+AAADwMgAAEAGEABDAH//wNwAAADAJAAAAMAAAMAHroCQCEAAQAoQgEBA3AAAAMAkAAAAwAAAwAeoDCBBZbqSSmubAgAAAMACAAAAwAIQCIAAQAHRAHBcrAiQAAAABRpc3BlAAAAAAAAAGAAAABAAAAAEHBpeGkAAAAAAwgICAAAABZpcG1hAAAAAAAAAAEAAQOBAoMAAACSbWRhdAAAAIYoAa8J4ONHnLqv//4bn//+MRuQ/fOOpIJT/+wO4d/GLl//dJoaxZUdGuxx9/G+znFfATr/1uoU2+jOPaJIfjBiP+RDhaLZUdI5XAA5hY7PhR3pL3HVR5anWrmrIYO99ljMqEOl9NvHdvm4IU3c1vPj9v+56mx+TXW702C08lg9z5e8tlehnA==';

  it('is decoded through the fallback, turned into the same variants', async () => {
    const bytes = Buffer.from(HEIC, 'base64');
    const meta = await sharp(bytes).metadata();
    expect(meta).toMatchObject({ format: 'heif', compression: 'hevc', width: 96, height: 64 });
    // sharp alone refuses it: the fallback is what makes it a picture
    await expect(sharp(bytes).raw().toBuffer()).rejects.toThrow(/HEVC|compression/i);

    const cover = await storePostCover(bytes, media);
    expect([cover.width, cover.height]).toEqual([96, 64]);
    const { data, info } = await sharp(await served(cover.variants.fallback))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([96, 64]);
    const at = (x: number, y: number) => [...data.subarray((y * 96 + x) * 3, (y * 96 + x) * 3 + 3)];
    const [leftR = 0, , leftB = 0] = at(20, 32);
    const [rightR = 0, , rightB = 0] = at(76, 32);
    expect(leftR).toBeGreaterThan(150);
    expect(leftB).toBeLessThan(90);
    expect(rightB).toBeGreaterThan(150);
    expect(rightR).toBeLessThan(90);
    expect((await describeCover(cover)).map).toMatchObject({ format: 'webp', width: MAP_SIZE });
  });

  it('a cut-off HEIC is refused as not a picture, and the next one is decoded as before', async () => {
    const bytes = Buffer.from(HEIC, 'base64');
    // cut in its header: sharp's reading of the header refuses it
    expectAppError(await refusal(bytes.subarray(0, 300)), 'invalidImage');
    // its header whole, its picture data cut: the header passes, the decoder fails
    const cut = bytes.subarray(0, bytes.length - 10);
    expect((await sharp(cut).metadata()).width).toBe(96);
    expectAppError(await refusal(cut), 'invalidImage');
    // a damaged file in the sole decoding worker must not stop it for everyone after
    const [first, second] = await Promise.all([
      storePostCover(Buffer.from(HEIC, 'base64'), media),
      storePostCover(Buffer.from(HEIC, 'base64'), media),
    ]);
    expect(first.variants).toEqual(second.variants);
    expect([first.width, first.height]).toEqual([96, 64]);
  });
});

describe('storePostCover: refused, and nothing stored', () => {
  let filesBefore: string[];
  beforeAll(() => {
    filesBefore = storedFiles();
  });
  afterAll(() => {
    expect(storedFiles()).toEqual(filesBefore);
  });

  it('an SVG (sharp could render it; it is no photo and can carry scripts)', async () => {
    const svg =
      '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="400" height="300">' +
      '<script>alert(1)</script><rect width="400" height="300" fill="red"/></svg>';
    expect((await sharp(Buffer.from(svg)).metadata()).format).toBe('svg');
    expectAppError(await refusal(Buffer.from(svg)), 'invalidImage');
    expectAppError(await refusal(Buffer.from(svg.slice(svg.indexOf('<svg')))), 'invalidImage');
  });

  it('an executable renamed .jpg', async () => {
    const file = path.join(dir, 'holiday.jpg');
    fs.copyFileSync('/bin/ls', file);
    expectAppError(await refusal(file), 'invalidImage');
    expectAppError(await refusal(fs.readFileSync('/bin/ls')), 'invalidImage');
  });

  it('a JPEG cut off after its header, text, and nothing', async () => {
    const jpeg = await picture(400, 300).jpeg().toBuffer();
    expectAppError(await refusal(jpeg.subarray(0, 200)), 'invalidImage');
    expectAppError(await refusal(Buffer.from('hello, this is not a picture')), 'invalidImage');
    expectAppError(await refusal(Buffer.alloc(0)), 'invalidImage');
  });

  it('a TIFF (a picture, but not one of the accepted formats)', async () => {
    expectAppError(await refusal(await picture(64, 64).tiff().toBuffer()), 'invalidImage');
  });

  it('a PNG claiming 50,000 x 50,000 pixels: refused from its header, fast and with little memory', async () => {
    const png = pngClaiming(50_000, 50_000);
    expect(png.length).toBeLessThan(200);
    const rssBefore = process.memoryUsage().rss;
    const started = performance.now();
    const error = await refusal(png);
    const elapsed = performance.now() - started;
    expectAppError(error, 'coverTooManyPixels');
    expect((error as AppError).toBody()).toEqual({
      errorcode: 2090,
      error: 'Image too large: at most 40 megapixels.',
    });
    expect((error as AppError).status).toBe(422);
    expect(elapsed).toBeLessThan(500);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(50 * 1024 * 1024);
  });

  it('the limit is the decoded size: 40 megapixels pass the header check, one row more does not', async () => {
    // 8000 x 5000 = 40,000,000 exactly; 8000 x 5001 is above
    expect(8000 * 5000).toBe(MAX_COVER_PIXELS);
    expectAppError(await refusal(pngClaiming(8000, 5001)), 'coverTooManyPixels');
    // at the limit the header is accepted and the (missing) pixels are what fails
    expectAppError(await refusal(pngClaiming(8000, 5000)), 'invalidImage');
  });

  it('a JPEG claiming 60,000 x 60,000 pixels', async () => {
    const jpeg = await picture(64, 64).jpeg().toBuffer();
    // the SOF0 marker's height and width, rewritten
    const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
    expect(sof).toBeGreaterThan(0);
    jpeg.writeUInt16BE(60_000, sof + 5);
    jpeg.writeUInt16BE(60_000, sof + 7);
    expectAppError(await refusal(jpeg), 'coverTooManyPixels');
  });
});

describe('the size rule before the pipeline (social §5: 10 MB, base64 length / 1.3333)', () => {
  it('a 10.5 MB image as a data URL is refused with the spec message', () => {
    const bytes = Buffer.alloc(Math.round(10.5 * 1024 * 1024), 1);
    const dataUrl = `data:image/jpeg;base64,${bytes.toString('base64')}`;
    let error: unknown;
    try {
      decodeImage(dataUrl);
    } catch (caught) {
      error = caught;
    }
    expectAppError(error, 'invalidImageSize');
    expect((error as AppError).toBody()).toMatchObject({
      errorcode: 2008,
      error: 'Invalid image size. Max allowed 10 MB',
    });
    expect(MAX_IMAGE_BYTES).toBe(10_485_760);
  });

  it('a 10.5 MB multipart file is refused the moment it passes 10 MB, its temporary file removed', async () => {
    const chunk = Buffer.alloc(512 * 1024, 7);
    const stream = Readable.from(
      (function* () {
        // a JPEG's first bytes, then 10.5 MB
        yield Buffer.from([0xff, 0xd8, 0xff, 0xe0]);
        for (let i = 0; i < 21; i++) yield chunk;
      })(),
    );
    const error = await withImage({ stream, filename: 'big.jpg', mimetype: 'image/jpeg' }, media, (input) =>
      storePostCover(input, media),
    ).then(
      () => new Error('accepted'),
      (caught: unknown) => caught,
    );
    expectAppError(error, 'invalidImageSize');
    expect(fs.readdirSync(media.uploadDir)).toEqual([]);
  });
});

/** A PNG's signature and IHDR claiming `width` x `height` (8-bit RGB), one tiny IDAT, and IEND. */
function pngClaiming(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(zlib.crc32(body), body.length + 4);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(Buffer.alloc(64))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
