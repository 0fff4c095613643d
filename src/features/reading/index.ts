/** The reader's public entry: the dashboard offers "Continue reading" where this device left off. */
export { ContinueReading } from './components/ContinueReading.tsx';
