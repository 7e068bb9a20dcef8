import { copyFileSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DATA_DIR, loadRatesContext } from '../../data-files.js';
import { DataFileError } from '../data-file-issues.js';

// What start-up does with an operator's edit: main.ts loads this context before anything else, and
// prints a DataFileError's message alone before exiting 1.

const FILES = ['india-pincodes.csv', 'zones.json', 'couriers.json', 'holidays.json'];

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'dakiya-data-'));
  for (const file of FILES) copyFileSync(join(DATA_DIR, file), join(dataDir, file));
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

// biome-ignore lint/suspicious/noExplicitAny: each case edits an arbitrary path of a parsed data file.
type Json = Record<string, any>;
function editJson(file: string, edit: (json: Json) => void): void {
  const path = join(dataDir, file);
  const json = JSON.parse(readFileSync(path, 'utf8')) as Json;
  edit(json);
  writeFileSync(path, JSON.stringify(json, null, 2));
}

function loadError(): DataFileError {
  try {
    loadRatesContext({ dataDir });
  } catch (error) {
    expect(error).toBeInstanceOf(DataFileError);
    return error as DataFileError;
  }
  throw new Error('the data folder loaded');
}

describe('loadRatesContext on a data folder an operator edited', () => {
  it('loads an unchanged copy, with every courier service', () => {
    expect(loadRatesContext({ dataDir }).catalogue.services).toHaveLength(13);
  });

  it('refuses a courier price given as text, naming the courier and the field', () => {
    editJson('couriers.json', (json) => {
      json.couriers[4].prices.reverse.B.first = '36';
    });
    const { message } = loadError();
    expect(message).toContain(`Invalid courier catalogue ${join(dataDir, 'couriers.json')}:`);
    expect(message).toMatch(/couriers\[4\] \(CAR[A-Z0-9]{10}\) field "prices\.reverse\.B\.first": must be number/);
  });

  it('refuses a courier that does not serve a state the directory lacks, naming the courier and the field', () => {
    editJson('couriers.json', (json) => {
      json.couriers[0].unserviceable_states.push('Atlantis');
    });
    expect(loadError().message).toMatch(
      /couriers\[0\] \(CARDELHSURF01\) field "unserviceable_states\.\d+": unknown state "Atlantis"/,
    );
  });

  it('refuses a metro district spelt unlike the directory', () => {
    editJson('zones.json', (json) => {
      json.metro_clusters[0].districts[0].district = 'Central Delhi';
    });
    const { message } = loadError();
    expect(message).toContain('Invalid zone file');
    expect(message).toContain('Central Delhi');
  });

  it('refuses a holiday that is not a date', () => {
    editJson('holidays.json', (json) => {
      json.holidays[0].date = '26-01-2026';
    });
    const { message } = loadError();
    expect(message).toContain('Invalid holiday file');
    expect(message).toContain('holidays.0.date');
  });

  it('refuses a pincode line with a field missing, naming the line', () => {
    const path = join(dataDir, 'india-pincodes.csv');
    writeFileSync(path, `${readFileSync(path, 'utf8').trimEnd()}\n999998,Nowhere\n`);
    expect(loadError().message).toMatch(/india-pincodes\.csv line \d+: expected 5 fields: "999998,Nowhere"/);
  });

  it.each(FILES)('refuses a folder without %s, naming the file', (file) => {
    unlinkSync(join(dataDir, file));
    expect(loadError().message).toContain(`Cannot read ${join(dataDir, file)}`);
  });
});
