import { loadConfig } from '../platform/config/config.ts';
import { terminalProgress } from '../platform/util/progress.ts';
import { neuralSpecs } from '../modules/search/index.ts';
import { pullModels } from '../modules/search/index.ts';

/** npm run models:pull — on a machine that can reach the hub (HF_ENDPOINT to use a mirror). */
async function main(): Promise<void> {
  const config = loadConfig();
  console.log(`Fetching ${config.bgeModel} and ${config.uaeModel} (${config.modelDtype}) into ${config.modelsDir}`);
  const files = await pullModels(neuralSpecs(config), {
    endpoint: config.hfEndpoint,
    modelsDir: config.modelsDir,
    dtype: config.modelDtype,
    progress: terminalProgress,
  });
  console.log(`Done: ${files.length} files, weights verified. npm start will now use the neural lineup.`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
