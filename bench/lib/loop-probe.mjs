/**
 * Loaded into a server the benchmarks start (`NODE_OPTIONS=--import <this file>`): measures its
 * event loop's delay with monitorEventLoopDelay and, every SAMPLE_MS, appends the worst delay of
 * the interval and the process's RSS to BENCH_LOOP_DIR/<pid>.jsonl, so that a benchmark reads the
 * loop of the process it measures (npm and the build, which NODE_OPTIONS reaches too, write files
 * of their own). Plain JavaScript: Node loads it before anything is compiled. Threads are skipped.
 */
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

const SAMPLE_MS = 100;
const dir = process.env.BENCH_LOOP_DIR;

if (dir && isMainThread) {
  const file = path.join(dir, `${process.pid}.jsonl`);
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const timer = setInterval(() => {
    const line = { t: Date.now(), maxMs: histogram.max / 1e6, rss: process.memoryUsage.rss() };
    histogram.reset();
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  }, SAMPLE_MS);
  timer.unref();
}
