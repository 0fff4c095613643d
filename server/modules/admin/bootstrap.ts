import { generatePassword, hashPassword, passwordProblem } from '../auth/index.ts';
import type { Db } from '../../platform/store/db.ts';
import { countUsers, insertUser } from '../auth/index.ts';
import { ConfigError } from '../../platform/config/config.ts';

/**
 * On a first start with no users, creates `demo` with DEMO_PASSWORD, or with a random password
 * that is printed once, to the terminal only (never to the structured log).
 */
export async function ensureDemoUser(db: Db, demoPassword: string | undefined, print = console.log): Promise<boolean> {
  if ((await countUsers(db)) > 0) return false;
  const password = demoPassword ?? generatePassword();
  const problem = passwordProblem(password);
  // Checked where it is used (a first start with no users): a later start ignores it.
  if (problem) throw new ConfigError(`DEMO_PASSWORD: ${problem}`);
  const created = await insertUser(db, 'demo', await hashPassword(password));
  if (created && !demoPassword) {
    print(
      [
        '',
        '  A first user was created:',
        `    username: demo`,
        `    password: ${password}`,
        '  This password is shown once. Change it with: npm run users -- passwd demo',
        '',
      ].join('\n'),
    );
  }
  return created;
}
