// The server's and the e2e tests' setup file: each of their files starts once the run's fixtures
// are there (tests/run-fixtures.ts), made by the first file that needed them. Most of them start
// a server, an engine or a store from the fixtures; others make new embedded data folders, which
// copy the run's empty database rather than run initdb (8 s each) once it is there. A file that
// does none of that says so (NO_FIXTURES, a line of its own) and starts at once; were it wrong,
// the helpers it calls would still wait, and a new data folder would run initdb: slower, not
// wrong. The client's files wait only where they start a server (through the helpers).
import { readFile } from 'node:fs/promises';
import { expect } from 'vitest';
import { fixturesReady } from './run-fixtures.ts';

const NO_FIXTURES = "// Starts no server, store or engine: it does not wait for the run's fixtures.";

const file = expect.getState().testPath;
const source = file ? await readFile(file, 'utf8').catch(() => '') : '';
if (!source.split('\n').includes(NO_FIXTURES)) await fixturesReady();
