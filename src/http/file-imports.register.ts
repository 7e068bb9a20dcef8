import type { Clock } from '../base/clock.js';
import type { Db } from '../base/db/client.js';
import { createImportSlots } from '../base/db/import-slots.js';
import { createParsePool } from '../base/threads/parse-pool.js';
import { createFileImports, type FileImports, IMPORTS_AT_ONCE } from './file-imports.js';
import type { Host } from './host.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The routes' file imports: tests wait on `reading(accountId)` to send a second import while one runs. */
    fileImports: FileImports;
  }
}

/** The parse threads and the accounts' import slots the routes that take files share; the threads end with the app. */
export function registerFileImports(host: Host, { db, clock }: { db: Db; clock: Clock }): FileImports {
  const pool = createParsePool({ size: IMPORTS_AT_ONCE });
  host.onClose(() => pool.close());
  const imports = createFileImports({ db, slots: createImportSlots(db), pool, clock });
  host.expose('fileImports', imports);
  return imports;
}
