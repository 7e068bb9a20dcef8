import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../base/clock.js';
import type { Db } from '../base/db/client.js';
import { ImportBusy, type ImportSlot, type ImportSlots, type RunningImport } from '../base/db/import-slots.js';
import { queryRows } from '../base/db/client.js';
import { FileRefused, type ParsePool } from '../base/threads/parse-pool.js';
import { echo } from '../domain/import-problems.js';
import type { DomainError } from '../domain/errors.js';
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import { GUARD_ERRORS } from './guards.errors.js';

/**
 * The routes that take a file to import (a remittance file, a weight report), by multipart or as
 * JSON text (decision 134). A multipart file streams to its parser in a thread as it arrives
 * (parse-pool.ts), never held whole; JSON's text, already read, goes there in pieces. Each import
 * holds its account's slot (import-slots.ts) from before its first byte is read until its
 * transaction ends: a second import of the account is answered 409 at once, naming the first.
 * At most IMPORTS_AT_ONCE imports of different accounts run in a process; more wait their turn
 * before their upload is read, holding no connection.
 */

/** Imports a process runs at once: each holds a parse thread and a database connection. */
export const IMPORTS_AT_ONCE = 2;

export interface FileImportSpec<O> {
  /** What the file is, in the words of the 409 another import gets ("remittance file"). */
  kind: string;
  /** The multipart field, and the largest file it takes. */
  field: string;
  maxBytes: number;
  /** The parser module a thread loads (parse-pool.ts). */
  parser: URL;
  /** The parser's options for a file taken now. */
  options: (now: Date) => O;
  /** The answer to a file its parser refuses whole. */
  refused: (message: string) => DomainError;
}

/** A file parsed under its account's slot: the caller applies it on `slot.db`, then releases the slot. */
export interface TakenFile<R> {
  slot: ImportSlot;
  parsed: R;
  fileName: string | null;
}

/** The 409 of an import route, for its OpenAPI responses. */
export const IMPORT_RUNNING = Type.Ref('ErrorBody', {
  description:
    'Another import of this account (a remittance file or a weight report) is running: the message names it (kind, file ' +
    'name, import id, start). An account imports one file at a time; nothing of this request was read or applied.',
});

/** A multipart upload read by the route's preValidation hook, waiting for its handler. */
interface Upload {
  slot: ImportSlot;
  outcome: { parsed: unknown } | { error: unknown };
  fileName: string | null;
  /** Set by the handler: from then on it releases the slot; before, the request's end does. */
  handled: boolean;
}

const uploads = new WeakMap<FastifyRequest, Upload>();

/** A placeholder for the body's `file` once a multipart file has been streamed away: the schema sees a file was sent. */
const STREAMED = '(streamed to its parser)';

function busyAnswer(running: RunningImport | null): DomainError {
  const what = running
    ? `the ${running.kind}${running.fileName ? ` "${running.fileName}"` : ''} (import ${running.id}), started ${running.startedAt.toISOString()}`
    : 'one that is still starting';
  return GUARD_ERRORS.import_in_progress.error([
    `Another import of this account is running: ${what}. An account imports one file at a time: send this one again once it has finished`,
  ]);
}

/** A queue of `size` places: an import waits here, before its upload is read, for one to free up. */
function places(size: number) {
  let free = size;
  const waiting: (() => void)[] = [];
  return {
    async enter() {
      if (free > 0) free--;
      else await new Promise<void>((resolve) => waiting.push(resolve));
    },
    leave() {
      const next = waiting.shift();
      if (next) next();
      else free++;
    },
  };
}

export type FileImports = ReturnType<typeof createFileImports>;

