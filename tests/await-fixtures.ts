// The server's and the e2e tests' setup file: each of their files starts once the run's fixtures
// are there (tests/run-fixtures.ts), made by the first file that needed them. Most of them start
// a server, an engine or a store from the fixtures; the rest make new embedded data folders,
// which copy the run's empty database rather than run initdb (8 s each) once it is there. The
// client's files wait only where they start a server (through the helpers).
import { fixturesReady } from './run-fixtures.ts';

await fixturesReady();
