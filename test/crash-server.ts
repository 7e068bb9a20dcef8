/**
 * The real server (src/main.ts) for the crash test, with one change: every answer leaves the
 * process ANSWER_DELAY_MS after it is ready, as over a slow network. An idempotent answer is ready
 * only once its transaction has committed, so a kill in that gap leaves bookings that committed
 * but were never acknowledged: the case a retry must replay rather than refuse or book again.
 */
import http from 'node:http';

const ANSWER_DELAY_MS = 30;

const end = http.ServerResponse.prototype.end;
http.ServerResponse.prototype.end = function delayedEnd(this: http.ServerResponse, ...args: unknown[]) {
  setTimeout(() => (end as (...a: unknown[]) => void).apply(this, args), ANSWER_DELAY_MS);
  return this;
} as typeof end;

await import('../src/main.js');
