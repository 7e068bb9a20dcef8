import { TextDecoder } from 'node:util';
import { parentPort } from 'node:worker_threads';
import type { ParserModule, StreamParser, ThreadReply, ThreadTask } from './parse-pool.js';

/**
 * A parse thread (parse-pool.ts): takes one file at a time, its parser loaded by URL, its bytes
 * as they arrive, decoded as UTF-8 across chunk boundaries. Every message is handled in order.
 */

const modules = new Map<string, Promise<ParserModule<unknown, unknown>>>();
let typescript: Promise<void> | undefined;

/** The module at `url`; a TypeScript source (a run without dist/) is compiled on the way by tsx. */
function load(url: string): Promise<ParserModule<unknown, unknown>> {
  let found = modules.get(url);
  if (!found) {
    if (url.endsWith('.ts') && !typescript) typescript = import('tsx/esm/api').then((tsx) => void tsx.register());
    const ready = url.endsWith('.ts') ? typescript! : Promise.resolve();
    found = ready.then(() => import(url) as Promise<ParserModule<unknown, unknown>>);
    modules.set(url, found);
  }
  return found;
}

interface Task {
  id: number;
  parser: StreamParser<unknown> | null;
  decoder: TextDecoder;
  failed: boolean;
}

function run(port: NonNullable<typeof parentPort>) {
  let task: Task | null = null;
  const reply = (message: ThreadReply) => port.postMessage(message);
  const fail = (current: Task, error: unknown) => {
    current.failed = true;
    const refused = error instanceof Error && error.name === 'FileRefused';
    reply({
      id: current.id,
      type: 'failed',
      refused,
      message: error instanceof Error ? error.message : String(error),
      stack: error instanceof Error ? error.stack : undefined,
    });
  };

  async function handle(message: ThreadTask) {
    if (message.type === 'start') {
      task = { id: message.id, parser: null, decoder: new TextDecoder('utf-8'), failed: false };
      const current = task;
      try {
        current.parser = (await load(message.module)).startParse(message.options);
      } catch (error) {
        fail(current, error);
      }
      return;
    }
    const current = task;
    if (!current || current.id !== message.id) return;
    if (message.type === 'chunk') {
      if (!current.failed) {
        try {
          const text =
            typeof message.data === 'string' ? message.data : current.decoder.decode(message.data, { stream: true });
          current.parser!.push(text);
        } catch (error) {
          fail(current, error);
        }
      }
      reply({ id: current.id, type: 'ack' });
      return;
    }
    // end
    task = null;
    if (current.failed) return;
    try {
      current.parser!.push(current.decoder.decode());
      reply({ id: current.id, type: 'done', result: current.parser!.end() });
    } catch (error) {
      fail(current, error);
    }
  }

  let chain = Promise.resolve();
  port.on('message', (message: ThreadTask) => {
    chain = chain.then(() => handle(message));
  });
}

if (parentPort) run(parentPort);
