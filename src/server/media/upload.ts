import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { AppError } from '../../shared/errors';

/**
 * Streaming uploads (issue 16, finding 2): a file part of a multipart/form-data request goes to a
 * temporary file while it is hashed and counted, and the upload is refused the moment it passes its
 * limit. Nothing here holds a whole file in memory; what is kept is the first bytes (to tell a
 * video by its content) and the running sha256 that names the stored file.
 */

/** An upload received into a temporary file: the caller stores or removes it. */
export interface ReceivedFile {
  /** the temporary file */
  file: string;
  bytes: number;
  /** hex sha256 of the bytes as sent */
  sha256: string;
  /** the first bytes, for content sniffing */
  head: Buffer;
}

const HEAD_BYTES = 64;

/**
 * Streams `source` into a temporary file under `dir`, hashing and counting as it goes; throws
 * `tooLarge()` as soon as more than `maxBytes` have come (the rest is never read) and removes the
 * temporary file on any failure.
 */
export async function receiveFile(
  source: Readable,
  options: { dir: string; maxBytes: number; tooLarge: () => AppError },
): Promise<ReceivedFile> {
  await fs.promises.mkdir(options.dir, { recursive: true });
  const file = path.join(options.dir, `${Date.now()}-${randomBytes(8).toString('hex')}.part`);
  const hash = createHash('sha256');
  let bytes = 0;
  const heads: Buffer[] = [];
  let headBytes = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > options.maxBytes) return done(options.tooLarge());
      if (headBytes < HEAD_BYTES) {
        heads.push(chunk.subarray(0, HEAD_BYTES - headBytes));
        headBytes += Math.min(chunk.length, HEAD_BYTES - headBytes);
      }
      hash.update(chunk);
      done(null, chunk);
    },
  });
  const sink = fs.createWriteStream(file);
  try {
    await pipeline(source, meter, sink);
  } catch (error) {
    // a stream destroyed while still opening its file creates it after the failure: remove the file
    // once the stream has let go of it, or it is left behind (seen as a stray .part in the tests)
    if (!sink.closed) await new Promise<void>((resolve) => sink.once('close', () => resolve()));
    await fs.promises.rm(file, { force: true });
    throw error;
  }
  // busboy ends a part that passed its own fileSize limit quietly (marked truncated): a backstop
  if ((source as Readable & { truncated?: boolean }).truncated) {
    await fs.promises.rm(file, { force: true });
    throw options.tooLarge();
  }
  return { file, bytes, sha256: hash.digest('hex'), head: Buffer.concat(heads) };
}

/** The part of a multipart request after its fields: the one file, not yet read. */
export interface FilePart {
  stream: Readable;
  filename: string;
  mimetype: string;
}

/** A multipart upload whose fields have been read and whose file has not. */
export interface MultipartUpload {
  fields: Record<string, string>;
  file: FilePart | null;
  /** reads what follows the file (only the closing boundary, or a few stray fields) */
  finish(): Promise<void>;
}

/** The one file part's name in every media form. */
export const FILE_FIELD = 'file';

/**
 * Busboy's limits for a media form: a handful of short fields and one file. `maxFileBytes` is a
 * backstop above the largest slot; each slot's own limit is applied while streaming (receiveFile).
 */
function multipartLimits(maxFileBytes: number, form: MultipartForm) {
  const fields = form.fields ?? 8;
  return {
    fields,
    fieldNameSize: 64,
    fieldSize: form.fieldBytes ?? 1024,
    files: 1,
    parts: fields + 2,
    fileSize: maxFileBytes + 1,
  };
}

/**
 * A form other than the media forms' (a post's: a description of 5,000 characters, its cover in a
 * part named `cover_file`): the file part's name, how many fields and how long each may be.
 */
export interface MultipartForm {
  fileField?: string;
  fields?: number;
  fieldBytes?: number;
}

/**
 * Reads a media form's fields up to its file part and stops there, so that the caller can check
 * them (sign-in was checked before the body; who controls the id is checked now) before a byte of
 * the file is read. The fields must come before the file, as browsers' FormData and curl -F send
 * them in the order they were added.
 */
export async function readMultipartUpload(
  request: FastifyRequest,
  maxFileBytes: number,
  form: MultipartForm = {},
): Promise<MultipartUpload> {
  const fileField = form.fileField ?? FILE_FIELD;
  // iterated by hand: a for-await left at the file would end the iteration for good
  const parts = request.parts({ limits: multipartLimits(maxFileBytes, form) })[Symbol.asyncIterator]();
  const fields: Record<string, string> = {};
  let file: FilePart | null = null;
  await asMultipartError(async () => {
    for (let next = await parts.next(); !next.done; next = await parts.next()) {
      const part = next.value;
      if (part.type === 'file') {
        if (part.fieldname !== fileField)
          throw multipartError(`the file goes in the part named "${fileField}".`);
        file = { stream: part.file, filename: part.filename, mimetype: part.mimetype };
        return;
      }
      if (part.valueTruncated || part.fieldnameTruncated)
        throw multipartError(`the field ${part.fieldname} is too long.`);
      if (part.fieldname in fields) throw multipartError(`the field ${part.fieldname} is given twice.`);
      fields[part.fieldname] = String(part.value);
    }
  });
  return {
    fields,
    file,
    finish: () =>
      asMultipartError(async () => {
        for (let next = await parts.next(); !next.done; next = await parts.next()) {
          if (next.value.type === 'file') {
            (next.value as MultipartFile).file.resume();
            throw multipartError('send one file per call.');
          }
        }
      }),
  };
}

/** Busboy's and the plugin's refusals (a malformed body, a limit) as the catalogue's 400. */
async function asMultipartError(work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    throw error instanceof AppError ? error : multipartError(readableReason(error));
  }
}

function multipartError(reason: string): AppError {
  return new AppError('badRequest', { reason: `multipart/form-data: ${reason}` });
}

function readableReason(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === 'FST_FILES_LIMIT') return 'send one file per call.';
  if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') return 'too many fields.';
  return error instanceof Error ? error.message : String(error);
}

/** How long a connection answered before its body's end stays half-closed, unread, before it is dropped. */
const LINGER_MS = 1_000;

/**
 * onSend of every upload route: an answer given before the body's end (a visitor's 401, a file past
 * its limit, a refused form) stops the reading of the rest. Node would otherwise read what is left
 * and throw it away to keep the connection alive: a 401 would still cost the whole 130 MB of reading.
 * A read that nobody takes marks the body as being consumed, so Node does not, and it stops reading
 * the socket once that read's small buffer is full. The connection is then closed; Node closes such
 * a connection by resetting it while the client still sends, which can lose the answer before the
 * client reads it, so it stays half-closed for a moment first (the lingering close of nginx and
 * Apache, without their reading).
 */
export async function refuseUnreadBody(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const raw = request.raw;
  if (raw.complete) return;
  reply.header('connection', 'close');
  raw.unpipe();
  raw.pause();
  raw.read(0);
  raw.socket.destroySoon = function lingeringClose(this: Socket) {
    this.end();
    setTimeout(() => this.destroy(), LINGER_MS).unref();
  };
}
