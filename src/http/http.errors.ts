import type { DeclaredCode } from '../domain/errors.js';

/** A problem of the request itself, which the HTTP kit answers before any module sees it. */
export interface HttpErrorCode {
  code: DeclaredCode;
  status: number;
  description: string;
}

function httpErrorCodes<const T extends Record<string, readonly [number, string]>>(
  entries: T,
): { readonly [K in keyof T]: HttpErrorCode } {
  return Object.fromEntries(
    Object.entries(entries).map(([code, [status, description]]) => [
      code,
      { code: code as DeclaredCode, status, description },
    ]),
  ) as { readonly [K in keyof T]: HttpErrorCode };
}

/** The HTTP kit's own codes: malformed requests, unknown routes, and the server's own failures. */
export const HTTP_ERRORS = httpErrorCodes({
  malformed_json: [400, 'The body is not JSON.'],
  malformed_multipart: [400, 'The multipart/form-data body cannot be parsed.'],
  malformed_url: [400, 'The URL cannot be decoded (invalid percent-encoding).'],
  malformed_request: [400, "Node's HTTP parser refused the request."],
  content_length_mismatch: [400, 'Content-Length does not match the body.'],
  too_many_files: [400, 'More than one file part where the route takes one (named in `details`).'],
  route_not_found: [404, 'No route has this path.'],
  method_not_allowed: [405, 'The path exists, not with this method; `Allow` lists its methods.'],
  request_timeout: [408, 'The request took too long to arrive.'],
  body_too_large: [413, 'The body, or its parts or fields, is larger than the route takes.'],
  uri_too_long: [414, 'A path parameter is longer than 100 characters.'],
  unsupported_media_type: [415, 'Send application/json, or multipart/form-data where a file is taken.'],
  file_too_large: [422, 'An uploaded file is larger than the route takes (named in `details`).'],
  headers_too_large: [431, 'The request line and headers are over 16 KiB.'],
  internal_error: [500, 'A fault of the server: logged with the request id, never with your data.'],
  database_unavailable: [503, 'The database is not answering; `Retry-After` says when to try again.'],
  disk_full: [503, "The database's disk is full: nothing was written; `Retry-After` says when to try again."],
});
