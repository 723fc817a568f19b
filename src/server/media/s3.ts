import fs from 'node:fs';
import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import {
  assertMediaKey,
  contentTypeOf,
  isFile,
  type ByteRange,
  type MediaBody,
  type MediaInfo,
  type MediaObject,
  type MediaStore,
} from './store';
import { describeLocation, type S3Location } from './url';

/** How long the start's check of the bucket may take before the server gives up. */
export const CHECK_TIMEOUT_MS = 5_000;
/**
 * A file is sent in parts of 16 MB, each streamed from its byte range of the file with its length
 * known, so nothing of it is buffered (a file up to one part goes as one PutObject).
 */
const FILE_PART_BYTES = 16 * 1024 * 1024;
/**
 * A stream of unknown length goes through lib-storage's Upload: parts of 5 MB (S3's smallest), one in
 * flight. Upload buffers each part it sends, so it holds about partSize × (queueSize + 1) = 10 MB.
 */
const STREAM_PART_BYTES = 5 * 1024 * 1024;
const STREAM_PARTS_IN_FLIGHT = 1;

/**
 * Media in an S3-compatible bucket (AWS S3, MinIO, Ceph, R2), under `MEDIA_URL`'s prefix. Puts
 * stream: a received file part by part from the disk, a stream with lib-storage's Upload, a small
 * Buffer (a resized picture) as one PutObject; gets stream the object's body, or a byte range of it.
 */
export class S3MediaStore implements MediaStore {
  private readonly client: S3Client;

  constructor(private readonly place: S3Location) {
    this.client = new S3Client({
      ...(place.region !== undefined ? { region: place.region } : {}),
      ...(place.endpoint !== undefined ? { endpoint: place.endpoint } : {}),
      forcePathStyle: place.forcePathStyle,
      // checksums only where the API requires them: the SDK's default (a CRC32 trailer on every
      // streamed put, aws-chunked) is not spoken by every S3-compatible service
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  get location(): string {
    return describeLocation(this.place);
  }

  async put(key: string, body: MediaBody): Promise<void> {
    const target = { Bucket: this.place.bucket, Key: this.keyOf(key), ContentType: contentTypeOf(key) };
    try {
      if (await this.head(key)) return;
      if (isFile(body)) await this.putFile(target, body.file);
      else if (Buffer.isBuffer(body))
        await this.client.send(new PutObjectCommand({ ...target, Body: body, ContentLength: body.length }));
      else {
        const upload = new Upload({
          client: this.client,
          params: { ...target, Body: body },
          partSize: STREAM_PART_BYTES,
          queueSize: STREAM_PARTS_IN_FLIGHT,
          leavePartsOnError: false,
        });
        await upload.done();
      }
    } finally {
      if (isFile(body)) await fs.promises.rm(body.file, { force: true });
    }
  }

  /** A local file, streamed: one PutObject, or a multipart upload of its byte ranges one by one. */
  private async putFile(target: { Bucket: string; Key: string; ContentType: string }, file: string) {
    const { size } = await fs.promises.stat(file);
    const part = (start: number, end: number) => ({
      Body: fs.createReadStream(file, { start, end }),
      ContentLength: end - start + 1,
    });
    if (size <= FILE_PART_BYTES) {
      await this.client.send(
        new PutObjectCommand({ ...target, ...(size > 0 ? part(0, size - 1) : { Body: '' }) }),
      );
      return;
    }
    const { UploadId } = await this.client.send(new CreateMultipartUploadCommand(target));
    const { Bucket, Key } = target;
    try {
      const parts: { ETag: string | undefined; PartNumber: number }[] = [];
      for (let number = 1, start = 0; start < size; number += 1, start += FILE_PART_BYTES) {
        const end = Math.min(size, start + FILE_PART_BYTES) - 1;
        const { ETag } = await this.client.send(
          new UploadPartCommand({ Bucket, Key, UploadId, PartNumber: number, ...part(start, end) }),
        );
        parts.push({ ETag, PartNumber: number });
      }
      await this.client.send(
        new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts: parts } }),
      );
    } catch (error) {
      await this.client
        .send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId }))
        .catch(() => undefined);
      throw error;
    }
  }

  async get(key: string, range?: ByteRange): Promise<MediaObject | null> {
    try {
      const answer = await this.client.send(
        new GetObjectCommand({
          Bucket: this.place.bucket,
          Key: this.keyOf(key),
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      const total = /\/(\d+)$/.exec(answer.ContentRange ?? '')?.[1];
      return {
        size: total !== undefined ? Number(total) : (answer.ContentLength ?? 0),
        contentType: contentTypeOf(key),
        body: answer.Body as Readable,
      };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async head(key: string): Promise<MediaInfo | null> {
    try {
      const answer = await this.client.send(
        new HeadObjectCommand({ Bucket: this.place.bucket, Key: this.keyOf(key) }),
      );
      return { size: answer.ContentLength ?? 0, contentType: contentTypeOf(key) };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  url(key: string): string {
    return `/media/${key}`;
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.place.bucket, Key: this.keyOf(key) }));
  }

  /** HeadBucket within CHECK_TIMEOUT_MS: the bucket exists and these credentials may use it. */
  async check(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.place.bucket }), {
        abortSignal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
      });
    } catch (error) {
      // the reason says it all on one line (main.ts prints the message, not the cause)
      throw new Error(this.reason(error), { cause: error });
    }
  }

  close(): void {
    this.client.destroy();
  }

  private reason(error: unknown): string {
    const where = this.place.endpoint ? ` at ${this.place.endpoint}` : '';
    const status = error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
    if (status === 404) return `the bucket ${this.place.bucket} does not exist${where}`;
    if (status === 403)
      return `access to the bucket ${this.place.bucket} was denied${where} (check the credentials)`;
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
      return `no answer from the bucket ${this.place.bucket}${where} within ${CHECK_TIMEOUT_MS / 1000} s`;
    const text = error instanceof Error ? error.message || error.name : String(error);
    return `the bucket ${this.place.bucket}${where} cannot be reached: ${text.replace(/\s+/g, ' ')}`;
  }

  private keyOf(key: string): string {
    assertMediaKey(key);
    return `${this.place.prefix}${key}`;
  }
}

function isMissing(error: unknown): boolean {
  return (
    error instanceof S3ServiceException &&
    (error.$metadata.httpStatusCode === 404 || error.name === 'NoSuchKey' || error.name === 'NotFound')
  );
}
