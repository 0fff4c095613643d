import { startServerProcess as startBuiltServer, type RunningServer } from '../../scripts/server-process.ts';
import { prefittedDataDir, withoutRunTemplate } from '../run-fixtures.ts';

export { freePort, type RunningServer } from '../../scripts/server-process.ts';

export interface StartOptions {
  /**
   * A first start: a new, empty data folder, in which the server fits the models. Otherwise a new
   * data folder holds the models the test run fitted once (tests/run-fixtures.ts), and the
   * server loads them as on a restart. Either way the server makes its database.
   */
  firstStart?: boolean;
}

/**
 * The tests' server: started as `npm start` runs it (scripts/server-process.ts), in `env.DATA_DIR`
 * or a new data folder, which holds the run's fitted models unless a first start is asked for.
 * The built server copies the empty database the build made beside it, as outside the tests.
 */
export async function startServerProcess(env: Record<string, string> = {}, options: StartOptions = {}): Promise<RunningServer> {
  const dataDir = env.DATA_DIR ?? (options.firstStart ? undefined : await prefittedDataDir('alchemy-e2e-'));
  return startBuiltServer(dataDir === undefined ? env : { ...env, DATA_DIR: dataDir }, withoutRunTemplate(process.env));
}
