import { describe, expect, it } from 'vitest';
import { compactJson } from './compact-json.js';

// The database's JSON text as JSON.stringify writes it (the listing, readers/shipments).
describe('compactJson', () => {
  it.each([
    // row_to_json's own text, with no jsonb inside: passed through as it is.
    ['{"a":1,"b":"x : y, z"}', '{"a":1,"b":"x : y, z"}'],
    // jsonb's spacing, nested.
    ['{"a":{"k": "v", "n": [1, 2, {"m": null}]}}', '{"a":{"k":"v","n":[1,2,{"m":null}]}}'],
    // Strings keep their spaces, escaped quotes and backslashes, whatever follows them.
    [
      '{"k": "say \\"hi\\": now, ok", "b": "ends in \\\\", "c": "\\\\\\": x"}',
      '{"k":"say \\"hi\\": now, ok","b":"ends in \\\\","c":"\\\\\\": x"}',
    ],
    ['{"k": "tab\\t and\\n", "e": {}}', '{"k":"tab\\t and\\n","e":{}}'],
  ])('%s → %s', (text, compact) => {
    expect(compactJson(text)).toBe(compact);
    expect(compactJson(text)).toBe(JSON.stringify(JSON.parse(text)));
  });

  it('leaves unterminated text as it is rather than scanning it again', () => {
    expect(compactJson('{"a": "open')).toBe('{"a": "open');
  });
});
