import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import { type OutboundRules, refusalOf } from '../../base/outbound/outbound-url.js';
import { type SecretBox, SecretBoxError } from '../../base/secret-box.js';
import type { Actor } from '../../domain/access/permissions.js';
import { outboundUrlRefused } from '../../domain/outbound.errors.js';
import { gstinProblems } from '../../domain/paperwork/gstin.js';
import { auditRecorder } from '../../tenancy/audit/audit.js';
import type { GatewayCredentials } from './eway-bill-gateway.js';
import * as repo from './eway-bill.repository.js';
import { PAPERWORK_ERRORS } from './paperwork.errors.js';

/** What PUT /paperwork-settings/eway-bill-gateway takes (the schema checks each field's form). */
export interface GatewayInput {
  base_url: string;
  gstin: string;
  email: string;
  client_id: string;
  client_secret: string;
  username: string;
  password: string;
}

/** The sealed part: what opens the GSP's door, never answered. */
interface Sealed {
  client_id: string;
  client_secret: string;
  username: string;
  password: string;
}

/** An identifier's last four characters, so a merchant can tell which is set; a secret, nothing. */
const maskId = (value: string) => (value.length > 6 ? `****${value.slice(-4)}` : '****');
const MASKED_SECRET = '********';

export type GatewayView =
  | { configured: false }
  | {
      configured: true;
      base_url: string;
      gstin: string;
      email: string;
      client_id: string;
      client_secret: string;
      username: string;
      password: string;
      updated_at: string;
    };

/**
 * An account's e-way bill gateway (docs/paperwork.md, "Generation through a GSP"): its GSP's base
 * URL, GSTIN and e-mail in clear, its client id and secret and e-way bill user's name and password
 * sealed with the secret box; answered masked. Without it, generation is off.
 */
export function createGatewaySettings({
  db,
  clock,
  box,
  outbound,
}: {
  db: Db;
  clock: Clock;
  box: SecretBox;
  outbound: OutboundRules;
}) {
  const record = auditRecorder(clock);

  function open(row: repo.GatewayRow): GatewayCredentials {
    let sealed: Sealed;
    try {
      sealed = JSON.parse(box.open(row.sealed)) as Sealed;
    } catch (error) {
      if (!(error instanceof SecretBoxError)) throw error;
      throw PAPERWORK_ERRORS.eway_bill_gateway_missing.error(
        `Your e-way bill gateway's credentials cannot be read (${error.message}): set them again with PUT /paperwork-settings/eway-bill-gateway`,
      );
    }
    return {
      baseUrl: row.baseUrl,
      gstin: row.gstin,
      email: row.email,
      clientId: sealed.client_id,
      clientSecret: sealed.client_secret,
      username: sealed.username,
      password: sealed.password,
    };
  }

  function view(row: repo.GatewayRow | undefined): GatewayView {
    if (!row) return { configured: false };
    const credentials = open(row);
    return {
      configured: true,
      base_url: row.baseUrl,
      gstin: row.gstin,
      email: row.email,
      client_id: maskId(credentials.clientId),
      client_secret: MASKED_SECRET,
      username: maskId(credentials.username),
      password: MASKED_SECRET,
      updated_at: row.updatedAt.toISOString(),
    };
  }

  return {
    /** The account's opened credentials, or undefined when it has set none (generation is off). */
    async credentialsOf(accountId: string): Promise<GatewayCredentials | undefined> {
      const row = await repo.findGateway(db, accountId);
      return row && open(row);
    },

    async read(accountId: string): Promise<GatewayView> {
      return view(await repo.findGateway(db, accountId));
    },

    async set(actor: Actor, input: GatewayInput): Promise<GatewayView> {
      const gstin = input.gstin.toUpperCase();
      const problems: { field: string; message: string }[] = [];
      // Judged by the outbound guard now, and again before every call (a host's addresses may change).
      const url = await refusalOf(input.base_url.trim(), outbound, 'base_url');
      if (url) throw outboundUrlRefused('base_url', url);
      const wrong = gstinProblems(gstin);
      if (wrong.length > 0)
        problems.push({ field: 'gstin', message: `gstin ${gstin} is not a valid GSTIN: ${wrong.join('; ')}` });
      if (problems.length > 0)
        throw PAPERWORK_ERRORS.eway_bill_gateway_invalid.error(
          problems.map((p) => p.message),
          problems,
        );
      const sealed: Sealed = {
        client_id: input.client_id.trim(),
        client_secret: input.client_secret,
        username: input.username.trim(),
        password: input.password,
      };
      const updatedAt = clock.now();
      const row = {
        baseUrl: input.base_url.trim(),
        gstin,
        email: input.email.trim(),
        sealed: box.seal(JSON.stringify(sealed)),
        updatedAt,
      };
      await db.transaction(async (tx) => {
        await repo.saveGateway(tx, actor.accountId, row);
        // What was set, never the credentials.
        await record(tx, actor, {
          action: 'eway_bill_gateway.set',
          objectType: 'paperwork_settings',
          objectId: null,
          changes: { base_url: row.baseUrl, gstin, email: row.email },
        });
      });
      return view({ accountId: actor.accountId, ...row });
    },

    /** Turns generation off: the credentials are forgotten. */
    async remove(actor: Actor): Promise<GatewayView> {
      await db.transaction(async (tx) => {
        const removed = await repo.deleteGateway(tx, actor.accountId);
        // Audited even when there was none: the request was made, and said generation must be off.
        await record(tx, actor, {
          action: 'eway_bill_gateway.removed',
          objectType: 'paperwork_settings',
          objectId: null,
          changes: { removed },
        });
      });
      return { configured: false };
    },
  };
}

export type GatewaySettings = ReturnType<typeof createGatewaySettings>;
