import { loadConfig } from '../platform/config/config.ts';
import { commandLine, execute, exitWithMessage, UsageError } from './admin-command.ts';

const USAGE = `Usage: npm run keys -- <command>

  list     list the access-token signing keys in the store
  rotate   add a new signing key: every instance signs with it within a minute, and tokens
           signed with the older keys keep working until they expire

The keys live in the store, shared by every instance on it. With JWT_SECRET set, that secret is
the only key and the store's are not used: rotate it by changing JWT_SECRET on every instance.`;

async function main(): Promise<void> {
  const { command } = commandLine(process.argv.slice(2), USAGE, { list: 0, rotate: 0 });
  const config = loadConfig();
  if (config.jwtSecret && command === 'rotate') {
    throw new UsageError('JWT_SECRET is set, so the keys in the store are not used: rotate by changing JWT_SECRET on every instance.');
  }
  // With JWT_SECRET set, the store's keys sign nothing: said first, so "signing" below is not read as the server's.
  if (config.jwtSecret) console.log('JWT_SECRET is set: the server signs with it, not with the keys in the store below.');
  console.log(await execute(config, { command: command === 'list' ? 'keys-list' : 'keys-rotate' }));
}

main().catch(exitWithMessage);
