/**
 * The business-data module's public entry: the only file other modules import from it.
 * Owns the tables `business_data_history` (who changed a record, field by field) and
 * `business_data_preferences` (a user's saved filters and columns per view); reads and writes the
 * rows of the business tables (`biz_*`) that the pages module creates when it publishes a page.
 *
 * Records of a published page can be saved and queried without a request: a workflow step or a
 * data-transmission worker calls these with `systemContext(app)` (every permission, every row) or
 * `userContext(app, user)` (the rights and data scope of the user it acts for).
 */
export { businessDataRoutes } from './business-data.routes.ts';
export { selectionItemRoutes } from './selection-items.routes.ts';
export { deleteData, savePage, saveView } from './save.service.ts';
// An approver's edits saved inside the approval's transaction (issue 14).
export { saveRecordInTrx, type SaveRecordInput } from './save-record.ts';
export { queryPageData, queryViewData, type QueryViewInput } from './query.service.ts';
export { requirePickerControl, type PickerControlInput } from './runtime-page.ts';
export { mayReadRecordField, registerRecordFileBinder, requireFileControl, type RecordFileBinder, type RecordFileBinding, type RecordFileUse } from './record-files.ts';
// The workflow engine: one record's rights and values, its FlowStatus, automatic assignments.
export { applyWorkflowAssignments, readWorkflowRecord, setRecordFlowStatus, visibleRecordIds, type WorkflowRecord } from './workflow-record.ts';
// The workflow engine tells who holds a pending approval task on a record in approval, and what its node lets them change.
export { registerApproverGrants, type ApproverGrant, type ApproverGrantSource } from './approver-grants.ts';
