/**
 * Progress of long work on the terminal: a bar that redraws in place on a TTY, and a line at
 * each quarter elsewhere (CI logs, files).
 */
export interface Progress {
  update(done: number): void;
  finish(note?: string): void;
}

/** Where progress is written: on a terminal, a bar redraws in place. */
export type ProgressStream = Pick<NodeJS.WriteStream, 'write' | 'isTTY'>;

export function terminalProgress(label: string, total: number, stream: ProgressStream = process.stderr): Progress {
  const started = performance.now();
  let lastQuarter = -1;
  const width = 30;
  return {
    update(done) {
      const fraction = total === 0 ? 1 : Math.min(done / total, 1);
      if (stream.isTTY) {
        const filled = Math.round(fraction * width);
        stream.write(`\r${label} [${'█'.repeat(filled)}${'░'.repeat(width - filled)}] ${done}/${total}`);
      } else {
        const quarter = Math.floor(fraction * 4);
        if (quarter > lastQuarter) {
          lastQuarter = quarter;
          stream.write(`${label}: ${done}/${total}\n`);
        }
      }
    },
    finish(note) {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const line = `${label}: done in ${seconds} s${note ? ` (${note})` : ''}`;
      stream.write(stream.isTTY ? `\r\x1b[2K${line}\n` : `${line}\n`);
    },
  };
}

/** For tests and quiet runs. */
export const silentProgress = (): Progress => ({ update: () => undefined, finish: () => undefined });
