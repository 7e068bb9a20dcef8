import type { Static } from 'typebox';
import type { Db } from '../../base/db/client.js';
import { cursorUnknown } from '../../domain/paging.errors.js';
import { arrayFilter } from '../shipments/shipments.service.js';
import { TEST_EVENT_TYPE } from '../../domain/shipment/event-types.js';
import { findEventPosition, findSettledEvents, type StoredEvent } from '../../events/events.repository.js';
import type { ListEventsQuery } from '../../events/events.schemas.js';

const DEFAULT_LIMIT = 50;

/** An event as it is listed and delivered: the same fields, in the same order. */
export const eventView = (event: StoredEvent) => ({
  id: event.id,
  type: event.type,
  created_at: event.createdAt.toISOString(),
  sequence: event.sequence,
  data: event.data,
});

export type EventsService = ReturnType<typeof createEventsService>;

export function createEventsService({ db }: { db: Db }) {
  return {
    /** `GET /events`: oldest first, after a cursor; only events no earlier one can still join (events.repository.ts). */
    async list(accountId: string, query: Static<typeof ListEventsQuery>) {
      const limit = query.limit === undefined ? DEFAULT_LIMIT : Number(query.limit);
      const after = query.after === undefined ? undefined : await findEventPosition(db, accountId, query.after);
      if (query.after !== undefined && !after)
        throw cursorUnknown('after must be the id of one of your events', 'after');
      const rows = await findSettledEvents(db, {
        accountId,
        ...(after && { after }),
        ...(arrayFilter(query, 'type') && { types: arrayFilter(query, 'type') }),
        excludeTypes: [TEST_EVENT_TYPE],
        limit: limit + 1,
      });
      const page = rows.slice(0, limit);
      return {
        data: page.map(eventView),
        meta: { next_after: page.at(-1)?.id ?? query.after ?? null, has_more: rows.length > limit },
      };
    },
  };
}
