/**
 * The real server (src/main.ts, as compiled to dist/ by test/build-global-setup.ts, the build
 * `npm start` runs) for the crash test, with one change: every answer leaves the process
 * ANSWER_DELAY_MS after it is ready, as over a slow network. An idempotent answer is ready only
 * once its transaction has committed, so a kill in that gap leaves bookings that committed but
 * were never acknowledged: the case a retry must replay rather than refuse or book again. Plain
 * JavaScript, so that Node runs it without compiling anything on each of the test's starts.
 */
import http from 'node:http';

const ANSWER_DELAY_MS = 30;

const end = http.ServerResponse.prototype.end;
http.ServerResponse.prototype.end = function delayedEnd(...args) {
  setTimeout(() => end.apply(this, args), ANSWER_DELAY_MS);
  return this;
};

await import('../dist/main.js');
