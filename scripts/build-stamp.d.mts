/** Types of build-stamp.mjs (plain JavaScript, so that npm start's check needs no TypeScript loader). */
export function buildInputsHash(base?: string): string;
export function isBuildCurrent(base?: string): boolean;
