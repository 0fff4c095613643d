/**
 * Saved passages' public entry (docs/client.md): the "Save" button any page puts beside a
 * passage (search results; the reader, beside "Copy with citation"). The Saved page is loaded by
 * the app's route.
 */
export { SaveButton } from './components/SaveButton.tsx';
export { savePassage } from './saved-store.ts';