export function createFileImports({
  db,
  slots,
  pool,
  clock,
}: {
  db: Db;
  slots: ImportSlots;
  pool: ParsePool;
  clock: Clock;
}) {
  const gate = places(IMPORTS_AT_ONCE);
  const reading = new Map<string, ((running: RunningImport) => void)[]>();

  /** The account's slot, and a place in this process: a 409 at once when the account already imports here. */
  async function take(accountId: string, kind: string, fileName: string | null): Promise<ImportSlot> {
    const here = slots.running(accountId);
    if (here) throw busyAnswer(here);
    await gate.enter();
    try {
      const slot = await slots.take(accountId, kind, fileName, clock.now());
      let released: Promise<void> | undefined;
      return {
        running: slot.running,
        db: slot.db,
        release: () => (released ??= slot.release().finally(() => gate.leave())),
      };
    } catch (error) {
      gate.leave();
      if (error instanceof ImportBusy) throw busyAnswer(error.running);
      throw error;
    }
  }

  async function parse<O, R>(
    spec: FileImportSpec<O>,
    accountId: string,
    slot: ImportSlot,
    input: AsyncIterable<Uint8Array> | string,
  ) {
    for (const wake of reading.get(accountId)?.splice(0) ?? []) wake(slot.running);
    try {
      return await pool.parse<R>(spec.parser, spec.options(slot.running.startedAt), input);
    } catch (error) {
      if (error instanceof FileRefused) throw spec.refused(error.message);
      throw error;
    }
  }

  /** The file's name, once known, for the 409 another process's import gets. */
  async function nameFile(accountId: string, slot: ImportSlot, fileName: string) {
    (slot.running as { fileName: string | null }).fileName = fileName;
    await queryRows(
      db,
      sql`update running_imports set file_name = ${fileName} where account_id = ${accountId} and id = ${slot.running.id}`,
    );
  }

  return {
    /**
     * What a route taking one file needs: `preValidation` streams a multipart file to its parser
     * under the account's slot (the body then holds the other fields, and `file` stands for the
     * file), and `take` answers the parsed file in the handler, parsing JSON's text there.
     */
    forRoute<O, R>(
      spec: FileImportSpec<O>,
      accountOf: (request: FastifyRequest) => string,
      /** What must hold of the account before its slot is taken (the operator's routes: that it exists). */
      check?: (accountId: string) => Promise<void>,
    ) {
      return {
        async preValidation(request: FastifyRequest, reply: FastifyReply) {
          if (!request.isMultipart()) return;
          const accountId = accountOf(request);
          await check?.(accountId);
          const slot = await take(accountId, spec.kind, null);
          const upload: Upload = { slot, outcome: { error: new Error('no file') }, fileName: null, handled: false };
          uploads.set(request, upload);
          // A client gone before the handler runs frees the slot (a refusal does, in onError, before it is answered).
          reply.raw.once('close', () => {
            if (!upload.handled) void slot.release();
          });
          const body: Record<string, string> = {};
          try {
            const limits = { fileSize: spec.maxBytes, files: 1, fields: 4, fieldSize: 1024, parts: 6 };
            for await (const part of request.parts({ limits })) {
              if (part.type === 'field') {
                body[part.fieldname] = String(part.value);
                continue;
              }
              if (part.fieldname !== spec.field) {
                part.file.resume();
                continue;
              }
              upload.fileName = part.filename ? echo(part.filename) : null;
              if (upload.fileName) await nameFile(accountId, slot, upload.fileName);
              let bytes = 0;
              const counted = (async function* () {
                for await (const chunk of part.file as AsyncIterable<Buffer>) {
                  bytes += chunk.length;
                  yield chunk;
                }
              })();
              try {
                upload.outcome = { parsed: await parse<O, R>(spec, accountId, slot, counted) };
              } catch (error) {
                // Over the size limit: the upload stopped there; answered as the error handler words it.
                if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw error;
                upload.outcome = { error };
              }
              // An empty file part is no file: the schema names `file`.
              body[spec.field] = bytes > 0 ? STREAMED : '';
            }
          } catch (error) {
            await slot.release();
            throw error;
          }
          request.body = body;
          if ('error' in upload.outcome && body[spec.field]) {
            await slot.release();
            throw upload.outcome.error;
          }
        },

        /** A refusal before the handler (the schema's, say) frees the slot before it is answered. */
        async onError(request: FastifyRequest) {
          const upload = uploads.get(request);
          if (upload && !upload.handled) await upload.slot.release();
        },

        /** The parsed file under the account's slot (JSON: parsed now). The caller releases the slot. */
        async take(request: FastifyRequest, json: { text: string; fileName: string | null }): Promise<TakenFile<R>> {
          const upload = uploads.get(request);
          if (upload) {
            upload.handled = true;
            if ('error' in upload.outcome) {
              await upload.slot.release();
              throw upload.outcome.error;
            }
            return {
              slot: upload.slot,
              parsed: upload.outcome.parsed as R,
              fileName: json.fileName ?? upload.fileName,
            };
          }
          const accountId = accountOf(request);
          await check?.(accountId);
          const slot = await take(accountId, spec.kind, json.fileName);
          try {
            return { slot, parsed: await parse<O, R>(spec, accountId, slot, json.text), fileName: json.fileName };
          } catch (error) {
            await slot.release();
            throw error;
          }
        },
      };
    },

    /**
     * Resolves once an import of the account, holding its slot in this process, reads its file
     * (its name known): tests hold an upload open there and send another.
     */
    reading(accountId: string): Promise<RunningImport> {
      return new Promise((resolve) => reading.set(accountId, [...(reading.get(accountId) ?? []), resolve]));
    },
  };
}
