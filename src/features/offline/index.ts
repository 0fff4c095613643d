/**
 * The offline book's public entry (docs/offline.md): search asks through `searchBook`, which lets
 * the device answer when the server cannot; the dashboard and the about page show the control
 * that downloads and removes the book. Both are loaded by their importers anyway; the search
 * worker and the pack's code load only on demand.
 */
export { searchBook, type BookAnswer } from './search-book.ts';
export { OfflineBookControl } from './components/OfflineBookControl.tsx';
export { fetchBookText, keptBookText } from './book-text.ts';
