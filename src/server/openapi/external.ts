import type { z } from 'zod';

/** Documentation of a route whose file does not declare its own contract (see EXTERNAL_ROUTE_DOCS). */
export interface RouteDocs {
  summary: string;
  description?: string;
  tags: string[];
  body?: z.ZodType;
  querystring?: z.ZodType;
  params?: z.ZodType;
  response?: Record<number, z.ZodType>;
}

export const EXTERNAL_ROUTE_DOCS: Partial<Record<string, RouteDocs>> = {};
