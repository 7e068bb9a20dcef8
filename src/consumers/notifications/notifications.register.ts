import type { Db } from '../../base/db/client.js';
import type { MailSettings } from '../../base/mailer.settings.js';
import type { Delivery } from '../../events/delivery.js';
import type { WorkerSettings } from '../../events/workers.settings.js';
import type { Host } from '../../http/host.js';
import type { ServerSettings } from '../../http/server.settings.js';
import { notificationsRoutes } from './notifications.routes.js';
import { createNotificationsService } from './notifications.service.js';
import type { NotificationSettings } from './notifications.settings.js';
import { notificationTasks } from './notifications.worker.js';

export interface NotificationsContext {
  db: Db;
  delivery: Delivery;
  settings: {
    server: ServerSettings;
    mail: MailSettings;
    notifications: NotificationSettings;
    workers: WorkerSettings;
  };
}

/**
 * Customer e-mails: the routes that list them (where HTTP is served), and the senders (where the
 * delivery runs here) that turn events into e-mail jobs and send them.
 */
export function registerNotifications(host: Host, { db, delivery, settings }: NotificationsContext) {
  delivery.run(
    'notifications',
    () =>
      notificationTasks(
        delivery.db,
        { ...settings.mail, ...settings.notifications, leaseMarginMs: settings.workers.leaseMarginMs },
        settings.server.publicBaseUrl,
      ),
    { batched: true, failed: 'notification worker task failed' },
  );
  host.routes?.add('account', notificationsRoutes(createNotificationsService({ db })));
}
