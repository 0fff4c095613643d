/**
 * Progress of long work on the terminal: a bar that redraws in place on a TTY, and elsewhere (CI
 * logs, files) one line when the work is done, so that a first start writes a few lines, not a
 * screenful.
 */
export interface Progress {
  update(done: number): void;
  finish(note?: string): void;
}

/** Where progress is written: on a terminal, a bar redraws in place. */
export type ProgressStream = Pick<NodeJS.WriteStream, 'write' | 'isTTY'>;

export function terminalProgress(label: string, total: number, stream: ProgressStream = process.stderr): Progress {
  const started = performance.now();
  const width = 30;
  let drawn = -1;
  return {
    update(done) {
      if (!stream.isTTY) return;
      const fraction = total === 0 ? 1 : Math.min(done / total, 1);
      const filled = Math.round(fraction * width);
      // Redrawn only when the bar grows: a thousand sentences are not a thousand writes.
      if (filled === drawn && done !== total) return;
      drawn = filled;
      stream.write(`\r${label} [${'█'.repeat(filled)}${'░'.repeat(width - filled)}] ${done}/${total}`);
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
