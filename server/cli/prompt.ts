import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { UsageError } from './admin-command.ts';

/** Asks for a secret on the terminal without echoing what is typed. */
export async function promptHidden(question: string): Promise<string> {
  if (!process.stdin.isTTY) throw new UsageError('No terminal to ask for a password: set USER_PASSWORD instead.');
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  try {
    return await new Promise<string>((resolve) => {
      rl.question(question, (answer) => {
        process.stderr.write('\n');
        resolve(answer);
      });
      muted = true;
    });
  } finally {
    rl.close();
  }
}
