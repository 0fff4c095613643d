import { parseArgs } from 'node:util';
import { AdminUnreachableError, streamVoteExport } from '../modules/admin/index.ts';
import { EXPORT_FORMATS, parseExportCursor, parseExportTime, writeVoteExport, type ExportFormat } from '../modules/arena/index.ts';
import { loadConfig } from '../platform/config/config.ts';
import { exitWithMessage, onStore, RefusedError, UsageError } from './admin-command.ts';

const USAGE = `Usage: npm run votes -- export --format jsonl|csv [--after CURSOR] [--since TIME]

  export            write every vote to standard output, counted and left out: one row per
                    round (its A and B votes), a lone vote a row of its own (docs/arena.md);
                    then "cursor: N" to standard error
  --format FORMAT   jsonl (one JSON object a line) or csv (RFC 4180, with a header)
  --after CURSOR    only the rows new or changed since the export that ended with CURSOR,
                    each once
  --since TIME      only rounds whose last vote came at or after TIME: an ISO 8601 time with
                    its zone, such as 2026-11-23T09:00:00Z

While the server runs on the embedded store, the export is read through the server itself.`;

export interface ExportCommand {
  format: ExportFormat;
  since?: Date;
  after?: string;
}

/** The command line as an export to run; anything else is a UsageError (exit 2) that says what, then the usage. */
export function parseVotesCommand(argv: string[]): ExportCommand | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { format: { type: 'string' }, since: { type: 'string' }, after: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  if (values.help || positionals[0] === 'help') return 'help';
  if (positionals.length === 0) throw new UsageError(USAGE);
  if (positionals[0] !== 'export') throw new UsageError(`Unknown command "${positionals[0]}".\n\n${USAGE}`);
  if (positionals.length > 1) throw new UsageError(`"export" takes no arguments; it was given ${positionals.slice(1).map((a) => `"${a}"`).join(' ')}.\n\n${USAGE}`);
  const format = values.format;
  if (format === undefined) throw new UsageError(`export needs --format jsonl or --format csv.\n\n${USAGE}`);
  if (!(EXPORT_FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format must be jsonl or csv (got "${format}").\n\n${USAGE}`);
  let since: Date | undefined;
  if (values.since !== undefined) {
    const parsed = parseExportTime(values.since);
    if (typeof parsed === 'string') throw new UsageError(`--since must be an ISO 8601 time with its zone: ${parsed} (got "${values.since}").\n\n${USAGE}`);
    since = parsed;
  }
  let after: string | undefined;
  if (values.after !== undefined) {
    after = parseExportCursor(values.after) ?? undefined;
    if (after === undefined) throw new UsageError(`--after must be the cursor an export ended with, a whole number (got "${values.after}").\n\n${USAGE}`);
  }
  return { format: format as ExportFormat, ...(since ? { since } : {}), ...(after ? { after } : {}) };
}

async function main(): Promise<void> {
  const command = parseVotesCommand(process.argv.slice(2));
  if (command === 'help') {
    console.log(USAGE);
    return;
  }
  const config = loadConfig();
  // A reader of the export that stops early (| head) ends it, quietly.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
  });
  await onStore(config, {
    mayCreate: false,
    local: async (db) => {
      const { cursor } = await writeVoteExport(db, { ...command, dailyRoundBound: config.dailyRoundBound }, process.stdout);
      process.stderr.write(`cursor: ${cursor}\n`);
    },
    viaServer: async (socketPath, pid, shownPath) => {
      try {
        const { cursor } = await streamVoteExport(socketPath, command, process.stdout);
        process.stderr.write(`cursor: ${cursor}\n`);
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        if (error instanceof AdminUnreachableError) {
          throw new RefusedError(
            `The server (process ${pid}) has the database in ${config.dataDir} open and did not answer on ${shownPath} (${why}): stop the server, or try again once it is ready.`,
          );
        }
        throw new RefusedError(`The server (process ${pid}) could not export the votes: ${why}`);
      }
    },
  });
}

main().catch(exitWithMessage);
