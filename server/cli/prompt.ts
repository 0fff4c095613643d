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
    return await new Promise<string>((resolve, reject) => {
      let answered = false;
      rl.question(question, (answer) => {
        answered = true;
        process.stderr.write('\n');
        resolve(answer);
      });
      muted = true;
      // Ctrl-C or Ctrl-D (the input closed) before an answer: nothing is changed, and the exit
      // code says so (it ended 0 with no word, and `… && echo done` said done).
      const cancel = () => {
        if (answered) return;
        answered = true;
        process.stderr.write('\n');
        reject(new UsageError('No password was given: nothing was changed.'));
      };
      rl.once('SIGINT', cancel);
      rl.once('close', cancel);
    });
  } finally {
    rl.close();
  }
}
