import type { FastifyInstance } from 'fastify';

/**
 * The spec posts the home page's calls as form fields: this scope (only) reads
 * `application/x-www-form-urlencoded` bodies into a plain object, first value of a repeated field.
 */
export function acceptFormFields(app: FastifyInstance): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => {
      // no prototype: a field named __proto__ or constructor is just a field
      const fields = Object.create(null) as Record<string, string>;
      for (const [key, value] of new URLSearchParams(body as string))
        if (!Object.hasOwn(fields, key)) fields[key] = value;
      done(null, fields);
    },
  );
}
