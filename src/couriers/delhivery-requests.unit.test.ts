import { describe, expect, it } from 'vitest';
import type { Instruction } from './connector.js';
import {
  readEditAnswer,
  readPickupAnswer,
  readUpl,
  reattemptItem,
  TRACK_PATH,
  uplOf,
  WAF_WAIT_MS,
  wafThrottled,
} from './delhivery-requests.js';
import answers from './fixtures/delhivery/answers.json' with { type: 'json' };
import captures from './fixtures/delhivery/s1-captures.json' with { type: 'json' };

describe('Delhivery edit answers (D5)', () => {
  it.each([
    ['the XML a live cancellation got (source 1, capture 5)', captures.cancelAnswer.body],
    ['the identical XML of a second cancellation (capture 7)', captures.cancelAgainAnswer.body],
    ['another day’s capture', captures.cancelAnswer0829.body],
    ['the same fields as JSON', answers.cancelJson.body],
    ['"True" as a JSON string', { status: 'True', remark: 'Shipment has been cancelled.' }],
  ])('%s is done', (_, answer) => expect(readEditAnswer(answer)).toEqual({ done: true }));

  it.each([
    ['XML', answers.cancelRefusedXml.body, 'Shipment already picked up'],
    ['JSON', { status: false, error: 'Edit not allowed in current status' }, 'Edit not allowed in current status'],
    ['XML with escapes', '<root><status>False</status><remark>A &amp; B &lt;C&gt;</remark></root>', 'A & B <C>'],
    ['JSON without words', { status: false }, 'no reason given'],
  ])('a refusal in %s keeps its words', (_, answer, why) => expect(readEditAnswer(answer)).toEqual({ refused: why }));

  it.each([
    ['an HTML page', '<html><body>Bad gateway</body></html>'],
    ['JSON without status', { remark: 'Shipment has been cancelled.' }],
    ['a list', []],
    ['null', null],
  ])('%s says neither', (_, answer) => expect(readEditAnswer(answer)).toBeUndefined());
});

/** A re-attempt; `courier_code` and `attempt` stand for the facts the dispatch hands over (the last NDR scan's id, its attempt). */
const instruction = ({
  courier_code,
  attempt,
  ...payload
}: Record<string, unknown> & { courier_code?: string; attempt?: number }): Instruction => ({
  action: 'reattempt',
  at: new Date('2026-11-20T09:00:00Z'),
  payload,
  ...(attempt !== undefined && { attempt }),
  ...(courier_code !== undefined && { ndrScanId: `dlv:${courier_code}:2026-11-20T18:42:10` }),
});

