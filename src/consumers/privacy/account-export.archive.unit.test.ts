import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { LineFile, TarGzWriter, tarHeader } from './account-export.archive.js';
import { rupees, SHEETS, sheetHeader, sheetLine } from './account-export.sheets.js';

// The export's archive as other tools read it: the system's tar lists and extracts what the
// writer wrote, byte for byte; a size past the octal field's 8 GiB is written in GNU's base-256.

const work = mkdtempSync(path.join(tmpdir(), 'dakiya-archive-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the tar.gz writer', () => {
  it('writes entries that tar lists and extracts exactly', async () => {
    const big = path.join(work, 'big.jsonl');
    const lines = new LineFile(big);
    for (let i = 0; i < 5000; i += 1) await lines.write(`{"n":${i},"text":"कुर्ता ${'x'.repeat(i % 700)}"}\n`);
    await lines.close();
    const archive = path.join(work, 'out.tar.gz');
    const tar = new TarGzWriter(archive, new Date('2026-11-20T06:30:00.000Z'));
    await tar.addFile('tables/big.jsonl', big);
    await tar.addBytes('empty.txt', Buffer.alloc(0));
    await tar.addBytes('manifest.json', Buffer.from('{"format_version":1}\n'));
    const bytes = await tar.close();
    expect(bytes).toBe(readFileSync(archive).length);

    expect(execFileSync('tar', ['-tzf', archive], { encoding: 'utf8' }).split('\n').filter(Boolean)).toEqual([
      'tables/big.jsonl',
      'empty.txt',
      'manifest.json',
    ]);
    const out = path.join(work, 'x');
    execFileSync('mkdir', ['-p', out]);
    execFileSync('tar', ['-xzf', archive, '-C', out]);
    expect(readFileSync(path.join(out, 'tables/big.jsonl')).equals(readFileSync(big))).toBe(true);
    expect(readFileSync(path.join(out, 'manifest.json'), 'utf8')).toBe('{"format_version":1}\n');
    expect(readFileSync(path.join(out, 'empty.txt')).length).toBe(0);
    // Whole blocks, and the two empty blocks that end an archive.
    const raw = gunzipSync(readFileSync(archive));
    expect(raw.length % 512).toBe(0);
    expect(raw.subarray(raw.length - 1024).every((b) => b === 0)).toBe(true);
  });

  it('writes a size past 8 GiB in base-256, with a checksum tar accepts', () => {
    const size = 9 * 1024 ** 3 + 7;
    const header = tarHeader('tables/events.jsonl', size, new Date('2026-11-20T06:30:00.000Z'));
    const field = header.subarray(124, 136);
    expect(field[0]).toBe(0x80);
    let read = 0n;
    for (const byte of field.subarray(1)) read = (read << 8n) | BigInt(byte);
    expect(Number(read)).toBe(size);
    const stated = Number.parseInt(header.subarray(148, 154).toString('ascii'), 8);
    const summed = [...header].reduce((sum, byte, i) => sum + (i >= 148 && i < 156 ? 0x20 : byte), 0);
    expect(stated).toBe(summed);
  });

  it('refuses a name longer than the header holds', () => {
    expect(() => tarHeader(`tables/${'t'.repeat(100)}.jsonl`, 1, new Date())).toThrow(/too long/);
  });

  it('refuses a file that shrinks while it is copied in, rather than write an entry shorter than its header says', async () => {
    const source = path.join(work, 'shrinking.jsonl');
    writeFileSync(source, 'x'.repeat(1024 * 1024));
    const tar = new TarGzWriter(path.join(work, 'shrinking.tar.gz'), new Date('2026-11-20T06:30:00.000Z'));
    let chunks = 0;
    // Another writer empties the file once its first 64 KiB chunk is in.
    const truncate = async () => {
      chunks += 1;
      if (chunks === 1) truncateSync(source, 0);
    };
    await expect(tar.addFile('tables/shrinking.jsonl', source, truncate)).rejects.toThrow(
      `${source} changed while it was archived`,
    );
    await tar.abort();
  });

  it("refuses a write once the archive's file has failed, with the file's error", async () => {
    const tar = new TarGzWriter(path.join(work, 'missing', 'out.tar.gz'), new Date('2026-11-20T06:30:00.000Z'));
    // The open fails on libuv's thread pool some time after the constructor (10 ms was not enough on
    // a loaded machine: CI of 46599e8, 2026-11-28); writes before it are taken into gzip's buffer,
    // and every one after it is refused with the file's error.
    const written = () =>
      tar.addBytes('manifest.json', Buffer.from('{}')).then(
        () => 'taken',
        (error: unknown) => String(error),
      );
    await expect.poll(written).toMatch(/ENOENT/);
    await expect(tar.addBytes('second.json', Buffer.from('{}'))).rejects.toThrow(/ENOENT/);
    await expect(tar.close()).rejects.toThrow(/ENOENT/);
    await tar.abort();
  });

  it('fails a write to a folder that is not there, without ending the process', async () => {
    const lines = new LineFile(path.join(work, 'missing', 'x.jsonl'));
    await expect(
      (async () => {
        await new Promise((resolve) => setTimeout(resolve, 10));
        await lines.write('x\n');
        await lines.close();
      })(),
    ).rejects.toThrow(/ENOENT/);
    lines.destroy();
  });
});

describe('the spreadsheets', () => {
  it('write money in rupees exactly, lists and objects readably, and guard formulas', () => {
    expect([rupees(129900), rupees('-5'), rupees(0), rupees('900719925474099312')]).toEqual([
      '1299.00',
      '-0.05',
      '0.00',
      '9007199254740993.12',
    ]);
    const sheet = SHEETS.cod_remittances!;
    expect(sheetHeader(sheet)).toBe(
      'id,awb,carrier_id,amount_rupees,utr,remittance_date,shipment_id,import_id,created_at\r\n',
    );
    const json = new Map<string, string | null>([
      ['id', '"r1"'],
      ['awb', '"=HYPERLINK(\\"x\\")"'],
      ['carrier_id', '"@SUM(1)"'],
      ['amount_paise', '129950'],
      ['utr', '"+91, \\"UTR\\"\\nline"'],
      ['remittance_date', '"2026-11-20"'],
      ['shipment_id', 'null'],
      ['import_id', null],
      ['created_at', '"2026-11-20T06:30:00.000Z"'],
    ]);
    expect(sheetLine(sheet, json, [])).toBe(
      `r1,"'=HYPERLINK(""x"")",'@SUM(1),1299.50,"'+91, ""UTR""\nline",2026-11-20,,,2026-11-20T06:30:00.000Z\r\n`,
    );
    const shipments = SHEETS.shipments!;
    const line = sheetLine(
      shipments,
      new Map([
        ['skus', '["-KURTA","SAREE"]'],
        ['test_mode', 'false'],
      ]),
      ['"ORD-1"'],
    );
    expect(line.split(',').at(-1)).toBe('ORD-1\r\n');
    expect(line).toContain(",'-KURTA; SAREE,");
    expect(line).toContain(',false,');
  });
});
