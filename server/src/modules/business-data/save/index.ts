/**
 * The save pipeline's entry for the module's services (save-page, save-view, Excel import).
 */
export { answerOf } from './answer.ts';
export { primeLookupChoices, primeQueryChoices } from './choices.ts';
export { authorOf, deletionHistory } from './history.ts';
export { UUID, type EntryInput, type Rec, type SaveSession } from './model.ts';
export { inApprovalError, isInApproval } from './load.ts';
export { entriesOf, masterOf } from './parse.ts';
export { savePageInTrx, saveSession, sessionOf, type SaveResult } from './pipeline.ts';
export { importRun, numberNewPage, planNewPage, PlannedPages, prepareNewPage, refreshStatistics, writeNewPages, type ImportRun, type PreparedPage } from './import.ts';
