export { REACTIONS, type Reaction } from '../../../contract/vocabulary.ts';
