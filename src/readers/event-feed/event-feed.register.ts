import type { Db } from '../../base/db/client.js';
import type { Host } from '../../http/host.js';
import { eventsRoutes } from './event-feed.routes.js';
import { createEventsService } from './event-feed.service.js';

/** GET /events: the account's event log. */
export function registerEventFeed(host: Host, { db }: { db: Db }) {
  host.routes?.add('account', eventsRoutes(createEventsService({ db })));
}
