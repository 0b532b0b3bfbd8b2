/**
 * The files module's public entry: uploads of attachment (1013) and image (1014) controls, their
 * downloads and thumbnails. Owns the table `files` (bytes on disk under `<data>/files/`). Rights
 * follow the page and the record (files.service.ts); business-data calls the binder registered
 * here when a save references files.
 */
import { registerRecordFileBinder } from '../business-data/index.ts';
import { bindSavedFiles } from './files.service.ts';

registerRecordFileBinder(bindSavedFiles);

export { fileRoutes } from './files.routes.ts';
