import { loadConfig } from '../config.ts';
import { execute, exitWithMessage, UsageError } from './admin-command.ts';

const USAGE = `Usage: npm run keys -- <command>

  list     list the access-token signing keys in the store
  rotate   add a new signing key: every instance signs with it within a minute, and tokens
           signed with the older keys keep working until they expire

The keys live in the store, shared by every instance on it. With JWT_SECRET set, that secret is
the only key and the store's are not used: rotate it by changing JWT_SECRET on every instance.`;

async function main(): Promise<void> {
  const [command] = process.argv.slice(2);
  if (command !== 'list' && command !== 'rotate') throw new UsageError(USAGE);
  const config = loadConfig();
  if (config.jwtSecret && command === 'rotate') {
    throw new UsageError('JWT_SECRET is set, so the keys in the store are not used: rotate by changing JWT_SECRET on every instance.');
  }
  console.log(await execute(config, { command: command === 'list' ? 'keys-list' : 'keys-rotate' }));
}

main().catch(exitWithMessage);
