// Runs in a worker thread: creating a PGlite data folder (initdb) takes ~500 MB that the main
// process would otherwise keep for its whole life; the worker's memory goes when it ends.
// Plain JavaScript, so that it needs no TypeScript loader in the worker.
import { PGlite } from '@electric-sql/pglite';
import { parentPort, workerData } from 'node:worker_threads';

const { dataDir, settings } = workerData;
const db = await PGlite.create(dataDir, { postgresqlconf: settings });
await db.close();
parentPort?.postMessage('created');
