/**
 * The save pipeline's entry for the module's services (save-page, save-view, Excel import).
 */
export { answerOf } from './answer.ts';
export { deletionHistory } from './history.ts';
export type { EntryInput, Rec, SaveSession } from './model.ts';
export { entriesOf } from './parse.ts';
export { savePageInTrx, saveSession, type SaveResult } from './pipeline.ts';
