import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { DEFAULT_HEADERS, errorBody } from './errors.js';
import { HTTP_ERRORS, type HttpErrorCode } from './http.errors.js';

/**
 * What a request Node's HTTP parser refuses before any route sees it is answered with: a request
 * line and headers over Node's 16 KiB (a URL that long, most often: 431), one that takes too long
 * to arrive (408), and any other malformed request (400).
 */
function refusalOf(code: string | undefined): [HttpErrorCode, message: string] {
  if (code === 'HPE_HEADER_OVERFLOW')
    return [
      HTTP_ERRORS.headers_too_large,
      'The request line and headers are too large (at most 16 KiB in all): shorten the URL, or send the data in a JSON body',
    ];
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return [HTTP_ERRORS.request_timeout, 'The request took too long to arrive'];
  return [HTTP_ERRORS.malformed_request, 'Malformed HTTP request'];
}

/**
 * Fastify's clientErrorHandler: the refusal in the error envelope every other answer uses, rather
 * than Fastify's own `{error, message, statusCode}`. Written on the socket as Fastify's default
 * does (no request exists yet, so no request id), which is then closed.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection is gone: nothing to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [refusal, message] = refusalOf(error.code);
  const status = refusal.status;
  const body = JSON.stringify(errorBody(refusal.code, [message]));
  const headers = Object.entries({
    ...DEFAULT_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  if (socket.writable) socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${headers}\r\n${body}`);
  socket.destroy(error);
}
