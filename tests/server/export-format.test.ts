import { describe, expect, it } from 'vitest';
import { CSV_HEADER, csvField, csvRow, EXPORT_FIELDS, jsonLine, winnerOf, type ExportRow } from '../../server/modules/arena/export-format.ts';

const row: ExportRow = {
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
  reaction_a: '👍',
  reaction_b: '👎',
  counted: true,
  left_out_reason: '',
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
      `96d61fe343ddf5e0d8d68b1d0b08b9af,LSA lsa-96,SIF sif-150,model_a,${'ab'.repeat(16)},Ustaz,1795424400.123,"Patience, ""sabr"",\nand gratitude",ch7-13,ch1-19,👍,👎,true,\r\n`,
    );
  });
});
