import type { FastifyRequest } from 'fastify';
import type { FieldError } from '../domain/errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route that takes a file by multipart: its field and largest size, named when a file is over it. */
    upload?: { field: string; maxBytes: number };
  }
}

/** What the multipart parser throws when a file passes the route's limit, mid-stream. */
export const FILE_TOO_LARGE = 'FST_REQ_FILE_TOO_LARGE';
/** What it throws at a second file part: every route that takes a file takes one. */
export const TOO_MANY_FILES = 'FST_FILES_LIMIT';

const size = (bytes: number) =>
  bytes % (1024 * 1024) === 0 ? `${bytes / 1024 / 1024} MiB (${bytes} bytes)` : `${bytes} bytes`;

/** The words of the 422 for a file over its route's limit: the route's field and limit, where it names them. */
export function fileTooLarge(request: FastifyRequest): { message: string; details?: FieldError[] } {
  const upload = request.routeOptions.config.upload;
  if (!upload) return { message: 'The uploaded file is too large' };
  const message = `${upload.field} must be at most ${size(upload.maxBytes)}`;
  return { message, details: [{ field: upload.field, message }] };
}

/** The words of the 400 for a second file part: the route's own field, where it names one. */
export function tooManyFiles(request: FastifyRequest): { message: string; details?: FieldError[] } {
  const upload = request.routeOptions.config.upload;
  if (!upload) return { message: 'Only one file may be sent' };
  const message = `Only one file (${upload.field}) may be sent`;
  return { message, details: [{ field: upload.field, message }] };
}
