import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { FileRefused } from './file-refused.js';

export { FileRefused };

/**
 * Threads that parse uploaded files (decision 134): an import's CSV is read in a thread as its
 * bytes arrive, so that a 20 MiB file neither stops the event loop nor is held whole in memory.
 * A parser is a module loaded in the thread by URL, exporting `startParse(options)`; it answers a
 * plain result, which crosses back by structured clone (keep it compact: arrays and typed arrays
 * rather than thousands of small objects). A whole file it refuses (`FileRefused`) rejects the
 * parse with that error; anything else it throws rejects with an Error (a bug: a 500).
 */

/** What a parser module exports. */
export interface ParserModule<O, R> {
  startParse(options: O): StreamParser<R>;
}

/** A parser takes the text piece by piece, then answers its result. */
export interface StreamParser<R> {
  push(text: string): void;
  end(): R;
}

export type ThreadTask =
  | { type: 'start'; id: number; module: string; options: unknown }
  | { type: 'chunk'; id: number; data: Uint8Array | string }
  | { type: 'end'; id: number };

export type ThreadReply =
  | { type: 'ack'; id: number }
  | { type: 'done'; id: number; result: unknown }
  | { type: 'failed'; id: number; refused: boolean; message: string; stack?: string };

export interface ParsePool {
  /** Parses `input` in a thread with the parser module at `module`; a string is sent in pieces too. */
  parse<R>(module: URL, options: unknown, input: AsyncIterable<Uint8Array> | string): Promise<R>;
  /** Ends the threads (a parse under way fails). */
  close(): Promise<void>;
}

/** Pieces of a file sent ahead of the thread's acknowledgements: enough to keep it busy, few enough to hold little. */
const IN_FLIGHT = 4;
/** A string input is sent in pieces of this many characters, as a stream's would arrive. */
const TEXT_PIECE = 64 * 1024;

/**
 * The module a thread can run for `url`. The server runs dist/ (JavaScript); the tests and tools
 * run src/ (TypeScript), and the thread then runs the same module from dist/, which every test run
 * builds first (test/build-global-setup.ts), or, where there is none, the source through tsx.
 */
export function runnable(url: URL): URL {
  const file = fileURLToPath(url);
  if (file.endsWith('.js') && existsSync(file)) return url;
  const compiled = file.replace(/([/\\])src([/\\])(?!.*[/\\]src[/\\])/, '$1dist$2').replace(/\.ts$/, '.js');
  if (existsSync(compiled)) return pathToFileURL(compiled);
  const source = file.replace(/\.js$/, '.ts');
  return existsSync(source) ? pathToFileURL(source) : url;
}

interface Thread {
  worker: Worker;
  busy: boolean;
  /** Hears this thread's replies for the task it runs. */
  listener: ((reply: ThreadReply) => void) | null;
}

export function createParsePool({ size }: { size: number }): ParsePool {
  const threads: Thread[] = [];
  const waiting: ((thread: Thread) => void)[] = [];
  let nextId = 1;
  let closed = false;

  function start(): Thread {
    const worker = new Worker(runnable(new URL('./parse-thread.js', import.meta.url)));
    const thread: Thread = { worker, busy: false, listener: null };
    worker.on('message', (reply: ThreadReply) => thread.listener?.(reply));
    const lost = (error: Error) => {
      const at = threads.indexOf(thread);
      if (at >= 0) threads.splice(at, 1);
      thread.listener?.({ type: 'failed', id: -1, refused: false, message: error.message, stack: error.stack });
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`the parse thread exited with ${code}`)));
    threads.push(thread);
    return thread;
  }

  function take(): Promise<Thread> {
    if (closed) return Promise.reject(new Error('the parse threads are closed'));
    const idle = threads.find((thread) => !thread.busy) ?? (threads.length < size ? start() : undefined);
    if (idle) {
      idle.busy = true;
      idle.worker.ref();
      return Promise.resolve(idle);
    }
    return new Promise((resolve) => waiting.push(resolve));
  }

  function give(thread: Thread) {
    thread.listener = null;
    if (!threads.includes(thread)) return;
    const next = waiting.shift();
    if (next) next(thread);
    else {
      thread.busy = false;
      // An idle thread does not keep the process alive.
      thread.worker.unref();
    }
  }

  async function* pieces(input: AsyncIterable<Uint8Array> | string): AsyncIterable<Uint8Array | string> {
    if (typeof input !== 'string') {
      yield* input;
      return;
    }
    for (let at = 0; at < input.length; at += TEXT_PIECE) yield input.slice(at, at + TEXT_PIECE);
  }

  async function parse<R>(module: URL, options: unknown, input: AsyncIterable<Uint8Array> | string): Promise<R> {
    const thread = await take();
    const id = nextId++;
    let outcome: { result: R } | { error: Error } | undefined;
    let inFlight = 0;
    let wake: (() => void) | null = null;
    const settled = new Promise<void>((resolve) => {
      thread.listener = (reply) => {
        if (reply.id !== id && reply.id !== -1) return;
        if (reply.type === 'ack') inFlight--;
        else if (reply.type === 'done') outcome ??= { result: reply.result as R };
        else {
          const error = reply.refused ? new FileRefused(reply.message) : new Error(reply.message);
          if (!reply.refused && reply.stack) error.stack = reply.stack;
          outcome ??= { error };
        }
        wake?.();
        if (outcome) resolve();
      };
    });
    const send = (message: ThreadTask) => thread.worker.postMessage(message);
    try {
      send({ type: 'start', id, module: runnable(module).href, options });
      for await (const piece of pieces(input)) {
        // Once the parser has refused the file, the rest is read and dropped: the upload must end
        // before it is answered.
        if (outcome) continue;
        while (inFlight >= IN_FLIGHT && !outcome) await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
        if (outcome) continue;
        inFlight++;
        // A copy: a stream's chunk may be a view of a buffer it reuses.
        send({ type: 'chunk', id, data: typeof piece === 'string' ? piece : new Uint8Array(piece) });
      }
      if (!outcome) send({ type: 'end', id });
      await settled;
    } finally {
      give(thread);
    }
    if ('error' in outcome!) throw outcome.error;
    return outcome!.result;
  }

  return {
    parse,
    async close() {
      closed = true;
      await Promise.all(threads.splice(0).map((thread) => thread.worker.terminate()));
    },
  };
}