describe('Delhivery NDR re-attempts (D6)', () => {
  it('sends RE-ATTEMPT, or DEFER_DLV with the merchant’s date', () => {
    expect(reattemptItem('1490000000001', instruction({}))).toEqual({ waybill: '1490000000001', act: 'RE-ATTEMPT' });
    expect(
      reattemptItem('1490000000001', instruction({ reattempt_date: '2026-11-23', comments: 'after 6 pm' })),
    ).toEqual({
      waybill: '1490000000001',
      act: 'DEFER_DLV',
      action_data: { deferred_date: '2026-11-23' },
    });
  });

  it.each(['EOD-74', 'EOD-15', 'EOD-104', 'EOD-43', 'EOD-86', 'EOD-11', 'EOD-69', 'EOD-6'])(
    'takes a re-attempt after %s on attempt 1 or 2',
    (code) => {
      for (const attempt of [1, 2])
        expect(reattemptItem('A', instruction({ courier_code: code, attempt }))).toEqual({
          waybill: 'A',
          act: 'RE-ATTEMPT',
        });
    },
  );

  it.each([
    [
      { courier_code: 'EOD-3', attempt: 1 },
      "it reattempts only after a failed attempt coded EOD-74, EOD-15, EOD-104, EOD-43, EOD-86, EOD-11, EOD-69 or EOD-6, and this parcel's last was EOD-3",
    ],
    [
      { courier_code: 'dlydc-132' },
      "it reattempts only after a failed attempt coded EOD-74, EOD-15, EOD-104, EOD-43, EOD-86, EOD-11, EOD-69 or EOD-6, and this parcel's last was DLYDC-132",
    ],
    [
      { courier_code: 'EOD-11', attempt: 3 },
      "it reattempts only after a parcel's first or second failed attempt, and this parcel has had 3",
    ],
    [{ attempt: 0 }, "it reattempts only after a parcel's first or second failed attempt, and this parcel has had 0"],
    [
      { courier_code: 'EOD-43', reattempt_date: '2026-11-23' },
      "it delivers on a chosen date only after a failed attempt coded EOD-74, EOD-15, EOD-11, EOD-3, EOD-16, EOD-6 or ST-108, and this parcel's last was EOD-43; ask for a reattempt without a date",
    ],
  ])('refuses up front when %j', (payload, why) =>
    expect(reattemptItem('A', instruction(payload))).toEqual({ refused: why }),
  );

  it('defers after the codes Delhivery defers (EOD-3 too), whatever the attempt', () =>
    expect(
      reattemptItem('A', instruction({ courier_code: 'EOD-3', attempt: 3, reattempt_date: '2026-11-23' })),
    ).toEqual({ waybill: 'A', act: 'DEFER_DLV', action_data: { deferred_date: '2026-11-23' } }));

  it('reads the UPL a queued request gets', () => {
    expect(uplOf(answers.updateAnswer.body)).toBe('UPL17749083484755923441');
    expect(uplOf({ message: 'Request submitted successfully!' })).toBeUndefined();
    expect(uplOf(answers.updateRefused.body)).toBeUndefined();
    // ClickPost passes the same id on as cp_response (source 8).
    expect(answers.clickpostUpl.body.result.cp_response).toMatch(/^UPL\d+$/);
  });

  it.each([
    [
      'the specification’s failure',
      answers.uplFailure.body,
      { refused: 'Rescheduling is not allowed as package should be in canceled status' },
    ],
    ['a waybill applied', answers.uplSuccess.body, 'done'],
    [
      'Failure with no list',
      { status: 'Failure', remark: 'Zero waybills affected' },
      { refused: 'Zero waybills affected' },
    ],
    ['Success with no list', { status: 'Success', request_id: 'UPL1' }, 'done'],
    ['neither list nor a final status', { request_id: 'UPL1' }, 'pending'],
    ['not an object', answers.uplUnknown.body, undefined],
  ])('a UPL answer with %s', (_, answer, outcome) => expect(readUpl(answer)).toEqual(outcome));
});

describe('Delhivery pickup answers (D8)', () => {
  it.each([
    ['a new request', { pickup_id: 7000001, pickup_date: '2026-11-20' }, { id: '7000001' }],
    ['one already open for the location', answers.pickupExists.body, { id: '319322489' }],
    ['the words alone', answers.pickupExistsWordsOnly.body, { id: '184237885' }],
    ['an account on auto pickup', answers.autoPickup.body, { auto: true }],
    ['a date in the past', answers.pickupPastDate.body, { refused: 'Pickup date cannot be in past' }],
    ['nothing to read', null, { refused: 'the pickup request was refused' }],
  ])('%s', (_, answer, outcome) => expect(readPickupAnswer(answer)).toEqual(outcome));
});

describe('Delhivery’s WAF (D7)', () => {
  const html = '<html><head><title>403 Forbidden</title></head></html>';
  it.each([
    [TRACK_PATH, 403, html, WAF_WAIT_MS],
    [TRACK_PATH, 403, '"There has been an error but we were asked to not let you see that."', WAF_WAIT_MS],
    ['/api/cmu/create.json', 403, html, WAF_WAIT_MS],
    ['/api/p/update', 403, '"Unauthorized client/user"', undefined],
    [TRACK_PATH, 401, '{"detail": "Authentication credentials were not provided."}', undefined],
    [TRACK_PATH, 200, '{}', undefined],
  ])('%s answering %i %s waits %s ms', (path, status, body, wait) =>
    expect(wafThrottled({ method: 'GET', path }, status, body)).toBe(wait),
  );
});
