import { describe, expect, it } from 'vitest';
import { eventProblem, placeScan } from './scan-checks.js';

const BOOKED = new Date('2026-11-20T06:30:00.500Z');
const FIFTEEN_MINUTES = 15 * 60_000;

describe('placeScan: a scan stamped before its booking', () => {
  it.each([
    // [the courier's time, where it is placed, the time kept as its own]
    ['2026-11-20T06:30:00.500Z', '2026-11-20T06:30:00.500Z', null],
    ['2026-11-20T06:31:00Z', '2026-11-20T06:31:00.000Z', null],
    // Second-truncated in the booking's own second, the commonest case: placed later than one a second earlier.
    ['2026-11-20T06:30:00Z', '2026-11-20T06:30:01.498Z', '2026-11-20T06:30:00.000Z'],
    ['2026-11-20T12:00:00+05:30', '2026-11-20T06:30:01.498Z', '2026-11-20T06:30:00.000Z'],
    ['2026-11-20T06:29:59Z', '2026-11-20T06:30:01.497Z', '2026-11-20T06:29:59.000Z'],
    ['2026-11-20T06:20:00Z', '2026-11-20T06:30:00.833Z', '2026-11-20T06:20:00.000Z'],
    // The tolerance's very edge: placed first, a millisecond after the booking.
    ['2026-11-20T06:15:00.500Z', '2026-11-20T06:30:00.501Z', '2026-11-20T06:15:00.500Z'],
  ])('%s is placed at %s, its own time %s', (stated, placed, own) => {
    const placement = placeScan(stated, BOOKED, FIFTEEN_MINUTES);
    expect(placement).toEqual({ eventTime: new Date(placed), statedTime: own === null ? null : new Date(own) });
  });

  it('keeps the courier’s order among scans it places, each within the second after the booking', () => {
    const times = ['2026-11-20T06:16:00Z', '2026-11-20T06:16:01Z', '2026-11-20T06:29:58Z', '2026-11-20T06:29:59Z'];
    const placed = times.map((time) => {
      const placement = placeScan(time, BOOKED, FIFTEEN_MINUTES);
      if ('problem' in placement) throw new Error(placement.problem);
      return placement.eventTime.getTime();
    });
    expect(new Set(placed).size).toBe(times.length);
    expect([...placed].sort((a, b) => a - b)).toEqual(placed);
    for (const at of placed) expect(at - BOOKED.getTime()).toBeGreaterThan(0);
    for (const at of placed) expect(at - BOOKED.getTime()).toBeLessThan(1000);
  });

  it.each([
    [
      '2026-11-20T06:15:00.499Z',
      15,
      'event_time 2026-11-20T06:15:00.499Z is more than 15 minutes before the shipment was booked (2026-11-20T06:30:00.500Z): check its time zone',
    ],
    // India time sent as UTC: five and a half hours early.
    [
      '2026-11-20T01:00:00Z',
      15,
      'event_time 2026-11-20T01:00:00Z is more than 15 minutes before the shipment was booked (2026-11-20T06:30:00.500Z): check its time zone',
    ],
    [
      '2026-11-20T06:30:00Z',
      0,
      'event_time 2026-11-20T06:30:00Z is more than 0 minutes before the shipment was booked (2026-11-20T06:30:00.500Z): check its time zone',
    ],
  ])('refuses %s with a tolerance of %i minutes, naming both instants', (stated, minutes, problem) => {
    expect(placeScan(stated, BOOKED, minutes * 60_000)).toEqual({ problem });
  });
});

describe('eventProblem: a sub-status Dakiya derives', () => {
  it('refuses box_exception on a courier scan: a multi-piece shipment’s roll-up, no scan’s', () => {
    const event = { awb: 'X1', status: 'others', sub_status: 'box_exception', event_time: '2026-11-20T06:35:00Z' };
    expect(eventProblem(event, BOOKED)).toBe('sub_status for others must be one of lost, damaged, destroyed, on_hold');
  });
});
