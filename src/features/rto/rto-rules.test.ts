import { sql } from 'drizzle-orm';
import { asAccount } from '../../../test/kit/actors.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type UseCaseContext, useCaseContext } from '../../../test/kit/use-cases.js';
import { queryRows } from '../../base/db/client.js';
import { NDR_REASONS } from '../../domain/shipment/status-machine.js';
import { createRtoSettingsService, type RtoSettingsService } from './rto.service.js';
import type { RulesInput } from './rto.schemas.js';

// The RTO settings service's rules as functions over a real database (both engines): the risk
// thresholds' defaults and how they must fit, the NDR rule list's checks, and that each is replaced
// whole without touching the other. The routes' contract is rto-risk.once.test.ts's and ndr-rules.once.test.ts's.

let ctx: UseCaseContext;
let rto: RtoSettingsService;
beforeAll(async () => {
  ctx = await useCaseContext();
  // As rto.register.ts builds it.
  rto = createRtoSettingsService({ db: ctx.db, clock: ctx.clock });
  ctx.clock.set('2026-11-20T10:00:00.000Z');
});
afterAll(async () => {
  await ctx.close();
});

const DEFAULTS = { medium: 30, high: 60, high_value_cod: 3000, default: true };

async function settingsRow(accountId: string) {
  const [row] = await queryRows<{ thresholds: unknown; ndr_rules: unknown; updated_at: string }>(
    ctx.db,
    sql`select thresholds, ndr_rules, to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') as updated_at
        from rto_settings where account_id = ${accountId}`,
  );
  return row;
}

const account = async () => (await ctx.createAccount()).id;

describe('risk thresholds', () => {
  it('reads the defaults for an account that never set them, without writing a row', async () => {
    const id = await account();
    expect(await rto.thresholds(id)).toEqual(DEFAULTS);
    expect(await settingsRow(id)).toBeUndefined();
  });

  it.each([
    ['medium below high', { medium: 1, high: 2, high_value_cod: 0 }, null],
    ['the largest scores', { medium: 999, high: 1000, high_value_cod: 1_000_000 }, null],
    ['medium equal to high', { medium: 50, high: 50, high_value_cod: 3000 }, 'medium must be below high'],
    ['medium above high', { medium: 70, high: 60, high_value_cod: 3000 }, 'medium must be below high'],
  ])('%s', async (_name, input, refusal) => {
    const id = await account();
    if (refusal) {
      await expect(rto.setThresholds(asAccount(id), input)).rejects.toMatchObject({
        code: 'rto_thresholds_invalid',
        kind: 'unprocessable',
        messages: [refusal],
        details: [{ field: 'medium', message: refusal }],
      });
      expect(await settingsRow(id)).toBeUndefined();
      expect(await rto.thresholds(id)).toEqual(DEFAULTS);
      return;
    }
    const view = { ...input, default: false };
    expect(await rto.setThresholds(asAccount(id), input)).toEqual(view);
    expect(await rto.thresholds(id)).toEqual(view);
  });

  it('keeps the high-value amount in paise, to the paisa, and stamps the change with the clock', async () => {
    const id = await account();
    ctx.clock.set('2026-11-21T08:15:00.000Z');
    expect(await rto.setThresholds(asAccount(id), { medium: 25, high: 50, high_value_cod: 2499.99 })).toEqual({
      medium: 25,
      high: 50,
      high_value_cod: 2499.99,
      default: false,
    });
    expect(await settingsRow(id)).toEqual({
      thresholds: { medium: 25, high: 50, high_value_paise: 249999 },
      ndr_rules: [],
      updated_at: '2026-11-21T08:15:00.000',
    });
  });

  it("a refusal keeps the account's earlier thresholds; another account's are its own", async () => {
    const id = await account();
    const other = await account();
    await rto.setThresholds(asAccount(id), { medium: 10, high: 20, high_value_cod: 500 });
    await expect(rto.setThresholds(asAccount(id), { medium: 20, high: 10, high_value_cod: 500 })).rejects.toMatchObject(
      {
        code: 'rto_thresholds_invalid',
      },
    );
    expect(await rto.thresholds(id)).toEqual({ medium: 10, high: 20, high_value_cod: 500, default: false });
    expect(await rto.thresholds(other)).toEqual(DEFAULTS);
  });
});

type Rule = RulesInput['rules'][number];
const rule = (name: string, over: Partial<Rule> = {}): Rule => ({ name, when: {}, action: 'rto', ...over });
const REASONS = NDR_REASONS.join(', ');

