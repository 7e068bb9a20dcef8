import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../http/permission-guard.js';
import { answer } from '../../http/answer.js';
import { errorResponses } from '../../http/errors.js';
import {
  AdminKeptScansQuery,
  AdminKeptScansResponse,
  KeptScansResponse,
  ListKeptScansQuery,
  ReplayQuery,
  ReplayResponse,
} from './kept-scans.schemas.js';
import type { KeptScans } from './kept-scans.service.js';

const ABOUT =
  'Scans couriers sent that Dakiya could not apply: a code no table reads (unread), a move the status machine does not ' +
  'take where the parcel is (not_applied), a time further before the booking than SCAN_EARLY_TOLERANCE_SECONDS ' +
  '(before_booking), an AWB no parcel has (unknown_awb), or a pushed event the intake refused (refused). Each is kept ' +
  'as the courier sent it, with the reason; a replay reads them again through the current tables (docs/couriers.md).';

/** The account's kept scans, and their replay. */
export function keptScansRoutes(kept: KeptScans): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/kept-scans',
      {
        schema: {
          tags: ['Tracking'],
          summary: "List the courier scans kept unapplied for the account's parcels, oldest first",
          description: `${ABOUT} Page with \`after\` (meta.next_after).`,
          querystring: ListKeptScansQuery,
          response: {
            200: answer(KeptScansResponse, "The account's kept scans after `after`."),
            ...errorResponses(400, 401),
          },
        },
      },
      async (request) => kept.list(request.accountId, request.query),
    );

    app.post(
      '/kept-scans/replay',
      {
        schema: {
          tags: ['Tracking'],
          summary: "Read the account's open kept scans again through the current tables",
          description:
            'Each open kept scan is read again as its courier sent it and applied where it can be now (after an upgrade ' +
            'fixed a scan table, or a booking made its AWB known); the others stay kept with what the replay found. ' +
            'Up to 5,000 a call: send next_after as the query’s `after` to go on.',
          querystring: ReplayQuery,
          response: {
            200: answer(ReplayResponse, 'What the replay read, applied and left kept.'),
            ...errorResponses(400, 401),
          },
        },
      },
      async (request) => kept.replay(actorOf(request), request.query.after),
    );
  };
}

/** The operator's view: every account's kept scans and those of AWBs no parcel has. */
export function keptScansAdminRoutes(kept: KeptScans): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/kept-scans',
      {
        schema: {
          tags: ['Operator'],
          summary: 'List the courier scans kept unapplied, over every account',
          description: `${ABOUT} meta.open counts every open one by connector and reason.`,
          security: [{ adminToken: [] }],
          querystring: AdminKeptScansQuery,
          response: {
            200: answer(AdminKeptScansResponse, 'Kept scans after `after`, and the open ones counted.'),
            ...errorResponses(400, 401),
          },
        },
      },
      async (request) => kept.listAll(request.query),
    );

    app.post(
      '/kept-scans/replay',
      {
        schema: {
          tags: ['Operator'],
          summary: 'Read every open kept scan again through the current tables',
          description:
            'As the account route, over every account, and for AWBs that were unknown when their scans came (a parcel ' +
            'booked since). `npm run cli -- scans replay` does the same from the shell.',
          security: [{ adminToken: [] }],
          querystring: ReplayQuery,
          response: {
            200: answer(ReplayResponse, 'What the replay read, applied and left kept.'),
            ...errorResponses(400, 401),
          },
        },
      },
      async (request) => kept.replay(undefined, request.query.after),
    );
  };
}
