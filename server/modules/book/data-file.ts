import { readFile } from 'node:fs/promises';

/**
 * The JSON in `file`, or undefined where there is no such file: the data shipped beside the book
 * (glosses, questions asked, earlier passage sets) is each optional. Any other failure is thrown.
 */
export async function readJsonIfThere(file: string): Promise<unknown> {
  let json: string;
  try {
    json = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return JSON.parse(json) as unknown;
}