describe('NDR rules', () => {
  it('starts with none, and keeps a list whole and in order', async () => {
    const id = await account();
    expect(await rto.rules(id)).toEqual({ rules: [] });
    const rules = [
      rule('Unavailable: once more', {
        when: { ndr_reasons: ['customer_unavailable'], attempt_max: 1 },
        action: 'reattempt',
      }),
      rule('Refused COD: ask', {
        when: { ndr_reasons: ['refused'], payment: 'cod' },
        action: 'message_buyer',
        rto_after_hours: 24,
      }),
      rule('Second NDR: RTO', { when: { attempt_min: 2, attempt_max: 2 } }),
    ];
    expect(await rto.setRules(asAccount(id), { rules })).toEqual({ rules });
    expect(await rto.rules(id)).toEqual({ rules });
    expect((await settingsRow(id))!.ndr_rules).toEqual(rules);
  });

  it.each<[string, Rule[], { field: string; message: string }[]]>([
    [
      'a name used twice',
      [rule('RTO'), rule('Other'), rule('RTO', { action: 'reattempt' })],
      [{ field: 'rules.2.name', message: "rule name 'RTO' is used twice" }],
    ],
    [
      'an unknown NDR reason, once per reason',
      [rule('A', { when: { ndr_reasons: ['refused', 'dog_bites', 'gone_fishing'] } })],
      [
        {
          field: 'rules.0.when.ndr_reasons',
          message: `ndr_reasons must each be one of ${REASONS}; 'dog_bites' is not`,
        },
        {
          field: 'rules.0.when.ndr_reasons',
          message: `ndr_reasons must each be one of ${REASONS}; 'gone_fishing' is not`,
        },
      ],
    ],
    [
      'attempt_min above attempt_max',
      [rule('A'), rule('B', { when: { attempt_min: 3, attempt_max: 2 } })],
      [{ field: 'rules.1.when.attempt_min', message: 'attempt_min must not be above attempt_max' }],
    ],
    [
      'rto_after_hours on an action other than message_buyer',
      [rule('A', { action: 'reattempt', rto_after_hours: 12 }), rule('B', { rto_after_hours: 1 })],
      [
        { field: 'rules.0.rto_after_hours', message: 'rto_after_hours belongs to the message_buyer action only' },
        { field: 'rules.1.rto_after_hours', message: 'rto_after_hours belongs to the message_buyer action only' },
      ],
    ],
    [
      'every problem of every rule together, in rule order',
      [
        rule('X', { when: { attempt_min: 5, attempt_max: 1 }, rto_after_hours: 2 }),
        rule('X', { when: { ndr_reasons: ['nope'] } }),
      ],
      [
        { field: 'rules.0.when.attempt_min', message: 'attempt_min must not be above attempt_max' },
        { field: 'rules.0.rto_after_hours', message: 'rto_after_hours belongs to the message_buyer action only' },
        { field: 'rules.1.name', message: "rule name 'X' is used twice" },
        { field: 'rules.1.when.ndr_reasons', message: `ndr_reasons must each be one of ${REASONS}; 'nope' is not` },
      ],
    ],
  ])('refuses %s, and keeps the earlier list', async (_name, rules, details) => {
    const id = await account();
    const earlier = [rule('Earlier')];
    await rto.setRules(asAccount(id), { rules: earlier });
    await expect(rto.setRules(asAccount(id), { rules })).rejects.toMatchObject({
      code: 'ndr_rules_invalid',
      kind: 'unprocessable',
      messages: details.map((d) => d.message),
      details,
    });
    expect(await rto.rules(id)).toEqual({ rules: earlier });
  });

  it('allows attempt_min equal to attempt_max, and message_buyer without a fallback', async () => {
    const id = await account();
    const rules = [rule('Third', { when: { attempt_min: 3, attempt_max: 3 }, action: 'message_buyer' })];
    expect(await rto.setRules(asAccount(id), { rules })).toEqual({ rules });
  });

  it('[] turns automation off', async () => {
    const id = await account();
    await rto.setRules(asAccount(id), { rules: [rule('A'), rule('B')] });
    expect(await rto.setRules(asAccount(id), { rules: [] })).toEqual({ rules: [] });
    expect(await rto.rules(id)).toEqual({ rules: [] });
  });
});

describe('thresholds and rules share a row, each replaced without the other', () => {
  it('rules set first leave the thresholds at their defaults; thresholds set after keep the rules', async () => {
    const id = await account();
    const rules = [rule('A')];
    ctx.clock.set('2026-11-22T09:00:00.000Z');
    await rto.setRules(asAccount(id), { rules });
    expect(await rto.thresholds(id)).toEqual(DEFAULTS);
    ctx.clock.set('2026-11-22T09:30:00.000Z');
    await rto.setThresholds(asAccount(id), { medium: 40, high: 80, high_value_cod: 5000 });
    expect(await rto.rules(id)).toEqual({ rules });
    await rto.setRules(asAccount(id), { rules: [] });
    expect(await rto.thresholds(id)).toEqual({ medium: 40, high: 80, high_value_cod: 5000, default: false });
    expect(await settingsRow(id)).toEqual({
      thresholds: { medium: 40, high: 80, high_value_paise: 500000 },
      ndr_rules: [],
      updated_at: '2026-11-22T09:30:00.000',
    });
  });
});
