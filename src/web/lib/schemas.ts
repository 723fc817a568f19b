import type { z } from 'zod';
import type * as AnswerSchemaModule from './answerSchemas';

type AnswerSchemas = typeof AnswerSchemaModule;

let loading: Promise<AnswerSchemas> | null = null;

/**
 * The first screen's answer schemas (lib/answerSchemas.ts), loaded once, at the first call that reads
 * one (issue 23): zod's classic API is about 24 KB gzip that cannot be shaken out, and the first screen
 * draws without it (it comes in parallel with the map). One promise, so what waits on it runs in the
 * order it asked: live pushes are read in the order they came; a failed load is not kept.
 */
export function answerSchemas(): Promise<AnswerSchemas> {
  // a load that failed (the server or the network down) is tried again by the next call
  return (loading ??= import('./answerSchemas').catch((error: unknown) => {
    loading = null;
    throw error;
  }));
}

/** A schema as the API client takes it: the schema, or where to load it from (`answerSchemas`). */
export type SchemaSource<S extends z.ZodType> = S | (() => Promise<S>);

/** The schema of `answerSchemas()` named `name`, as a source for the API client. */
export function lazySchema<K extends keyof AnswerSchemas>(name: K): () => Promise<AnswerSchemas[K]> {
  return () => answerSchemas().then((schemas) => schemas[name]);
}

export function resolveSchema<S extends z.ZodType>(source: SchemaSource<S>): S | Promise<S> {
  return typeof source === 'function' ? source() : source;
}
